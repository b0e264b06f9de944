"""One writer per run folder: a second run or resume on a folder being written stops with
exit code 2 naming the writer; readers say the folder is still being written; the lock of
a killed run is taken over, and the resumed log equals a clean run's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.tournament.lock import LOCK_NAME, RunLock, writer_of

SLOW = """\
import time
from simcli.strategy import Strategy


class Slow(Strategy):
    def choose(self, view, legal_moves):
        time.sleep(0.02)
        return self.rng.choice(legal_moves)
"""


def config(tmp_path: Path) -> Path:
    (tmp_path / "slowbot.py").write_text(SLOW)
    path = tmp_path / "c.yaml"
    path.write_text(
        "game: libraria\nseed: 4\ngames: 40\n"
        "strategies: [{name: slow, use: 'slowbot.py:Slow'}, random]\n"
    )
    return path


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_the_lock_is_exclusive_and_released(tmp_path):
    folder = tmp_path / "run"
    with RunLock(folder):
        assert writer_of(folder) is not None
        with pytest.raises(Exception, match="another simcli run is writing this folder"):
            with RunLock(folder):
                pass
        (folder / "games.jsonl").write_text("")
    assert writer_of(folder) is None
    with RunLock(folder):  # taken again once released
        pass
    empty = tmp_path / "never-used"
    with RunLock(empty):
        pass
    assert not empty.exists()  # a run that wrote nothing leaves no folder


@pytest.mark.slow
def test_two_writers_one_folder(tmp_path):
    path = config(tmp_path)
    out = tmp_path / "live"
    first = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "simcli",
            "run",
            str(path),
            "--out",
            str(out),
            "--workers",
            "1",
            "-q",
            "--no-plots",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        log = out / "games.jsonl"
        while (not log.exists() or log.stat().st_size == 0) and time.monotonic() < deadline:
            time.sleep(0.05)
        for extra in (["--resume"], ["--force"]):
            second = invoke("run", str(path), "--out", str(out), "-q", "--no-plots", *extra)
            assert second.exit_code == 2
            assert f"pid {first.pid} on" in second.output
            assert "another simcli run is writing this folder" in second.output
        reader = invoke("replay", str(out))
        assert reader.exit_code == 0, reader.output
        assert "is still being written by a run" in reader.stderr
    finally:
        first.send_signal(signal.SIGKILL)  # what the out-of-memory killer does
        first.wait(timeout=30)
    # the kernel released the dead run's lock (its workers die with it): resume takes over
    deadline = time.monotonic() + 10
    while writer_of(out) is not None and time.monotonic() < deadline:
        time.sleep(0.1)
    resumed = invoke("run", str(path), "--out", str(out), "--resume", "-q", "--no-plots")
    assert resumed.exit_code == 0, resumed.output
    clean = tmp_path / "clean"
    assert invoke("run", str(path), "--out", str(clean), "-q", "--no-plots").exit_code == 0
    assert (out / "games.jsonl").read_bytes() == (clean / "games.jsonl").read_bytes()
    holder = json.loads((out / LOCK_NAME).read_text() or "{}")
    assert holder == {}  # emptied by the run that finished
    assert os.getpid() != first.pid
