"""Route searches for the sphere, used by the evaluation and the strategies.

* :func:`push_distance`: the fewest Push Sphere actions that bring the sphere to rest on a
  cell, on the board as it is (a breadth-first search over all four pushes, done on bit
  masks so that every reachable cell of one depth is expanded at once).
* :func:`route_cost`: a relaxed count of the actions one player needs to bring the sphere
  home if nobody else moved: a roll may cross empty cells at one plate each, needs a wall
  (one action) to stop before a plate, and costs no push when its first cell is a fresh
  plate that pulls the sphere.
* :func:`winning_moves`: the moves with which the player to move would win at once.
"""

from __future__ import annotations

import heapq

from simcli.games.library.board import (
    CELLS,
    COL0,
    COL6,
    EMPTY,
    FULL,
    MANHATTAN,
    PLATE_MOVES,
    SIZE,
    SPHERE_MOVES,
    STEP,
)
from simcli.games.library.state import LibraryState

INF = 10**6


def _manhattan(a: int, b: int) -> int:
    ra, ca = divmod(a, SIZE)
    rb, cb = divmod(b, SIZE)
    return abs(ra - rb) + abs(ca - cb)


#: RINGS[cell][k] = mask of the cells at Manhattan distance k from ``cell``.
RINGS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << x for x in range(CELLS) if _manhattan(x, cell) == k) for k in range(2 * SIZE))
    for cell in range(CELLS)
)


def _bound(target: int) -> tuple[int, ...]:
    tr, tc = divmod(target, SIZE)
    return tuple(
        0 if x == target else 1 if (x // SIZE == tr or x % SIZE == tc) else 2 for x in range(CELLS)
    )


def _ray(cell: int, d: int) -> tuple[tuple[int, int, int, int], ...]:
    out = []
    step = STEP[cell][d]
    while step is not None:
        after = STEP[step[0]][d]
        out.append((*step, *(after if after is not None else (-1, -1))))
        step = after
    return tuple(out)


#: RAYS[cell][d]: from ``cell`` to the edge, each cell with the gap crossed to reach it
#: and the next cell and gap beyond it (-1, -1 at the edge).
RAYS: tuple[tuple[tuple[tuple[int, int, int, int], ...], ...], ...] = tuple(
    tuple(_ray(c, d) for d in range(4)) for c in range(CELLS)
)

#: BOUND[target][cell]: a lower bound on the route cost from ``cell`` to ``target``.
BOUND: tuple[tuple[int, ...], ...] = tuple(_bound(t) for t in range(CELLS))


def _moves_masks(state: LibraryState) -> tuple[int, int, int, int]:
    """Per direction (up, down, left, right): the cells from which the sphere can take
    one step that way (the next cell is walkable and no wall is in between)."""
    walk, hm, vm = state.walk, state.hmask, state.vmask
    up = (walk << SIZE) & ~(hm << SIZE) & FULL
    down = (walk >> SIZE) & ~hm
    left = (walk << 1) & ~(vm << 1) & ~COL0 & FULL
    right = (walk >> 1) & ~vm & ~COL6
    return up, down, left, right


def push_distance(state: LibraryState, target: int, avoid: int = 0) -> tuple[int, int]:
    """(pushes, reached): the fewest Push Sphere actions that leave the sphere resting on
    ``target`` (``INF`` if impossible on this board) and the mask of every cell the sphere
    can be brought to rest on. Cells in the mask ``avoid`` are never rested on (other
    players' entrances: the game would end there). The no-push-back rule is ignored."""
    up, down, left, right = _moves_masks(state)
    seen = 1 << state.sphere
    goal = 1 << target
    if seen & goal:
        return 0, seen
    frontier = seen
    depth = 0
    while frontier:
        depth += 1
        new = 0
        cur = frontier  # up: shift right by SIZE
        while cur:
            m = cur & up
            new |= cur ^ m
            cur = m >> SIZE
        cur = frontier
        while cur:
            m = cur & down
            new |= cur ^ m
            cur = m << SIZE
        cur = frontier
        while cur:
            m = cur & left
            new |= cur ^ m
            cur = m >> 1
        cur = frontier
        while cur:
            m = cur & right
            new |= cur ^ m
            cur = m << 1
        new &= ~seen
        if new & goal:
            return depth, seen | new
        new &= ~avoid
        seen |= new
        frontier = new
    return INF, seen


def route_avoid(state: LibraryState, seat: int) -> frozenset[int]:
    """The cells a route of ``seat`` must not rest on: the other players' entrances
    (the game would end there), unless only the mover can win."""
    if state._only_mover:
        return frozenset()
    return frozenset(c for s, c in enumerate(state.entrances) if s != seat)


def nearest(reached: int, target: int) -> int:
    """The Manhattan distance from the nearest cell of mask ``reached`` to ``target``."""
    for k, ring in enumerate(RINGS[target]):
        if reached & ring:
            return k
    return 2 * SIZE


def route_cost(state: LibraryState, target: int, avoid: frozenset[int] = frozenset()) -> int:
    """A relaxed number of actions one player needs to bring the sphere to rest on
    ``target`` if no one else moved (``INF`` if walls make it impossible).

    One leg rolls the sphere from a cell in one direction and stops it ``k`` cells on:
    each empty cell crossed costs one plate, a plate (or the fountain) just beyond the
    stopping cell costs one wall, and the roll itself costs one push unless its first
    cell is empty (then laying that plate last pulls the sphere, if the option is on).
    Walls block. Plates laid for one leg are not remembered for the next (relaxation).
    Cells in ``avoid`` are never rested on."""
    return best_route(state, target, avoid)[0]


def best_route(
    state: LibraryState, target: int, avoid: frozenset[int] = frozenset(), limit: int = INF
) -> tuple[int, list[tuple[int, int, int]]]:
    """(cost, legs) of one cheapest route of :func:`route_cost`; a leg is
    ``(from cell, direction, to cell)``. Costs above ``limit`` are reported as ``INF``.
    The search is A* with "0 on the target, 1 on its row or column, else 2" as the lower
    bound (every leg costs at least 1)."""
    cells, walls = state.cells, state.walls
    first_empty_cost = 1 if state._pull else 2
    start = state.sphere
    if start == target:
        return 0, []
    bound = BOUND[target]
    dist = [INF] * CELLS
    parent: list[tuple[int, int] | None] = [None] * CELLS
    dist[start] = 0
    heap = [(bound[start], start)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        f, pos = pop(heap)
        if f > limit:
            break
        cost = dist[pos]
        if f > cost + bound[pos]:
            continue  # a stale entry
        if pos == target:
            legs = []
            while pos != start:
                prev, d = parent[pos]  # type: ignore[misc]
                legs.append((prev, d, pos))
                pos = prev
            legs.reverse()
            return cost, legs
        rays = RAYS[pos]
        for d in range(4):
            ray = rays[d]
            if not ray or walls[ray[0][1]] != EMPTY:
                continue
            # the first cell: a push onto a plate, or a plate that pulls (or plate + push)
            # (the loop below adds 1 for an empty first cell)
            acc = cost + (first_empty_cost - 1 if cells[ray[0][0]] == EMPTY else 1)
            for nxt, gap, after, after_gap in ray:
                if walls[gap] != EMPTY:
                    break
                if cells[nxt] == EMPTY:
                    acc += 1
                # stopping before a plate takes a wall
                if after_gap >= 0 and walls[after_gap] == EMPTY and cells[after] != EMPTY:
                    new = acc + 1
                else:
                    new = acc
                if new < dist[nxt] and nxt not in avoid:
                    dist[nxt] = new
                    parent[nxt] = (pos, d)
                    push(heap, (new + bound[nxt], nxt))
    return INF, []


def leg_footprint(legs: list[tuple[int, int, int]]) -> tuple[list[int], list[int], list[int]]:
    """(cells crossed, gaps crossed, gaps just beyond each leg's end) of a route."""
    cells: list[int] = []
    gaps: list[int] = []
    beyond: list[int] = []
    for start, d, end in legs:
        pos = start
        while pos != end:
            nxt, gap = STEP[pos][d]  # type: ignore[misc]
            cells.append(nxt)
            gaps.append(gap)
            pos = nxt
        after = STEP[end][d]
        if after is not None:
            beyond.append(after[1])
    return cells, gaps, beyond


def winning_moves(
    state: LibraryState, seat: int | None = None, as_mover: bool = False
) -> list[str]:
    """The moves (sphere pushes and pulling plates) after which the sphere rests on the
    entrance of ``seat`` (default: the player to move), played by the player to move.
    Only these two actions can move the sphere onto an entrance, so this is exact.
    With ``as_mover`` the moves are those ``seat`` would have if it were to move now
    (the no-push-back cell, which only binds the player to move, is then ignored)."""
    mover = state.seat_to_move()
    seat = mover if seat is None else seat
    if state.is_terminal():
        return []
    if as_mover:
        mover = seat
    elif state._only_mover and seat != mover:
        return []
    forbid = -1 if as_mover else state.forbid
    target = state.entrances[seat]
    # option sphere_push: toward_own: a push must bring the sphere closer to the
    # mover's own entrance
    home = MANHATTAN[state.entrances[mover]] if state._toward_own else None
    found = []
    sphere = state.sphere
    cells = state.cells
    for d in range(4):
        step = STEP[sphere][d]
        if step is None or state.walls[step[1]] != EMPTY:
            continue
        nxt = step[0]
        if cells[nxt] == EMPTY:
            if not state._pull:
                continue
            cells[nxt] = mover  # try the pulling plate, then take it back
            end = state.slide(sphere, d)
            cells[nxt] = EMPTY
            if end == target:
                found.append(PLATE_MOVES[nxt])
        else:
            end = state.slide(sphere, d)
            if end == target and end != forbid and (home is None or home[end] < home[sphere]):
                found.append(SPHERE_MOVES[d])
    return found
