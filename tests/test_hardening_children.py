"""Issue 36, class 5: no process a bot starts outlives its run.

A strategy process's children escaped: one that called ``setpgid(0, 0)`` or ``setsid``,
or a daemon left by a double fork, survived a normal end of the run with parent pid 1,
and a plain child survived when the run's parent was killed with SIGKILL (the
parent-death signal reaches the strategy process, not its children). Each strategy
process now runs under a shepherd, a subreaper that kills the program's whole tree when
it ends, when it is stopped, and when the referee dies.

Every process these tests start carries a marker in its command line; a fixture kills
whatever is left of them, by pid.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

pytestmark = pytest.mark.slow  # strategy processes, children, a killed run

BOT = Path(__file__).resolve().parent / "data" / "hardening_bot.py"


def marked(marker: str) -> list[int]:
    """The processes whose command line holds ``marker`` (zombies have none)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmdline:
            found.append(int(pid))
    return found


def gone(marker: str, seconds: float = 20.0) -> bool:
    """Whether every marked process is gone (waiting up to ``seconds`` for them)."""
    deadline = time.monotonic() + seconds
    while marked(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not marked(marker)


@pytest.fixture
def marker(tmp_path):
    mark = f"hardening-children-{os.getpid()}-{tmp_path.name}"
    yield mark
    for pid in marked(mark):  # what a failing test left behind
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def write(tmp_path: Path, mode: str, mark: str, games: int = 2) -> Path:
    config = tmp_path / "c.yaml"
    config.write_text(
        f"game: libraria\ngames: {games}\nstrategies:\n"
        f"  - {{name: bot, use: 'cmd:{sys.executable} {BOT} {mode} {mark}'}}\n  - random\n"
    )
    return config


@pytest.mark.parametrize("workers", ["0", "2"])
@pytest.mark.parametrize(
    "mode",
    [
        "fork_setpgid",  # the example
        "fork_setsid",  # a session of its own (the docs said only this escaped)
        "double_fork",  # a daemon: its parent exits at once, it is an orphan
    ],
)
def test_no_child_of_a_bot_outlives_a_run_that_ends(tmp_path, marker, mode, workers):
    config = write(tmp_path, mode, marker)
    result = CliRunner().invoke(
        cli,
        ["run", str(config), "--out", str(tmp_path / "o"), "-q", "--no-plots"]
        + ["--workers", workers],
    )
    assert result.exit_code == 0, result.output
    assert gone(marker), f"left running: {marked(marker)}"


def test_no_child_of_a_bot_outlives_validate(tmp_path, marker):
    result = CliRunner().invoke(cli, ["validate", str(write(tmp_path, "fork_setsid", marker))])
    assert result.exit_code == 0, result.output
    assert gone(marker)


@pytest.mark.parametrize("mode", ["fork_plain", "fork_setsid"])
def test_no_child_of_a_bot_outlives_a_run_killed_with_sigkill(tmp_path, marker, mode):
    """The issue's example (a plain child), and a child in a session of its own."""
    config = write(tmp_path, mode, marker, games=400)
    run = subprocess.Popen(
        [sys.executable, "-m", "simcli", "run", str(config), "--out", str(tmp_path / "o")]
        + ["--workers", "2", "-q", "--no-plots"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        # each worker's bot and its child, started once the run is under way
        while len(marked(marker)) < 4 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(marked(marker)) >= 4
    finally:
        run.kill()
        run.wait(timeout=30)
    assert gone(marker), f"left running: {marked(marker)}"


def test_the_shepherd_keeps_the_programs_exit_status(tmp_path):
    """A strategy process that exits with a code, or is killed by a signal, is reported
    as such (the shepherd exits as its program did)."""
    from simcli.protocol.sandbox import child_setup

    for script, expected in (
        ("import sys; sys.exit(9)", 9),
        ("import os, signal; os.kill(os.getpid(), signal.SIGKILL)", -9),
    ):
        proc = subprocess.Popen(
            [sys.executable, "-c", script],
            preexec_fn=child_setup(os.getpid(), None),
            start_new_session=True,
            cwd=tmp_path,
        )
        assert proc.wait(timeout=30) == expected
