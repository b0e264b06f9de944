"""Ex Libris strategies: the heuristic plays legal moves, flips well and beats random."""

from __future__ import annotations

import random

import pytest

from simcli.game import CHANCE
from simcli.games import get_game
from simcli.games.ex_libris.phases import Flip, Score
from simcli_strategies.ex_libris_heuristic import ExLibrisHeuristic
from simcli_strategies.greedy import GreedyStrategy
from simcli_strategies.random_play import RandomStrategy

GAME = get_game("ex_libris")


def play(players: int, seed: int, lineup: list, **options):
    opts = GAME.resolve_options(options)
    rng = random.Random(seed)
    state = GAME.new_state(players, opts, GAME.sample_setup(players, opts, rng))
    strategies = []
    for seat, cls in enumerate(lineup):
        strategy = cls()
        strategy.start_game(GAME, seat, random.Random(seed * 100 + seat))
        strategies.append(strategy)
    while not state.is_terminal():
        seat = state.current_player
        if seat == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_moves()
        move = strategies[seat].choose(state.view(seat), list(legal))
        assert move in legal
        state.apply(move)
    return state.outcome()


@pytest.mark.slow
def test_heuristic_beats_random_in_three_player_games() -> None:
    wins = 0
    for seed in range(3):
        for seat in range(3):
            lineup = [RandomStrategy] * 3
            lineup[seat] = ExLibrisHeuristic
            outcome = play(3, seed, lineup)
            wins += seat in outcome.winners
    assert wins >= 8  # of 9 (measured: 300 of 300 in the issue note)


def test_heuristic_plays_the_advanced_game_and_four_players() -> None:
    outcome = play(
        4,
        1,
        [ExLibrisHeuristic, RandomStrategy, ExLibrisHeuristic, RandomStrategy],
        mode="advanced",
    )
    assert len(outcome.scores) == 4
    assert set(outcome.winners) <= {0, 2}


@pytest.mark.slow
def test_greedy_plays_a_game() -> None:
    outcome = play(2, 2, [GreedyStrategy, RandomStrategy])
    assert outcome.winners == (0,)


def test_heuristic_flips_a_card_that_breaks_the_order() -> None:
    opts = GAME.resolve_options({})
    setup = GAME.sample_setup(2, opts, random.Random(0))
    state = GAME.new_state(2, opts, setup)
    comps = state.comps
    z = comps.book_index("Z1")
    low = [comps.book_index(n) for n in ("A1", "A2", "B1", "B2", "C1")]
    for card in [z, *low]:
        for h in state.hands:
            if card in h:
                h.remove(card)
        if card in state.deck:
            state.deck.remove(card)
    # Z1 first in reading order would flip every later card
    state.shelves[0] = {
        (0, 0): z,
        (0, 1): low[0],
        (0, 2): low[1],
        (1, 0): low[2],
        (1, 1): low[3],
        (1, 2): low[4],
    }
    state.tasks = [Score(), Flip(1), Flip(0)]
    strategy = ExLibrisHeuristic()
    strategy.start_game(GAME, 0, random.Random(0))
    before = state.inspect()[0].total
    move = strategy.choose(state.view(0), state.legal_moves())
    assert move == ["flip", "Z1"]
    state.apply(move)
    # without Z1 the other five cards are in order and score their books
    assert state.inspect()[0].total > before
    # any further flip the strategy makes raises its total; it then stops
    for _ in range(6):
        total = state.inspect()[0].total
        move = strategy.choose(state.view(0), state.legal_moves())
        if move == "done":
            break
        state.apply(move)
        assert state.inspect()[0].total > total
    assert move == "done"


@pytest.mark.parametrize("mode, players, seed", [("beginner", 2, 3), ("advanced", 3, 5)])
@pytest.mark.slow
def test_shelving_values_with_one_card_added_equal_the_full_computation(
    mode: str, players: int, seed: int
) -> None:
    """``score_adding`` and ``misfit_adding`` (the shortcuts the heuristic tries a hand's
    cards at every open position with) give exactly the numbers of ``score`` and
    ``misfit`` of the shelf rebuilt with the card, at every decision of a seeded game,
    for every card in hand at every open position, face-down cards and shelves moved
    right or down by a card put left of or above them included."""
    from simcli.games.ex_libris.shelf import open_positions

    opts = GAME.resolve_options({"mode": mode})
    rng = random.Random(seed)
    state = GAME.new_state(players, opts, GAME.sample_setup(players, opts, rng))
    players_ = []
    for seat in range(players):
        strategy = ExLibrisHeuristic()
        strategy.start_game(GAME, seat, random.Random(seed * 100 + seat))
        players_.append(strategy)
    checked = with_down = moved_down = 0
    while not state.is_terminal():
        seat = state.current_player
        if seat == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        cells = state.shelves[seat]
        fresh = ExLibrisHeuristic()
        fresh.start_game(GAME, seat, random.Random(0))
        fresh.new_decision()
        fresh.value_now(state, seat)  # sets the other seats' counts, as a decision does
        score, misfit = fresh.score_adding(state, seat, cells), fresh.misfit_adding(state, cells)
        for card in sorted(set(state.hands[seat])):
            for pos in open_positions(cells):
                new = dict(cells)
                new[pos] = card
                dr, dc = max(0, -pos[0]), max(0, -pos[1])
                moved = {(r + dr, c + dc): v for (r, c), v in new.items()}
                assert score(card, pos) == fresh._score(state, seat, moved), (card, pos)
                assert misfit(card, pos) == fresh._misfit(state, moved), (card, pos)
                checked += 1
                with_down += bool(state.down[seat])
                moved_down += bool(state.down[seat]) and bool(dr or dc)
        legal = state.legal_moves()
        state.apply(players_[seat].choose(state.view(seat), list(legal)))
    assert checked > 1000 and with_down > 0 and moved_down > 0, (checked, with_down, moved_down)
