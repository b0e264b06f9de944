"""Tests of ``bibliogamo_endgame`` (strategies/bibliogamo_endgame.py): the planner's last
decisions compared by planner continuations to the end on sampled deck orders. It reads
the deck order only through ``game.determinize``, draws only from its own RNG, plays the
same moves for the same seed, is the planner before ``from_day``, and takes a re-draw the
planner refuses where the rounding of florins makes it worth a point."""

from __future__ import annotations

import random

import pytest
from test_ismcts import picks_for_two_true_states, play_bibliogamo_refusing_global_random, started

from simcli.game import CHANCE, TERMINAL
from simcli.games import get_game
from simcli_strategies.bibliogamo_endgame import BibliogamoEndgame
from simcli_strategies.bibliogamo_planner import BibliogamoPlanner
from simcli_strategies.bibliogamo_search import planner_continuation

SMALL = {"work": 12, "min_samples": 2, "max_samples": 3, "candidates": 3}


def late_state(seed: int, day: int = 36, step: str = "hire"):
    """A planner game's first decision of ``step`` with several candidates from ``day`` on."""
    game = get_game("bibliogamo")
    opts = game.resolve_options({})
    rng = random.Random(seed)
    state = game.new_state(1, opts, game.sample_setup(1, opts, rng))
    planner = started(BibliogamoPlanner(), game)
    probe = started(BibliogamoEndgame(**SMALL), game)
    while state.current_player != TERMINAL:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        moves = state.legal_moves()
        if (
            state.time >= day
            and state.step == step
            and len(probe.candidate_moves(state.view(0), moves)) > 1
        ):
            return game, state
        state.apply(planner.choose(state.view(0), moves))
    raise AssertionError(f"no {step} decision with several candidates from day {day}")


def values(strategy: BibliogamoEndgame) -> list:
    return sorted((k, round(v, 9)) for k, v in strategy.last_values.items())


@pytest.mark.slow
def test_same_seed_same_choice_and_values():
    game, state = late_state(seed=8)
    runs = []
    for seed in (5, 5, 6):
        s = started(
            BibliogamoEndgame(**{**SMALL, "min_samples": 6, "max_samples": 6}), game, seed=seed
        )
        runs.append((s.choose(state.view(0), state.legal_moves()), values(s)))
    assert runs[0] == runs[1]
    assert len(runs[0][1]) > 1  # candidates were compared
    assert runs[0][1] != runs[2][1]  # another seed, other deck orders


@pytest.mark.slow
def test_other_true_deck_order_same_choice():
    """Another true deck order behind the same view: the same move and candidate values."""
    game, state = late_state(seed=4)
    picks = picks_for_two_true_states(game, state, lambda: BibliogamoEndgame(**SMALL), values)
    assert picks[0] == picks[1]
    assert picks[0][1]


@pytest.mark.slow
def test_never_touches_the_chance_rng_or_the_global_random(monkeypatch):
    """A whole game (the search acts from day 37): no draw from the driver's chance RNG or
    the global generator."""
    searched = []
    player = BibliogamoEndgame(**{**SMALL, "from_day": 37, "max_samples": 2})
    play_bibliogamo_refusing_global_random(
        monkeypatch, player, 160, lambda p: searched.append(bool(p.last_values))
    )
    assert any(searched)


@pytest.mark.slow
def test_the_planner_before_from_day_and_the_candidates():
    game, state = late_state(seed=8, day=36, step="walk")
    view, moves = state.view(0), state.legal_moves()
    planner_move = started(BibliogamoPlanner(), game).choose(view.clone(), moves)
    late = started(BibliogamoEndgame(**{**SMALL, "from_day": state.time + 1}), game, seed=5)
    assert late.choose(view.clone(), moves) == planner_move
    assert late.last_values == {}
    s = started(BibliogamoEndgame(**SMALL), game, seed=5)
    move = s.choose(view.clone(), moves)
    assert list(s.last_values)[0] == planner_move  # the planner's move comes first
    assert "stay" in s.last_values
    assert all(m == "stay" or m.startswith("walk ") for m in s.last_values)
    assert move == planner_move or s.last_values[move] > s.last_values[planner_move]
    kept = started(BibliogamoEndgame(**{**SMALL, "keep": 1000.0}), game, seed=5)
    assert kept.choose(view.clone(), moves) == planner_move
    with pytest.raises(ValueError):
        BibliogamoEndgame(steps=["sell"])


def test_departs_from_the_planner_only_with_evidence():
    """``pick`` compares each alternative's paired differences from the planner's move
    (index 0): played only when the mean exceeds ``keep`` by more than ``z`` standard
    errors; the best mean of those that pass."""
    s = BibliogamoEndgame(z=2.0)
    assert s.rule.pick([[30, 31, 32, 33], [31, 32, 33, 34]]) == 1  # +1 on every sample
    assert s.rule.pick([[30, 30, 30, 30], [33, 28, 33, 28]]) == 0  # +0.5, standard error 1.44
    assert s.rule.pick([[30, 30, 30, 30], [31, 31, 31, 31], [32, 32, 32, 33]]) == 2
    assert s.rule.pick([[30, 30], [30, 30]]) == 0  # ties: the planner's move
    assert BibliogamoEndgame(keep=1.0).rule.pick([[30, 30], [31, 31]]) == 0
    assert BibliogamoEndgame(z=0.0).rule.pick([[30, 30, 30, 30], [33, 28, 33, 28]]) == 1


def price_position():
    """Day 39, turn 39: the librarian (space 13) stands on the complete theology tower and
    the sale shows first card 13 (florin icon: position 3) and price card 7 (position 3:
    5 florins). Florins 4; the unseen draw pile is cards 15, 19 and 22, each worth 6 at
    position 3. Every other tower is empty and the hand's cards give two artisans each,
    so no book can be finished for day 40 (and a book finished on day 40 sells too late).

    By hand: accept: 4 + 5 = 9 florins -> 1 VP, and day 40 adds nothing.
    Re-draw: day 40 is paid (the game ends after this turn), the price becomes 6:
    10 florins -> 2 VP. Books and prestige are the same, so the re-draw is worth exactly
    1 VP more on every deck order. The planner's threshold (optimal stopping at 0.5 VP =
    2.5 florins a day over prices 6, 6, 6) is 3.5 florins, so it accepts 5."""
    game = get_game("bibliogamo")
    opts = game.resolve_options({})
    hand = [3, 5, 6, 9, 11]
    draw = [15, 19, 22]
    sale = [13, 7]
    discard = [c for c in range(1, 48) if c not in hand + draw + sale]
    snapshot = {
        "step": "price",
        "turn": 39,
        "time": 39,
        "florins": 4,
        "librarian": 13,
        "towers": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 2, 2, 3], [0] * 4],
        "sold": [1, 1, 0, 1, 0, 0],  # history, poetry, law: not on prestige card 2
        "marks": [0, 0, 0, 0, 0, 0],
        "prestige": 2,
        "hand": hand,
        "draw": draw,
        "known": 3,
        "discard": discard,
        "revealed": discard[-1],
        "blocked": 0,
        "unblocked": False,
        "sale": sale,
        "hires": 0,
        "chance": {"key": 77, "events": {}},
    }
    return game, game.state_from_snapshot(1, opts, snapshot)


def test_hand_worked_redraw_the_planner_refuses():
    game, state = price_position()
    view, moves = state.view(0), state.legal_moves()
    assert moves == ["accept", "redraw"]
    assert started(BibliogamoPlanner(), game).choose(view.clone(), moves) == "accept"
    s = started(BibliogamoEndgame(**SMALL), game, seed=2)
    assert s.choose(view.clone(), moves) == "redraw"
    n = s.last_samples
    assert s.last_values["accept"] == pytest.approx(n * (3 + 1 + 1))  # books + 9 // 5, no prestige
    assert s.last_values["redraw"] == pytest.approx(n * (3 + 1 + 2))  # books + 10 // 5
    for move, expected in (("accept", 3 + 1 + 1), ("redraw", 3 + 1 + 2)):  # the real game
        after = state.clone()
        after.apply(move)
        assert planner_continuation(s.planner, game, after, random.Random(1)) == expected
