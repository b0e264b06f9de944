"""Tests of ``bibliogamo_search`` (strategies/bibliogamo_search.py): the planner's top hires
compared by planner continuations on sampled deck orders. It reads the deck order only
through ``game.determinize``, draws only from its own RNG, plays the same moves for the
same seed, and picks the best-valued candidate (the planner's hire on ties or a large
``keep``). The solitaire has no win to take at once: the score is only known at the end."""

from __future__ import annotations

import random

import pytest
from test_ismcts import picks_for_two_true_states, play_bibliogamo_refusing_global_random, started

from simcli.game import CHANCE, TERMINAL
from simcli.games import get_game
from simcli_strategies.bibliogamo_planner import BibliogamoPlanner
from simcli_strategies.bibliogamo_search import BibliogamoSearch

SMALL = {"samples": 2, "candidates": 3, "turns": 1, "margin": 5.0, "from_turn": 1}


def hire_state(seed: int, hires_seen: int = 3):
    """A planner game's ``hires_seen``-th hire decision that has several candidates."""
    game = get_game("bibliogamo")
    opts = game.resolve_options({})
    rng = random.Random(seed)
    state = game.new_state(1, opts, game.sample_setup(1, opts, rng))
    planner = started(BibliogamoPlanner(), game)
    probe = started(BibliogamoSearch(**SMALL), game)
    seen = 0
    while state.current_player != TERMINAL:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        moves = state.legal_moves()
        if state.step == "hire" and len(probe.candidate_moves(state.view(0), moves)) > 1:
            seen += 1
            if seen >= hires_seen:
                return game, state
        state.apply(planner.choose(state.view(0), moves))
    raise AssertionError("no hire decision with several candidates")


def values(strategy: BibliogamoSearch) -> list:
    return sorted((k, round(v, 9)) for k, v in strategy.last_values.items())


@pytest.mark.slow
def test_same_seed_same_choice_and_values():
    game, state = hire_state(seed=8)
    runs = []
    for seed in (5, 5, 6):
        s = started(BibliogamoSearch(**{**SMALL, "turns": None}), game, seed=seed)
        runs.append((s.choose(state.view(0), state.legal_moves()), values(s)))
    assert runs[0] == runs[1]
    assert len(runs[0][1]) > 1  # candidates were compared
    assert runs[0][1] != runs[2][1]  # another seed, other deck orders


def test_other_true_deck_order_same_choice():
    """Another true deck order behind the same view: the same move and candidate values."""
    game, state = hire_state(seed=4)
    picks = picks_for_two_true_states(game, state, lambda: BibliogamoSearch(**SMALL), values)
    assert picks[0] == picks[1]
    assert picks[0][1]


@pytest.mark.slow
def test_never_touches_the_chance_rng_or_the_global_random(monkeypatch):
    searched = []
    player = BibliogamoSearch(**{**SMALL, "samples": 1})
    play_bibliogamo_refusing_global_random(
        monkeypatch, player, 40, lambda p: searched.append(bool(p.last_values))
    )
    assert any(searched)


def test_plays_the_best_valued_candidate_and_keep_favours_the_planner():
    game, state = hire_state(seed=2)
    view, moves = state.view(0), state.legal_moves()
    planner_move = started(BibliogamoPlanner(), game).choose(view.clone(), moves)
    s = started(BibliogamoSearch(**SMALL), game, seed=3)
    move = s.choose(view.clone(), moves)
    assert move in moves
    assert list(s.last_values)[0] == planner_move  # the planner's hire is a candidate
    best = max(s.last_values.values())
    assert s.last_values[move] == best
    assert move == planner_move or s.last_values[planner_move] < best
    kept = started(BibliogamoSearch(**{**SMALL, "keep": 1000.0}), game, seed=3)
    assert kept.choose(view.clone(), moves) == planner_move


@pytest.mark.slow
def test_overrules_the_planner_somewhere_and_plays_it_elsewhere():
    """Over one seeded game the search departs from the planner's hire at least once (it
    is not a copy of the planner), and every non-hire decision is the planner's."""
    game = get_game("bibliogamo")
    opts = game.resolve_options({})
    rng = random.Random(21)
    state = game.new_state(1, opts, game.sample_setup(1, opts, rng))
    planner = started(BibliogamoPlanner(), game)
    s = started(BibliogamoSearch(**SMALL), game, seed=1)
    differed = 0
    while state.current_player != TERMINAL:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        moves = state.legal_moves()
        view = state.view(0)
        mine = planner.choose(view.clone(), moves)
        move = s.choose(view, moves)
        if state.step != "hire":
            assert move == mine
        differed += move != mine
        state.apply(move)
    assert differed > 0


def test_from_turn_and_steps():
    """Before ``from_turn`` every decision is the planner's and nothing is searched; a
    step outside the searchable ones is refused."""
    game, state = hire_state(seed=8)
    late = started(BibliogamoSearch(**{**SMALL, "from_turn": state.turn + 1}), game, seed=5)
    planner_move = started(BibliogamoPlanner(), game).choose(state.view(0), state.legal_moves())
    assert late.choose(state.view(0), state.legal_moves()) == planner_move
    assert late.last_values == {}
    with pytest.raises(ValueError):
        BibliogamoSearch(steps=["walk"])
