"""Issue 36, class 6: an absurd worker count no longer forks a storm.

``workers: 100000`` for a 4-game run was accepted and forked thousands of processes (the
machine's load went past 400). A value above a hard ceiling is now refused at config
load (exit 2, nothing written); below it, the local pool is capped at the games to play
and a few per CPU, with a one-line notice.

Do not run the ``run`` tests of this file against code without the fix: they would fork
the storm they check for.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

CONFIG = "game: libraria\ngames: 4\nseed: 8\nstrategies:\n  - random\n  - greedy\n"


def write(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(CONFIG + extra)
    return path


@pytest.mark.parametrize("extra", ["workers: 100000\n", "workers: 1025\n"])
def test_a_worker_count_above_the_ceiling_is_bad_input(tmp_path, extra):
    """The issue's example, checked by validate (which forks no worker)."""
    result = CliRunner().invoke(cli, ["validate", str(write(tmp_path, extra)), "--probe", "0"])
    assert result.exit_code == 2, result.output
    assert "key 'workers': at most 1024 worker processes" in result.output
    assert len(result.output.splitlines()) == 1


def test_run_refuses_it_from_the_command_line_too_and_writes_nothing(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["run", str(write(tmp_path)), "--out", str(out), "--workers", "100000", "-q"]
    )
    assert result.exit_code == 2, result.output
    assert "at most 1024 worker processes; got 100000" in result.output
    assert not out.exists()


@pytest.mark.slow
def test_a_pool_larger_than_the_run_is_capped_with_a_notice(tmp_path):
    config = write(tmp_path)
    logs = []
    for workers in ("0", "12"):
        out = tmp_path / f"w{workers}"
        result = CliRunner().invoke(
            cli,
            ["run", str(config), "--out", str(out), "-q", "--no-plots", "--workers", workers],
        )
        assert result.exit_code == 0, result.output
        logs.append((out / "games.jsonl").read_bytes())
    notice = "workers: 12 is more than this run can use; using 4 (4 game(s) to play)"
    assert result.output.splitlines() == [notice]
    info = json.loads((out / "run.json").read_text())
    assert info["timings"]["workers"] == 4
    assert "4 worker(s)" in (out / "run.log").read_text()
    assert logs[0] == logs[1]  # the same records whatever the pool


def test_pool_size():
    from simcli.tournament.executor import pool_size

    assert pool_size(0, 4, cpus=2) == (0, "")  # in-process
    assert pool_size(2, 4, cpus=2) == (2, "")
    assert pool_size(100_000, 4, cpus=2) == (4, "4 game(s) to play")
    assert pool_size(100, 3000, cpus=2) == (8, "at most 4 per CPU, 2 CPU(s)")
    assert pool_size(8, 3000, cpus=2) == (8, "")
    assert pool_size(5, 0, cpus=2) == (1, "0 game(s) to play")
