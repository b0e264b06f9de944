"""Library (the sphere game): hand-built positions for every action and rules decision.

Cells are named by file a-g (left to right) and rank 1-7 (bottom to top): the fountain is
d4, seat 0's entrance d1; with two players seat 1's is d7; with four players (clockwise,
the default) seat 1's a4, seat 2's d7 and seat 3's g4.
A gap is named by the two cells it separates ("d3-d4" lies between d3 and d4).
"""

from __future__ import annotations

import json

import pytest

from simcli.errors import GameOptionError
from simcli.game import TERMINAL, IllegalMoveError
from simcli.games import get_game
from simcli.games.library import Library, LibraryState
from simcli.games.library.board import (
    CELLS,
    FOUNTAIN,
    GAPS,
    PARSE,
    WALL_MOVES,
    cell_name,
    entrances,
)

GAME = Library()
EMPTY = -1


def cell(name: str) -> int:
    return (7 - int(name[1])) * 7 + "abcdefg".index(name[0])


def gap(name: str) -> int:
    return WALL_MOVES.index(f"W {name}")


def position(
    players: int = 2,
    plates: dict[str, int] | None = None,
    walls: dict[str, int] | None = None,
    sphere: str = "d4",
    turn: int = 0,
    forbid: str | None = None,
    **options: object,
) -> LibraryState:
    """A position built by hand: plates and walls as {name: owner}."""
    cells = [EMPTY] * CELLS
    cells[FOUNTAIN] = -2
    for name, owner in (plates or {}).items():
        cells[cell(name)] = owner
    wall_list = [EMPTY] * GAPS
    for name, owner in (walls or {}).items():
        wall_list[gap(name)] = owner
    snap = {
        "players": players,
        "cells": cells,
        "walls": wall_list,
        "sphere": cell(sphere),
        "turn": turn,
        "forbid": None if forbid is None else cell(forbid),
        "winner": None,
    }
    return LibraryState.from_snapshot(GAME, options, snap)


def plate_at(state: LibraryState, name: str) -> int:
    return state.cells[cell(name)]


def wall_at(state: LibraryState, name: str) -> int:
    return state.walls[gap(name)]


def sphere(state: LibraryState) -> str:
    return cell_name(state.sphere)


def check_legal(state: LibraryState, move: str) -> None:
    """``move`` is offered and accepted."""
    assert move in state.legal_moves()
    state.apply(move)


def check_illegal(state: LibraryState, move: str) -> None:
    """``move`` is neither offered nor accepted, and the refusal changes nothing."""
    assert move not in state.legal_moves()
    before = state.snapshot()
    with pytest.raises(IllegalMoveError):
        state.apply(move)
    assert state.snapshot() == before


# --- setup, registration, notation ---------------------------------------------------------


def test_registered_with_options_and_player_counts() -> None:
    game = get_game("library")
    assert isinstance(game, Library)
    assert game.player_counts == (2, 4)
    assert game.resolve_options({}) == {
        "plate_pulls_sphere": True,
        "only_mover_wins": False,
        "no_push_back": "after_push",
        "max_turns": 300,
    }
    with pytest.raises(GameOptionError):
        game.resolve_options({"max_turn": 10})
    with pytest.raises(GameOptionError):
        game.resolve_options({"max_turns": 0})
    with pytest.raises(GameOptionError):
        game.check_players(3)


def test_initial_position() -> None:
    state = GAME.new_state(2, {}, GAME.sample_setup(2, {}, None))  # type: ignore[arg-type]
    assert GAME.sample_setup(2, {}, None) == {}  # type: ignore[arg-type]
    assert GAME.sample_setup(4, {}, None) == {"version": 2}  # type: ignore[arg-type]
    assert sphere(state) == "d4" and state.cells[FOUNTAIN] == -2
    assert state.current_player == 0
    assert all(v == EMPTY for i, v in enumerate(state.cells) if i != FOUNTAIN)
    assert all(v == EMPTY for v in state.walls)
    moves = state.legal_moves()
    # 48 plates + 84 walls; no wall of seat 0 yet, and the sphere cannot move
    assert len(moves) == 48 + 84
    assert moves[0] == "P a7" and "P d4" not in moves and moves[48] == "W a6-a7"
    assert not any(m.startswith(("S ", "M ", "T ")) for m in moves)


def test_setup_must_be_empty() -> None:
    with pytest.raises(IllegalMoveError):
        GAME.new_state(2, {}, {"board": []})
    with pytest.raises(IllegalMoveError):
        GAME.new_state(2, {}, {"version": 2})
    with pytest.raises(GameOptionError):
        GAME.new_state(3, {}, {})


def test_a_four_player_setup_names_the_rules_version() -> None:
    # version 2 made the clockwise order the default: a 4-player setup says version 2
    assert GAME.version == "2"
    state = GAME.new_state(4, {}, {"version": 2})
    assert state.entrances == (cell("d1"), cell("a4"), cell("d7"), cell("g4"))
    for bad in ({"version": 1}, {"version": 3}, {"version": "2"}, {"board": []}):
        with pytest.raises(IllegalMoveError):
            GAME.new_state(4, {}, bad)
    # a version-1 record (setup {}) says so, and how to replay it
    with pytest.raises(IllegalMoveError, match="version 1 .* d1, d7, g4, a4"):
        GAME.new_state(4, {}, {})
    old = GAME.new_state(4, {"turn_order": "d1_d7_g4_a4"}, {})
    assert old.entrances == (cell("d1"), cell("d7"), cell("g4"), cell("a4"))
    legacy = GAME.new_state(4, {"turn_order": "d1_d7_g4_a4"}, {"version": 2})
    assert legacy == old


def test_notation_tables() -> None:
    assert cell_name(FOUNTAIN) == "d4"
    assert [cell_name(c) for c in entrances(4)] == ["d1", "a4", "d7", "g4"]  # clockwise
    assert [cell_name(c) for c in entrances(4, "d1_d7_g4_a4")] == ["d1", "d7", "g4", "a4"]
    assert [cell_name(c) for c in entrances(2)] == ["d1", "d7"]
    assert entrances(2, "d1_d7_g4_a4") == entrances(2)
    assert len(set(WALL_MOVES)) == GAPS == 84
    assert WALL_MOVES[0] == "W a6-a7" and WALL_MOVES[42] == "W a7-b7"
    # every well-formed move: 48 plates, 84 walls, 4 pushes (2 along the line, 2 across
    # it: option push_wall) and 2 topples per gap, 4 sphere pushes and "pass"
    assert len(PARSE) == 48 + 84 + 84 * 6 + 4 + 1
    assert PARSE["M d3-d4 left"] == ("M", gap("d3-d4"), 2)
    assert PARSE["M d3-d4 up"] == ("M", gap("d3-d4"), 0)
    assert "T d3-d4 left" not in PARSE
    assert "T c4-d4 left" in PARSE and "M c4-d4 up" in PARSE and "M c4-d4 left" in PARSE


@pytest.mark.parametrize(
    "move",
    [
        "P d4",
        "P h1",
        "P d8",
        "W d4-d6",
        "W d5-d4",
        "S north",
        "p d3",
        " P d3",
        7,
        ["P", "d3"],
        None,
    ],
)
def test_malformed_or_impossible_moves_are_refused(move: object) -> None:
    state = GAME.new_state(2, {}, {})
    with pytest.raises(IllegalMoveError):
        state.apply(move)


# --- Lay Plate and the pull ----------------------------------------------------------------


def test_plate_pulls_sphere_and_it_stops_before_an_empty_cell() -> None:
    state = position(plates={"d2": 1})
    check_legal(state, "P d3")
    assert plate_at(state, "d3") == 0
    assert sphere(state) == "d2"  # pulled onto d3, rolled on over d2, d1 is empty
    assert state.current_player == 1 and state.forbid == -1


def test_pulled_sphere_stops_at_a_wall() -> None:
    state = position(plates={"d2": 1, "d1": 1}, walls={"d1-d2": 1})
    state.apply("P d3")
    assert sphere(state) == "d2" and not state.is_terminal()


def test_pulled_sphere_stops_at_the_edge() -> None:
    state = position(plates={"f4": 1, "g4": 1})  # g4 is nobody's entrance with 2 players
    state.apply("P e4")
    assert sphere(state) == "g4" and not state.is_terminal()


def test_pulled_onto_an_entrance_wins_for_its_owner_whoever_laid_the_plate() -> None:
    state = position(plates={"d2": 0, "d1": 0}, turn=1)  # seat 1 lays the plate
    state.apply("P d3")
    assert sphere(state) == "d1"
    assert state.current_player == TERMINAL
    outcome = state.outcome()
    assert outcome.winners == (0,) and outcome.scores == (1.0, 0.0)
    assert outcome.termination == "normal"
    assert state.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        state.apply("W a6-a7")


def test_only_mover_wins_option() -> None:
    state = position(plates={"d2": 0, "d1": 0}, turn=1, only_mover_wins=True)
    state.apply("P d3")  # seat 1 rolls the sphere onto seat 0's entrance: no win
    assert sphere(state) == "d1" and not state.is_terminal()
    assert state.current_player == 0
    state = position(plates={"d2": 0, "d1": 0}, turn=0, only_mover_wins=True)
    state.apply("P d3")  # seat 0 rolls it onto its own entrance
    assert state.outcome().winners == (0,)


def test_no_pull_through_a_wall_or_from_a_diagonal_or_with_the_option_off() -> None:
    state = position(plates={"d2": 1}, walls={"d3-d4": 1})
    state.apply("P d3")
    assert sphere(state) == "d4"
    state = position()
    state.apply("P c3")  # diagonal neighbour of d4
    assert sphere(state) == "d4"
    state = position(plates={"d2": 1}, plate_pulls_sphere=False)
    state.apply("P d3")
    assert sphere(state) == "d4" and plate_at(state, "d3") == 0


def test_plate_only_on_an_empty_cell() -> None:
    state = position(plates={"a1": 1})
    check_illegal(state, "P a1")
    check_illegal(state, "P d4")  # the fountain


# --- Lay Wall ---------------------------------------------------------------------------


def test_wall_on_an_empty_gap_blocks_the_sphere() -> None:
    state = position(plates={"d3": 1, "d2": 1})
    check_legal(state, "W d3-d4")
    assert wall_at(state, "d3-d4") == 0
    check_illegal(state, "W d3-d4")  # seat 1: the gap is taken
    assert "S down" not in state.legal_moves()


# --- Push Wall --------------------------------------------------------------------------


def test_push_wall_moves_the_contiguous_run_of_mixed_owners() -> None:
    walls = {"b3-b4": 1, "c3-c4": 0, "d3-d4": 1, "e3-e4": 0, "g3-g4": 1}
    state = position(walls=walls)
    check_legal(state, "M c3-c4 right")
    assert wall_at(state, "b3-b4") == 1  # behind the pushed wall: stays
    assert wall_at(state, "c3-c4") == EMPTY
    assert [wall_at(state, f"{f}3-{f}4") for f in "def"] == [0, 1, 0]
    assert wall_at(state, "g3-g4") == 1  # beyond the gap that ended the run
    assert state.current_player == 1


def test_push_wall_along_a_vertical_line() -> None:
    state = position(walls={"c4-d4": 0, "c5-d5": 1})
    check_legal(state, "M c4-d4 up")
    assert wall_at(state, "c4-d4") == EMPTY
    assert wall_at(state, "c5-d5") == 0 and wall_at(state, "c6-d6") == 1


def test_push_wall_blocked_at_the_edge() -> None:
    state = position(walls={"f3-f4": 0, "g3-g4": 1, "c7-d7": 0, "c1-d1": 0})
    check_illegal(state, "M f3-f4 right")  # the run f, g would leave the board
    check_illegal(state, "M c7-d7 up")
    check_illegal(state, "M c1-d1 down")
    assert "M f3-f4 left" in state.legal_moves()
    assert "M c7-d7 down" in state.legal_moves()
    state.apply("M f3-f4 left")
    assert wall_at(state, "e3-e4") == 0 and wall_at(state, "g3-g4") == 1


def test_push_wall_only_own_walls() -> None:
    state = position(walls={"d3-d4": 1})
    check_illegal(state, "M d3-d4 left")
    check_illegal(state, "T d3-d4 up")


# --- Topple Wall ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wall", "direction", "lands"),
    [
        ("d2-d3", "down", "d2"),
        ("d2-d3", "up", "d3"),
        ("a6-b6", "left", "a6"),
        ("a6-b6", "right", "b6"),
    ],
)
def test_topple_single_wall(wall: str, direction: str, lands: str) -> None:
    state = position(walls={wall: 0})
    check_legal(state, f"T {wall} {direction}")
    assert wall_at(state, wall) == EMPTY
    assert plate_at(state, lands) == 0
    assert sum(v >= 0 for v in state.cells) == 1 and all(v == EMPTY for v in state.walls)


def test_topple_chain_of_mixed_owners_replaces_enemy_plates() -> None:
    walls = {"b2-b3": 0, "b3-b4": 1, "b4-b5": 1, "b6-b7": 1}
    state = position(plates={"b4": 1, "b5": 0}, walls=walls)
    state.apply("T b2-b3 up")
    assert [plate_at(state, f"b{r}") for r in (3, 4, 5)] == [0, 0, 0]
    assert plate_at(state, "b2") == EMPTY and plate_at(state, "b6") == EMPTY
    assert [wall_at(state, f"b{r}-b{r + 1}") for r in (2, 3, 4)] == [EMPTY] * 3
    assert wall_at(state, "b6-b7") == 1  # after the empty gap b5-b6: not in the chain


def test_topple_only_the_walls_behind_in_the_fall_direction() -> None:
    state = position(walls={"b2-b3": 1, "b3-b4": 0, "b4-b5": 1}, turn=0)
    state.apply("T b3-b4 down")  # falls onto b3 and knocks b2-b3 onto b2
    assert plate_at(state, "b3") == 0 and plate_at(state, "b2") == 0
    assert wall_at(state, "b4-b5") == 1 and plate_at(state, "b4") == EMPTY


def test_topple_crushes_the_sphere_back_to_the_fountain() -> None:
    state = position(plates={"c3": 1, "b3": 1}, walls={"c3-d3": 0}, sphere="c3")
    state.apply("T c3-d3 left")
    assert plate_at(state, "c3") == 0
    assert sphere(state) == "d4"
    assert state.forbid == -1  # the default no-push-back rule is set by pushes only


def test_topple_chain_crushes_the_sphere() -> None:
    state = position(plates={"f2": 1}, walls={"d2-e2": 0, "e2-f2": 1}, sphere="f2")
    state.apply("T d2-e2 right")
    assert plate_at(state, "e2") == 0 and plate_at(state, "f2") == 0
    assert sphere(state) == "d4"


def test_wall_falling_on_the_fountain_leaves_it() -> None:
    state = position(walls={"c4-d4": 0, "d4-e4": 1})
    state.apply("T c4-d4 right")  # onto the fountain d4, then d4-e4 onto e4
    assert state.cells[FOUNTAIN] == -2 and sphere(state) == "d4"
    assert plate_at(state, "e4") == 0
    assert wall_at(state, "c4-d4") == EMPTY and wall_at(state, "d4-e4") == EMPTY
    state = position(walls={"d3-d4": 0})
    state.apply("T d3-d4 up")
    assert state.cells[FOUNTAIN] == -2 and sphere(state) == "d4"
    assert all(v < 0 for v in state.cells)  # no plate appeared anywhere


# --- Push Sphere ------------------------------------------------------------------------


def test_push_slides_until_an_empty_cell_a_wall_or_the_edge() -> None:
    plates = {"d3": 1, "d2": 1, "e4": 1, "f4": 1, "g4": 1, "d5": 1, "d6": 1, "c4": 1}
    state = position(plates=plates, walls={"c4-d4": 1, "d6-d7": 1})
    moves = state.legal_moves()
    assert [m for m in moves if m.startswith("S ")] == ["S up", "S down", "S right"]
    down = state.clone()
    down.apply("S down")
    assert sphere(down) == "d2"  # d1 is empty
    up = state.clone()
    up.apply("S up")
    assert sphere(up) == "d6"  # the wall d6-d7
    right = state.clone()
    right.apply("S right")
    assert sphere(right) == "g4"  # the edge
    check_illegal(state, "S left")  # the wall c4-d4: the sphere would not move


def test_a_push_that_moves_nothing_is_not_offered() -> None:
    state = position()
    for d in ("up", "down", "left", "right"):
        check_illegal(state, f"S {d}")


def test_push_onto_an_entrance() -> None:
    mine = position(plates={"d3": 1, "d2": 1, "d1": 1})
    mine.apply("S down")
    assert mine.outcome().winners == (0,)
    theirs = position(plates={"d5": 0, "d6": 0, "d7": 0})
    theirs.apply("S up")  # seat 0 rolls the sphere home for seat 1
    assert theirs.outcome().winners == (1,)
    assert theirs.outcome().scores == (0.0, 1.0)
    variant = position(plates={"d5": 0, "d6": 0, "d7": 0}, only_mover_wins=True)
    variant.apply("S up")
    assert sphere(variant) == "d7" and not variant.is_terminal()


def test_sphere_crosses_an_entrance_without_stopping() -> None:
    state = position(plates={"d5": 0, "d6": 0, "d7": 0, "e7": 0, "c7": 0}, sphere="d6")
    state.apply("S up")
    assert sphere(state) == "d7" and state.is_terminal()
    state = position(plates={"b7": 0, "c7": 0, "d7": 0, "e7": 0}, sphere="b7")
    state.apply("S right")  # rolls over d7 and on to e7: no win
    assert sphere(state) == "e7" and not state.is_terminal()


def test_no_push_back_for_the_next_player_only() -> None:
    plates = {"d3": 1, "d2": 1, "c2": 0}
    state = position(plates=plates)
    state.apply("S down")  # seat 0: d4 -> d2
    assert sphere(state) == "d2" and state.forbid == cell("d4")
    # seat 1: rolling up would stop on d4 (d6 is empty), where the sphere just was
    check_illegal(state, "S up")
    assert "S left" in state.legal_moves()
    state.apply("W a6-a7")  # seat 1 does something else
    assert state.forbid == -1
    check_legal(state, "S up")  # seat 0 may roll it back now
    assert sphere(state) == "d4"


def test_no_push_back_only_forbids_the_same_cell() -> None:
    state = position(plates={"d3": 1, "d2": 1, "d5": 1, "d6": 1})
    state.apply("S down")  # d4 -> d2
    check_legal(state, "S up")  # ends on d6, not on d4
    assert sphere(state) == "d6"
    assert state.forbid == cell("d2")


def test_no_push_back_after_a_pull_depends_on_the_option() -> None:
    default = position(plates={"d2": 1})
    default.apply("P d3")  # pulls d4 -> d2
    assert default.forbid == -1
    check_legal(default, "S up")  # straight back to d4 (d5 is empty): allowed
    assert sphere(default) == "d4"
    strict = position(plates={"d2": 1}, no_push_back="after_any_roll")
    strict.apply("P d3")  # pulls d4 -> d2
    assert strict.forbid == cell("d4")
    check_illegal(strict, "S up")  # would end on d4 (d5 is empty)


def test_crush_sets_no_push_back_only_with_the_option() -> None:
    state = position(
        plates={"c3": 1, "c4": 1}, walls={"c3-d3": 0}, sphere="c3", no_push_back="after_any_roll"
    )
    state.apply("T c3-d3 left")
    assert sphere(state) == "d4" and state.forbid == cell("c3")


# --- end of the game, turn order, four players -------------------------------------------


def test_move_limit_is_a_draw() -> None:
    state = position(max_turns=2)
    state.apply("W a6-a7")
    assert not state.is_terminal()
    state.apply("W b6-b7")
    assert state.current_player == TERMINAL and state.legal_moves() == []
    outcome = state.outcome()
    assert outcome.winners == () and outcome.scores == (0.0, 0.0)
    assert outcome.termination == "move_limit"
    with pytest.raises(IllegalMoveError):
        state.apply("W c6-c7")


def test_win_on_the_last_allowed_turn_is_a_win() -> None:
    state = position(plates={"d3": 1, "d2": 1, "d1": 1}, max_turns=1)
    state.apply("S down")
    assert state.outcome().termination == "normal" and state.outcome().winners == (0,)


def test_outcome_of_an_open_game_is_refused() -> None:
    with pytest.raises(IllegalMoveError):
        position().outcome()


@pytest.mark.parametrize(
    ("order", "owners"),
    [
        # clockwise seen from above, from the bottom: d1 (seat 0), a4 (1), d7 (2), g4 (3)
        ("clockwise", {"d1": 0, "a4": 1, "d7": 2, "g4": 3}),
        # version 1: bottom, top, right, left
        ("d1_d7_g4_a4", {"d1": 0, "d7": 1, "g4": 2, "a4": 3}),
    ],
)
def test_four_players_turn_order_and_entrances(order: str, owners: dict[str, int]) -> None:
    state = GAME.new_state(4, {"turn_order": order}, {"version": 2})
    assert {cell_name(c): s for s, c in enumerate(state.entrances)} == owners
    seen = []
    for move in ("W a6-a7", "W b6-b7", "W c6-c7", "W e6-e7", "W f6-f7"):
        seen.append(state.current_player)
        state.apply(move)
    assert seen == [0, 1, 2, 3, 0]  # seats move in seat order
    assert [wall_at(state, f"{f}6-{f}7") for f in "abcef"] == [0, 1, 2, 3, 0]
    # seat 0 rolls the sphere onto g4: the owner of g4 wins
    right = position(players=4, plates={"e4": 0, "f4": 0, "g4": 0}, turn_order=order)
    right.apply("S right")
    assert right.outcome().winners == (owners["g4"],)
    scores = [0.0] * 4
    scores[owners["g4"]] = 1.0
    assert right.outcome().scores == tuple(scores)
    # the owner of a4 pulls it onto its own entrance
    a4 = owners["a4"]
    left = position(players=4, plates={"b4": a4, "a4": a4}, turn=a4, turn_order=order)
    left.apply("P c4")
    assert left.outcome().winners == (a4,)
    # and the owner of d7 pushes it up onto d7
    d7 = owners["d7"]
    up = position(players=4, plates={"d5": 0, "d6": 0, "d7": 0}, turn=d7, turn_order=order)
    up.apply("S up")
    assert up.outcome().winners == (d7,)
    # with two players g4 is an ordinary cell
    two = position(players=2, plates={"e4": 0, "f4": 0, "g4": 0})
    two.apply("S right")
    assert sphere(two) == "g4" and not two.is_terminal()
    # only the mover: seat 2 rolls the sphere onto a4 (seat 1's entrance): no win
    only = position(players=4, plates={"c4": 0, "b4": 0, "a4": 0}, turn=2, only_mover_wins=True)
    only.apply("S left")
    assert sphere(only) == "a4" and only.current_player == 3


def test_pass_only_when_nothing_else_is_possible() -> None:
    full = {cell_name(c): 0 for c in range(CELLS) if c != FOUNTAIN}
    all_walls = {WALL_MOVES[g][2:]: 1 for g in range(GAPS)}
    state = position(plates=full, walls=all_walls)
    assert state.legal_moves() == ["pass"]  # seat 0 owns no wall, the sphere is walled in
    state.apply("pass")
    assert state.current_player == 1
    moves = state.legal_moves()
    assert "pass" not in moves and len(moves) == 2 * GAPS  # every wall topples two ways
    check_illegal(state, "pass")
    check_illegal(position(), "pass")


# --- copies, snapshots, render -----------------------------------------------------------


def test_clone_snapshot_and_rebuild() -> None:
    state = position(plates={"d3": 1, "d2": 0}, walls={"c4-d4": 1}, sphere="d4")
    copy = state.clone()
    assert copy == state and copy is not state
    copy.apply("S down")
    assert copy != state and sphere(state) == "d4"
    snap = json.loads(json.dumps(copy.snapshot()))
    again = LibraryState.from_snapshot(GAME, {}, snap)
    assert again == copy and again.final_hash() == copy.final_hash()
    assert again.legal_moves() == copy.legal_moves()
    assert (again.walk, again.hmask, again.vmask) == (copy.walk, copy.hmask, copy.vmask)
    bad = dict(snap, sphere=cell("a1"))  # the sphere on an empty cell
    with pytest.raises(IllegalMoveError):
        LibraryState.from_snapshot(GAME, {}, bad)
    with pytest.raises(IllegalMoveError):
        LibraryState.from_snapshot(GAME, {}, dict(snap, players=3))


def test_view_is_a_full_copy() -> None:
    state = position(plates={"d3": 1})
    for seat in range(2):
        assert state.view(seat) == state


def test_render_shows_cells_plates_walls_sphere_fountain_and_entrances() -> None:
    state = position(players=4, plates={"d3": 0, "e4": 1}, walls={"d2-d3": 1, "c4-d4": 2})
    lines = state.render().splitlines()
    assert lines[0].split() == list("abcdefg")
    # clockwise: seat 0 d1, seat 1 a4, seat 2 d7, seat 3 g4
    assert lines[1] == "     +---+---+---+-2-+---+---+---+"  # seat 2's entrance d7
    assert lines[-4] == "     +---+---+---+-0-+---+---+---+"  # seat 0's entrance d1
    rank4 = lines[2 + 2 * 3]
    assert rank4 == "  4  1 .   .   . C(~)  1   .   . 3  4"
    rank3 = lines[2 + 2 * 4]
    assert rank3 == "  3  | .   .   .   0   .   .   . |  3"
    assert lines[2 + 2 * 4 + 1] == "     +   +   +   +BBB+   +   +   +"
    assert "seat 3 g4" in lines[-2] and "turn 1, seat 0 to move" in lines[-1]
    state.apply("S right")
    assert "(1)" in state.render()
