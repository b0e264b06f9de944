"""The sphere game as SVG: the 7x7 grid with file letters and ranks, the fountain, the
plates and walls in their seat's colour, the sphere, and each seat's entrance."""

from __future__ import annotations

from typing import TYPE_CHECKING

from simcli.games.library.board import (
    CELLS,
    EMPTY,
    FOUNTAIN_MARK,
    GAP_CELLS,
    GAPS,
    H_GAPS,
    SIZE,
    cell_name,
    gap_name,
)
from simcli.games.library.state import NO_CELL
from simcli.games.svgtools import circle, document, line, rect, seat_colour, text

if TYPE_CHECKING:
    from simcli.games.library.state import LibraryState

CELL = 56
MARGIN = 48


def _corner(cell: int) -> tuple[float, float]:
    row, col = divmod(cell, SIZE)
    return MARGIN + col * CELL, MARGIN + row * CELL


def _cells(state: LibraryState) -> list[str]:
    body = []
    for cell in range(CELLS):
        x, y = _corner(cell)
        body.append(rect(x, y, CELL, CELL, cls="cell", fill="#faf6ec", stroke="#b9ad94"))
        owner = state.cells[cell]
        if owner == FOUNTAIN_MARK:
            body.append(
                circle(
                    x + CELL / 2,
                    y + CELL / 2,
                    CELL / 3,
                    cls="fountain",
                    fill="#aed6f1",
                    stroke="#2e86c1",
                )
            )
        elif owner != EMPTY:
            body.append(
                rect(
                    x + 6,
                    y + 6,
                    CELL - 12,
                    CELL - 12,
                    rx=6,
                    cls="plate",
                    data_cell=cell_name(cell),
                    data_seat=owner,
                    fill=seat_colour(owner),
                    opacity="0.75",
                )
            )
    return body


def _walls(state: LibraryState) -> list[str]:
    body = []
    for gap in range(GAPS):
        owner = state.walls[gap]
        if owner == EMPTY:
            continue
        upper, _ = GAP_CELLS[gap]
        x, y = _corner(upper)
        if gap < H_GAPS:  # below ``upper``
            ends = (x + 3, y + CELL, x + CELL - 3, y + CELL)
        else:  # right of ``upper``
            ends = (x + CELL, y + 3, x + CELL, y + CELL - 3)
        body.append(
            line(
                *ends,
                cls="wall",
                data_gap=gap_name(gap),
                data_seat=owner,
                stroke=seat_colour(owner),
                stroke_width=7,
                stroke_linecap="round",
            )
        )
    return body


def _entrances(state: LibraryState) -> list[str]:
    body = []
    for seat, cell in enumerate(state.entrances):
        x, y = _corner(cell)
        row, col = divmod(cell, SIZE)
        if row == SIZE - 1:
            cx, cy = x + CELL / 2, y + CELL + 15
        elif row == 0:
            cx, cy = x + CELL / 2, y - 15
        elif col == 0:
            cx, cy = x - 15, y + CELL / 2
        else:
            cx, cy = x + CELL + 15, y + CELL / 2
        body.append(circle(cx, cy, 11, cls="entrance", data_seat=seat, fill=seat_colour(seat)))
        body.append(text(cx, cy + 4, seat, 11, fill="#fff"))
    return body


def render_svg(state: LibraryState) -> str:
    side = 2 * MARGIN + SIZE * CELL
    body = [
        rect(
            MARGIN, MARGIN, SIZE * CELL, SIZE * CELL, fill="none", stroke="#5d4a2e", stroke_width=2
        )
    ]
    body += _cells(state)
    for i in range(SIZE):
        body.append(text(MARGIN + i * CELL + CELL / 2, side - 4, "abcdefg"[i], 11, fill="#777"))
        body.append(text(8, MARGIN + i * CELL + CELL / 2 + 4, SIZE - i, 11, fill="#777"))
    body += _walls(state)
    body += _entrances(state)
    x, y = _corner(state.sphere)
    body.append(
        circle(
            x + CELL / 2,
            y + CELL / 2,
            CELL / 4,
            cls="sphere",
            data_cell=cell_name(state.sphere),
            fill="#f5f5f5",
            stroke="#222",
            stroke_width=2,
        )
    )
    if state.forbid != NO_CELL:
        fx, fy = _corner(state.forbid)
        body.append(text(fx + CELL / 2, fy + 14, "no return", 9, cls="forbid", fill="#922"))
    status = []
    if state.walls_left is not None:
        status.append(
            "walls left: " + ", ".join(f"seat {s} {n}" for s, n in enumerate(state.walls_left))
        )
    if state.winner != NO_CELL:
        status.append(f"seat {state.winner} wins")
    lines = [
        text(MARGIN, side + 14 + 16 * i, s, 13, text_anchor="start") for i, s in enumerate(status)
    ]
    return document(side, side + 8 + 16 * len(status), body + lines, "library")
