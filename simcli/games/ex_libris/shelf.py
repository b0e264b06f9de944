"""Shelving geometry: where a card may go, and the canonical (normalised) shelf."""

from __future__ import annotations

from collections.abc import Collection, Mapping

Pos = tuple[int, int]
MAX_ROWS = 3


def open_positions(cells: Mapping[Pos, int]) -> list[Pos]:
    """Empty cells where a new card may be shelved, in reading order: orthogonally adjacent
    to a shelved card (the first card goes to ``(0, 0)``) and keeping the shelf at most
    three rows tall. Coordinates may be -1 (a new row above / a new column on the left)."""
    if not cells:
        return [(0, 0)]
    rows = [r for r, _ in cells]
    # a row r keeps the shelf at most MAX_ROWS tall when max(bottom, r) - min(top, r)
    # < MAX_ROWS, that is (the shelf itself being at most MAX_ROWS tall) low < r < high
    low, high = max(rows) - MAX_ROWS, min(rows) + MAX_ROWS
    found: set[Pos] = set()
    for r, c in cells:
        for pos in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if pos not in cells and low < pos[0] < high:
                found.add(pos)
    return sorted(found)


def place(cells: dict[Pos, int], down: set[Pos], pos: Pos, card: int) -> None:
    """Shelve ``card`` at ``pos`` (already checked) and normalise coordinates so that the
    top row is 0 and the leftmost column is 0."""
    cells[pos] = card
    dr = -pos[0] if pos[0] < 0 else 0
    dc = -pos[1] if pos[1] < 0 else 0
    if dr or dc:
        moved = {(r + dr, c + dc): v for (r, c), v in cells.items()}
        cells.clear()
        cells.update(moved)
        if down:
            shifted = {(r + dr, c + dc) for r, c in down}
            down.clear()
            down.update(shifted)


def canonical(cells: Mapping[Pos, int], down: Collection[Pos]) -> tuple[dict[Pos, int], set[Pos]]:
    """Copies of a shelf built in reading order, the order a snapshot lists it: a view and
    the view rebuilt from its snapshot then iterate their shelves alike."""
    ordered = dict(sorted(cells.items()))
    return ordered, {pos for pos in ordered if pos in down}
