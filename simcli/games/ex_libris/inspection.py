"""The final inspection (Official Library Inspection Form B-7c) on plain shelf data.

A shelf is a mapping ``(row, column) -> card index``; row 0 is the top row and the
bottom row is the largest row number present. Card indices are in alphabetical order
(letter, then number), so "follows alphabetically and numerically" is ``index > previous``.
Face-down cards are a set of positions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Pos = tuple[int, int]

PROMINENT_PRIZES = (15, 9, 4)
BANNED_PENALTY = 1
VARIETY_POINTS = 3
FOCUS_POINTS = 2


@dataclass(frozen=True)
class ScoreSheet:
    """One player's column of the inspection form."""

    flipped: tuple[Pos, ...]  # flipped by the alphabetical check
    counts: tuple[int, ...]  # books per category on face-up cards
    stability: int
    prominent: int
    banned: int  # the penalty, <= 0
    variety: int
    focus: int
    total: int
    books: int  # face-up books on the shelf (first tie-break)
    banned_books: int

    def to_json(self) -> dict[str, Any]:
        fields = dataclasses.asdict(self)
        fields["flipped"] = [list(pos) for pos in self.flipped]
        fields["counts"] = list(self.counts)
        return fields

    @classmethod
    def from_json(cls, value: Any) -> ScoreSheet:
        """The sheet :meth:`to_json` gave; ValueError if ``value`` is not one."""
        names = [f.name for f in dataclasses.fields(cls)]
        if not isinstance(value, Mapping) or sorted(value) != sorted(names):
            raise ValueError(f"a score sheet has exactly the fields {', '.join(names)}")
        flipped, counts = value["flipped"], value["counts"]
        numbers = [value[name] for name in names if name not in ("flipped", "counts")]
        if (
            type(flipped) is not list
            or not all(type(p) is list and len(p) == 2 for p in flipped)
            or type(counts) is not list
            or not all(type(n) is int for p in flipped for n in p)
            or not all(type(n) is int for n in [*counts, *numbers])
        ):
            raise ValueError("a score sheet holds integers (flipped: [row, column] pairs)")
        return cls(
            **{**value, "flipped": tuple(tuple(p) for p in flipped), "counts": tuple(counts)}
        )


def reading_order(cells: Iterable[Pos]) -> list[Pos]:
    """Top row left to right, then the next row down."""
    return sorted(cells)


def alphabetical_check(cells: Mapping[Pos, int], down: Iterable[Pos] = ()) -> list[Pos]:
    """Positions flipped by the check. "Previous" is the last card in reading order that is
    still face up; face-down cards are skipped; the first face-up card is never flipped."""
    down = set(down)
    flipped: list[Pos] = []
    previous = -1
    for pos in reading_order(cells):
        if pos in down:
            continue
        card = cells[pos]
        if card > previous:
            previous = card
        else:
            flipped.append(pos)
    return flipped


def category_counts(
    cells: Mapping[Pos, int],
    down: Iterable[Pos],
    card_books: Sequence[Sequence[int]],
    categories: int = 6,
) -> list[int]:
    down = set(down)
    counts = [0] * categories
    for pos, card in cells.items():
        if pos not in down:
            for cat in card_books[card]:
                counts[cat] += 1
    return counts


def stability(cells: Iterable[Pos]) -> int:
    """Cards in the largest hole-free rectangle that includes bottom-row cards and is at
    least 2 wide and 2 tall (0 when there is none)."""
    filled = set(cells)
    if not filled:
        return 0
    bottom = max(r for r, _ in filled)
    top = min(r for r, _ in filled)
    cols = sorted({c for _, c in filled})
    best = 0
    for height in range(2, bottom - top + 2):
        rows = range(bottom - height + 1, bottom + 1)
        run = 0
        for c in range(cols[0], cols[-1] + 1):
            if all((r, c) in filled for r in rows):
                run += 1
                if run >= 2:
                    best = max(best, run * height)
            else:
                run = 0
    return best


#: The values of the option ``prominent_ties``.
PROMINENT_TIES = ("next_place", "pooled")


def prominent_awards(
    counts: Sequence[int],
    prizes: Sequence[int] = PROMINENT_PRIZES,
    ties: str = "next_place",
) -> list[int]:
    """Prizes by place. Players tied for a place add that place's prize to the prize of
    the next lower place (if any) and split the total as evenly as possible, rounding up
    (``next_place``, the text); ``pooled`` adds the prizes of every place the tied players
    occupy instead. Both readings agree on two-way ties; the places the tied players
    occupy are used up either way."""
    if ties not in PROMINENT_TIES:
        raise ValueError(f"prominent_ties must be one of {', '.join(PROMINENT_TIES)}: {ties!r}")
    order = sorted(set(counts), reverse=True)
    awards = [0] * len(counts)
    place = 0
    for value in order:
        tied = [seat for seat, n in enumerate(counts) if n == value]
        span = len(tied) if ties == "pooled" else min(len(tied), 2)
        pool = sum(prizes[p] for p in range(place, place + span) if p < len(prizes))
        share = -(-pool // len(tied))
        for seat in tied:
            awards[seat] = share
        place += len(tied)
    return awards


def inspect_all(
    shelves: Sequence[Mapping[Pos, int]],
    downs: Sequence[Iterable[Pos]],
    card_books: Sequence[Sequence[int]],
    prominent: int,
    banned: int,
    focuses: Sequence[int],
    categories: int = 6,
    prominent_ties: str = "next_place",
) -> list[ScoreSheet]:
    """Score every shelf; ``downs`` are the cards already face down (voluntary flips)."""
    partial = []
    for cells, down in zip(shelves, downs, strict=True):
        down = set(down)
        flipped = alphabetical_check(cells, down)
        all_down = down | set(flipped)
        counts = category_counts(cells, all_down, card_books, categories)
        partial.append((tuple(flipped), counts, stability(cells)))
    # A category index below 0 is a card not dealt yet (a library-choice view): no
    # prize, no penalty.
    if prominent >= 0:
        awards = prominent_awards([p[1][prominent] for p in partial], ties=prominent_ties)
    else:
        awards = [0] * len(partial)
    sheets = []
    for seat, (flipped, counts, stab) in enumerate(partial):
        banned_books = counts[banned] if banned >= 0 else 0
        penalty = -BANNED_PENALTY * banned_books
        variety = VARIETY_POINTS * min(n for c, n in enumerate(counts) if c != banned)
        focus = FOCUS_POINTS * counts[focuses[seat]] if focuses[seat] >= 0 else 0
        total = stab + awards[seat] + penalty + variety + focus
        sheets.append(
            ScoreSheet(
                flipped=flipped,
                counts=tuple(counts),
                stability=stab,
                prominent=awards[seat],
                banned=penalty,
                variety=variety,
                focus=focus,
                total=total,
                books=sum(counts),
                banned_books=banned_books,
            )
        )
    return sheets


def winners(
    sheets: Sequence[ScoreSheet], hand_sizes: Sequence[int], komi: float = 0
) -> tuple[int, ...]:
    """Highest final score (the total plus ``seat * komi``, the option ``komi``); ties:
    more books on the shelf, then fewer cards in hand, then fewer banned books; a tie that
    survives all three is a shared win."""
    keys = [
        (s.total + seat * komi, s.books, -hand_sizes[seat], -s.banned_books)
        for seat, s in enumerate(sheets)
    ]
    best = max(keys)
    return tuple(seat for seat, key in enumerate(keys) if key == best)
