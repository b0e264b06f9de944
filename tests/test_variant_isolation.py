"""Variants that play their own game class (``variants: [{game: file.py:Class}]``) with
strategies in their own processes: each process loads its variant's game, so the records
are those of the same strategies in-process."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
MOUSE = ROOT / "examples" / "libraria_mouse.py"
CONTRARY = Path(__file__).resolve().parent / "data" / "libraria_contrary.py"
BOT = Path(__file__).resolve().parent / "data" / "observe_bot.py"


def config(tmp_path: Path, strategy: str, name: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        "game: libraria\nformat: self_play\ngames: 2\nseed: 5\n"
        f"strategies:\n  - {strategy}\n"
        "variants:\n"
        "  - {name: rulebook}\n"
        f"  - {{name: mouse-2, game: '{MOUSE}:MouseMinusTwo'}}\n"
        f"  - {{name: contrary, game: '{CONTRARY}:Contrary'}}\n"
    )
    return path


def run(path: Path, *args: str) -> bytes:
    out = path.with_suffix("")
    result = CliRunner().invoke(
        cli, ["run", str(path), "--out", str(out), "-q", "--no-plots", "--workers", "0", *args]
    )
    assert result.exit_code == 0, result.output
    return (out / "games.jsonl").read_bytes()


@pytest.mark.slow
def test_isolated_strategies_play_variant_games_as_in_process(tmp_path):
    inproc = run(config(tmp_path, "greedy", "a"))
    isolated = run(config(tmp_path, "{use: greedy, isolation: process}", "b"))
    assert isolated == inproc
    records = [json.loads(line) for line in inproc.splitlines()]
    assert [r.get("variant") for r in records] == ["rulebook"] * 2 + ["mouse-2"] * 2 + [
        "contrary"
    ] * 2
    # the contrary variant is played otherwise: a process that loaded the rulebook
    # would have given the rulebook's moves
    assert records[4]["moves"] != records[0]["moves"]


@pytest.mark.slow
def test_a_cmd_bot_is_told_each_variant_s_game(tmp_path):
    log = tmp_path / "bot.jsonl"
    strategy = f"{{name: bot, use: 'cmd:{sys.executable} {BOT} {log} --plain'}}"
    records = [json.loads(line) for line in run(config(tmp_path, strategy, "c")).splitlines()]
    assert all(r["termination"] == "normal" for r in records)
    hellos = [json.loads(line) for line in log.read_text().splitlines()]
    games = {m["game"] for m in hellos if m["type"] == "hello"}
    assert games == {"libraria", f"{MOUSE}:MouseMinusTwo", f"{CONTRARY}:Contrary"}


@pytest.mark.slow
def test_validate_no_longer_refuses_an_isolated_variant_sweep(tmp_path):
    path = config(tmp_path, "{use: random, isolation: process}", "v")
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "cannot load per game" not in result.output
