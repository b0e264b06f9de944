"""The sphere game loads a snapshot through its declared fields (``statefields.load``):
every snapshot the game writes, of a state or a seat's view, under every option value,
loads back to an equal position; a snapshot no game can reach is refused with one line
that names the key."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from simcli.frozen import freeze
from simcli.game import IllegalMoveError
from simcli.games import get_game
from simcli.games.library.board import FOUNTAIN

GAME = get_game("library")

#: Every option away from its default, with 2 and 4 players.
OPTIONS = [
    {"turn_order": "d1_d7_g4_a4"},
    {"push_wall": "sideways"},
    {"push_wall": "both", "topple_chain": "line"},
    {"sphere_push": "toward_own"},
    {"walls_per_player": 3},
    {"extra_actions": 2, "no_push_back": "after_any_roll"},
    {"plate_pulls_sphere": False, "only_mover_wins": True},
]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("given", OPTIONS, ids=lambda o: "-".join(o))
def test_every_snapshot_the_game_writes_loads_back(players: int, given: dict[str, Any]) -> None:
    options = freeze(GAME.resolve_options({**given, "max_turns": 40}))
    state = GAME.new_state(players, options, GAME.sample_setup(players, options, None))
    rng = random.Random(7)
    while True:
        for copy in (state, state.view(rng.randrange(players))):
            snap = json.loads(json.dumps(copy.snapshot()))
            loaded = GAME.state_from_snapshot(players, options, snap)
            assert loaded == copy and loaded.snapshot() == snap
            assert loaded.legal_moves() == copy.legal_moves()
            assert loaded.current_player == copy.current_player
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_moves()))


def played(options: dict[str, Any] | None = None) -> Any:
    """Seat 0 lays walls on c4-d4 and d2-d3, seat 1 a plate on b2 and a wall on a1-a2;
    the sphere stays on d4."""
    resolved = freeze(GAME.resolve_options(options or {}))
    state = GAME.new_state(2, resolved, {})
    for move in ("W c4-d4", "P b2", "W d2-d3", "W a1-a2"):
        state.apply(move)
    return state


def a_snapshot() -> dict[str, Any]:
    return json.loads(json.dumps(played().snapshot()))


def cells_with(cell: int, value: int) -> list[int]:
    cells = a_snapshot()["cells"]
    cells[cell] = value
    return cells


STOCK = {"walls_per_player": 3}
BAD = [
    # (changed keys, options, the message)
    ({"players": 4}, {}, "'players' must be 2, got 4"),
    ({"cells": cells_with(FOUNTAIN, -1)}, {}, "'cells' must be the fountain (-2) on d4"),
    ({"cells": cells_with(0, -2)}, {}, "'cells' must be the fountain (-2) on d4"),
    ({"cells": cells_with(0, 2)}, {}, "'cells' must be a list of 49 entries, each an integer"),
    ({"sphere": 0}, {}, "'sphere' must be on a plate or the fountain, not on empty a7"),
    ({"sphere": 49}, {}, "'sphere' must be an integer 0..48, got 49"),
    ({"winner": 2}, {}, "'winner' must be null or an integer 0..1, got 2"),
    ({"turn": -1}, {}, "'turn' must be an integer >= 0, got -1"),
    ({"walls_left": [3, 3]}, {}, "'walls_left' needs the option walls_per_player"),
    ({}, STOCK, "missing 'walls_left' (option walls_per_player)"),
    ({"walls_left": [2, 3]}, STOCK, "'walls_left' must be at most 1 for seat 0 (2 of its 3"),
    ({"walls_left": [1, 4]}, STOCK, "'walls_left' must be a list of 2 entries, each an integer"),
    ({"walls_left": [1]}, STOCK, "'walls_left' must be a list of 2 entries"),
    ({"extra": 1}, {}, "unknown key 'extra'"),
]


@pytest.mark.parametrize(("change", "given", "message"), BAD, ids=[m for _, _, m in BAD])
def test_a_bad_snapshot_is_refused_in_one_line_naming_the_key(
    change: dict[str, Any], given: dict[str, Any], message: str
) -> None:
    options = GAME.resolve_options(given)
    snap = {**a_snapshot(), **change}
    with pytest.raises(IllegalMoveError) as refused:
        GAME.state_from_snapshot(2, options, snap)
    text = str(refused.value)
    assert text.startswith("Library snapshot: ") and "\n" not in text
    assert message in text


def test_the_wall_stock_may_leave_exactly_the_walls_on_the_board() -> None:
    """Seat 0 has 2 walls on the board: with a stock of 3 it has at most 1 left."""
    assert played(STOCK).walls_left == [1, 2]
    snap = {**a_snapshot(), "walls_left": [1, 2]}
    state = GAME.state_from_snapshot(2, GAME.resolve_options(STOCK), snap)
    assert state.walls_left == [1, 2] and state.snapshot() == snap
    with pytest.raises(IllegalMoveError, match="at most 2 for seat 1"):
        GAME.state_from_snapshot(2, GAME.resolve_options(STOCK), {**snap, "walls_left": [1, 3]})


def test_a_loaded_position_has_its_move_lists_rebuilt() -> None:
    """The bit masks and move lists come from the cells and walls, as play keeps them."""
    original = played()
    loaded = GAME.state_from_snapshot(2, original.options, a_snapshot())
    assert (loaded.walk, loaded.hmask, loaded.vmask) == (
        original.walk,
        original.hmask,
        original.vmask,
    )
    assert loaded._own == original._own and loaded._pushes == original._pushes
    assert loaded.legal_moves() == original.legal_moves()
