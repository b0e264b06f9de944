"""Libraria as SVG: the 5x5 tiles with their values (books, or M for a mouse), the 36
corner spots with their numbers, and the counters on them in their seat's colour."""

from __future__ import annotations

from typing import TYPE_CHECKING

from simcli.games.svgtools import circle, document, rect, seat_colour, text

if TYPE_CHECKING:
    from simcli.games.libraria import LibrariaState

CELL = 64
MARGIN = 28


def render_svg(state: LibrariaState, size: int, spots_per_side: int, empty: int) -> str:
    """The picture of ``state`` on a ``size`` x ``size`` grid of tiles (the rules module
    passes its constants: this module does not import it, so the two form no cycle)."""
    SIZE, SPOTS_PER_SIDE, EMPTY = size, spots_per_side, empty  # noqa: N806
    body = []
    for tile, value in enumerate(state.tiles):
        r, c = divmod(tile, SIZE)
        x, y = MARGIN + c * CELL, MARGIN + r * CELL
        mouse = value < 0
        body.append(
            rect(
                x,
                y,
                CELL,
                CELL,
                cls="tile mouse" if mouse else "tile",
                data_tile=tile,
                data_value=value,
                fill="#efe3c8" if mouse else "#f7f1e3",
                stroke="#7a6a4f",
            )
        )
        label = "M" if mouse else str(value)
        body.append(text(x + CELL / 2, y + CELL / 2 + 8, label, 22, fill="#5d4a2e"))
    for spot, owner in enumerate(state.board):
        r, c = divmod(spot, SPOTS_PER_SIDE)
        x, y = MARGIN + c * CELL, MARGIN + r * CELL
        if owner == EMPTY:
            body.append(circle(x, y, 4, cls="spot", data_spot=spot, fill="#7a6a4f"))
        else:
            body.append(
                circle(
                    x,
                    y,
                    13,
                    cls="counter",
                    data_spot=spot,
                    data_seat=owner,
                    fill=seat_colour(owner),
                    stroke="#222",
                )
            )
            body.append(text(x, y + 4, spot, 10, fill="#fff"))
    side = 2 * MARGIN + SIZE * CELL
    a, b = state.scores()
    body.append(
        text(MARGIN, side + 6, f"seat 0: {a} points", 14, text_anchor="start", fill=seat_colour(0))
    )
    body.append(
        text(
            side - MARGIN,
            side + 6,
            f"seat 1: {b} points",
            14,
            text_anchor="end",
            fill=seat_colour(1),
        )
    )
    return document(side, side + 16, body, "libraria")
