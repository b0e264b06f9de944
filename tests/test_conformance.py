"""Invariants every registered game must satisfy, checked by seeded random play.

For each game and player count: clones are equal and independent; legal moves are
non-empty until the end and empty after; every offered move is accepted; a JSON round
trip of the record is lossless; replaying setup + moves reproduces the final hash;
views never raise; scores have one entry per seat; winners are seats.
"""

from __future__ import annotations

import json
import random

import pytest

from simcli.game import CHANCE, TERMINAL
from simcli.games import GAMES, get_game
from simcli.records import dumps, replay
from simcli.tournament.play import play_game
from strategies.random_play import RandomStrategy

CASES = [
    (game_id, players) for game_id in sorted(GAMES) for players in get_game(game_id).player_counts
]
GAMES_PER_CASE = 4


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_play_invariants(game_id: str, players: int) -> None:
    game = get_game(game_id)
    options = game.resolve_options({})
    for n in range(GAMES_PER_CASE):
        rng = random.Random(1000 + n)  # game RNG, logged by the seed in the failure message
        pick = random.Random(2000 + n)
        setup = game.sample_setup(players, options, rng)
        json.dumps(setup)  # a JSON value
        state = game.new_state(players, options, setup)
        steps = 0
        while not state.is_terminal():
            steps += 1
            assert steps < 100_000, f"{game_id}: no end after 100000 steps (seed {1000 + n})"
            seat = state.current_player
            copy = state.clone()
            assert copy == state and copy is not state
            if seat == CHANCE:
                move = state.sample_chance(rng)
            else:
                assert 0 <= seat < players
                for viewer in range(players):
                    state.view(viewer)
                moves = state.legal_moves()
                assert moves, f"{game_id}: seat {seat} has no legal move (seed {1000 + n})"
                assert not any(isinstance(m, dict) for m in moves)
                move = pick.choice(moves)
            json.dumps(move)
            before = state.snapshot()
            copy.apply(move)  # applying to the clone leaves the original untouched
            assert state.snapshot() == before
            state.apply(move)
            assert state == copy
        assert state.current_player == TERMINAL
        assert state.legal_moves() == []
        outcome = state.outcome()
        assert len(outcome.scores) == players
        assert all(0 <= w < players for w in outcome.winners)
        assert outcome.termination in ("normal", "move_limit")


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_record_round_trip_and_replay(game_id: str, players: int) -> None:
    game = get_game(game_id)
    options = game.resolve_options({})
    factories = {"random": RandomStrategy}
    for index in range(GAMES_PER_CASE):
        record = play_game(game, options, index, 7 + index, ["random"] * players, factories)
        assert record["termination"] in ("normal", "move_limit"), record.get("detail")
        line = dumps(record)
        assert "\n" not in line
        again = json.loads(line)
        assert again == record
        assert dumps(again) == line
        assert replay(again) == []
        # same seed, same game
        assert (
            dumps(play_game(game, options, index, 7 + index, ["random"] * players, factories))
            == line
        )
