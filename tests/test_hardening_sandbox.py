"""Issue 36, class 7 (the sandbox): the processes of one isolated strategy share nothing.

SysV shared memory (``shmget``) was open inside the Python client's sandbox: a channel
between the processes of one strategy, e.g. across a seat-swapped pair. So were SysV
semaphores and message queues, POSIX message queues and sockets other than TCP (UDP,
UNIX sockets to the host's services). The client now closes them with seccomp, before
the strategy's code is imported.
"""

from __future__ import annotations

import json
import multiprocessing
import platform
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

BOTS = Path(__file__).resolve().parent / "data" / "hardening_bots.py"

needs_seccomp = pytest.mark.skipif(
    platform.machine() not in ("x86_64", "aarch64"), reason="no seccomp program for this machine"
)


def _probe(queue) -> None:
    import sys

    sys.path.insert(0, str(BOTS.parent))
    from hardening_bots import _open_channels

    from simcli.protocol.sandbox import restrict_channels

    before = _open_channels()
    queue.put((before, restrict_channels(), _open_channels()))


@needs_seccomp
def test_restrict_channels_closes_ipc_and_sockets():
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_probe, args=(queue,))
    child.start()
    before, enforced, after = queue.get(timeout=60)
    child.join(30)
    assert "shmget" in before and "udp" in before  # open without the filter
    assert enforced and after == []


@needs_seccomp
@pytest.mark.slow
def test_an_isolated_strategy_can_open_no_channel(tmp_path):
    """The issue's example (shmget) and the other channels, from inside a run."""
    config = tmp_path / "c.yaml"
    config.write_text(
        f"game: libraria\ngames: 2\nisolation: process\nstrategies:\n"
        f"  - {{name: c, use: '{BOTS}:Channels'}}\n  - random\n"
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["run", str(config), "--out", str(out), "-q", "--no-plots", "--workers", "0"]
    )
    assert result.exit_code == 0, result.output
    played = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert [r["termination"] for r in played] == ["normal", "normal"], [
        r.get("detail") for r in played
    ]
