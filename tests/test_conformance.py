"""Every built-in game passes ``simcli check-game`` (simcli.conformance), and its
records survive a JSON round trip and replay to the same final hash.
"""

from __future__ import annotations

import json
from functools import cache

import pytest
from slow_cases import slow_unless

import simcli
from simcli.conformance import CheckReport, check_game
from simcli.games import GAMES, get_game
from simcli.records import dumps
from simcli.verify import replay

LONG_GAMES = ("ex_libris", "adas_library")
CASES = [
    (game_id, players) for game_id in sorted(GAMES) for players in get_game(game_id).player_counts
]
GAMES_PER_CASE = 4


# The game contract itself is checked by simcli.conformance (``simcli check-game``), the
# same checker users run on their own games; tests/test_check_game.py shows that each of
# its checks catches a game broken in that one way.
@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_builtin_games_pass_check_game(game_id: str) -> None:
    # One playout per player count, seed 1; every check at every ply, except for the
    # larger counts of the long games: every third ply (a test-suite budget; the command
    # checks every ply).
    failures = {}
    for players in get_game(game_id).player_counts:
        report = _report(game_id, players)
        failures.update({n: report.results[n].failure for n in report.failed()})
    assert failures == {}


@cache
def _report(game_id: str, players: int) -> CheckReport:
    game = get_game(game_id)
    every = 3 if game_id in LONG_GAMES and players > min(game.player_counts) else 1
    return check_game(game, players=[players], games=1, seed=1, every=every)


@pytest.mark.parametrize(
    ("game_id", "players"), slow_unless(CASES, lambda game_id, _: game_id not in LONG_GAMES)
)
def test_record_round_trip_and_replay(game_id: str, players: int) -> None:
    for index in range(GAMES_PER_CASE):
        record = simcli.play(game_id, "random", players=players, seed=7 + index, index=index)
        assert record["termination"] in ("normal", "move_limit"), record.get("detail")
        line = dumps(record)
        assert "\n" not in line
        again = json.loads(line)
        assert again == record
        assert dumps(again) == line
        assert replay(again) == []
        # same seed, same game
        again = simcli.play(game_id, "random", players=players, seed=7 + index, index=index)
        assert dumps(again) == line
