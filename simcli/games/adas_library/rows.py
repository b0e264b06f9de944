# cython: annotation_typing=False
"""Pure functions on book rows and the master order (colour indices, lists or tuples).

A row is sorted when its books read in master order: the master rank of the colours
never decreases from left to right (colours the row lacks are simply skipped).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import product
from operator import ne
from types import MappingProxyType
from typing import Any

LEFT = "L"
RIGHT = "R"
DIRECTIONS = (LEFT, RIGHT)

#: Card type -> distance for the exact-distance cards.
MOVE_N = {"move1": 1, "move2": 2, "move3": 3, "move4": 4}
SWITCH_N = {"switch1": 1, "switch2": 2, "switch3": 3, "switch4": 4}
MASTER_N = {"master1": 1, "master2": 2}

#: What a card's plays do (``AdasState.apply_trusted``, ``playout.play_out``) and how
#: ``state.draw_play`` counts them: shift a book of the row (Move 1-4, Move to End) or a
#: master card, swap two books of the row, swap the row's ends, or swap a book with the
#: partner's.
ROW_PLAYS, MASTER_PLAYS, SWITCH_PLAYS, REVERSE_PLAY, EXCHANGE_PLAYS = range(5)
#: card type -> (kind of play, distance: 0 for Move to End and the swaps without one).
ACTIONS: dict[str, tuple[int, int]] = {
    **{card: (ROW_PLAYS, n) for card, n in MOVE_N.items()},
    "move_end": (ROW_PLAYS, 0),
    **{card: (MASTER_PLAYS, n) for card, n in MASTER_N.items()},
    **{card: (SWITCH_PLAYS, n) for card, n in SWITCH_N.items()},
    "reverse": (REVERSE_PLAY, 0),
    "exchange": (EXCHANGE_PLAYS, 0),
}


def ranks(master: Sequence[int]) -> list[int]:
    """rank[colour] = the colour's position in the master order."""
    rank = [0] * len(master)
    for position, colour in enumerate(master):
        rank[colour] = position
    return rank


@cache
def ranks_of(master: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`ranks` of a master order given as a tuple, computed once per order (there
    are 720 with six colours): for searches that rank the same orders many times."""
    return tuple(ranks(master))


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


def disorder(row: Sequence[int], rank: Sequence[int]) -> tuple[int, int]:
    """(:func:`out_of_order`, the places where the rank steps down from one book to the
    next), in one pass: what a search scores a row by."""
    tails: list[int] = []
    descents = 0
    previous = -1
    for colour in row:
        r = rank[colour]
        if r < previous:
            descents += 1
        previous = r
        i = bisect_right(tails, r)
        if i == len(tails):
            tails.append(r)
        else:
            tails[i] = r
    return len(row) - len(tails), descents


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


def exchange_positions(
    row: Sequence[int], partner: Sequence[int], mirrored: bool = False
) -> list[int]:
    """Positions where an Exchange with ``partner`` changes something (``mirrored``:
    your book at ``i`` trades with the partner's at ``len(partner) - 1 - i``)."""
    if mirrored:
        partner = partner[::-1]
    return [i for i in range(min(len(row), len(partner))) if row[i] != partner[i]]


#: Moves kept in tables: lists, for the callers to copy (``list.copy`` is the cheapest
#: way to a fresh move); a table's lists are never handed out or changed.
Plays = tuple[list[Any], ...]

#: Card type -> distance of every card that shifts one item of a row (Move to End: None).
SHIFT_N: dict[str, int | None] = {**MOVE_N, "move_end": None, **MASTER_N}

#: Rows up to this length get :func:`shift_tables` (2 ** (length - 1) keys per card);
#: longer rows are scanned.
TABLE_MAX_LENGTH = 12
#: The most blocks :data:`SHIFT_BLOCKS` keeps (2 ** 5 sets of move cards times 2 ** 9
#: keys for the built-in rows of 10 books); past it, blocks are built but not kept.
BLOCK_LIMIT = 1 << 16


def boundary_key(items: Sequence[int]) -> tuple[bool, ...]:
    """key[i] is True when items i and i + 1 differ: which exact-distance moves and
    Moves to End change a row depends on nothing else."""
    return tuple(map(ne, items, items[1:]))


def scan_shifts(card: str, items: Sequence[int]) -> Plays:
    """``[card, position, direction]`` of every play of ``card`` (of :data:`SHIFT_N`)
    that changes ``items``, by the scan of :func:`move_targets` / :func:`end_targets`."""
    n = SHIFT_N[card]
    targets = end_targets(items) if n is None else move_targets(items, n)
    return tuple([card, p, d] for p, d, _ in targets)


@cache
def shift_tables(size: int) -> Mapping[str, Mapping[tuple[bool, ...], Plays]]:
    """card -> {boundary key: :func:`scan_shifts`} for every boundary key of a row of
    ``size`` items and every card of :data:`SHIFT_N` (built once per size, from a row
    with exactly those boundaries); empty for rows longer than :data:`TABLE_MAX_LENGTH`."""
    tables: dict[str, dict[tuple[bool, ...], Plays]] = {c: {} for c in SHIFT_N}
    if size > TABLE_MAX_LENGTH:
        return MappingProxyType({})
    for key in product((False, True), repeat=size - 1):
        row = [0]
        for differs in key:
            row.append(row[-1] ^ differs)
        for card, table in tables.items():
            table[key] = scan_shifts(card, row)
    return MappingProxyType({card: MappingProxyType(table) for card, table in tables.items()})


#: The cards of :data:`SHIFT_N` in :data:`CARD_TYPES` order: what :func:`shift_lists`
#: numbers them by.
SHIFT_CARDS: tuple[str, ...] = (*MOVE_N, "move_end", *MASTER_N)
#: Rows of one length: for each card of :data:`SHIFT_CARDS`, its plays by boundary bits
#: (None until :func:`shift_plays_at` first meets them).
ShiftLists = tuple[list[Plays | None], ...]
#: size -> :func:`shift_lists` (kept here, so that a lookup is one ``dict.get``).
SHIFT_LISTS: dict[int, ShiftLists] = {}


def shift_lists(size: int) -> ShiftLists:
    """:func:`shift_tables` indexed by :func:`boundary_bits` instead of the boundary key,
    filled as met: ``shift_plays_at(shift_lists(size), k, bits, size)`` are the plays of
    ``SHIFT_CARDS[k]`` (empty tuple for rows longer than :data:`TABLE_MAX_LENGTH`)."""
    lists = SHIFT_LISTS.get(size)
    if lists is None:
        if size > TABLE_MAX_LENGTH:
            return ()
        lists = tuple([None] * (1 << (size - 1)) for _ in SHIFT_CARDS)
        SHIFT_LISTS[size] = lists
    return lists


def shift_plays_at(lists: ShiftLists, k: int, bits: int, size: int) -> Plays:
    """``lists[k][bits]`` of :func:`shift_lists`, scanned from a row of ``size`` items with
    those boundary bits the first time and kept (a random game meets a few of the
    2 ** 9 keys of a row of 10 books; the whole table took about 130 million
    instructions)."""
    plays = lists[k][bits]
    if not plays:  # None until met; an empty tuple is scanned again alike
        row = [0]
        for i in range(size - 1):
            row.append(row[i] ^ (bits >> i & 1))
        plays = lists[k][bits] = scan_shifts(SHIFT_CARDS[k], row)
    return plays


def boundary_bits(items: list[int]) -> int:
    """The :func:`boundary_key` of ``items`` as a number: bit ``i`` is set when items
    ``i`` and ``i + 1`` differ. For rows of 1 to 63 items (a C ``long`` on the compiled
    path; the tables stop at :data:`TABLE_MAX_LENGTH`)."""
    bits = 0
    bit = 1
    previous = items[0]
    for i in range(1, len(items)):
        item = items[i]
        if item != previous:
            bits |= bit
        previous = item
        bit <<= 1
    return bits


def differences(a: list[int], b: list[int], start: int, step: int, count: int) -> int:
    """How many ``i`` in ``range(count)`` have ``a[i] != b[start + step * i]``."""
    found = 0
    j = start
    for i in range(count):
        if a[i] != b[j]:
            found += 1
        j += step
    return found


def nth_difference(a: list[int], b: list[int], start: int, step: int, nth: int) -> int:
    """The ``i`` of the ``nth`` (0 first) difference counted by :func:`differences`
    (there must be one)."""
    j = start
    i = 0
    while True:
        if a[i] != b[j]:
            if nth == 0:
                return i
            nth -= 1
        i += 1
        j += step


#: (cards, boundary key) -> :func:`shift_block`, filled as blocks are met. A key's
#: length is the row's length minus one, so rows of different lengths (the master order,
#: the books) share the table without clashing.
SHIFT_BLOCKS: dict[tuple[tuple[str, ...], tuple[bool, ...]], Plays] = {}
#: (card, boundary key) -> :func:`scan_shifts` of a row with that key, filled as keys are
#: met (a search meets a few of the 2 ** 9 keys of a row of 10 books; building the whole
#: :func:`shift_tables` of that length took about 130 million instructions).
SHIFT_PLAYS: dict[tuple[str, tuple[bool, ...]], Plays] = {}


def shift_block(
    cards: tuple[str, ...], items: Sequence[int], key: tuple[bool, ...] | None = None
) -> Plays:
    """The :func:`scan_shifts` of each of ``cards`` in turn, each kept in
    :data:`SHIFT_PLAYS` by its boundary key, the block kept in :data:`SHIFT_BLOCKS`
    (``key``: the :func:`boundary_key` of ``items``, when the caller has it)."""
    if key is None:
        key = tuple(map(ne, items, items[1:]))  # boundary_key, inline: once per decision
    block = SHIFT_BLOCKS.get((cards, key))
    if block is None:
        if len(items) > TABLE_MAX_LENGTH:  # a long row: scanned, not kept
            return tuple(play for card in cards for play in scan_shifts(card, items))
        block = tuple(play for card in cards for play in _card_plays(card, items, key))
        if len(SHIFT_BLOCKS) < BLOCK_LIMIT:
            SHIFT_BLOCKS[cards, key] = block
    return block


def _card_plays(card: str, items: Sequence[int], key: tuple[bool, ...]) -> Plays:
    """:func:`scan_shifts` of ``card`` on ``items`` (whose boundary key is ``key``), kept
    in :data:`SHIFT_PLAYS`: the plays depend on the key alone."""
    plays = SHIFT_PLAYS.get((card, key))
    if plays is None:
        plays = SHIFT_PLAYS[card, key] = scan_shifts(card, items)
    return plays
