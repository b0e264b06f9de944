"""Issue 36, class 4: a strategy that fails before its first move gives a record that
replays, the same in-process and isolated.

Before the fix, a forfeit in ``start_game`` (or the constructor, or a strategy process
that could not start) was recorded at once, with no moves: ``replay --verify`` reported
"forfeit by seat 1, but it was not that seat's turn", and under ``isolation: process``
(where the client reports the failure at the seat's first request) the record differed:
``moves [19]`` instead of ``[]``. Now the seat forfeits at its first turn everywhere.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import simcli
from simcli.cli.main import cli
from simcli.games import get_game
from simcli.strategy import load_strategy_class
from simcli.verify import replay
from simcli_strategies.random_play import RandomStrategy

DATA = Path(__file__).resolve().parent / "data"
BOTS = DATA / "hardening_bots.py"
BOT = DATA / "hardening_bot.py"


def run(tmp_path: Path, text: str, *args: str, name: str = "c") -> Path:
    config = tmp_path / f"{name}.yaml"
    config.write_text(text)
    out = tmp_path / f"{name}-out"
    result = CliRunner().invoke(
        cli, ["run", str(config), "--out", str(out), "-q", "--no-plots", "--force", *args]
    )
    assert result.exit_code == 0, result.output
    return out


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


def config(strategy: str, extra: str = "") -> str:
    return f"game: libraria\nseed: 4\ngames: 4\nstrategies:\n  - random\n  - {strategy}\n{extra}"


def check(played: list[dict], kind: str, message: str) -> None:
    """Every game is the failing seat's forfeit at its first turn, and replays."""
    assert played
    for record in played:
        assert record["termination"] == "forfeit"
        assert record["detail"]["kind"] == kind
        assert record["detail"]["message"] == message
        seat = record["detail"]["seat"]
        assert len(record["moves"]) == (0 if seat == 0 else 1)  # seat 0 moves first
        assert replay(record) == []


@pytest.mark.parametrize(
    ("cls", "kind", "message"),
    [
        ("FailInStart", "exception", "ValueError: no start"),  # the example
        ("ExitInStart", "exception", "SystemExit: 2"),
        ("FailsInGame", "exception", "RuntimeError: cannot build for a game"),
    ],
)
def test_a_strategy_failing_before_its_first_move_gives_a_record_that_replays(
    tmp_path, cls, kind, message
):
    out = run(tmp_path, config(f"{{name: s, use: '{BOTS}:{cls}'}}"), "--workers", "0")
    check(records(out), kind, message)
    result = CliRunner().invoke(cli, ["replay", str(out), "--verify"])
    assert result.exit_code == 0 and "all match" in result.output


def test_a_start_that_overruns_the_time_limit_forfeits_at_the_first_turn(tmp_path):
    text = config(f"{{name: s, use: '{BOTS}:SlowStart'}}", "move_time_limit: 0.5\n")
    out = run(tmp_path, text.replace("games: 4", "games: 2"), "--workers", "0")
    check(records(out), "timeout", "move time limit exceeded")


def test_the_seats_before_and_after_a_failing_one_are_started_and_told_the_end():
    """Four seats: the failing seat forfeits when it is to move, after seat 0's first
    move (and the seats after it were started), and the record replays."""
    game = get_game("library")
    options = game.resolve_options({})
    fail = load_strategy_class(f"{BOTS}:FailInStart")
    seats = [RandomStrategy, fail, RandomStrategy, RandomStrategy]
    record = simcli.play(game, seats, options=options, seed=9)
    assert record["termination"] == "forfeit" and record["detail"]["seat"] == 1
    assert record["winners"] == [0, 2, 3]
    assert replay(record) == []


@pytest.mark.slow
@pytest.mark.parametrize("cls", ["FailInStart", "ExitInStart", "FailsInGame"])
def test_isolated_records_are_the_in_process_ones(tmp_path, cls):
    text = config(f"{{name: s, use: '{BOTS}:{cls}'}}")
    inproc = run(tmp_path, text, "--workers", "0", name="a")
    isolated = run(tmp_path, text, "--workers", "0", "--isolation", "process", name="b")
    assert (isolated / "games.jsonl").read_bytes() == (inproc / "games.jsonl").read_bytes()


@pytest.mark.slow
def test_a_bot_that_cannot_start_during_the_run_forfeits_at_its_first_turn(tmp_path):
    """The bot passes the check before the run, then every start fails its handshake."""
    counter = tmp_path / "starts"
    text = config(f"{{name: bot, use: 'cmd:{sys.executable} {BOT} exit_second_start {counter}'}}")
    out = run(tmp_path, text, "--workers", "0")
    played = records(out)
    assert len(played) == 4
    for record in played:
        assert record["detail"]["kind"] == "crashed"
        assert "during the handshake" in record["detail"]["message"]
        assert replay(record) == []
