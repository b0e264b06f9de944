"""Chaos for ``simcli run``: kill the parent (SIGKILL, as the out-of-memory killer does) or
one of its worker processes at random moments of a run, resume after each parent kill,
and finally resume to the end. Everything random comes from one seed, so a trial that
fails can be run again (the moments are points in the log, so the kills land at about
the same games; timing still varies a little).

Used by ``tests/test_chaos.py`` (a few trials) and
``studies/chaos-resume/chaos_resume.py`` (many).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

CONFIG = """\
name: chaos
game: libraria
strategies: [random, greedy]
format: round_robin
games: GAMES
seed: 17
"""


@dataclass
class Trial:
    """What one trial did: the kills (``parent``/``worker`` with the lines written at
    that moment), the runs started, and whether the final log is the clean one."""

    seed: int
    kills: list[tuple[str, int]] = field(default_factory=list)
    runs: int = 0
    cut_lines: int = 0  # kills that left a last line without its newline
    equal: bool = False
    status: str = ""
    left: list[int] = field(default_factory=list)  # processes of the run still alive


def write_config(folder: Path, games: int) -> Path:
    path = folder / "chaos.yaml"
    path.write_text(CONFIG.replace("GAMES", str(games)))
    return path


def run_args(config: Path, out: Path, resume: bool, workers: int) -> list[str]:
    return [
        sys.executable, "-m", "simcli.cli.main", "run", str(config), "--out", str(out),
        "-q", "--no-plots", "--workers", str(workers), *(["--resume"] if resume else []),
    ]  # fmt: skip


def clean_log(config: Path, out: Path, workers: int = 2) -> tuple[bytes, float]:
    """The log of a clean run of ``config`` and the seconds the run took."""
    started = time.monotonic()
    done = subprocess.run(run_args(config, out, False, workers), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return (out / "games.jsonl").read_bytes(), time.monotonic() - started


def pause_for(clean_seconds: float) -> float:
    """The longest wait at a run's current point: up to a second, but at most a fifth of
    a clean run's time, so that on a fast machine the run is still going when it ends."""
    return min(1.0, clean_seconds / 5)


def _lines(out: Path) -> int:
    try:
        return (out / "games.jsonl").read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found += [int(x) for x in handle.read().split()]
    except OSError:  # gone meanwhile
        pass
    return found


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        kids = _children(todo.pop())
        out += kids
        todo += kids
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _wait_for(out: Path, lines: int, proc: subprocess.Popen, timeout: float) -> bool:
    """Wait until the log holds ``lines`` lines; False if the run ended first."""
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        if _lines(out) >= lines:
            return True
        time.sleep(0.002)
    return proc.poll() is None


def _complete(out: Path) -> bool:
    """True when the run in ``out`` has finished (its run.json says ``complete``)."""
    try:
        return json.loads((out / "run.json").read_text()).get("status") == "complete"
    except (OSError, ValueError):
        return False


def chaos_trial(
    config: Path,
    out: Path,
    expected: bytes,
    games: int,
    seed: int,
    kills: int,
    workers: int = 2,
    pause: float = 1.0,
) -> Trial:
    """Run ``config`` into ``out`` with ``kills`` kills at random moments (each a parent
    or, at most once per run process, a worker; a worker kill costs that game a retry,
    and a second one could cost the game itself), resuming after every parent kill, then
    resume to the end; compare the final log with ``expected`` (a clean run's).

    A moment may come too late (the run ended before it): up to three moments a kill are
    drawn until ``kills`` kills have landed, and none once the run is complete. How many
    land depends on how fast the machine plays the games against ``pause``, the longest
    wait at the run's current point."""
    rng = random.Random(seed)
    trial = Trial(seed)
    seen: set[int] = set()
    proc: subprocess.Popen | None = None
    worker_killed = False
    for _ in range(3 * kills):
        if len(trial.kills) >= kills or _complete(out):
            break
        if proc is None or proc.poll() is not None:
            proc = subprocess.Popen(
                run_args(config, out, (out / "run.json").exists(), workers),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            trial.runs += 1
            worker_killed = False
        # a moment: a point in the log ahead (within the first third of the games still
        # to play) and a random wait after it; at the point where the run is (0 games
        # ahead) the wait of up to ``pause`` lands while it starts, takes the lock,
        # checks the log it resumes or writes its run.json
        now = _lines(out)
        ahead = rng.choice([0, rng.randrange(1, max(2, (games - now) // 3))])
        wait = rng.uniform(0, pause) if ahead == 0 else rng.uniform(0, 0.05)
        target = "worker" if rng.random() < 0.4 and not worker_killed else "parent"
        if not _wait_for(out, now + ahead, proc, timeout=120):
            continue  # the run ended before that point
        time.sleep(wait)
        seen.update(_descendants(proc.pid))
        if target == "worker":
            workers_now = _children(proc.pid)
            if not workers_now or proc.poll() is not None:
                continue
            os.kill(rng.choice(sorted(workers_now)), signal.SIGKILL)
            worker_killed = True
        else:
            proc.kill()
            proc.wait()
            if (out / "games.jsonl").exists():
                trial.cut_lines += not (out / "games.jsonl").read_bytes().endswith(b"\n")
        trial.kills.append((target, _lines(out)))
    if proc is not None and proc.poll() is None:
        proc.wait(timeout=300)
    for _ in range(3):  # resume to the end (a run killed before run.json says nothing)
        if _complete(out):
            break
        done = subprocess.run(
            run_args(config, out, (out / "run.json").exists(), workers),
            capture_output=True,
            text=True,
        )
        trial.runs += 1
        if done.returncode not in (0, 1):
            trial.status = f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
            return trial
    trial.status = json.loads((out / "run.json").read_text()).get("status", "")
    trial.equal = (out / "games.jsonl").read_bytes() == expected
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(p) for p in seen):
        time.sleep(0.05)
    trial.left = [p for p in seen if _alive(p)]
    return trial
