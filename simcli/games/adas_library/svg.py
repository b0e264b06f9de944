"""Ada's Library as SVG: the master shelf (the colour order to reach), each seat's row of
books in their colours with its count of books out of order, each hand (a card face down,
``?``, where the picture is a seat's view of another hand), and the piles."""

from __future__ import annotations

from typing import TYPE_CHECKING

from simcli.games.adas_library.components import UNKNOWN
from simcli.games.adas_library.state import colour_letters
from simcli.games.svgtools import UNKNOWN_FILL, document, rect, seat_colour, text

if TYPE_CHECKING:
    from simcli.games.adas_library.state import AdasState

BOOK = 26
ROW_H = 78
LEFT = 96
#: Fills for the packaged colour names; other names take the palette by index.
FILLS = {
    "yellow": "#f4d03f",
    "teal": "#17a589",
    "gray": "#909497",
    "grey": "#909497",
    "magenta": "#c2185b",
    "blue": "#2e86c1",
    "red": "#cb4335",
    "green": "#28b463",
    "orange": "#e67e22",
    "purple": "#7d3c98",
    "black": "#212121",
    "white": "#fdfefe",
    "brown": "#8d6e63",
}
PALETTE = ("#f4d03f", "#17a589", "#909497", "#c2185b", "#2e86c1", "#cb4335", "#28b463", "#e67e22")


def colour_fill(name: str, index: int) -> str:
    return FILLS.get(name.lower(), PALETTE[index % len(PALETTE)])


def _books(colours: list[int], names: tuple[str, ...] | list[str], y: float, **extra) -> list[str]:
    body = []
    letters = colour_letters(names)
    for pos, c in enumerate(colours):
        x = LEFT + pos * (BOOK + 3)
        body.append(
            rect(
                x,
                y,
                BOOK,
                BOOK * 1.5,
                rx=3,
                data_pos=pos,
                data_colour=names[c],
                fill=colour_fill(names[c], c),
                stroke="#333",
                **extra,
            )
        )
        body.append(text(x + BOOK / 2, y + BOOK * 1.5 - 5, letters[c], 10, fill="#fff"))
    return body


def _hand(state: AdasState, seat: int, y: float) -> list[str]:
    body = []
    for i, card in enumerate(state.hands[seat]):
        x = LEFT + i * 64
        hidden = card == UNKNOWN
        body.append(
            rect(
                x,
                y,
                60,
                20,
                rx=3,
                cls="card unknown" if hidden else "card",
                data_seat=seat,
                data_card=card,
                fill=UNKNOWN_FILL if hidden else "#fdf2e9",
                stroke="#7a6a4f",
            )
        )
        body.append(text(x + 30, y + 14, card, 10, fill="#fff" if hidden else "#333"))
    return body


def render_svg(state: AdasState) -> str:
    names = state.comp.colours
    body = [text(8, 30, "master", 13, text_anchor="start", font_weight="bold")]
    body += _books(state.master, names, 8, cls="master-card")
    current = state.current_player
    for seat, row in enumerate(state.rows):
        y = 60 + seat * ROW_H
        label = f"{'> ' if seat == current else ''}seat {seat}"
        body.append(
            text(
                8,
                y + 24,
                label,
                13,
                text_anchor="start",
                fill=seat_colour(seat),
                font_weight="bold" if seat == current else None,
            )
        )
        body += _books(row, names, y, cls="book", data_seat=seat)
        out = state.out_of_order(seat)
        width_row = LEFT + len(row) * (BOOK + 3)
        body.append(text(width_row + 8, y + 24, f"{out} out of order", 11, text_anchor="start"))
        body += _hand(state, seat, y + BOOK * 1.5 + 6)
    y = 60 + len(state.rows) * ROW_H
    top = state.discard[-1] if state.discard else "-"
    piles = f"draw pile {len(state.draw)}   discard pile {len(state.discard)} (top: {top})"
    body.append(text(8, y + 8, piles, 12, text_anchor="start"))
    if state.viewer is not None:
        body.append(
            text(
                8,
                y + 26,
                f"seen by seat {state.viewer}: ? = unknown card",
                12,
                text_anchor="start",
                fill="#555",
            )
        )
    width = LEFT + max(len(row) for row in [*state.rows, state.master]) * (BOOK + 3) + 110
    return document(max(width, LEFT + 5 * 64 + 10), y + 34, body, "adas_library")
