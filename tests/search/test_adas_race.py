"""Tests of ``adas_race`` (strategies/adas_race.py): Ada's Library's heuristic moves judged
by planned races on determinisations. It sees hidden cards only through
``game.determinize``, draws only from its own RNG, plays the same moves for the same
seed, takes an immediate win, and its race planner counts turns right."""

from __future__ import annotations

import random

import pytest
from global_random import play_checking_chance, refuse_global_random
from test_ismcts import (
    adas_positions_with_a_win,
    advanced_state,
    picks_for_two_true_states,
    started,
)

from simcli.games import get_game
from simcli.strategy import load_strategy_class
from simcli_strategies.adas_race import AdasRace, Planner

SMALL = {"samples": 3, "candidates": 4, "depth": 2, "beam": 3}


def values(strategy: AdasRace) -> list:
    return sorted((k, round(v, 9)) for k, v in strategy.last_values.items())


def two_player_state(seed: int, decisions: int):
    """A 2-player state ``decisions`` random decisions in, whose seat to move has a choice
    the heuristic does not settle alone (at least 3 moves)."""
    return advanced_state("adas_library", seed, decisions, players=2, min_moves=3)


@pytest.mark.slow
def test_same_seed_same_choice_and_values():
    game, state = two_player_state(seed=8, decisions=2)
    seat = state.current_player
    runs = []
    for seed in (5, 5, 6):
        s = started(AdasRace(**SMALL), game, seat, seed=seed)
        runs.append((s.choose(state.view(seat), state.legal_moves()), values(s)))
    assert runs[0] == runs[1]
    assert runs[0][1]  # candidates were valued on samples
    assert runs[0][1] != runs[2][1]  # another seed, other determinisations


def test_other_true_hidden_cards_same_choice():
    """Another true state with the same view (the opponent's hand and the draw pile
    re-dealt) gives exactly the same decision and candidate values."""
    game, state = two_player_state(seed=4, decisions=3)
    picks = picks_for_two_true_states(game, state, lambda: AdasRace(**SMALL), values)
    assert picks[0] == picks[1]
    assert picks[0][1]


def test_four_players_same_view_same_choice():
    game = get_game("adas_library")
    opts = game.resolve_options({})
    rng = random.Random(3)
    state = game.new_state(4, opts, game.sample_setup(4, opts, rng))
    for _ in range(5):
        state.apply(rng.choice(state.legal_moves()))
    picks = picks_for_two_true_states(game, state, lambda: AdasRace(**SMALL), values)
    assert picks[0] == picks[1]


@pytest.mark.slow
def test_never_touches_the_chance_rng_or_the_global_random(monkeypatch):
    """A whole game against the heuristic: no decision changes the driver's chance RNG
    or the true state, and the global generator is never called."""

    game = get_game("adas_library")
    opts = game.resolve_options({})
    chance = random.Random(21)
    state = game.new_state(2, opts, game.sample_setup(2, opts, chance))
    refuse_global_random(monkeypatch)
    players = [
        started(AdasRace(**SMALL), game, 0, seed=3),
        started(load_strategy_class("adas_heuristic")(), game, 1, seed=4),
    ]
    searched = sum(
        seat == 0 and bool(players[0].last_values)
        for seat in play_checking_chance(state, chance, players, snapshot=True)
    )
    assert searched > 0


@pytest.mark.slow
def test_takes_an_immediate_win():
    for game, state, wins in adas_positions_with_a_win(4):
        seat = state.current_player
        s = started(AdasRace(**SMALL), game, seat, seed=5)
        assert s.choose(state.view(seat), state.legal_moves()) in wins


def test_planner_counts_own_turns():
    """Colours 0..2 in master order 0, 1, 2. The row (1, 0, 0, 2) is sorted by moving
    book 0 to the end of the 0s: a Move 2 to the right (one turn), or after a useless
    first turn if the Move 2 is only drawn then (two turns). A row no card can sort
    within the plan is valued at the depth plus ``tail`` per book out of order."""
    planner = Planner()
    master = (0, 1, 2)
    row = (1, 0, 0, 2)
    assert planner.turns(row, master, row, ("move2", "reverse"), [], 3, 4, 1.0) == 1
    assert planner.turns(row, master, row, ("reverse",), ["move2", "move2"], 3, 4, 1.0) == 2
    assert planner.turns((0, 1, 2), master, row, ("reverse",), [], 3, 4, 1.0) == 0
    stuck = planner.turns(row, master, row, ("switch3",), ["switch3"] * 3, 3, 4, 2.5)
    assert stuck == 3 + 2.5 * 1
    # the cards run out (the draw pile of the plan is empty): the rest is estimated
    assert planner.turns(row, master, row, ("switch3",), [], 3, 4, 1.0) == 1 + 1.0 * 1
    # a master change sorts a row too
    assert planner.turns((1, 0), master, row, ("master1",), [], 2, 4, 1.0) == 1
    # the beam's ranking: books out of order plus a tenth per step down of the ranks
    assert planner.score(row, master) == pytest.approx(1 + 0.1 * 1)  # 1 0 0 2: one step
    assert planner.score((2, 1, 0), master) == pytest.approx(2 + 0.1 * 2)
    assert planner.score((1, 2, 0), master) == pytest.approx(1 + 0.1 * 1)
    assert planner.score((0, 1, 2), master) == 0


@pytest.mark.slow
def test_planner_memo_does_not_change_plans():
    """One planner reused for many plans (its numbered rows and memoised plays shared, as
    in a decision) gives every plan a fresh planner gives: up to 60 positions of seeded
    random games, both seats, with and without the draws, before and after a clear."""
    game = get_game("adas_library")
    opts = game.resolve_options({})
    rng = random.Random(17)
    cases = []
    for deal in range(6):
        state = game.new_state(2, opts, game.sample_setup(2, opts, random.Random(deal)))
        for _ in range(10):
            if state.is_terminal():
                break
            if state.current_player < 0:
                state.apply(state.sample_chance(rng))
                continue
            for seat in (0, 1):
                rows = [tuple(r) for r in state.rows]
                hand = tuple(sorted(state.hands[seat]))
                draws = list(state.draw[seat::2])
                for plan_draws in (draws, []):
                    cases.append(
                        (rows[seat], tuple(state.master), rows[1 - seat], hand, plan_draws)
                    )
            state.apply(rng.choice(state.legal_moves()))
    assert len(cases) >= 100
    shared = Planner()
    first = [shared.turns(*case, 3, 4, 1.2) for case in cases]
    assert first == [Planner().turns(*case, 3, 4, 1.2) for case in cases]
    assert len(shared) > 0
    shared.clear()
    assert len(shared) == 0
    assert [shared.turns(*case, 3, 4, 1.2) for case in reversed(cases)] == first[::-1]
    assert len(set(first)) > 3  # the positions differ in how far they are from sorted


def test_params_and_registry():
    assert load_strategy_class("adas_race") is AdasRace
    for bad in (
        {"samples": 0},
        {"candidates": 0},
        {"depth": 0},
        {"beam": 0},
        {"tail": -1},
        {"scale": 0},
        {"weight": -1},
        {"heuristic": {"spite": -1}},
        {"heuristic": [1]},
    ):
        with pytest.raises(ValueError):
            AdasRace(**bad)


@pytest.mark.parametrize(("mirrored", "seen"), [(False, (4, 5, 6)), (True, (6, 5, 4))])
def test_the_race_plans_exchanges_at_the_games_position(mirrored, seen):
    """Under ``exchange_position: mirrored`` an Exchange at i takes the partner's book at
    size - 1 - i: the planner, which exchanges at the same index, is handed the partner's
    row reversed (row (4, 5, 6) is seen as (6, 5, 4)); at the default, as it is."""
    from types import SimpleNamespace

    handed = []

    class Recording:
        def turns(self, row, master, other, *rest):
            handed.append((row, other))
            return 3.0

    after = SimpleNamespace(
        winner=None,
        players=2,
        master=[0, 1, 2],
        rows=[[1, 2, 3], [4, 5, 6]],
        draw=["exchange", "move1"],
        hands=[["exchange"], ["exchange"]],
        partners=[1, 0],
        mirrored=mirrored,
    )
    strategy = AdasRace(**SMALL)
    strategy.planner = Recording()
    strategy._value(after, 0, {})
    # the opponent (seat 1, partner seat 0) first, then this seat (partner seat 1)
    partner_of_seat_1 = (3, 2, 1) if mirrored else (1, 2, 3)
    assert handed == [((4, 5, 6), partner_of_seat_1), ((1, 2, 3), seen)]
