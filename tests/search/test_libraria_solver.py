"""Tests of ``libraria_solver`` (strategies/libraria_solver.py): its exact values equal a
plain exhaustive minimax on random endgames; the strategy plays legal, reproducible moves."""

from __future__ import annotations

import math
import random

import pytest
from global_random import refuse_global_random

from simcli.games import get_game
from simcli.games.libraria import EMPTY, SPOTS, TILE_CORNERS, score_board, seat_for_ply
from simcli.strategy import load_strategy_class
from simcli_strategies.libraria_solver import (
    ESTIMATES,
    EVALUATIONS,
    LibrariaSolver,
    Position,
    Searcher,
    result_of,
    tile_margin,
)

GAME = get_game("libraria")


def brute_force(tiles, board, opening, first_wins, objective):
    """Plain minimax over every order of the remaining placements: no pruning, no move
    ordering, no bounds. (Memoised on the exact board, which changes no value and keeps
    10-empty positions fast.) Values from seat 0's point of view."""
    memo = {}

    def value(b):
        key = tuple(b)
        if key in memo:
            return memo[key]
        empty = [s for s in range(SPOTS) if b[s] == EMPTY]
        if not empty:
            a, c = score_board(tiles, b)
            v = a - c if objective == "margin" else result_of(a - c, first_wins)
        else:
            seat = seat_for_ply(SPOTS - len(empty), opening)
            children = []
            for s in empty:
                b[s] = seat
                children.append(value(b))
                b[s] = EMPTY
            v = max(children) if seat == 0 else min(children)
        memo[key] = v
        return v

    return value(list(board))


def random_position(seed, empty, options):
    rng = random.Random(seed)
    opts = GAME.resolve_options(options)
    state = GAME.new_state(2, opts, GAME.sample_setup(2, opts, rng))
    while SPOTS - state.ply > empty:
        state.apply(rng.choice(state.legal_moves()))
    return state


OPTION_SETS = [
    {"opening": "two_counters", "tiebreak": "none"},
    {"opening": "one_counter", "tiebreak": "none"},
    {"opening": "two_counters", "tiebreak": "first_player"},
    {"opening": "one_counter", "tiebreak": "first_player"},
]
# 56 positions: 1 to 10 empty spots, every option set.
CASES = [(seed, 1 + seed % 10, OPTION_SETS[seed % 4]) for seed in range(56)]


@pytest.mark.slow
@pytest.mark.parametrize("objective", ["result", "margin"])
def test_solver_equals_brute_force_on_random_endgames(objective):
    checked = 0
    for seed, empty, options in CASES:
        state = random_position(seed, empty, options)
        first_wins = options["tiebreak"] == "first_player"
        expected = brute_force(state.tiles, state.board, options["opening"], first_wins,
                               objective)  # fmt: skip
        pos = Position(state)
        value, move = Searcher().solve(pos, objective)
        assert value == expected, (seed, empty, options)
        assert pos.board == list(state.board)  # the search restored the board
        # the move returned achieves the value
        after = state.clone()
        after.apply(move)
        achieved = brute_force(after.tiles, after.board, options["opening"], first_wins,
                               objective)  # fmt: skip
        assert achieved == expected, (seed, "move", move)
        checked += 1
    assert checked >= 50
    assert max(e for _, e, _ in CASES) == 10


@pytest.mark.slow
def test_transposition_table_kept_between_solves_stays_exact():
    searcher = Searcher()
    for seed in range(8):
        state = random_position(100 + seed, 8, OPTION_SETS[0])
        # one searcher along a game line: solve, play the move, solve again
        while not state.is_terminal():
            value, move = searcher.solve(Position(state), "result")
            assert value == brute_force(state.tiles, state.board, "two_counters", False,
                                        "result")  # fmt: skip
            state.apply(move)
        searcher = Searcher()


def test_tile_tables():
    assert [tile_margin(3, a) for a in range(5)] == [-4, -3, 0, 3, 4]
    assert [tile_margin(-1, a) for a in range(5)] == [2, 1, 0, -1, -2]
    exp = ESTIMATES["expected"][2]
    assert exp[0] == 0.0  # an empty tile is worth nothing to either seat on average
    assert exp[5 * 4] == 3.0 and exp[4] == -3.0  # full tiles: exact
    assert exp[5 * 1] > 0 > exp[1]


def result_after(state, move, opening="two_counters"):
    after = state.clone()
    after.apply(move)
    return after, brute_force(after.tiles, after.board, opening, False, "result")


def opponent_errors(after, seat, value):
    """Replies of the other seat after which ``seat`` does better than ``value``."""
    if after.is_terminal() or after.current_player == seat:
        return 0
    better = 0
    for reply in after.legal_moves():
        _, r = result_after(after, reply)
        better += (r > value) if seat == 0 else (r < value)
    return better


@pytest.mark.slow
def test_strategy_endgame_moves_keep_the_value_and_swindle():
    swindles = 0
    for seed in range(8):
        state = random_position(300 + seed, 7, OPTION_SETS[0])
        seat = state.current_player
        s = LibrariaSolver(exact_from=10, swindle_from=8)
        s.start_game(GAME, seat, random.Random(seed))
        move = s.choose(state.clone(), state.legal_moves())
        assert s.last_exact
        value = brute_force(state.tiles, state.board, "two_counters", False, "result")
        after, got = result_after(state, move)
        assert got == value == s.last_value
        if value == 0 or (value < 0) == (seat == 0):  # drawn or lost: most chances to err
            swindles += 1
            best = max(
                opponent_errors(a, seat, value)
                for a, v in (result_after(state, m) for m in state.legal_moves())
                if v == value
            )
            assert opponent_errors(after, seat, value) == best
    assert swindles >= 2


@pytest.mark.slow
def test_strategy_lost_beyond_swindle_range_loses_by_the_least_margin():
    checked = 0
    for seed in range(40):
        state = random_position(400 + seed, 8, OPTION_SETS[0])
        seat = state.current_player
        value = brute_force(state.tiles, state.board, "two_counters", False, "result")
        if not ((value < 0) == (seat == 0) and value != 0):
            continue
        s = LibrariaSolver(exact_from=10, swindle_from=4)
        s.start_game(GAME, seat, random.Random(seed))
        move = s.choose(state.clone(), state.legal_moves())
        margin = brute_force(state.tiles, state.board, "two_counters", False, "margin")
        after = state.clone()
        after.apply(move)
        assert brute_force(after.tiles, after.board, "two_counters", False, "margin") == margin
        checked += 1
        if checked == 3:
            break
    assert checked == 3


@pytest.mark.slow
def test_full_games_legal_and_reproducible():
    def game(seed, opening):
        opts = GAME.resolve_options({"opening": opening})
        state = GAME.new_state(2, opts, GAME.sample_setup(2, opts, random.Random(seed)))
        players = []
        for seat in range(2):
            p = LibrariaSolver(exact_from=9, depth=1)
            p.start_game(GAME, seat, random.Random(seed * 2 + seat))
            players.append(p)
        moves = []
        while not state.is_terminal():
            legal = state.legal_moves()
            move = players[state.current_player].choose(state.clone(), legal)
            assert move in legal
            state.apply(move)
            moves.append(move)
        return moves

    for opening in ("two_counters", "one_counter"):
        first = game(1, opening)
        assert game(1, opening) == first
        assert game(2, opening) != first


def estimate(state, evaluation):
    """The heuristic's static value, computed from scratch."""
    mean_kind, var_kind = EVALUATIONS[evaluation]
    mean = var = 0.0
    for t, corners in enumerate(TILE_CORNERS):
        a = sum(1 for s in corners if state.board[s] == 0)
        b = sum(1 for s in corners if state.board[s] == 1)
        mean += ESTIMATES[mean_kind][state.tiles[t]][5 * a + b]
        if var_kind:
            var += ESTIMATES[var_kind][state.tiles[t]][5 * a + b]
    return mean / math.sqrt(var + 1.0) if var_kind else mean


def plain_minimax(state, depth, evaluation):
    if depth == 0 or state.is_terminal():
        return estimate(state, evaluation)
    values = []
    for move in state.legal_moves():
        after = state.clone()
        after.apply(move)
        values.append(plain_minimax(after, depth - 1, evaluation))
    return max(values) if state.current_player == 0 else min(values)


@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("evaluation", ["expected", "midpoint", "winprob"])
def test_heuristic_phase_equals_plain_depth_limited_minimax(depth, evaluation):
    for seed in range(4):
        empty = 24 - 4 * seed if depth == 1 else 13 + seed
        state = random_position(200 + seed, empty, OPTION_SETS[seed % 4])
        searcher = Searcher()
        order = state.legal_moves()
        value, move = searcher.heuristic(Position(state), depth, order, evaluation)
        assert value == pytest.approx(plain_minimax(state, depth, evaluation))
        after = state.clone()
        after.apply(move)
        assert plain_minimax(after, depth - 1, evaluation) == pytest.approx(value)
        s = LibrariaSolver(exact_from=empty - 1, depth=depth, evaluation=evaluation)
        s.start_game(GAME, state.current_player, random.Random(seed))
        assert s.choose(state.clone(), order) in order
        assert not s.last_exact
        assert s.last_value == pytest.approx(value)


def test_registered_and_params():
    assert load_strategy_class("libraria_solver") is LibrariaSolver
    assert LibrariaSolver.games == ("libraria",)
    for bad in ({"exact_from": 37}, {"depth": 0}, {"objective": "x"}, {"evaluation": "y"},
                {"exact_from": True}, {"swindle_from": -1}):  # fmt: skip
        with pytest.raises(ValueError):
            LibrariaSolver(**bad)
    s = LibrariaSolver()
    assert (s.exact_from, s.depth, s.objective, s.evaluation, s.swindle_from) == (
        15,
        4,
        "result",
        "expected",
        12,
    )


@pytest.mark.slow
def test_solver_never_uses_the_global_random(monkeypatch):
    refuse_global_random(monkeypatch)
    opts = GAME.resolve_options({})
    state = GAME.new_state(2, opts, {"tiles": [3, 2, 1, 0, -1] * 5})
    players = [LibrariaSolver(exact_from=10), LibrariaSolver(exact_from=10)]
    for seat, p in enumerate(players):
        p.start_game(GAME, seat, random.Random(seat))
    while not state.is_terminal():
        state.apply(players[state.current_player].choose(state.clone(), state.legal_moves()))
    assert state.ply == SPOTS
