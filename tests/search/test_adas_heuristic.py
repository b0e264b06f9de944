"""Tests of ``adas_heuristic``'s scoring (strategies/adas_heuristic.py) against a plain
re-computation of its formula, with and without a memo kept between calls (a searcher
that scores many hands on the same rows keeps position values, best gains and books out
of order; the scores must not change)."""

from __future__ import annotations

import random

import pytest
from test_ismcts import started

from simcli.game import CHANCE
from simcli.games import get_game
from simcli.games.adas_library.rows import out_of_order, ranks
from simcli_strategies.adas_heuristic import WIN, AdasHeuristic, HeuristicMemo, successors


def reference_scores(h: AdasHeuristic, state, moves) -> list[float]:
    """The docstring's formula, computed the long way: every follow-up play of every
    card left in the hand, no caches."""
    seat = h.seat
    partner = state.partner(seat)
    rows = tuple(tuple(r) for r in state.rows)
    master = tuple(state.master)

    def value(position) -> float:
        prow, pmaster = position
        rank = ranks(pmaster)
        mine = out_of_order(prow[seat], rank)
        if mine == 0:
            return WIN
        others = [out_of_order(r, rank) for s, r in enumerate(prow) if s != seat]
        if min(others) == 0:
            return -WIN
        return -mine + h.spite * min(others)

    after_of = {}
    for card in set(state.hands[seat]):
        for move, after in successors(card, seat, partner, rows, master):
            after_of[tuple(move)] = after
    out: list[float] = []
    for index, move in enumerate(moves):
        card = move[1] if move[0] == "discard" else move[0]
        after = (rows, master) if move[0] == "discard" else after_of[tuple(move)]
        v1 = value(after)
        if v1 >= WIN:
            return out + [WIN] + [-2 * WIN] * (len(moves) - index - 1)
        if v1 <= -WIN:
            out.append(-2 * WIN)
            continue
        rest = list(state.hands[seat])
        rest.remove(card)
        gains = []
        for c in sorted(set(rest)):
            best = 0.0
            for _, later in successors(c, seat, partner, *after):
                best = max(best, value(later) - v1)
            gains.append(best)
        score = v1
        if gains:
            score += h.follow_up * max(gains) + h.spare * sum(gains) / len(gains)
        out.append(score)
    return out


@pytest.mark.parametrize(("players", "spite"), [(2, 0.5), (2, 0.3), (4, 0.5)])
@pytest.mark.slow
def test_scores_match_the_formula_with_and_without_a_memo(players, spite):
    game = get_game("adas_library")
    opts = game.resolve_options({})
    rng = random.Random(2)
    memos = {s: HeuristicMemo() for s in range(players)}
    checked = 0
    for _ in range(2):
        state = game.new_state(players, opts, game.sample_setup(players, opts, rng))
        for _ in range(12):
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
            if state.is_terminal():
                break
            seat = state.current_player
            h = started(AdasHeuristic(spite=spite), game, seat, seed=1)
            moves = state.legal_moves()
            plain = h.scores(state.view(seat), moves)
            assert plain == reference_scores(h, state, moves)
            assert h.scores(state, moves, memos[seat]) == plain
            checked += 1
            state.apply(rng.choice(moves))
    assert checked > 15
    assert len(memos[0]) > 0
