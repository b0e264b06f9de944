"""Board geometry and move notation of Library (the sphere game).

Cells are numbered ``7 * row + column``, row 0 on top, column 0 on the left. In the
notation a cell is a file letter ``a``-``g`` (column 0-6) and a rank ``1``-``7``
(rank 1 is the bottom row, row 6), so the fountain is ``d4`` and seat 0's entrance ``d1``.

Walls lie on the 84 inner gap lines. Gap numbers: ``0..41`` are the horizontal gaps, gap
``7 * r + c`` lies between cell ``(r, c)`` and the cell below it; ``42..83`` are the
vertical gaps, gap ``42 + 6 * r + c`` lies between cell ``(r, c)`` and the cell to its
right. A gap is written as the two cells it separates, lower rank or left file first:
``d4-d5`` (a horizontal gap) or ``c4-d4`` (a vertical gap).

Everything here is computed once at import time and never changed.
"""

from __future__ import annotations

from types import MappingProxyType

SIZE = 7
CELLS = SIZE * SIZE
FOUNTAIN = 3 * SIZE + 3  # d4
H_GAPS = (SIZE - 1) * SIZE  # 42 horizontal gaps (between rows)
GAPS = 2 * H_GAPS  # 84 gaps

#: Cell contents: EMPTY, the fountain, or the seat (0-3) whose plate lies there.
EMPTY = -1
FOUNTAIN_MARK = -2

#: Directions, in the fixed order used everywhere.
UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
DIRECTIONS = ("up", "down", "left", "right")
DIRECTION_INDEX = MappingProxyType({name: i for i, name in enumerate(DIRECTIONS)})
OPPOSITE = (DOWN, UP, RIGHT, LEFT)

D1, D7, G4, A4 = 6 * SIZE + 3, 0 * SIZE + 3, 3 * SIZE + 6, 3 * SIZE + 0
#: The option ``turn_order``: the entrance of each seat (seats move in seat order) with
#: four players. ``clockwise`` (the default since version 2 of the rules): bottom d1,
#: left a4, top d7, right g4, the order around a table seen from above;
#: ``d1_d7_g4_a4``: bottom, top, right, left (version 1, no order around any table).
#: With two players seat 0 is d1 and seat 1 d7 either way.
TURN_ORDERS = {"clockwise": (D1, A4, D7, G4), "d1_d7_g4_a4": (D1, D7, G4, A4)}
CLOCKWISE = "clockwise"


def entrances(players: int, turn_order: str = CLOCKWISE) -> tuple[int, ...]:
    """The entrance cell of each seat in a game of ``players`` (2: d1, d7; 4: by
    ``turn_order``)."""
    if players == 2:
        return (D1, D7)
    return TURN_ORDERS[turn_order][:players]


def cell_name(cell: int) -> str:
    row, col = divmod(cell, SIZE)
    return f"{'abcdefg'[col]}{SIZE - row}"


def _gap_cells(gap: int) -> tuple[int, int]:
    """The two cells a gap separates: (upper or left, lower or right)."""
    if gap < H_GAPS:
        return gap, gap + SIZE
    r, c = divmod(gap - H_GAPS, SIZE - 1)
    cell = r * SIZE + c
    return cell, cell + 1


def gap_name(gap: int) -> str:
    a, b = GAP_CELLS[gap]
    if gap < H_GAPS:  # a is above b: the lower rank (b) first
        return f"{cell_name(b)}-{cell_name(a)}"
    return f"{cell_name(a)}-{cell_name(b)}"


GAP_CELLS: tuple[tuple[int, int], ...] = tuple(_gap_cells(g) for g in range(GAPS))


def _step(cell: int, d: int) -> tuple[int, int] | None:
    """(next cell, gap crossed) one step from ``cell`` in direction ``d``; None at the edge."""
    r, c = divmod(cell, SIZE)
    if d == UP:
        return (cell - SIZE, cell - SIZE) if r > 0 else None
    if d == DOWN:
        return (cell + SIZE, cell) if r < SIZE - 1 else None
    if d == LEFT:
        return (cell - 1, H_GAPS + r * (SIZE - 1) + c - 1) if c > 0 else None
    return (cell + 1, H_GAPS + r * (SIZE - 1) + c) if c < SIZE - 1 else None


#: STEP[cell][d] = (neighbour, gap between them) or None at the board's edge.
STEP: tuple[tuple[tuple[int, int] | None, ...], ...] = tuple(
    tuple(_step(cell, d) for d in range(4)) for cell in range(CELLS)
)


def _ray(cell: int, d: int) -> tuple[tuple[int, int], ...]:
    out = []
    step = STEP[cell][d]
    while step is not None:
        out.append(step)
        step = STEP[step[0]][d]
    return tuple(out)


#: RAY[cell][d]: the :data:`STEP` pairs (cell, gap crossed to reach it) from ``cell`` to
#: the board's edge in direction ``d``, in order.
RAY: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(_ray(cell, d) for d in range(4)) for cell in range(CELLS)
)


def _line_next(gap: int, d: int) -> int | None:
    """The next gap along the gap's own line (Push Wall), or None past the edge."""
    if gap < H_GAPS:  # a horizontal gap slides left/right along its row line
        r, c = divmod(gap, SIZE)
        if d == LEFT:
            return gap - 1 if c > 0 else None
        if d == RIGHT:
            return gap + 1 if c < SIZE - 1 else None
        return None
    r, c = divmod(gap - H_GAPS, SIZE - 1)
    if d == UP:
        return gap - (SIZE - 1) if r > 0 else None
    if d == DOWN:
        return gap + (SIZE - 1) if r < SIZE - 1 else None
    return None


def _fall(gap: int, d: int) -> tuple[int, int | None] | None:
    """(cell the wall falls on, next parallel gap behind it) for Topple Wall, or None if
    the wall cannot fall that way (a horizontal wall falls up/down, a vertical one
    left/right)."""
    a, b = GAP_CELLS[gap]
    if gap < H_GAPS:
        if d == UP:
            return a, (gap - SIZE if gap >= SIZE else None)
        if d == DOWN:
            return b, (gap + SIZE if gap + SIZE < H_GAPS else None)
        return None
    c = (gap - H_GAPS) % (SIZE - 1)
    if d == LEFT:
        return a, (gap - 1 if c > 0 else None)
    if d == RIGHT:
        return b, (gap + 1 if c < SIZE - 2 else None)
    return None


def _side_next(gap: int, d: int) -> int | None:
    """The parallel gap one step across the gap's own line in direction ``d`` (a
    sideways Push Wall, option ``push_wall``), or None past the inner gap lines."""
    if gap < H_GAPS:  # a horizontal gap moves up/down to the next row line
        if d == UP:
            return gap - SIZE if gap >= SIZE else None
        if d == DOWN:
            return gap + SIZE if gap + SIZE < H_GAPS else None
        return None
    c = (gap - H_GAPS) % (SIZE - 1)
    if d == LEFT:
        return gap - 1 if c > 0 else None
    if d == RIGHT:
        return gap + 1 if c < SIZE - 2 else None
    return None


#: Directions a wall on each gap can be pushed (along its line) and toppled (across it).
PUSH_DIRS: tuple[tuple[int, int], ...] = tuple(
    (LEFT, RIGHT) if g < H_GAPS else (UP, DOWN) for g in range(GAPS)
)
TOPPLE_DIRS: tuple[tuple[int, int], ...] = tuple(
    (UP, DOWN) if g < H_GAPS else (LEFT, RIGHT) for g in range(GAPS)
)
LINE_NEXT: tuple[tuple[int | None, ...], ...] = tuple(
    tuple(_line_next(g, d) for d in range(4)) for g in range(GAPS)
)
FALL: tuple[tuple[tuple[int, int | None] | None, ...], ...] = tuple(
    tuple(_fall(g, d) for d in range(4)) for g in range(GAPS)
)
#: SIDE_NEXT[g][d]: the parallel gap one step across the line (sideways push), or None.
SIDE_NEXT: tuple[tuple[int | None, ...], ...] = tuple(
    tuple(_side_next(g, d) for d in range(4)) for g in range(GAPS)
)


def line_through(walls: list[int], gap: int) -> list[int]:
    """The connected straight line of walls (any owners) through the walled ``gap``: the
    contiguous walls on its own line both ways, in increasing gap order."""
    first, last = PUSH_DIRS[gap]  # (left, right) or (up, down): decreasing, increasing
    line = [gap]
    nxt = LINE_NEXT[gap][first]
    while nxt is not None and walls[nxt] != EMPTY:
        line.append(nxt)
        nxt = LINE_NEXT[nxt][first]
    line.reverse()
    nxt = LINE_NEXT[gap][last]
    while nxt is not None and walls[nxt] != EMPTY:
        line.append(nxt)
        nxt = LINE_NEXT[nxt][last]
    return line


#: MANHATTAN[a][b]: the Manhattan distance between cells a and b.
MANHATTAN: tuple[tuple[int, ...], ...] = tuple(
    tuple(abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE) for b in range(CELLS))
    for a in range(CELLS)
)

# ---------------------------------------------------------------------------------------
# Move notation. Parsed moves are tuples: ("P", cell), ("W", gap), ("M", gap, d),
# ("T", gap, d), ("S", d), ("pass",).

PASS = "pass"
PLATE_MOVES = tuple(f"P {cell_name(c)}" for c in range(CELLS))
WALL_MOVES = tuple(f"W {gap_name(g)}" for g in range(GAPS))
PUSH_WALL_MOVES = tuple(
    tuple(f"M {gap_name(g)} {DIRECTIONS[d]}" for d in range(4)) for g in range(GAPS)
)
TOPPLE_MOVES = tuple(
    tuple(f"T {gap_name(g)} {DIRECTIONS[d]}" for d in range(4)) for g in range(GAPS)
)
SPHERE_MOVES = tuple(f"S {DIRECTIONS[d]}" for d in range(4))
#: Both topple moves of gap ``g`` (its two directions, in TOPPLE_DIRS order).
TOPPLE_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (TOPPLE_MOVES[g][TOPPLE_DIRS[g][0]], TOPPLE_MOVES[g][TOPPLE_DIRS[g][1]]) for g in range(GAPS)
)


def _parse_table() -> dict[str, tuple]:
    table: dict[str, tuple] = {PASS: ("pass",)}
    for c in range(CELLS):
        if c != FOUNTAIN:
            table[PLATE_MOVES[c]] = ("P", c)
    for g in range(GAPS):
        table[WALL_MOVES[g]] = ("W", g)
        for d in range(4):  # along the line, or sideways (option push_wall)
            table[PUSH_WALL_MOVES[g][d]] = ("M", g, d)
        for d in TOPPLE_DIRS[g]:
            table[TOPPLE_MOVES[g][d]] = ("T", g, d)
    for d in range(4):
        table[SPHERE_MOVES[d]] = ("S", d)
    return table


#: Every well-formed move string -> its parsed tuple (legality depends on the position).
PARSE = MappingProxyType(_parse_table())

# ---------------------------------------------------------------------------------------
# Bit masks used by the route searches: bit ``cell`` of a cell mask; a horizontal wall
# sets bit (upper cell) of the "h" mask, a vertical wall bit (left cell) of the "v" mask.

FULL = (1 << CELLS) - 1
COL0 = sum(1 << (r * SIZE) for r in range(SIZE))
COL6 = COL0 << (SIZE - 1)
GAP_BIT: tuple[int, ...] = tuple(1 << GAP_CELLS[g][0] for g in range(GAPS))


def _beyond(gap: int, d: int) -> int:
    """The :data:`GAP_BIT` bits of every gap after ``gap`` along its line in direction
    ``d``: a push that way is possible exactly when one of them is empty."""
    bits = 0
    nxt = LINE_NEXT[gap][d]
    while nxt is not None:
        bits |= GAP_BIT[nxt]
        nxt = LINE_NEXT[nxt][d]
    return bits


BEYOND: tuple[tuple[int, ...], ...] = tuple(
    tuple(_beyond(g, d) for d in range(4)) for g in range(GAPS)
)
#: Per gap, the push moves (both directions, in PUSH_DIRS order) and their
#: :data:`PUSH_OPTIONS` bits, apart.
PUSH_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (PUSH_WALL_MOVES[g][PUSH_DIRS[g][0]], PUSH_WALL_MOVES[g][PUSH_DIRS[g][1]]) for g in range(GAPS)
)
#: Per gap, (bits, move) for each push direction: ``bits`` are the :data:`BEYOND` bits in
#: one mask for both kinds of gap (vertical gaps' shifted left by :data:`CELLS`), so the
#: push is possible exactly when ``bits & ~(hmask | vmask << CELLS)``.
PUSH_OPTIONS: tuple[tuple[tuple[int, str], ...], ...] = tuple(
    tuple(
        (BEYOND[g][d] << (0 if g < H_GAPS else CELLS), PUSH_WALL_MOVES[g][d]) for d in PUSH_DIRS[g]
    )
    for g in range(GAPS)
)
PUSH_BITS: tuple[tuple[int, int], ...] = tuple(
    (PUSH_OPTIONS[g][0][0], PUSH_OPTIONS[g][1][0]) for g in range(GAPS)
)
