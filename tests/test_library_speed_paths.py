"""The sphere game's fast paths equal its reference ones at every position of seeded random
games, under every reading of the rules and with 2 and 4 players:

* ``random_legal_move(randbelow)`` asks for exactly one draw, below the number of legal
  moves, and returns the legal move of that index, for every index;
* ``apply_trusted`` leaves the same position as the checked ``apply``, for every legal move;
* the checked ``apply`` accepts exactly the legal moves among every well-formed move string
  and leaves the position unchanged when it refuses one.
"""

from __future__ import annotations

import random

import pytest

from simcli.game import IllegalMoveError
from simcli.games import get_game
from simcli.games.library.board import PARSE

GAME = get_game("library")
#: (players, options): the default reading, and every other reading of the text.
CASES = [
    (2, {}),
    (4, {}),
    (2, {"push_wall": "both", "topple_chain": "line", "walls_per_player": 6}),
    (2, {"push_wall": "sideways", "sphere_push": "toward_own", "extra_actions": 1}),
    (4, {"turn_order": "d1_d7_g4_a4", "sphere_push": "toward_own", "walls_per_player": 4}),
    (4, {"push_wall": "both", "extra_actions": 2, "no_push_back": "after_any_roll"}),
    (2, {"plate_pulls_sphere": False, "only_mover_wins": True, "topple_chain": "line"}),
]


def positions(players: int, options: dict, seed: int, plies: int | None = None):
    """Every position of a seeded random game (the first ``plies`` of them if given).
    Moves are drawn from ``legal_moves`` with walls, pushes and topples favoured, so that
    long runs and lines of walls occur."""
    opts = GAME.resolve_options(options)
    rng = random.Random(seed)
    state = GAME.new_state(players, opts, GAME.sample_setup(players, opts, rng))
    count = 0
    while not state.is_terminal() and (plies is None or count < plies):
        yield state
        moves = state.legal_moves()
        special = [m for m in moves if m[0] in "MTS"]
        pool = special if special and rng.random() < 0.3 else moves
        state.apply(rng.choice(pool))
        count += 1
    yield state


def check_random_legal_move(state, every: int = 1) -> None:
    """Every draw of a wall push, topple, sphere push or pass; of the many plates and
    walls, every ``every``-th draw (a different share at each turn)."""
    moves = state.legal_moves()
    n = len(moves)
    if n == 0:
        assert state.is_terminal()
        return
    for r in range(n):
        if moves[r][0] in "PW" and (r + state.turn) % every:
            continue
        asked = []

        def draw(count: int, r: int = r, asked: list = asked) -> int:
            asked.append(count)
            return r

        assert state.random_legal_move(draw) == moves[r]
        assert asked == [n]
    assert state.legal_moves() == moves


def check_trusted_apply(state, every: int = 1) -> None:
    """Every wall push, topple, sphere push and pass; of the many plates and walls, every
    ``every``-th (a different share at each turn)."""
    for i, move in enumerate(state.legal_moves()):
        if move[0] in "PW" and (i + state.turn) % every:
            continue
        checked, trusted = state.clone(), state.clone()
        checked.apply(move)
        trusted.apply_trusted(move)
        assert trusted.snapshot() == checked.snapshot(), move
        assert trusted.legal_moves() == checked.legal_moves(), move
        assert trusted.current_player == checked.current_player


def check_refusals(state) -> None:
    """One probe takes every refusal in turn: a refusal that changed it fails at once
    (the position) or at the end (the move lists kept with it)."""
    legal = set(state.legal_moves())
    before = state.snapshot()
    probe = state.clone()
    for move in PARSE:
        if move in legal:
            state.clone().apply(move)
            continue
        with pytest.raises(IllegalMoveError):
            probe.apply(move)
        assert probe.snapshot() == before, move
    assert probe.legal_moves() == state.legal_moves()


def test_fast_paths_on_the_opening_plies_of_the_default_game() -> None:
    for state in positions(2, {}, seed=1, plies=12):
        check_random_legal_move(state)
        check_trusted_apply(state)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), CASES)
def test_random_legal_move_is_the_legal_move_of_the_draw(players, options) -> None:
    seen = 0
    for seed in (1, 2):
        for state in positions(players, options, seed):
            check_random_legal_move(state, every=3)
            seen += 1
    assert seen > 100


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), CASES)
def test_trusted_apply_equals_checked_apply(players, options) -> None:
    for seed in (4, 5):
        for state in positions(players, options, seed):
            check_trusted_apply(state, every=5)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), CASES)
def test_checked_apply_accepts_exactly_the_legal_moves(players, options) -> None:
    for state in positions(players, options, seed=6):
        if state.turn % 7 == 0 or state.is_terminal():
            check_refusals(state)


def test_only_pass_is_drawn_when_nothing_else_is_possible() -> None:
    """Every cell a plate and every gap a wall of seat 1: seat 0 can only pass, and the
    draw is still asked for (one legal move)."""
    snap = {
        "players": 2,
        "cells": [-2 if c == 24 else 1 for c in range(49)],
        "walls": [1] * 84,
        "sphere": 24,
        "turn": 0,
        "forbid": None,
        "winner": None,
    }
    state = GAME.state_from_snapshot(2, GAME.resolve_options({}), snap)
    assert state.legal_moves() == ["pass"]
    asked = []
    assert state.random_legal_move(lambda n: asked.append(n) or 0) == "pass"
    assert asked == [1]
    trusted = state.clone()
    trusted.apply_trusted("pass")
    state.apply("pass")
    assert trusted.snapshot() == state.snapshot()
    assert state.turn == 1 and state.legal_moves() != ["pass"]  # seat 1 moves its walls


#: (options, moves played from the opening, refused move, the exact message)
REFUSALS = [
    ({"max_turns": 1}, ["P a1"], "P a2", "the game is over"),
    (
        {},
        [],
        7,
        "not a Library move: 7 (examples: 'P d3', 'W d4-d5', 'M d4-d5 left', "
        "'T c4-d4 right', 'S up')",
    ),
    (
        {},
        [],
        "P d4",
        "not a Library move: 'P d4' (examples: 'P d3', 'W d4-d5', "
        "'M d4-d5 left', 'T c4-d4 right', 'S up')",
    ),
    ({}, ["P d3", "W c4-d4"], "P d3", "'P d3': that cell already holds a plate"),
    ({}, ["P d3", "W c4-d4"], "W c4-d4", "'W c4-d4': gap c4-d4 already holds a wall"),
    (
        {"walls_per_player": 1},
        ["W a1-a2", "W a2-a3"],
        "W b1-b2",
        "'W b1-b2': seat 0 has laid all its walls",
    ),
    ({}, ["P d3", "W c4-d4"], "M c4-d4 up", "'M c4-d4 up': c4-d4 is not a wall of seat 0"),
    ({}, ["P d3", "W c4-d4"], "T c4-d4 left", "'T c4-d4 left': c4-d4 is not a wall of seat 0"),
    (
        {},
        ["W c4-d4", "P a1"],
        "M c4-d4 left",
        "'M c4-d4 left': a wall is pushed along its own line (up or down)",
    ),
    (
        {"push_wall": "sideways"},
        ["W d4-d5", "P a1"],
        "M d4-d5 left",
        "'M d4-d5 left': walls are pushed across their line only (option push_wall)",
    ),
    (
        {"push_wall": "both"},
        ["W a1-b1", "P c3"],
        "M a1-b1 left",
        "'M a1-b1 left': the board's edge or a wall blocks the push",
    ),
    (
        {"push_wall": "both"},
        ["W a1-b1", "P c3"],
        "M a1-b1 down",
        "'M a1-b1 down': the board's edge blocks the push",
    ),
    ({}, [], "S up", "'S up': the sphere cannot roll up"),
    (
        {"sphere_push": "toward_own"},
        ["P d3", "P d5"],
        "S up",
        "'S up': the push must bring the sphere closer to seat 0's entrance d1 "
        "(option sphere_push)",
    ),
    ({}, [], "pass", "'pass' is only allowed when no action is possible"),
]


@pytest.mark.parametrize(("options", "played", "move", "message"), REFUSALS)
def test_checked_apply_refuses_with_its_message(options, played, move, message) -> None:
    """Every kind of refusal, in hand-built positions, with the message word for word."""
    opts = GAME.resolve_options(options)
    state = GAME.new_state(2, opts, GAME.sample_setup(2, opts, None))
    for legal in played:
        state.apply(legal)
    before = state.snapshot()
    with pytest.raises(IllegalMoveError) as refused:
        state.apply(move)
    assert str(refused.value) == message
    assert state.snapshot() == before
