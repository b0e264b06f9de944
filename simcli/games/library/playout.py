# cython: annotation_typing=False, boundscheck=False, wraparound=False, cdivision=True
"""The sphere game's random playout in one loop on bit masks: ``LibraryState.playout``.

:class:`Board` holds a position as a few integers (typed as C integers by
``playout.pxd`` on the compiled path) and plays uniformly random legal moves to the end,
exactly as the contract loop of ``State.playout`` does with
``random_legal_move(randbelow)`` and ``apply_trusted``: the same moves in the same order
(so the same ``randbelow(n)`` calls) and the same final position. Wall pushes across the
line (option ``push_wall``) are not played here: the state keeps the contract loop for
them. tests/test_library_playout.py checks the loop against that reference.

Bit layout. Cell ``c`` is bit ``c`` of a cell mask. A horizontal gap ``g`` (0..41, the
gap below cell ``g``) is bit ``g`` of the ``h`` masks: each row line is 7 bits in a row;
a vertical gap ``42 + k`` is bit ``k = 6 * row + column`` of the ``v`` masks, so each
column line is every 6th bit. Both orders are the gap order. Owners are two bit planes
(seat bit 0, seat bit 1) over the occupied bits; an empty cell or gap has no bit in
either plane.
"""

from __future__ import annotations

SIZE = 7
CELLS = 49
FOUNTAIN = 24
LINE_GAPS = 42  # gaps of each kind
EMPTY = -1
FOUNTAIN_MARK = -2
PLATE, ROLL, WALL, PUSH, TOPPLE, PASS_KIND = range(6)  # as state.py's move kinds

ONE = 1  # (a 64-bit unsigned one on the compiled path, for the shifts)
ALL_CELLS = (ONE << CELLS) - ONE
ALL_GAPS = (ONE << LINE_GAPS) - ONE
#: The masks of the bit count (:func:`popcount`).
M_1, M_2, M_4 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F
M_BYTES, M_64 = 0x0101010101010101, 0xFFFFFFFFFFFFFFFF
#: Masks of a position in each 7-bit row line of the ``h`` masks: K_LOW_n holds the
#: lowest 7 - n positions of every line, K_HIGH_n the highest 7 - n.
K_LOW_1 = sum(0x3F << (7 * r) for r in range(6))
K_LOW_2 = sum(0x1F << (7 * r) for r in range(6))
K_LOW_4 = sum(0x07 << (7 * r) for r in range(6))
K_HIGH_1 = sum(0x7E << (7 * r) for r in range(6))
K_HIGH_2 = sum(0x7C << (7 * r) for r in range(6))
K_HIGH_4 = sum(0x70 << (7 * r) for r in range(6))


def popcount(x):  # noqa: ANN001,ANN201 - C types: .pxd
    """The number of set bits of ``x`` (below 2**64)."""
    x = x - ((x >> 1) & M_1)
    x = (x & M_2) + ((x >> 2) & M_2)
    x = (x + (x >> 4)) & M_4
    return ((x * M_BYTES) & M_64) >> 56


def nth_bit(x, n):  # noqa: ANN001,ANN201 - C types: .pxd
    """The index of the ``n``-th lowest set bit of ``x`` (counting from 0)."""
    while n:
        x &= x - 1
        n -= 1
    return popcount((x & -x) - 1)


def h_after(e):  # noqa: ANN001,ANN201 - C types: .pxd
    """The positions of the ``h`` masks with a bit of ``e`` further right on their row line."""
    a = (e >> 1) & K_LOW_1
    a |= (a >> 1) & K_LOW_1
    a |= (a >> 2) & K_LOW_2
    return a | (a >> 4) & K_LOW_4


def h_before(e):  # noqa: ANN001,ANN201 - C types: .pxd
    """The positions of the ``h`` masks with a bit of ``e`` further left on their row line."""
    a = (e << 1) & K_HIGH_1
    a |= (a << 1) & K_HIGH_1
    a |= (a << 2) & K_HIGH_2
    return a | (a << 4) & K_HIGH_4


def v_after(e):  # noqa: ANN001,ANN201 - C types: .pxd
    """The positions of the ``v`` masks with a bit of ``e`` further down their column line."""
    a = e >> 6
    a |= a >> 6
    a |= a >> 12
    return a | a >> 24


def v_before(e):  # noqa: ANN001,ANN201 - C types: .pxd
    """The positions of the ``v`` masks with a bit of ``e`` further up their column line."""
    a = (e << 6) & ALL_GAPS
    a |= (a << 6) & ALL_GAPS
    a |= (a << 12) & ALL_GAPS
    return a | (a << 24) & ALL_GAPS


def moved(plane, run, step):  # noqa: ANN001,ANN201 - C types: .pxd
    """``plane`` with its bits on ``run`` moved ``step`` bits up (down if negative)."""
    kept = plane & ~run & ALL_GAPS
    if step > 0:
        return kept | (plane & run) << step
    return kept | (plane & run) >> -step


class Board:
    """A position of the sphere game as bit masks, and the random playout on it."""

    def __init__(self, state) -> None:  # noqa: ANN001 - a LibraryState
        self.players = state.players
        self.sphere = state.sphere
        self.turn = state.turn
        self.forbid = state.forbid
        self.winner = state.winner
        self.max_turns = state._max_turns
        self.lead = state._lead
        opening = [0] * 32
        opening[: self.lead] = state._opening
        self.opening = opening
        entrance = [EMPTY] * CELLS
        for seat, cell in enumerate(state.entrances):
            entrance[cell] = seat
        self.entrance = entrance
        self.stock = state.walls_left is not None
        left = [0] * 4
        if self.stock:
            left[: self.players] = state.walls_left
        self.left = left
        self.pull = state._pull
        self.only_mover = state._only_mover
        self.any_roll = state._any_roll
        self.line_topple = state._line_topple
        self.toward_own = state._toward_own
        self.walk = self.c0 = self.c1 = 0
        self.empty_cells = 0
        for cell, value in enumerate(state.cells):
            if value == EMPTY:
                self.empty_cells += 1
            else:
                self.walk |= ONE << cell
                if value > 0:
                    self.c0 |= (value & 1) << cell
                    self.c1 |= (value >> 1) << cell
        self.hocc = self.h0 = self.h1 = self.vocc = self.v0 = self.v1 = 0
        self.empty_gaps = 0
        walls = state.walls
        for gap in range(LINE_GAPS):
            self.add_wall(1, gap, walls[gap])
            self.add_wall(0, gap, walls[LINE_GAPS + gap])

    def add_wall(self, horizontal, pos, owner) -> None:  # noqa: ANN001 - C types: .pxd
        """Enter ``owner``'s wall (or nothing, for EMPTY) on gap bit ``pos`` of the ``h``
        or ``v`` masks."""
        if owner == EMPTY:
            self.empty_gaps += 1
        elif horizontal:
            self.hocc |= ONE << pos
            self.h0 |= (owner & 1) << pos
            self.h1 |= (owner >> 1) << pos
        else:
            self.vocc |= ONE << pos
            self.v0 |= (owner & 1) << pos
            self.v1 |= (owner >> 1) << pos

    def store(self, state) -> None:  # noqa: ANN001 - a LibraryState
        """Write the position back into ``state`` (its move lists rebuilt from it)."""
        cells = [EMPTY] * CELLS
        for cell in range(CELLS):
            if (self.walk >> cell) & 1:
                cells[cell] = ((self.c0 >> cell) & 1) | ((self.c1 >> cell) & 1) << 1
        cells[FOUNTAIN] = FOUNTAIN_MARK
        walls = [EMPTY] * (2 * LINE_GAPS)
        for gap in range(LINE_GAPS):
            if (self.hocc >> gap) & 1:
                walls[gap] = ((self.h0 >> gap) & 1) | ((self.h1 >> gap) & 1) << 1
            if (self.vocc >> gap) & 1:
                walls[LINE_GAPS + gap] = ((self.v0 >> gap) & 1) | ((self.v1 >> gap) & 1) << 1
        state.cells = cells
        state.walls = walls
        state.sphere = self.sphere
        state.turn = self.turn
        state.forbid = self.forbid
        state.winner = self.winner
        if self.stock:
            state.walls_left = [self.left[seat] for seat in range(self.players)]
        state._derive()

    # -- the sphere ----------------------------------------------------------------------

    def slide(self, start, d):  # noqa: ANN001,ANN201 - C types: .pxd
        """Where the sphere rolling from ``start`` in direction ``d`` (up, down, left,
        right) comes to rest: over plates and the fountain, before an empty cell, a wall
        or the edge."""
        pos = start
        walk = self.walk
        while True:
            if d == 0:  # up: the gap below the next cell
                if pos < SIZE:
                    return pos
                nxt = pos - SIZE
                blocked = (self.hocc >> nxt) & 1
            elif d == 1:
                if pos >= CELLS - SIZE:
                    return pos
                nxt = pos + SIZE
                blocked = (self.hocc >> pos) & 1
            elif d == 2:
                col = pos % SIZE
                if col == 0:
                    return pos
                nxt = pos - 1
                blocked = (self.vocc >> (pos - pos // SIZE - 1)) & 1
            else:
                col = pos % SIZE
                if col == SIZE - 1:
                    return pos
                nxt = pos + 1
                blocked = (self.vocc >> (pos - pos // SIZE)) & 1
            if blocked or not (walk >> nxt) & 1:
                return pos
            pos = nxt

    def pull_sphere(self, cell) -> None:  # noqa: ANN001 - C types: .pxd
        """A plate laid on ``cell``: if it lies next to the sphere with no wall between,
        the sphere rolls onto it and on."""
        s = self.sphere
        if cell == s - SIZE:
            if not (self.hocc >> cell) & 1:
                self.sphere = self.slide(s, 0)
        elif cell == s + SIZE:
            if not (self.hocc >> s) & 1:
                self.sphere = self.slide(s, 1)
        elif cell == s - 1:
            if s % SIZE and not (self.vocc >> (cell - cell // SIZE)) & 1:
                self.sphere = self.slide(s, 2)
        elif cell == s + 1:
            if cell % SIZE and not (self.vocc >> (s - s // SIZE)) & 1:
                self.sphere = self.slide(s, 3)

    def distance(self, a, b):  # noqa: ANN001,ANN201 - C types: .pxd
        """The Manhattan distance between cells ``a`` and ``b``."""
        return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)

    def rolls(self, seat):  # noqa: ANN001,ANN201 - C types: .pxd
        """The legal sphere pushes as bits 0-3 (up, down, left, right)."""
        s = self.sphere
        out = 0
        for d in range(4):
            end = self.slide(s, d)
            if end != s and end != self.forbid:
                if self.toward_own:
                    home = self.entrance_cell(seat)
                    if self.distance(end, home) >= self.distance(s, home):
                        continue
                out |= ONE << d
        return out

    def entrance_cell(self, seat):  # noqa: ANN001,ANN201 - C types: .pxd
        """The entrance cell of ``seat``."""
        for cell in range(CELLS):
            if self.entrance[cell] == seat:
                return cell
        return EMPTY

    # -- walls ---------------------------------------------------------------------------

    def fell(self, horizontal, pos, target, seat) -> None:  # noqa: ANN001 - C types: .pxd
        """The wall on gap bit ``pos`` (of the ``h`` or ``v`` masks) falls onto cell
        ``target`` as a plate of ``seat``; a plate there is replaced, the fountain stays,
        the sphere there is crushed back to the fountain."""
        keep = ~(ONE << pos) & ALL_GAPS
        if horizontal:
            self.hocc &= keep
            self.h0 &= keep
            self.h1 &= keep
        else:
            self.vocc &= keep
            self.v0 &= keep
            self.v1 &= keep
        self.empty_gaps += 1
        if target != FOUNTAIN:
            bit = ONE << target
            if not self.walk & bit:
                self.empty_cells -= 1
                self.walk |= bit
            self.c0 = (self.c0 & ~bit & ALL_CELLS) | (seat & 1) << target
            self.c1 = (self.c1 & ~bit & ALL_CELLS) | (seat >> 1) << target
            if target == self.sphere:
                self.sphere = FOUNTAIN

    def topple(self, horizontal, pos, side, seat) -> None:  # noqa: ANN001 - C types: .pxd
        """Topple Wall of the wall on gap bit ``pos``: ``side`` 0 falls up (a horizontal
        wall) or left, 1 down or right; the walls behind it fall with it (option
        ``topple_chain``: the connected line instead)."""
        if horizontal:  # a row line: 7 bits in a row
            occ, step, start = self.hocc, 1, pos - pos % SIZE
        else:  # a column line: every 6th bit
            occ, step, start = self.vocc, SIZE - 1, pos % (SIZE - 1)
        if self.line_topple:  # the line through pos along its own line, as one
            first = pos
            while first - step >= start and (occ >> (first - step)) & 1:
                first -= step
            last = pos
            while last + step < start + SIZE * step and (occ >> (last + step)) & 1:
                last += step
            while first <= last:
                self.fell(horizontal, first, self.fall_target(horizontal, first, side), seat)
                first += step
            return
        while True:  # the parallel walls behind it, domino fashion
            self.fell(horizontal, pos, self.fall_target(horizontal, pos, side), seat)
            if horizontal:
                pos = pos + SIZE if side else pos - SIZE
                if pos < 0 or pos >= LINE_GAPS or not (self.hocc >> pos) & 1:
                    return
            else:
                col = pos % (SIZE - 1)
                if (col == SIZE - 2) if side else (col == 0):
                    return
                pos = pos + 1 if side else pos - 1
                if not (self.vocc >> pos) & 1:
                    return

    def fall_target(self, horizontal, pos, side):  # noqa: ANN001,ANN201 - C types: .pxd
        """The cell a wall on gap bit ``pos`` falls onto on ``side`` (0 up/left, 1
        down/right)."""
        if horizontal:
            return pos + SIZE if side else pos
        return pos + pos // (SIZE - 1) + side

    def push(self, horizontal, pos, inc) -> None:  # noqa: ANN001 - C types: .pxd
        """Push Wall along the line: the run of walls from gap bit ``pos`` moves one gap
        towards higher bits (``inc``) or lower ones; an empty gap lies ahead."""
        step = (1 if horizontal else SIZE - 1) * (1 if inc else -1)
        occ = self.hocc if horizontal else self.vocc
        run = 0
        end = pos
        while (occ >> end) & 1:
            run |= ONE << end
            end += step
        if horizontal:
            self.hocc = moved(self.hocc, run, step)
            self.h0 = moved(self.h0, run, step)
            self.h1 = moved(self.h1, run, step)
        else:
            self.vocc = moved(self.vocc, run, step)
            self.v0 = moved(self.v0, run, step)
            self.v1 = moved(self.v1, run, step)

    # -- the playout ---------------------------------------------------------------------

    def seat_to_move(self):  # noqa: ANN201 - C types: .pxd
        if self.turn < self.lead:
            return self.opening[self.turn]
        return (self.turn - self.lead) % self.players

    def play(self, randbelow, plies) -> None:  # noqa: ANN001 - C types: .pxd
        """Play random moves (each drawn as ``randbelow(number of legal moves)``, in the
        order of ``legal_moves``) until the game ends or ``plies`` moves are played."""
        while plies and self.winner == EMPTY and self.turn < self.max_turns:
            plies -= 1
            seat = self.seat_to_move()
            odd = 0 if seat & 1 else ALL_GAPS
            high = 0 if seat & 2 else ALL_GAPS
            own_h = self.hocc & (self.h0 ^ odd) & (self.h1 ^ high)
            own_v = self.vocc & (self.v0 ^ odd) & (self.v1 ^ high)
            empty_h = ~self.hocc & ALL_GAPS
            empty_v = ~self.vocc & ALL_GAPS
            dec_h = own_h & h_before(empty_h)
            inc_h = own_h & h_after(empty_h)
            dec_v = own_v & v_before(empty_v)
            inc_v = own_v & v_after(empty_v)
            walls = self.empty_gaps if not self.stock or self.left[seat] > 0 else 0
            pushes = popcount(dec_h) + popcount(inc_h) + popcount(dec_v) + popcount(inc_v)
            own = popcount(own_h) + popcount(own_v)
            rolls = self.rolls(seat)
            n = self.empty_cells + walls + pushes + 2 * own + popcount(rolls)
            start = self.sphere
            if not n:
                randbelow(1)
                self.forbid = EMPTY  # pass
                self.turn += 1
                continue
            kind = self.play_drawn(
                randbelow(n), seat, walls, dec_h, inc_h, dec_v, inc_v, own_h, own_v, rolls
            )
            end = self.sphere
            if kind == ROLL or (end != start and self.any_roll):
                self.forbid = start
            else:
                self.forbid = EMPTY
            if end != start and kind <= ROLL:
                owner = self.entrance[end]
                if owner != EMPTY and (not self.only_mover or owner == seat):
                    self.winner = owner
            self.turn += 1

    def play_drawn(  # noqa: ANN201 - C types: .pxd
        self,
        r,
        seat,
        walls,
        dec_h,
        inc_h,
        dec_v,
        inc_v,
        own_h,
        own_v,
        rolls,  # noqa: ANN001
    ):
        """Play legal move number ``r`` in the order of ``legal_moves`` (plates, walls,
        wall pushes, topples, sphere pushes) and return its kind."""
        if r < self.empty_cells:  # a plate on the r-th empty cell
            cell = nth_bit(~self.walk & ALL_CELLS, r)
            bit = ONE << cell
            self.walk |= bit
            self.empty_cells -= 1
            self.c0 |= (seat & 1) << cell
            self.c1 |= (seat >> 1) << cell
            if self.pull:
                self.pull_sphere(cell)
            return PLATE
        r -= self.empty_cells
        if r < walls:  # a wall on the r-th empty gap
            empty_h = ~self.hocc & ALL_GAPS
            count = popcount(empty_h)
            if r < count:
                self.add_wall(1, nth_bit(empty_h, r), seat)
            else:
                self.add_wall(0, nth_bit(~self.vocc & ALL_GAPS, r - count), seat)
            self.empty_gaps -= 1
            if self.stock:
                self.left[seat] -= 1
            return WALL
        r -= walls
        pushes = dec_h | inc_h
        count = popcount(dec_h) + popcount(inc_h)
        horizontal = r < count
        if not horizontal:
            r -= count
            count = popcount(dec_v) + popcount(inc_v)
            pushes = dec_v | inc_v
            dec_h = dec_v
            inc_h = inc_v
        if r < count:  # a wall push: the own walls in gap order, each decreasing first
            while True:
                pos = popcount((pushes & -pushes) - 1)
                pushes &= pushes - 1
                if (dec_h >> pos) & 1:
                    if not r:
                        self.push(horizontal, pos, 0)
                        return PUSH
                    r -= 1
                if (inc_h >> pos) & 1:
                    if not r:
                        self.push(horizontal, pos, 1)
                        return PUSH
                    r -= 1
        r -= count
        count = 2 * popcount(own_h) + 2 * popcount(own_v)
        if r < count:  # a topple: two per own wall in gap order
            count = popcount(own_h)
            if r >> 1 < count:
                self.topple(1, nth_bit(own_h, r >> 1), r & 1, seat)
            else:
                self.topple(0, nth_bit(own_v, (r >> 1) - count), r & 1, seat)
            return TOPPLE
        r -= count
        while True:  # the r-th legal sphere push
            d = popcount((rolls & -rolls) - 1)
            if not r:
                self.sphere = self.slide(self.sphere, d)
                return ROLL
            rolls &= rolls - 1
            r -= 1


def play_out(state, randbelow, plies):  # noqa: ANN001,ANN201 - C types: .pxd
    """Play ``state`` (a LibraryState whose wall pushes go along the line) on to the end
    of the game, or for ``plies`` moves if that is not negative, each move drawn as
    ``random_legal_move(randbelow)`` draws it; the position is written back once."""
    board = Board(state)
    board.play(randbelow, plies)
    board.store(state)
