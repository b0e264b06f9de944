"""Runs survive bad strategies, dying workers, interrupts and kills; resumed runs equal
uninterrupted ones; the Dask executor gives the same records as the local pool."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

# Worker pools, strategy processes, signals and Dask: seconds each (pytest -m "not slow" skips).
pytestmark = pytest.mark.slow

BAD = '''\
import os
import signal
import time

from simcli.strategy import Strategy


class Sleeper(Strategy):
    def choose(self, view, legal_moves):
        if len(legal_moves) == 30:
            time.sleep(30)
        return legal_moves[0]


class Looper(Strategy):
    def choose(self, view, legal_moves):
        while len(legal_moves) == 29:
            pass
        return legal_moves[0]


class Suicide(Strategy):
    def choose(self, view, legal_moves):
        if self.rng.random() < 0.05:
            os._exit(3)
        return legal_moves[0]


class Exiter(Strategy):
    def choose(self, view, legal_moves):
        if len(legal_moves) <= 32:
            raise SystemExit(0)
        return legal_moves[0]


class Interrupter(Strategy):
    def choose(self, view, legal_moves):
        if len(legal_moves) <= 32:
            raise KeyboardInterrupt
        return legal_moves[0]


class Swallower(Strategy):
    def choose(self, view, legal_moves):
        if len(legal_moves) == 30:
            try:
                time.sleep(2)
            except BaseException:
                pass
        return legal_moves[0]


class Weird:
    def __eq__(self, other):
        raise RuntimeError("no comparing me")

    __hash__ = None


class WeirdMover(Strategy):
    def choose(self, view, legal_moves):
        return Weird()


class Deaf(Strategy):
    """Blocks the alarm signal, then sleeps: only the pool's watchdog can stop it."""

    def choose(self, view, legal_moves):
        if len(legal_moves) == 30:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            time.sleep(60)
        return legal_moves[0]
'''

BASE = """\
name: ft
game: libraria
strategies:
  - {name: random, use: random}
  - {name: other, use: USE}
format: round_robin
games: GAMES
seed: 9
"""


def write(tmp_path: Path, use: str = "greedy", games: int = 8) -> Path:
    (tmp_path / "bad.py").write_text(BAD)
    path = tmp_path / "c.yaml"
    path.write_text(BASE.replace("USE", use).replace("GAMES", str(games)))
    return path


def records(out: Path) -> list[dict]:
    return [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]


def invoke(*args: str):
    if args and args[0] == "run":
        args = (*args, "--no-plots")
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("workers", ["0", "2"])
@pytest.mark.parametrize("cls", ["Sleeper", "Looper"])
def test_slow_strategies_forfeit_on_time(tmp_path, cls, workers) -> None:
    path = write(tmp_path, f"bad.py:{cls}", games=4)
    out = tmp_path / "out"
    result = invoke(
        "run", str(path), "--out", str(out), "-q", "--workers", workers, "--move-time-limit", "0.2"
    )
    assert result.exit_code == 0, result.output
    recs = records(out)
    assert [r["index"] for r in recs] == [0, 1, 2, 3]
    timeouts = [r for r in recs if r["termination"] == "forfeit"]
    assert timeouts, "the slow strategy must have forfeited"
    for r in timeouts:
        assert r["detail"]["kind"] == "timeout"
        assert r["seats"][r["detail"]["seat"]] == "other"
    assert invoke("replay", str(out), "--verify").exit_code == 0


@pytest.mark.parametrize("cls", ["Exiter", "Interrupter"])
def test_base_exceptions_from_strategies_are_forfeits_for_any_worker_count(tmp_path, cls):
    path = write(tmp_path, f"bad.py:{cls}", games=2)
    logs = []
    for workers in ("0", "1"):
        out = tmp_path / f"out{workers}"
        result = invoke("run", str(path), "--out", str(out), "-q", "--workers", workers)
        assert result.exit_code == 0, result.output
        recs = records(out)
        assert all(r["termination"] == "forfeit" for r in recs)
        assert all(r["detail"]["kind"] == "exception" for r in recs)
        logs.append((out / "games.jsonl").read_bytes())
    assert logs[0] == logs[1]


def test_a_swallowed_timeout_still_forfeits(tmp_path) -> None:
    path = write(tmp_path, "bad.py:Swallower", games=2)
    out = tmp_path / "out"
    result = invoke(
        "run", str(path), "--out", str(out), "-q", "--workers", "0", "--move-time-limit", "0.2"
    )
    assert result.exit_code == 0, result.output
    kinds = {r["detail"]["kind"] for r in records(out) if r["termination"] == "forfeit"}
    assert kinds == {"timeout"}


def test_a_move_that_cannot_be_compared_is_illegal(tmp_path) -> None:
    path = write(tmp_path, "bad.py:WeirdMover", games=2)
    out = tmp_path / "out"
    result = invoke("run", str(path), "--out", str(out), "-q", "--workers", "0")
    assert result.exit_code == 0, result.output
    assert {r["detail"]["kind"] for r in records(out)} == {"illegal_move"}


def test_a_worker_that_dies_costs_only_its_game(tmp_path) -> None:
    path = write(tmp_path, "bad.py:Suicide", games=20)
    out = tmp_path / "out"
    result = invoke("run", str(path), "--out", str(out), "-q", "--workers", "2")
    assert result.exit_code == 1  # lost games are errors
    recs = records(out)
    assert [r["index"] for r in recs] == list(range(20))  # every index exactly once
    lost = [r for r in recs if r["termination"] == "error"]
    assert lost and all(r["detail"]["kind"] == "worker_died" for r in lost)
    assert all(r["setup"] is not None for r in lost)
    assert any(r["termination"] != "error" for r in recs)
    assert "affected by failing workers" in result.output
    info = json.loads((out / "run.json").read_text())
    affected = info["results"]["affected_games"]
    assert {a["index"] for a in affected} == {r["index"] for r in lost}
    assert all("retried" in a["what"] or "recorded as error" in a["what"] for a in affected)
    # retried once: each lost game shows up twice (retried, then recorded)
    assert len(affected) == 2 * len(lost)


def test_dying_workers_cost_the_same_games_whatever_the_range_size(tmp_path) -> None:
    # Each worker holds two ranges (the one it plays and the next). With ranges of 5 games a
    # death leaves finished games, the rest of the range and a queued range to account for;
    # with ranges of 1 there is nothing but the game. The games lost (a Suicide game kills
    # every worker that plays it: its RNG is the game's) and every other record must be the
    # same either way.
    from simcli.configfile import load_config
    from simcli.tournament.runner import run_tournament

    path = write(tmp_path, "bad.py:Suicide", games=30)
    logs = {}
    for size in (1, 5):
        out = tmp_path / f"out{size}"
        config = load_config(path, {"workers": 2})
        result = run_tournament(config, out, quiet=True, chunk_size=size)
        assert result.status == "complete"
        logs[size] = (out / "games.jsonl").read_text().splitlines()
        recs = [json.loads(line) for line in logs[size]]
        assert [r["index"] for r in recs] == list(range(30))
        lost = {r["index"] for r in recs if r["termination"] == "error"}
        assert lost  # about 1 game in 4 meets a 5% death at one of its ~18 Suicide moves
        # blamed exactly: each lost game retried once then recorded, no innocent game named
        affected = sorted(i for i, _ in result.affected)
        assert affected == sorted(2 * list(lost))
    assert logs[1] == logs[5]


def test_a_strategy_deaf_to_the_alarm_is_stopped_by_the_pool(tmp_path) -> None:
    path = write(tmp_path, "bad.py:Deaf", games=2)
    out = tmp_path / "out"
    started = time.monotonic()
    result = invoke(
        "run", str(path), "--out", str(out), "-q", "--workers", "2", "--move-time-limit", "0.2"
    )
    assert time.monotonic() - started < 30
    assert result.exit_code == 1
    recs = records(out)
    assert [r["index"] for r in recs] == [0, 1]
    stopped = [r for r in recs if r["termination"] == "error"]
    assert stopped and all(r["detail"]["kind"] == "worker_stopped" for r in stopped)


def _spawn_run(config: Path, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "simcli.cli.main",
            "run",
            str(config),
            "--out",
            str(out),
            "-q",
            "--no-plots",
            "--workers",
            "2",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _wait_for_lines(out: Path, lines: int, proc: subprocess.Popen) -> None:
    log = out / "games.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if log.exists() and log.read_bytes().count(b"\n") >= lines:
            return
        time.sleep(0.005)
    raise AssertionError("the run ended before the kill point")


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory) -> tuple[Path, bytes]:
    tmp = tmp_path_factory.mktemp("clean")
    config = write(tmp, "greedy", games=300)
    out = tmp / "out"
    assert invoke("run", str(config), "--out", str(out), "-q", "--workers", "2").exit_code == 0
    return config, (out / "games.jsonl").read_bytes()


def test_sigkill_then_resume_equals_a_clean_run(tmp_path, clean_run) -> None:
    config, expected = clean_run
    kill_points = sorted(random.Random(2024).sample(range(20, 250), 3))
    out = tmp_path / "out"
    for n, point in enumerate(kill_points):
        proc = _spawn_run(config, out, *(["--resume"] if n else []))
        _wait_for_lines(out, point, proc)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        assert json.loads((out / "run.json").read_text())["status"] == "running"
    result = invoke("run", str(config), "--out", str(out), "-q", "--resume")
    assert result.exit_code == 0, result.output
    assert (out / "games.jsonl").read_bytes() == expected
    assert json.loads((out / "run.json").read_text())["status"] == "complete"


def test_truncated_last_line_is_dropped_and_reported(tmp_path, clean_run) -> None:
    config, expected = clean_run
    out = tmp_path / "out"
    out.mkdir()
    lines = expected.splitlines(keepends=True)
    (out / "games.jsonl").write_bytes(b"".join(lines[:40]) + lines[40][:25])
    info = {"status": "running", "config": json.loads(json.dumps(_config_dict(config)))}
    (out / "run.json").write_text(json.dumps(info))
    result = invoke("run", str(config), "--out", str(out), "-q", "--resume")
    assert result.exit_code == 0, result.output
    assert "keeping games 0..39; dropping line 41 and after" in result.output
    assert (out / "games.jsonl").read_bytes() == expected


def _config_dict(path: Path) -> dict:
    from simcli.configfile import load_config

    return load_config(path).to_dict()


def test_sigint_stops_cleanly_and_resumes(tmp_path, clean_run) -> None:
    config, expected = clean_run
    out = tmp_path / "out"
    proc = _spawn_run(config, out, "--seed", "9")  # the config's own seed, given as a flag
    _wait_for_lines(out, 60, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "--resume" in err and "interrupted after" in err
    assert "--seed 9" in err  # the printed command repeats the flags of the run
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "interrupted"
    partial = (out / "games.jsonl").read_bytes()
    assert partial and expected.startswith(partial)  # every finished game kept, in order
    result = invoke("run", str(config), "--out", str(out), "-q", "--resume")
    assert result.exit_code == 0, result.output
    assert (out / "games.jsonl").read_bytes() == expected


def test_resume_of_a_complete_run_changes_nothing(tmp_path) -> None:
    config = write(tmp_path, "greedy", games=4)
    out = tmp_path / "out"
    assert invoke("run", str(config), "--out", str(out), "-q", "--workers", "0").exit_code == 0
    before = (out / "run.json").read_bytes(), (out / "games.jsonl").read_bytes()
    result = invoke("run", str(config), "--out", str(out), "--resume", "--workers", "0")
    assert result.exit_code == 0, result.output
    assert "already complete" in result.output
    assert ((out / "run.json").read_bytes(), (out / "games.jsonl").read_bytes()) == before


def test_resume_refuses_a_changed_config(tmp_path) -> None:
    config = write(tmp_path, "greedy", games=4)
    out = tmp_path / "out"
    assert invoke("run", str(config), "--out", str(out), "-q", "--workers", "0").exit_code == 0
    result = invoke("run", str(config), "--out", str(out), "-q", "--resume", "--seed", "10")
    assert result.exit_code == 2
    assert "config changed" in result.output and "seed: 9 -> 10" in result.output
    result = invoke("run", str(config), "--out", str(tmp_path / "none"), "--resume")
    assert result.exit_code == 2 and "nothing to resume" in result.output
    result = invoke("run", str(config), "--out", str(out), "--resume", "--force")
    assert result.exit_code == 2


def test_dask_local_cluster_gives_the_local_records(tmp_path, dask_cluster) -> None:
    config = write(tmp_path, "greedy", games=10)
    local = tmp_path / "local"
    assert invoke("run", str(config), "--out", str(local), "-q", "--workers", "2").exit_code == 0
    remote = tmp_path / "dask"
    result = invoke(
        "run",
        str(config),
        "--out",
        str(remote),
        "-q",
        "--executor",
        "dask",
        "--scheduler",
        dask_cluster,
    )
    assert result.exit_code == 0, result.output
    assert (remote / "games.jsonl").read_bytes() == (local / "games.jsonl").read_bytes()
    assert json.loads((remote / "run.json").read_text())["timings"]["executor"] == "dask"
