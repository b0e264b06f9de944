"""Tests of ``ex_libris_endgame`` (strategies/ex_libris_endgame.py): the heuristic's
moves until the end of the game is near, then ``rollout_search`` with full continuations.
It sees hidden cards only through ``game.determinize``, draws only from its own RNG, plays
the same moves for the same seed and takes an immediate win."""

from __future__ import annotations

import random

import pytest
from global_random import play_checking_chance, refuse_global_random
from test_ismcts import picks_for_two_true_states, started

from simcli.game import CHANCE, TERMINAL
from simcli.games import get_game
from simcli_strategies.ex_libris_endgame import ExLibrisEndgame
from simcli_strategies.ex_libris_heuristic import ExLibrisHeuristic
from simcli_strategies.search.common import move_key

OPTIONS = {"mode": "beginner", "final_round_trigger": "auto", "max_rounds": 20}
PARAMS = {"width": 5, "misfit": 0.6, "draw_value": 1.6}


def search(**params) -> ExLibrisEndgame:
    return ExLibrisEndgame(**{"near": 0, "samples": 1, "candidates": 3, **params})


def values(strategy: ExLibrisEndgame) -> list:
    return sorted(((k, round(v, 9)) for k, v in strategy.last_values.items()), key=repr)


def heuristic_game(seed: int, stop):
    """Heuristic self-play from a seeded deal until ``stop(state)`` (chance from the
    driver's RNG); returns the game, the state and the driver's RNG."""
    game = get_game("ex_libris")
    opts = game.resolve_options(OPTIONS)
    rng = random.Random(seed)
    state = game.new_state(2, opts, game.sample_setup(2, opts, rng))
    seats = [started(ExLibrisHeuristic(**PARAMS), game, s) for s in range(2)]
    while not stop(state):
        seat = state.current_player
        assert seat != TERMINAL
        if seat == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        state.apply(seats[seat].choose(state.view(seat), state.legal_moves()))
    return game, state, rng


def final_round_placement(seed: int = 3):
    def stop(state):
        return (
            state.final_round
            and state.current_player >= 0
            and state.tasks[-1].name == "place"
            and len(state.legal_moves()) >= 3
        )

    game, state, _ = heuristic_game(seed, stop)
    return game, state


@pytest.mark.slow
def test_heuristic_moves_until_the_end_is_near():
    game, early, _ = heuristic_game(3, lambda s: s.round == 2 and s.current_player >= 0)
    seat = early.current_player
    player = started(search(), game, seat)
    heuristic = started(ExLibrisHeuristic(**PARAMS), game, seat)
    move = player.choose(early.view(seat), early.legal_moves())
    assert move == heuristic.choose(early.view(seat), early.legal_moves())
    assert not player.searched and not player.last_values
    game, late = final_round_placement()
    seat = late.current_player
    player = started(search(), game, seat)
    player.choose(late.view(seat), late.legal_moves())
    assert player.searched


@pytest.mark.slow
def test_placement_candidates_are_the_heuristic_move_and_other_kinds():
    game, state = final_round_placement()
    seat = state.current_player
    moves = state.legal_moves()
    player = started(search(candidates=4), game, seat)
    player.choose(state.view(seat), moves)
    keys = list(player.last_values)
    heuristic = started(ExLibrisHeuristic(**PARAMS), game, seat)
    base = heuristic.choose(state.view(seat), moves)
    assert len(keys) == min(4, len(moves))
    assert keys[0] == move_key(base)
    kinds = [(k[0].lstrip("s"), k[1]) if k[0].lstrip("s") == "loc" else k[:2] for k in keys]
    assert len(set(kinds)) == len(kinds)  # at most one home shelving, one per location


@pytest.mark.slow
def test_same_seed_same_choice_and_values():
    game, state = final_round_placement()
    seat = state.current_player
    runs = []
    for seed in (5, 5, 6):
        player = started(search(), game, seat, seed=seed)
        runs.append((player.choose(state.view(seat), state.legal_moves()), values(player)))
    assert runs[0] == runs[1]
    assert runs[0][1]
    assert runs[0][1] != runs[2][1]  # another seed, other determinisations


@pytest.mark.slow
def test_other_true_hidden_cards_same_choice():
    game, state = final_round_placement(seed=4)
    picks = picks_for_two_true_states(game, state, search, values)
    assert picks[0] == picks[1]
    assert picks[0][1]


@pytest.mark.slow
def test_takes_an_immediate_win_without_continuations():
    """The last seat to flip before the inspection ends the game with ``done``: where
    that makes it the only winner, it is played at once."""

    def stop(state):
        if state.current_player < 0 or state.tasks[-1].name != "flip":
            return False
        trial = state.clone()
        trial.apply("done")
        return trial.is_terminal() and trial.outcome().winners == (state.current_player,)

    for seed in range(1, 9):
        game, state, _ = heuristic_game(seed, lambda s: s.is_terminal() or stop(s))
        if not state.is_terminal():
            break
    else:
        raise AssertionError("no deal with a winning last flip decision")
    seat = state.current_player
    assert len(state.legal_moves()) > 1
    player = started(search(), game, seat)
    assert player.choose(state.view(seat), state.legal_moves()) == "done"
    assert player.searched and not player.last_values


@pytest.mark.slow
def test_never_touches_the_chance_rng_or_the_global_random(monkeypatch):
    """From the final round to the end: every decision leaves the driver's chance RNG as
    it was, and the global generator is never called."""
    game, state, chance = heuristic_game(5, lambda s: s.final_round)

    refuse_global_random(monkeypatch)
    players = [started(search(samples=1), game, s, seed=3 + s) for s in range(2)]
    searched = sum(
        bool(players[seat].last_values) for seat in play_checking_chance(state, chance, players)
    )
    assert searched >= 3
