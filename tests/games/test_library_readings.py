"""The sphere game's options for the text's other readings (issue 37), on hand-worked
positions: ``turn_order`` (and version 2 of the rules, which made it clockwise),
``push_wall``, ``topple_chain``, ``sphere_push`` and ``walls_per_player``. Each is left
out of the resolved options at its default, so records of the default reading stay as
they were. The expected positions are worked out by hand in the comments; the
independent reference model in ``test_library_legal.py`` checks the same options on
random positions.

Cells: file a-g (left to right), rank 1-7 (bottom to top); the fountain is d4. A gap is
named by the two cells it separates: ``c3-c4`` lies between c3 and c4 (a horizontal
gap, on the line between ranks 3 and 4), ``c4-d4`` between c4 and d4 (a vertical gap).
"""

from __future__ import annotations

import pytest
from test_library_rules import check_illegal, check_legal, plate_at, position, sphere, wall_at

import simcli
from simcli.game import IllegalMoveError
from simcli.games import get_game
from simcli.records import dumps
from simcli.verify import replay
from simcli_strategies.greedy import GreedyStrategy
from simcli_strategies.library_heuristic import LibraryHeuristicStrategy
from simcli_strategies.random_play import RandomStrategy

GAME = get_game("library")
READINGS = ("turn_order", "push_wall", "topple_chain", "sphere_push", "walls_per_player")


def test_the_readings_are_left_out_of_the_options_at_their_defaults() -> None:
    defaults = GAME.resolve_options({})
    assert not set(READINGS) & set(defaults)
    given = {
        "turn_order": "clockwise",
        "push_wall": "along",
        "topple_chain": "behind",
        "sphere_push": "any",
        "walls_per_player": 0,
    }
    assert GAME.resolve_options(given) == defaults
    other = {
        "turn_order": "d1_d7_g4_a4",
        "push_wall": "both",
        "topple_chain": "line",
        "sphere_push": "toward_own",
        "walls_per_player": 7,
    }
    assert {k: GAME.resolve_options(other)[k] for k in READINGS} == other


# --- turn order and the rules' version -------------------------------------------------------


def test_a_version_1_record_says_so_on_replay_and_replays_with_the_old_order() -> None:
    """A 4-player record written before version 2 has setup {} and no turn_order: its
    replay says which version it is and how to replay it; given the old order it
    replays exactly. 2-player records are unchanged by version 2."""
    old_rules = GAME.resolve_options({"turn_order": "d1_d7_g4_a4", "max_turns": 60})
    record = simcli.play(GAME, "random", players=4, options=old_rules, seed=3)
    assert record["setup"] == {"version": 2}
    assert replay(record) == []
    # what version 1 wrote: no setup key, no turn_order (it did not exist)
    v1 = dict(record, setup={}, options={k: v for k, v in old_rules.items() if k != "turn_order"})
    problems = replay(v1)
    assert len(problems) == 1 and problems[0].ply == 0
    assert "version 1" in problems[0].message and "turn_order" in problems[0].message
    fixed = dict(v1, options=dict(v1["options"], turn_order="d1_d7_g4_a4"))
    assert replay(fixed) == []
    two = simcli.play(GAME, "random", players=2, seed=3)
    assert two["setup"] == {} and "turn_order" not in two["options"]


# --- Push Wall sideways --------------------------------------------------------------------
# Walls on c3-c4 (seat 0), d3-d4 (seat 1) and e3-e4 (seat 0): one straight line of three
# walls on the line between ranks 3 and 4.
LINE = {"c3-c4": 0, "d3-d4": 1, "e3-e4": 0}


def test_push_wall_along_the_line_is_the_default() -> None:
    state = position(walls=LINE)
    check_illegal(state, "M c3-c4 up")  # sideways: not under the default
    check_legal(state, "M c3-c4 right")  # the run c, d, e moves on to d, e, f
    assert {g: wall_at(state, g) for g in ("c3-c4", "d3-d4", "e3-e4", "f3-f4")} == {
        "c3-c4": -1,
        "d3-d4": 0,
        "e3-e4": 1,
        "f3-f4": 0,
    }


def test_push_wall_sideways_moves_the_whole_line_as_one() -> None:
    state = position(walls=LINE, push_wall="sideways")
    # seat 0's moves of its walls: no push along the line; both of its walls push the
    # line up or down; four topples
    own = [m for m in state.legal_moves() if m[0] in "MT"]
    assert own == [
        "M c3-c4 up",
        "M c3-c4 down",
        "M e3-e4 up",
        "M e3-e4 down",
        "T c3-c4 up",
        "T c3-c4 down",
        "T e3-e4 up",
        "T e3-e4 down",
    ]
    check_illegal(state, "M c3-c4 right")
    check_legal(state, "M c3-c4 up")
    # the line now lies between ranks 4 and 5, owners kept
    assert [wall_at(state, g) for g in ("c4-c5", "d4-d5", "e4-e5")] == [0, 1, 0]
    assert [wall_at(state, g) for g in ("c3-c4", "d3-d4", "e3-e4")] == [-1, -1, -1]


def test_a_sideways_push_is_blocked_by_a_wall_in_the_way_or_the_edge() -> None:
    # a wall on d4-d5 stands where d3-d4 would go up: up is blocked, down is not
    state = position(walls={**LINE, "d4-d5": 1}, push_wall="sideways")
    check_illegal(state, "M c3-c4 up")
    check_legal(state, "M c3-c4 down")
    assert [wall_at(state, g) for g in ("c2-c3", "d2-d3", "e2-e3")] == [0, 1, 0]
    assert wall_at(state, "d4-d5") == 1
    # a wall on the top line (a6-a7) cannot go further up; down it moves to a5-a6
    top = position(walls={"a6-a7": 0}, push_wall="sideways")
    check_illegal(top, "M a6-a7 up")
    check_legal(top, "M a6-a7 down")
    assert wall_at(top, "a5-a6") == 0 and wall_at(top, "a6-a7") == -1


def test_a_vertical_line_pushed_sideways_and_a_broken_line() -> None:
    # c4-d4 (seat 0) and c5-d5 (seat 1) lie on one vertical line: pushed right, both
    # go to d4-e4 and d5-e5; c2-d2 (seat 1) is not next to them and stays
    state = position(walls={"c4-d4": 0, "c5-d5": 1, "c2-d2": 1}, push_wall="both")
    moves = state.legal_moves()
    assert {"M c4-d4 up", "M c4-d4 down", "M c4-d4 left", "M c4-d4 right"} <= set(moves)
    check_legal(state, "M c4-d4 right")
    assert (wall_at(state, "d4-e4"), wall_at(state, "d5-e5"), wall_at(state, "c2-d2")) == (
        0,
        1,
        1,
    )
    assert wall_at(state, "c4-d4") == -1 and wall_at(state, "c5-d5") == -1


# --- Topple chain read as the connected line -----------------------------------------------
# Walls c3-c4 (seat 0), d3-d4 and e3-e4 (seat 1) on one line, c4-c5 (seat 1) behind
# c3-c4; a plate of seat 1 on e4 with the sphere on it.
TOPPLE = {"c3-c4": 0, "d3-d4": 1, "e3-e4": 1, "c4-c5": 1}


def test_topple_behind_is_the_default() -> None:
    state = position(plates={"e4": 1}, walls=TOPPLE, sphere="e4")
    check_legal(state, "T c3-c4 up")
    # c3-c4 falls onto c4 and knocks c4-c5 onto c5; d3-d4 and e3-e4 stay
    assert (plate_at(state, "c4"), plate_at(state, "c5")) == (0, 0)
    assert (wall_at(state, "d3-d4"), wall_at(state, "e3-e4")) == (1, 1)
    assert sphere(state) == "e4"


def test_topple_line_fells_the_connected_line() -> None:
    state = position(plates={"e4": 1}, walls=TOPPLE, sphere="e4", topple_chain="line")
    check_legal(state, "T c3-c4 up")
    # c3-c4, d3-d4 and e3-e4 fall up onto c4, d4 (the fountain: unchanged) and e4 (the
    # sphere's cell: seat 0's plate now, the sphere crushed back to the fountain);
    # c4-c5, behind c3-c4 but not on its line, stays
    assert [wall_at(state, g) for g in ("c3-c4", "d3-d4", "e3-e4")] == [-1, -1, -1]
    assert (plate_at(state, "c4"), plate_at(state, "d4"), plate_at(state, "e4")) == (0, -2, 0)
    assert sphere(state) == "d4"
    assert wall_at(state, "c4-c5") == 1 and plate_at(state, "c5") == -1


# --- Push Sphere only toward the pusher's own entrance -------------------------------------


def test_pushes_must_bring_the_sphere_closer_to_the_pushers_entrance() -> None:
    # plates b4, c4 and d3, d2. Seat 0's entrance is d1 (Manhattan distance 3 from d4):
    # "S left" ends on b4 (distance 3 + 2 = 5): refused; "S down" ends on d2 (1): fine.
    plates = {"b4": 0, "c4": 0, "d3": 1, "d2": 1}
    state = position(plates=plates, sphere_push="toward_own")
    assert [m for m in state.legal_moves() if m[0] == "S"] == ["S down"]
    check_illegal(state, "S left")
    free = position(plates=plates)
    assert [m for m in free.legal_moves() if m[0] == "S"] == ["S down", "S left"]
    # seat 1 (d7, distance 3 from d4): down to d2 (distance 5) and left to b4 (3 + 2)
    # both move it away: no sphere push at all
    seat1 = position(plates=plates, turn=1, sphere_push="toward_own")
    assert [m for m in seat1.legal_moves() if m[0] == "S"] == []
    with pytest.raises(IllegalMoveError, match="closer to seat 1's entrance d7"):
        seat1.apply("S down")


def test_a_push_across_can_bring_it_closer_for_both_seats() -> None:
    # the sphere on b2 (plates b2, c2, d2): "S right" ends on d2. Seat 0 (d1): 3 -> 1;
    # seat 1 (d7): 5 + 2 = 7 -> 5. Closer for both.
    plates = {"b2": 0, "c2": 0, "d2": 0}
    for seat in (0, 1):
        state = position(plates=plates, sphere="b2", turn=seat, sphere_push="toward_own")
        check_legal(state, "S right")
        assert sphere(state) == "d2"


def test_a_plate_still_pulls_the_sphere_any_way() -> None:
    # the pull of a new plate is not a push: seat 1 lays d3 and the sphere rolls down
    # over d3 and d2 onto d1, seat 0's entrance: seat 0 wins
    state = position(plates={"d2": 0, "d1": 0}, turn=1, sphere_push="toward_own")
    check_legal(state, "P d3")
    assert state.outcome().winners == (0,)


# --- A stock of walls per player ----------------------------------------------------------


def test_a_wall_stock_runs_out_and_toppled_walls_do_not_come_back() -> None:
    options = GAME.resolve_options({"walls_per_player": 2})
    state = GAME.new_state(2, options, {})
    assert state.snapshot()["walls_left"] == [2, 2]
    for move in ("W a6-a7", "W b6-b7", "W c6-c7", "P a1"):
        check_legal(state, move)
    # seat 0 laid 2 walls, seat 1 one: seat 0 may lay no wall, seat 1 one more
    assert state.snapshot()["walls_left"] == [0, 1]
    assert not any(m.startswith("W ") for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="laid all its walls"):
        state.apply("W e6-e7")
    check_legal(state, "T a6-a7 down")  # seat 0 topples one: no wall comes back
    assert state.snapshot()["walls_left"] == [0, 1]
    assert sum(m.startswith("W ") for m in state.legal_moves()) == 84 - 2  # seat 1's turn
    assert "walls left to lay: seat 0 0, seat 1 1" in state.render()
    again = GAME.state_from_snapshot(2, options, state.snapshot())
    assert again == state and again.legal_moves() == state.legal_moves()


def test_a_seat_without_walls_or_cells_passes() -> None:
    # every cell plated, the sphere on d4 walled in by seat 1's four walls; the stock is
    # 4 walls and both seats have laid all of theirs (seat 0's were toppled): seat 0 has
    # no plate, no wall, no wall of its own and no sphere push, so it passes
    plates = {name: 0 for name in ALL_CELLS if name != "d4"}
    walls = {"d3-d4": 1, "d4-d5": 1, "c4-d4": 1, "d4-e4": 1}
    snap = position(plates=plates, walls=walls).snapshot()
    snap["walls_left"] = [0, 0]
    options = GAME.resolve_options({"walls_per_player": 4})
    state = GAME.state_from_snapshot(2, options, snap)
    assert state.legal_moves() == ["pass"]
    check_legal(state, "pass")
    # seat 1 topples its walls (two ways each) and pushes them along their lines
    moves = state.legal_moves()
    assert "pass" not in moves and sum(m[0] == "T" for m in moves) == 8
    # a stock smaller than the walls a seat has on the board cannot be
    with pytest.raises(IllegalMoveError):
        GAME.state_from_snapshot(2, GAME.resolve_options({"walls_per_player": 3}), snap)


ALL_CELLS = [f"{f}{r}" for f in "abcdefg" for r in range(1, 8)]


# --- Every reading with the built-in strategies --------------------------------------------

READING_VALUES = [
    {"turn_order": "d1_d7_g4_a4"},
    {"push_wall": "sideways"},
    {"push_wall": "both"},
    {"topple_chain": "line"},
    {"sphere_push": "toward_own"},
    {"walls_per_player": 5},
]


@pytest.mark.slow
@pytest.mark.parametrize("given", READING_VALUES, ids=lambda g: "-".join(map(str, g.items())))
@pytest.mark.parametrize("players", [2, pytest.param(4, marks=pytest.mark.slow)])
def test_the_strategies_play_every_reading_and_the_records_replay(given, players) -> None:
    options = GAME.resolve_options({**given, "max_turns": 40})
    factories = {
        "h": LibraryHeuristicStrategy,
        "g": GreedyStrategy,
        "r": RandomStrategy,
    }
    seats = ["h", "g", "r", "h"][:players]
    seats = [{"name": s, "use": factories[s]} for s in seats]
    record = simcli.play(GAME, seats, options=options, seed=11)
    assert record["termination"] in ("normal", "move_limit"), record.get("detail")
    assert {k: record["options"][k] for k in given} == given
    assert replay(record) == []
    assert dumps(simcli.play(GAME, seats, options=options, seed=11)) == dumps(record)
