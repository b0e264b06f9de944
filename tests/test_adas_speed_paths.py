"""Ada's Library's fast paths (random moves counted by row kernels, the trusted apply, the
options kept resolved) give exactly what the plain definitions give, on the path that
runs (compiled or pure: the suite runs on both)."""

from __future__ import annotations

import random
from operator import ne
from typing import Any

import pytest

from simcli.errors import GameOptionError
from simcli.game import CHANCE
from simcli.games import get_game
from simcli.games.adas_library import game as adas_game
from simcli.games.adas_library.rows import (
    SHIFT_CARDS,
    boundary_bits,
    boundary_key,
    differences,
    is_sorted,
    nth_difference,
    ranks,
    shift_lists,
    shift_plays_at,
    shift_tables,
)
from simcli.games.adas_library.state import draw_play, first_sorted, hand_plan

#: Every rule path once: 2 and 4 players, the facing and the diagonal Exchange partner,
#: the same and the mirrored Exchange position, larger hands (the paths do not depend on
#: how the options are combined, nor on the player count beyond the partner).
CONFIGS = [
    (2, {}),
    (4, {}),
    (4, {"exchange_partner": "diagonal", "exchange_position": "mirrored"}),
    (4, {"extra_cards": 1}),
]


def positions(players: int, given: dict[str, Any], seed: int, every: int):
    """Every ``every``-th decision of a seeded random game (trusted moves)."""
    game = get_game("adas_library")
    options = game.resolve_options({**given, "max_turns": 120})
    rng = random.Random(seed)
    state = game.new_state(players, options, game.sample_setup(players, options, rng))
    ply = 0
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state.apply_trusted(state.sample_chance(rng))
            continue
        if ply % every == 0:
            yield state
        ply += 1
        state.apply_trusted(state.random_legal_move(rng._randbelow))


def check_position(state) -> None:
    """random_legal_move for every draw r is legal_moves()[r], drawn by one call of
    randbelow(number of legal moves); apply_trusted of every legal move equals apply."""
    legal = state.legal_moves()
    for r in range(len(legal)):
        calls: list[int] = []
        move = state.random_legal_move(lambda n, r=r, calls=calls: calls.append(n) or r)
        assert calls == [len(legal)]
        assert move == legal[r]
        move.append("x")  # a fresh list: changing it changes no later answer
        trusted, checked = state.clone(), state.clone()
        trusted.apply_trusted(legal[r])
        checked.apply(legal[r])
        assert trusted.snapshot() == checked.snapshot()
    assert state.legal_moves() == legal


@pytest.mark.parametrize(("players", "given"), CONFIGS[:2])
def test_random_moves_and_trusted_applies_at_some_positions(players, given) -> None:
    for state in positions(players, given, seed=5, every=40):
        check_position(state)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "given"), CONFIGS)
def test_random_moves_and_trusted_applies_at_every_position(players, given) -> None:
    for seed in range(2):
        for state in positions(players, given, seed, every=1):
            check_position(state)


def draws(hand: list[str], row, other, mirrored: bool, picks: range) -> tuple[list, list]:
    """draw_play of ``hand`` for each draw of ``picks`` (master 0 1 2), and the sizes
    randbelow was asked for."""
    plan = hand_plan(hand)
    sizes: list[int] = []
    moves = []
    for r in picks:

        def randbelow(n: int, r: int = r) -> int:
            sizes.append(n)
            return r

        moves.append(
            draw_play(plan.draws, plan.discards, row, [0, 1, 2], other, mirrored, randbelow)
        )
    return moves, sizes


def test_a_hand_worked_draw() -> None:
    """Row 0 0 1 1 2 (colours), hand switch1 + reverse, partner row 0 1 1 1 2: Switch 1
    changes the row at 1 and 3, Reverse changes it (0 != 2), then one discard per card:
    five moves, in this order. An Exchange changes something at 1 only (same index),
    or, the partner's row read backwards (2 1 1 1 0, mirrored), at 0, 1 and 4."""
    row, other = [0, 0, 1, 1, 2], [0, 1, 1, 1, 2]
    expected = [["switch1", 1], ["switch1", 3], ["reverse"], ["discard", "switch1"]]
    expected.append(["discard", "reverse"])
    assert draws(["reverse", "switch1"], row, other, False, range(5)) == (expected, [5] * 5)
    assert draws(["exchange"], row, other, False, range(2)) == (
        [["exchange", 1], ["discard", "exchange"]],
        [2, 2],
    )
    mirrored = [["exchange", 0], ["exchange", 1], ["exchange", 4], ["discard", "exchange"]]
    assert draws(["exchange"], row, other, True, range(4)) == (mirrored, [4] * 4)


def test_row_kernels_equal_their_plain_definitions() -> None:
    rng = random.Random(11)
    for _ in range(300):
        size = rng.randint(2, 10)  # the tables of longer rows take a second to build
        a = [rng.randrange(3) for _ in range(size)]
        b = [rng.randrange(3) for _ in range(rng.randint(size, size + 2))]
        key = boundary_key(a)
        assert boundary_bits(a) == sum(1 << i for i, differs in enumerate(key) if differs)
        lists, tables = shift_lists(size), shift_tables(size)
        for k, card in enumerate(SHIFT_CARDS):
            assert shift_plays_at(lists, k, boundary_bits(a), size) == tables[card][key]
        for n in range(1, 5):
            found = [i for i in range(size - n) if a[i] != a[i + n]]
            assert differences(a, a, n, 1, size - n) == sum(map(ne, a, a[n:])) == len(found)
            assert [nth_difference(a, a, n, 1, k) for k in range(len(found))] == found
        mirrored = [i for i in range(size) if a[i] != b[len(b) - 1 - i]]
        assert differences(a, b, len(b) - 1, -1, size) == len(mirrored)
        assert [nth_difference(a, b, len(b) - 1, -1, k) for k in range(len(mirrored))] == mirrored
    assert shift_lists(13) == ()  # longer rows are scanned


def test_first_sorted_is_the_first_sorted_row_in_turn_order() -> None:
    rng = random.Random(12)
    for _ in range(300):
        master = rng.sample(range(4), 4)
        rank = ranks(master)
        rows = [[rng.randrange(4) for _ in range(rng.randint(2, 4))] for _ in range(4)]
        seat = rng.randrange(4)
        order = [(seat + k) % 4 for k in range(4)]
        expected = next((s for s in order if is_sorted(rows[s], rank)), -1)
        assert first_sorted(rows, rank, seat) == expected


def test_kept_options_tell_json_values_apart() -> None:
    """Resolved options are kept by their repr: options met again give the same frozen
    options and component data, and options that only compare equal (True for 1) are
    validated anew."""
    game = get_game("adas_library")
    options = game.resolve_options({})
    first = game.resolved(options)
    assert game.resolved(dict(options)) is first
    assert first[0] == options and first[1] == game.components(options)
    one = {**options, "components": {**options["components"], "hand_size": 1}}
    assert game.resolved(one)[1].hand_size == 1  # kept
    bad = {**options, "components": {**options["components"], "hand_size": True}}
    assert bad == one
    with pytest.raises(GameOptionError, match="hand_size"):
        game.resolved(bad)
    changed = {**options, "components": {**options["components"], "deck_size": 44}}
    with pytest.raises(GameOptionError, match="deck_size is 44"):
        game.resolved(changed)
    assert len(adas_game.RESOLVED) <= adas_game.RESOLVED_LIMIT
