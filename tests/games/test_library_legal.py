"""Library: ``legal_moves()`` and ``apply()`` against a slow, independent reference model.

The reference reads the documented snapshot format and works on (row, column) pairs and
on the move notation itself; it shares no code with the rules module. For many random
positions: the legal moves are exactly the reference's, each legal move gives the
reference's next position, and every other well-formed or malformed move is refused.
A hypothesis property test checks that random play never reaches an impossible position.

The reference also models the options of the text's other readings (turn order, sideways
wall pushes, the line topple, pushes toward one's own entrance, a wall stock), each from
the option's documented wording, and is checked on positions played and built under
random choices of them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from slow_cases import slow_unless

from simcli.game import IllegalMoveError
from simcli.games.library import Library, LibraryState
from simcli.games.library.board import PARSE

GAME = Library()
FILES = "abcdefg"
DIRS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
ENTRANCES = [(6, 3), (0, 3), (3, 6), (3, 0)]  # version 1: bottom, top, right, left
#: the seats' entrances by option turn_order (clockwise: bottom, left, top, right)
ORDERS = {"clockwise": [(6, 3), (3, 0), (0, 3), (3, 6)], "d1_d7_g4_a4": ENTRANCES}
FOUNTAIN = (3, 3)
Cell = tuple[int, int]


def name(cell: Cell) -> str:
    return f"{FILES[cell[1]]}{7 - cell[0]}"


def on_board(cell: Cell) -> bool:
    return 0 <= cell[0] < 7 and 0 <= cell[1] < 7


def gap_key(a: Cell, b: Cell) -> tuple[Cell, Cell]:
    return (a, b) if a < b else (b, a)


def gap_label(key: tuple[Cell, Cell]) -> str:
    a, b = key  # a is above or left of b
    if a[1] == b[1]:  # one above the other: lower rank first
        return f"{name(b)}-{name(a)}"
    return f"{name(a)}-{name(b)}"


def manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def across_of(key: tuple[Cell, Cell]) -> tuple[str, str]:
    """The directions across a wall's line: a wall between two cells one above the
    other lies on a horizontal line (up, down); else on a vertical one (left, right)."""
    return ("up", "down") if key[0][1] == key[1][1] else ("left", "right")


def shift(key: tuple[Cell, Cell], dr: int, dc: int) -> tuple[Cell, Cell] | None:
    a, b = key
    a2, b2 = (a[0] + dr, a[1] + dc), (b[0] + dr, b[1] + dc)
    return (a2, b2) if on_board(a2) and on_board(b2) else None


class Reference:
    """A deliberately plain model of the rules, built from a snapshot."""

    def __init__(self, snap: dict[str, Any], options: dict[str, Any]) -> None:
        self.players = snap["players"]
        self.options = options
        self.grid = {(r, c): snap["cells"][7 * r + c] for r in range(7) for c in range(7)}
        self.walls: dict[tuple[Cell, Cell], int] = {}
        for r in range(6):
            for c in range(7):
                self.walls[((r, c), (r + 1, c))] = snap["walls"][7 * r + c]
        for r in range(7):
            for c in range(6):
                self.walls[((r, c), (r, c + 1))] = snap["walls"][42 + 6 * r + c]
        self.sphere = divmod(snap["sphere"], 7)
        self.turn = snap["turn"]
        self.forbid = None if snap["forbid"] is None else divmod(snap["forbid"], 7)
        self.winner = snap["winner"]
        self.left = None if "walls_left" not in snap else list(snap["walls_left"])
        order = options.get("turn_order", "clockwise")
        self.entrances = ORDERS[order][: self.players] if self.players == 4 else ENTRANCES[:2]

    def line(self, key: tuple[Cell, Cell]) -> list[tuple[Cell, Cell]]:
        """The straight line of walls through ``key``: the walls next to each other on
        the same grid line (cells side by side along it), both ways."""
        a, b = key
        step = (0, 1) if a[1] == b[1] else (1, 0)  # along the line
        out = [key]
        for sign in (1, -1):
            cur = key
            while True:
                nxt = shift(cur, sign * step[0], sign * step[1])
                if nxt is None or self.walls[nxt] == -1:
                    break
                out.append(nxt)
                cur = nxt
        return out

    def sideways_ok(self, key: tuple[Cell, Cell], d: str) -> bool:
        for k in self.line(key):
            dest = shift(k, *DIRS[d])
            if dest is None or self.walls[dest] != -1:
                return False
        return True

    def snapshot(self) -> dict[str, Any]:
        walls = [self.walls[((r, c), (r + 1, c))] for r in range(6) for c in range(7)]
        walls += [self.walls[((r, c), (r, c + 1))] for r in range(7) for c in range(6)]
        return {
            "players": self.players,
            "cells": [self.grid[(r, c)] for r in range(7) for c in range(7)],
            "walls": walls,
            "sphere": 7 * self.sphere[0] + self.sphere[1],
            "turn": self.turn,
            "forbid": None if self.forbid is None else 7 * self.forbid[0] + self.forbid[1],
            "winner": self.winner,
            **({} if self.left is None else {"walls_left": list(self.left)}),
        }

    @property
    def seat(self) -> int:
        return self.turn % self.players

    def terminal(self) -> bool:
        return self.winner is not None or self.turn >= self.options["max_turns"]

    def roll(self, start: Cell, d: str) -> Cell:
        dr, dc = DIRS[d]
        pos = start
        while True:
            nxt = (pos[0] + dr, pos[1] + dc)
            if not on_board(nxt) or self.walls[gap_key(pos, nxt)] != -1 or self.grid[nxt] == -1:
                return pos
            pos = nxt

    def run_end(self, key: tuple[Cell, Cell], d: str) -> tuple[Cell, Cell] | None:
        cur: tuple[Cell, Cell] | None = key
        while cur is not None and self.walls[cur] != -1:
            cur = shift(cur, *DIRS[d])
        return cur

    def legal(self) -> set[str]:
        if self.terminal():
            return set()
        moves = {f"P {name(c)}" for c, v in self.grid.items() if v == -1}
        if self.left is None or self.left[self.seat] > 0:
            moves |= {f"W {gap_label(k)}" for k, v in self.walls.items() if v == -1}
        push = self.options.get("push_wall", "along")
        for key, owner in self.walls.items():
            if owner != self.seat:
                continue
            vertical_pair = key[0][1] == key[1][1]  # cells one above the other
            along = ("left", "right") if vertical_pair else ("up", "down")
            across = ("up", "down") if vertical_pair else ("left", "right")
            for d in along:
                if push != "sideways" and self.run_end(key, d) is not None:
                    moves.add(f"M {gap_label(key)} {d}")
            for d in across:
                moves.add(f"T {gap_label(key)} {d}")
                if push != "along" and self.sideways_ok(key, d):
                    moves.add(f"M {gap_label(key)} {d}")
        home = self.entrances[self.seat]
        for d in DIRS:
            end = self.roll(self.sphere, d)
            if end != self.sphere and end != self.forbid:
                if self.options.get("sphere_push", "any") == "toward_own":
                    if manhattan(end, home) >= manhattan(self.sphere, home):
                        continue
                moves.add(f"S {d}")
        return moves or {"pass"}

    def find_gap(self, label: str) -> tuple[Cell, Cell]:
        return next(k for k in self.walls if gap_label(k) == label)

    def apply(self, move: str) -> None:
        seat = self.seat
        parts = move.split()
        before = self.sphere
        rolled_by_action = False
        if parts[0] == "P":
            cell = (7 - int(parts[1][1]), FILES.index(parts[1][0]))
            self.grid[cell] = seat
            for d, (dr, dc) in DIRS.items():
                if (self.sphere[0] + dr, self.sphere[1] + dc) == cell:
                    if (
                        self.options["plate_pulls_sphere"]
                        and self.walls[gap_key(self.sphere, cell)] == -1
                    ):
                        self.sphere = self.roll(self.sphere, d)
                        rolled_by_action = True
                    break
        elif parts[0] == "W":
            self.walls[self.find_gap(parts[1])] = seat
            if self.left is not None:
                self.left[seat] -= 1
        elif parts[0] == "M" and parts[2] in across_of(self.find_gap(parts[1])):
            # a push across the wall's own line: the whole line slides as one
            line = self.line(self.find_gap(parts[1]))
            owners = [self.walls[k] for k in line]
            for k in line:
                self.walls[k] = -1
            for k, owner in zip(line, owners, strict=True):
                self.walls[shift(k, *DIRS[parts[2]])] = owner  # type: ignore[index]
        elif parts[0] == "M":
            key = self.find_gap(parts[1])
            run = [key]
            while True:
                nxt = shift(run[-1], *DIRS[parts[2]])
                assert nxt is not None
                if self.walls[nxt] == -1:
                    break
                run.append(nxt)
            owners = [self.walls[k] for k in run]
            for k in run:
                self.walls[k] = -1
            for k, owner in zip(run, owners, strict=True):
                self.walls[shift(k, *DIRS[parts[2]])] = owner  # type: ignore[index]
        elif parts[0] == "T" and self.options.get("topple_chain", "behind") == "line":
            d = parts[2]
            for k in self.line(self.find_gap(parts[1])):
                self.walls[k] = -1
                target = k[0] if d in ("up", "left") else k[1]
                if target != FOUNTAIN:
                    self.grid[target] = seat
                    if target == self.sphere:
                        self.sphere = FOUNTAIN
        elif parts[0] == "T":
            key: tuple[Cell, Cell] | None = self.find_gap(parts[1])
            d = parts[2]
            while key is not None and self.walls[key] != -1:
                self.walls[key] = -1
                target = key[0] if d in ("up", "left") else key[1]
                if target != FOUNTAIN:
                    self.grid[target] = seat
                    if target == self.sphere:
                        self.sphere = FOUNTAIN
                key = shift(key, *DIRS[d])
        elif parts[0] == "S":
            self.sphere = self.roll(self.sphere, parts[1])
            rolled_by_action = True
        moved = self.sphere != before
        if parts[0] == "S" or (moved and self.options["no_push_back"] == "after_any_roll"):
            self.forbid = before
        else:
            self.forbid = None
        if moved and rolled_by_action:
            for owner, cell in enumerate(self.entrances):
                if cell == self.sphere and (not self.options["only_mover_wins"] or owner == seat):
                    self.winner = owner
        self.turn += 1


JUNK = ["", "P", "P d4", "W d3-d5", "M d3-d4 up", "T d3-d4 left", "S", "S d4", "pass now"]
ALL_MOVES = sorted(PARSE) + JUNK


def random_options(rng: random.Random) -> dict[str, Any]:
    return GAME.resolve_options(
        {
            "plate_pulls_sphere": rng.random() < 0.7,
            "only_mover_wins": rng.random() < 0.3,
            "no_push_back": rng.choice(["after_push", "after_any_roll"]),
            "max_turns": rng.choice([300, 40]),
        }
    )


def reading_options(rng: random.Random) -> dict[str, Any]:
    """Random options with random choices of the other readings too."""
    given = dict(random_options(rng))
    given.update(
        turn_order=rng.choice(["clockwise", "d1_d7_g4_a4"]),
        push_wall=rng.choice(["along", "sideways", "both"]),
        topple_chain=rng.choice(["behind", "line"]),
        sphere_push=rng.choice(["any", "toward_own"]),
        walls_per_player=rng.choice([0, 3, 12]),
    )
    return GAME.resolve_options(given)


def played_position(rng: random.Random, options=random_options) -> LibraryState:
    players = rng.choice([2, 4])
    opts = options(rng)
    state = GAME.new_state(players, opts, GAME.sample_setup(players, opts, rng))
    for _ in range(rng.randrange(0, 200)):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def synthetic_position(rng: random.Random, options=random_options) -> LibraryState:
    """A random (possibly unreachable but valid) position: dense plates and walls, so
    that long wall runs, chains and blocked sphere pushes are common."""
    players = rng.choice([2, 4])
    fill, wall_fill = rng.random(), rng.random()
    cells = [rng.randrange(players) if rng.random() < fill else -1 for _ in range(49)]
    cells[24] = -2
    walls = [rng.randrange(players) if rng.random() < wall_fill else -1 for _ in range(84)]
    walkable = [i for i, v in enumerate(cells) if v != -1]
    sphere = rng.choice(walkable)
    forbid = rng.choice([None, rng.randrange(49)])
    snap = {
        "players": players,
        "cells": cells,
        "walls": walls,
        "sphere": sphere,
        "turn": rng.randrange(0, 8),
        "forbid": None if forbid == sphere else forbid,
        "winner": None,
    }
    opts = options(rng)
    stock = opts.get("walls_per_player", 0)
    if stock:  # a stock at least the walls each seat has on the board
        stock = max([stock] + [walls.count(s) for s in range(players)])
        opts = GAME.resolve_options({**opts, "walls_per_player": stock})
        snap["walls_left"] = [rng.randint(0, stock - walls.count(s)) for s in range(players)]
    return LibraryState.from_snapshot(GAME, opts, snap)


def check_position(state: LibraryState) -> None:
    options = dict(state.options)
    ref = Reference(state.snapshot(), options)
    moves = state.legal_moves()
    assert len(moves) == len(set(moves)), "duplicate legal moves"
    assert moves == state.legal_moves(), "legal move order is not stable"
    assert set(moves) == ref.legal(), state.render()
    for move in ALL_MOVES:
        copy = state.clone()
        if move in moves:
            copy.apply(move)
            expected = Reference(state.snapshot(), options)
            expected.apply(move)
            assert copy.snapshot() == expected.snapshot(), f"{move!r}\n{state.render()}"
        else:
            with pytest.raises(IllegalMoveError):
                copy.apply(move)
            assert copy == state


#: Twelve seeds of positions in the full suite, the first one in the fast inner loop.
SEEDS = slow_unless(range(12), lambda seed: seed == 0)


@pytest.mark.parametrize("seed", SEEDS)
def test_legal_moves_match_reference_on_played_positions(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(5):
        check_position(played_position(rng))


@pytest.mark.parametrize("seed", SEEDS)
def test_legal_moves_match_reference_on_synthetic_positions(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(5):
        check_position(synthetic_position(rng))


@pytest.mark.parametrize("seed", SEEDS)
def test_the_other_readings_match_the_reference_on_played_positions(seed: int) -> None:
    rng = random.Random(200 + seed)
    for _ in range(5):
        check_position(played_position(rng, reading_options))


@pytest.mark.parametrize("seed", SEEDS)
def test_the_other_readings_match_the_reference_on_synthetic_positions(seed: int) -> None:
    rng = random.Random(300 + seed)
    for _ in range(4):
        check_position(synthetic_position(rng, reading_options))


@pytest.mark.slow
def test_the_reference_sees_every_reading_at_work() -> None:
    """The random positions of the readings' tests exercise what the options change:
    sideways pushes, line topples of two walls or more, sphere pushes refused for
    moving away from home, seats out of walls."""
    seen = set()
    for seed in range(300, 312):
        rng = random.Random(seed)
        for _ in range(5):
            state = synthetic_position(rng, reading_options)
            opts = state.options
            moves = state.legal_moves()
            ref = Reference(state.snapshot(), dict(opts))
            for move in moves:
                kind, *rest = move.split()
                if kind == "M" and rest[1] in across_of(ref.find_gap(rest[0])):
                    seen.add("sideways")
                if kind == "T" and opts.get("topple_chain") == "line":
                    if len(ref.line(ref.find_gap(rest[0]))) >= 2:
                        seen.add("line topple")
            if opts.get("sphere_push") == "toward_own":
                free = Reference(state.snapshot(), {**opts, "sphere_push": "any"})
                if {m for m in free.legal() if m[0] == "S"} - set(moves):
                    seen.add("push refused")
            if state.walls_left is not None and 0 in state.walls_left:
                seen.add("no walls left")
    assert seen == {"sideways", "line topple", "push refused", "no walls left"}


def test_reference_sees_every_kind_of_move() -> None:
    """The random positions above exercise every action, blocked pushes included."""
    rng = random.Random(7)
    kinds: set[str] = set()
    blocked_push = False
    for _ in range(40):
        state = synthetic_position(rng)
        moves = state.legal_moves()
        kinds |= {m.split()[0] for m in moves}
        seat = state.current_player
        own = [g for g, v in enumerate(state.walls) if v == seat]
        pushes = sum(m.startswith("M ") for m in moves)
        blocked_push |= pushes < 2 * len(own)
    assert {"P", "W", "M", "T", "S"} <= kinds and blocked_push


def cell_invariants(state: LibraryState) -> None:
    seats = set(range(state.players))
    assert state.cells[24] == -2
    assert all(v == -1 or v in seats for i, v in enumerate(state.cells) if i != 24)
    assert all(v == -1 or v in seats for v in state.walls)
    assert state.cells[state.sphere] != -1, "the sphere stands on an empty cell"
    assert state.walk == sum(1 << i for i, v in enumerate(state.cells) if v != -1)
    rebuilt = LibraryState.from_snapshot(GAME, state.options, state.snapshot())
    assert (rebuilt.hmask, rebuilt.vmask) == (state.hmask, state.vmask)
    assert state.forbid == -1 or state.forbid != state.sphere
    if state.winner >= 0:
        assert state.sphere == state.entrances[state.winner]


@pytest.mark.slow
@settings(derandomize=True, database=None, max_examples=30, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.sampled_from([2, 4]),
    pull=st.booleans(),
    only_mover=st.booleans(),
    push_back=st.sampled_from(["after_push", "after_any_roll"]),
    readings=st.fixed_dictionaries(
        {
            "turn_order": st.sampled_from(["clockwise", "d1_d7_g4_a4"]),
            "push_wall": st.sampled_from(["along", "sideways", "both"]),
            "topple_chain": st.sampled_from(["behind", "line"]),
            "sphere_push": st.sampled_from(["any", "toward_own"]),
            "walls_per_player": st.sampled_from([0, 2, 10]),
        }
    ),
)
def test_random_play_never_reaches_an_illegal_position(
    seed: int, players: int, pull: bool, only_mover: bool, push_back: str, readings: dict
) -> None:
    options = GAME.resolve_options(
        {
            "plate_pulls_sphere": pull,
            "only_mover_wins": only_mover,
            "no_push_back": push_back,
            "max_turns": 120,
            **readings,
        }
    )
    rng = random.Random(seed)
    state = GAME.new_state(players, options, GAME.sample_setup(players, options, rng))
    plates = 0
    steps = 0
    while not state.is_terminal():
        assert state.current_player == steps % players
        moves = state.legal_moves()
        assert moves
        if steps % 15 == 0:
            assert set(moves) == Reference(state.snapshot(), dict(options)).legal()
        move = rng.choice(moves)
        walls_before = sum(v != -1 for v in state.walls)
        state.apply(move)
        steps += 1
        cell_invariants(state)
        now = sum(v >= 0 for v in state.cells)
        assert now >= plates, "a plate disappeared"
        plates = now
        walls_now = sum(v != -1 for v in state.walls)
        kind = move.split()[0]
        if state.walls_left is not None:  # every wall on the board was laid from a stock
            laid = [readings["walls_per_player"] - n for n in state.walls_left]
            assert all(0 <= laid[s] and state.walls.count(s) <= laid[s] for s in range(players))
        if kind == "W":
            assert walls_now == walls_before + 1
        elif kind == "T":
            assert walls_now < walls_before
        else:
            assert walls_now == walls_before
    assert state.legal_moves() == []
    assert state.turn == steps <= 120
    outcome = state.outcome()
    assert (outcome.termination == "move_limit") == (state.winner < 0)
