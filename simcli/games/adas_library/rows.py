"""Pure functions on book rows and the master order (colour indices, lists or tuples).

A row is sorted when its books read in master order: the master rank of the colours
never decreases from left to right (colours the row lacks are simply skipped).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from functools import cache

LEFT = "L"
RIGHT = "R"
DIRECTIONS = (LEFT, RIGHT)

#: Card type -> distance for the exact-distance cards.
MOVE_N = {"move1": 1, "move2": 2, "move3": 3, "move4": 4}
SWITCH_N = {"switch1": 1, "switch2": 2, "switch3": 3, "switch4": 4}
MASTER_N = {"master1": 1, "master2": 2}


def ranks(master: Sequence[int]) -> list[int]:
    """rank[colour] = the colour's position in the master order."""
    rank = [0] * len(master)
    for position, colour in enumerate(master):
        rank[colour] = position
    return rank


def is_sorted(row: Sequence[int], rank: Sequence[int]) -> bool:
    previous = -1
    for colour in row:
        r = rank[colour]
        if r < previous:
            return False
        previous = r
    return True


def out_of_order(row: Sequence[int], rank: Sequence[int]) -> int:
    """Books that are out of order: the fewest books to take out of the row so that the
    rest reads in master order (row length minus its longest non-decreasing run of ranks,
    not necessarily contiguous). 0 exactly when the row is sorted."""
    tails: list[int] = []
    for colour in row:
        r = rank[colour]
        i = bisect_right(tails, r)
        if i == len(tails):
            tails.append(r)
        else:
            tails[i] = r
    return len(row) - len(tails)


def shifted(items: Sequence[int], source: int, target: int) -> list[int]:
    """``items`` with the item at ``source`` moved to ``target``; the items passed over
    close the gap."""
    out = list(items)
    out.insert(target, out.pop(source))
    return out


def uniform(items: Sequence[int], a: int, b: int) -> bool:
    """True when items[a..b] (inclusive) all have the same value."""
    first = items[a]
    for i in range(a + 1, b + 1):
        if items[i] != first:
            return False
    return True


def run_ends(items: Sequence[int]) -> list[int]:
    """ends[i] = the last index of the run of equal items that starts at i, so that
    items[a..b] all have one value exactly when ends[a] >= b."""
    n = len(items)
    ends = list(range(n))
    for i in range(n - 2, -1, -1):
        if items[i] == items[i + 1]:
            ends[i] = ends[i + 1]
    return ends


def move_plays(
    card: str, row: Sequence[int], distance: int, ends: list[int] | None = None
) -> list[list]:
    """``[card, position, direction]`` of every exact-distance move that changes ``row``,
    by position, left before right (``ends``: ``run_ends(row)`` when the caller has it
    already). A move changes the row unless it crosses only books of its own colour."""
    out = []
    append = out.append
    size = len(row)
    if ends is None:
        ends = run_ends(row)
    for p in range(size):
        if p >= distance and ends[p - distance] < p:
            append([card, p, LEFT])
        if p + distance < size and ends[p] < p + distance:
            append([card, p, RIGHT])
    return out


def move_targets(
    row: Sequence[int], distance: int, ends: list[int] | None = None
) -> list[tuple[int, str, int]]:
    """(position, direction, target) of every exact-distance move that changes ``row``."""
    return [
        (p, d, p - distance if d == LEFT else p + distance)
        for _, p, d in move_plays("", row, distance, ends)
    ]


def end_targets(row: Sequence[int], ends: list[int] | None = None) -> list[tuple[int, str, int]]:
    """(position, direction, target) of every Move to End that changes ``row``."""
    out = []
    last = len(row) - 1
    if ends is None:
        ends = run_ends(row)
    for p in range(len(row)):
        if p > 0 and ends[0] < p:
            out.append((p, LEFT, 0))
        if p < last and ends[p] < last:
            out.append((p, RIGHT, last))
    return out


def switch_pairs(row: Sequence[int], distance: int) -> list[int]:
    """Left positions i of every Switch that changes ``row`` (swaps i and i + distance)."""
    return [i for i in range(len(row) - distance) if row[i] != row[i + distance]]


def exchange_positions(row: Sequence[int], partner: Sequence[int]) -> list[int]:
    """Positions where an Exchange with ``partner`` changes something."""
    return [i for i in range(min(len(row), len(partner))) if row[i] != partner[i]]


#: Rows up to this length get :func:`plays_by_boundaries` tables (2 ** (length - 1)
#: entries per card); longer rows are scanned.
TABLE_MAX_LENGTH = 12


def boundaries(row: Sequence[int]) -> int:
    """Bit i set when books i and i + 1 differ: which moves change the row depends on
    nothing else."""
    mask = 0
    for i in range(len(row) - 1):
        if row[i] != row[i + 1]:
            mask |= 1 << i
    return mask


@cache
def plays_by_boundaries(
    size: int, distance: int | None
) -> tuple[tuple[tuple[int, str], ...], ...] | None:
    """For a row of ``size`` books, indexed by :func:`boundaries`: the (position,
    direction) of every exact-distance move (``distance``) or Move to End (``None``) that
    changes the row, in the order of :func:`move_targets` / :func:`end_targets`. Built
    once per size and card (a pure function, remembered); ``None`` for rows longer than
    :data:`TABLE_MAX_LENGTH`, which are scanned instead."""
    if size > TABLE_MAX_LENGTH:
        return None
    table = []
    for mask in range(1 << (size - 1)):
        row = [0]
        for i in range(size - 1):  # a row with exactly these boundaries
            row.append(row[-1] ^ (mask >> i & 1))
        targets = end_targets(row) if distance is None else move_targets(row, distance)
        table.append(tuple((p, d) for p, d, _ in targets))
    return tuple(table)
