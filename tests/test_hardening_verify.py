"""Issue 36, class 8: a run does not certify a game whose referee state was rewritten.

An in-process strategy that reached the real state through ``gc`` and rewrote the board
won 40-0 with clean ``normal`` records and exit 0; only a separate ``replay --verify``
noticed. Now every record of a game in which an in-process strategy that is not built
in played is replayed in the worker as it is made; one that does not replay makes the
game void (an ``error`` record with its setup and ``detail.kind: unverified`` naming the
mismatch; the record as played goes to ``run.log``), the run exits 1 naming the game,
and a gate fails.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.native import runs_compiled
from simcli.tournament import play

BOTS = Path(__file__).resolve().parent / "data" / "hardening_bots.py"
#: whether the referee's loop runs compiled (no Python frame of its own to rewrite)
REFEREE_COMPILED = runs_compiled(play._play_local)


def write(tmp_path: Path, cls: str, games: int = 6, extra: str = "") -> Path:
    config = tmp_path / "c.yaml"
    config.write_text(
        f"game: libraria\nseed: 3\ngames: {games}\nstrategies:\n"
        f"  - {{name: cheat, use: '{BOTS}:{cls}'}}\n  - random\n{extra}"
    )
    return config


def run(config: Path, out: Path, *args: str):
    return CliRunner().invoke(
        cli, ["run", str(config), "--out", str(out), "-q", "--no-plots", *args]
    )


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


def assert_void(record: dict) -> None:
    assert record["termination"] == "error"
    assert record["moves"] == [] and record["setup"] is not None
    assert record["detail"]["kind"] == "unverified"
    message = record["detail"]["message"]
    assert message.startswith(f"void: the game as played does not replay (game {record['index']}")
    assert "in-process strategies not built in: cheat" in message


@pytest.mark.parametrize("workers", ["0", pytest.param("2", marks=pytest.mark.slow)])
@pytest.mark.parametrize("cls", [pytest.param("GcCheat", marks=pytest.mark.slow), "FrameCheat"])
def test_a_game_whose_state_was_rewritten_is_void_and_the_run_fails(tmp_path, cls, workers):
    """The issue's example (the board rewritten through gc), and the tiles rewritten
    through the callers' frames (the pure referee's: the compiled one leaves no frame
    holding its state, and the frame cheat then finds nothing to rewrite)."""
    out = tmp_path / "out"
    result = run(write(tmp_path, cls), out, "--workers", workers)
    if cls == "FrameCheat" and REFEREE_COMPILED:
        assert result.exit_code == 0, result.output
        assert {r["termination"] for r in records(out)} == {"normal"}
        return
    assert result.exit_code == 1, result.output
    played = records(out)
    assert len(played) == 6
    for record in played:
        assert_void(record)
        assert f"game {record['index']}: void: " in result.output
    verified = CliRunner().invoke(cli, ["replay", str(out), "--verify"])
    assert verified.exit_code == 0 and "all match" in verified.output
    info = json.loads((out / "run.json").read_text())
    assert [v["index"] for v in info["results"]["void_games"]] == list(range(6))
    log = (out / "run.log").read_text()
    assert log.count("the record as played: {") == 6
    assert (out / "summary.json").exists()


@pytest.mark.slow  # gc.get_objects() at every move
def test_only_the_games_that_were_rewritten_are_void(tmp_path):
    out = tmp_path / "out"
    result = run(write(tmp_path, "CheatOnce", games=16), out, "--workers", "0")
    assert result.exit_code == 1, result.output
    played = records(out)
    void = [r for r in played if r["termination"] == "error"]
    assert 0 < len(void) < len(played)
    for record in void:
        assert_void(record)
    assert {r["termination"] for r in played if r not in void} <= {"normal"}
    named = [line for line in result.output.splitlines() if ": void: " in line]
    assert [int(line.split()[1].rstrip(":")) for line in named] == [r["index"] for r in void]
    # a resumed run keeps the void records and plays the rest to the same bytes
    log = out / "games.jsonl"
    whole = log.read_bytes()
    log.write_bytes(b"".join(whole.splitlines(keepends=True)[:9]))
    again = run(write(tmp_path, "CheatOnce", games=16), out, "--resume", "--workers", "0")
    assert again.exit_code == 1, again.output
    assert log.read_bytes() == whole


@pytest.mark.slow
def test_a_gate_with_a_rewritten_game_fails(tmp_path):
    config = write(
        tmp_path,
        "GcCheat",
        extra="gate: {candidate: cheat, baseline: random, elo0: 0, elo1: 10, max_games: 40}\n",
    )
    result = CliRunner().invoke(
        cli, ["gate", str(config), "--out", str(tmp_path / "g"), "--workers", "0", "-q"]
    )
    assert result.exit_code == 1, result.output
    assert "game 0: void: the game as played does not replay" in result.output


def test_built_in_and_isolated_strategies_are_not_replayed(tmp_path):
    """Only code that can reach the referee's state and is not simcli's own costs a
    replay per game."""
    from simcli.configfile import load_config
    from simcli.tournament.worker import unchecked_strategies

    path = tmp_path / "scope.yaml"
    path.write_text(
        "game: libraria\ngames: 2\nstrategies:\n  - greedy\n"
        "  - {name: by-path, use: 'simcli_strategies.random_play:RandomStrategy'}\n"
        f"  - {{name: mine, use: '{BOTS}:_Random'}}\n"
        f"  - {{name: boxed, use: '{BOTS}:_Random', isolation: process}}\n"
    )
    assert unchecked_strategies(load_config(path)) == {"mine"}


def test_honest_games_of_a_strategy_not_built_in_keep_their_records(tmp_path):
    out = tmp_path / "out"
    result = run(write(tmp_path, "_Random"), out, "--workers", "0")
    assert result.exit_code == 0, result.output
    assert {r["termination"] for r in records(out)} == {"normal"}
    assert "void" not in result.output
