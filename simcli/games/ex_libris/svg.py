"""Ex Libris as SVG: the town board (round, Prominent Works and Banned Books, piles), the
face-up locations with the assistants on them and their cards, then each seat: its
library, assistants left, hand (a face-down card where the picture is a seat's view of
another hand) and shelf as a grid of book cards (name, letter and number, category
icons; a face-down card shaded)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from simcli.games.ex_libris.render import UNKNOWN, pending
from simcli.games.svgtools import UNKNOWN_FILL, circle, document, group, rect, seat_colour, text

if TYPE_CHECKING:
    from simcli.games.ex_libris.state import ExLibrisState

WIDTH = 960
LOC_W, LOC_H = 150, 92
CARD_W, CARD_H = 50, 34
PAD = 10
HAND_LINE = 16  # cards in a line of a hand


def _card(state: ExLibrisState, card: int, x: float, y: float, cls: str, **extra) -> str:
    """One book card: its name (letter and number) over its category icons."""
    if card == UNKNOWN:
        return group(
            [
                rect(x, y, CARD_W, CARD_H, rx=3, fill=UNKNOWN_FILL, stroke="#555"),
                text(x + CARD_W / 2, y + 21, "?", 13, fill="#fff"),
            ],
            cls=f"{cls} unknown",
            **extra,
        )
    book = state.comps.books[card]
    codes = "".join(state.comps.categories[c].code for c in book.books)
    return group(
        [
            rect(x, y, CARD_W, CARD_H, rx=3, fill="#fdf2e9", stroke="#7a6a4f"),
            text(x + CARD_W / 2, y + 14, book.name, 11, font_weight="bold"),
            text(x + CARD_W / 2, y + 28, codes, 10, fill="#555"),
        ],
        cls=cls,
        data_card=book.name,
        data_letter=book.letter,
        **extra,
    )


def _header(state: ExLibrisState) -> list[str]:
    cats = state.comps.categories
    final = " (final round)" if state.final_round else ""
    lines = [
        f"Round {state.round}{final}, first player: seat {state.first}. To play: {pending(state)}"
    ]
    if state.prominent == UNKNOWN:
        lines.append("Prominent Works and Banned Books: not dealt yet")
    else:
        lines.append(
            f"Prominent Works: {cats[state.prominent].code} {cats[state.prominent].name}   "
            f"Banned Books: {cats[state.banned].code} {cats[state.banned].name}"
        )
    lines.append(
        f"deck {len(state.deck)}, discard {len(state.discard)}, location stack {len(state.stack)}"
    )
    return [text(PAD, 18 + 17 * i, s, 13, text_anchor="start") for i, s in enumerate(lines)]


def _location(state: ExLibrisState, tile: int, x: float, y: float) -> str:
    loc = state.comps.locations[tile]
    permanent = tile in state.permanent
    body = [
        rect(
            x, y, LOC_W, LOC_H, rx=5, fill="#eef4f7" if permanent else "#f7f1e3", stroke="#7a6a4f"
        ),
        text(
            x + 6,
            y + 14,
            f"{loc.number} {loc.name}"[:24],
            11,
            text_anchor="start",
            font_weight="bold",
        ),
        text(
            x + 6,
            y + 27,
            ("permanent, " if permanent else "")
            + f"{'delayed' if loc.delayed else 'instant'}, "
            + f"{len(state.occupants[tile])}/{loc.open_spaces(state.players)} spaces",
            9,
            text_anchor="start",
            fill="#555",
        ),
    ]
    for i, (seat, special, bid) in enumerate(state.occupants[tile]):
        cx, cy = x + 14 + i * 24, y + 44
        body.append(
            circle(
                cx,
                cy,
                9,
                cls="assistant special" if special else "assistant",
                data_seat=seat,
                data_bid=bid if loc.has_bid else None,
                fill=seat_colour(seat),
                stroke="#000" if special else "none",
                stroke_width=2,
            )
        )
        if loc.has_bid:
            body.append(text(cx, cy + 4, bid, 9, fill="#fff"))
    names = " ".join(state.card_name(c) for c in state.area[tile])
    if names:
        body.append(text(x + 6, y + 76, f"cards: {names}"[:30], 10, text_anchor="start"))
    return group(body, cls="location", data_number=loc.number)


def _seat(state: ExLibrisState, seat: int, y: float) -> tuple[list[str], float]:
    """The seat's block at height ``y``: its picture and the height it takes."""
    top = y
    comps = state.comps
    lib = state.libraries[seat]
    name = comps.libraries[lib].name if lib >= 0 else "library not chosen"
    special = ""
    if state.advanced and lib >= 0:
        special = f", {comps.libraries[lib].assistant} {state.special[seat]}"
    head = f"Seat {seat}: {name}; assistants left {state.standard[seat]}{special}"
    head += f"; home spaces used {len(state.home[seat])}/3"
    focus = state.focus[seat]
    if focus != UNKNOWN:
        head += f"; focus {comps.categories[focus].code} {comps.categories[focus].name}"
    body = [
        text(PAD, y + 14, head, 13, text_anchor="start", fill=seat_colour(seat), font_weight="bold")
    ]
    body.append(text(PAD, y + 40, "hand", 11, text_anchor="start"))
    for i, card in enumerate(state.hands[seat]):
        line, place = divmod(i, HAND_LINE)
        cx, cy = 60 + place * (CARD_W + 4), y + 22 + line * (CARD_H + 4)
        body.append(_card(state, card, cx, cy, "card", data_seat=seat))
    y += max(0, (len(state.hands[seat]) - 1) // HAND_LINE) * (CARD_H + 4)
    body.append(text(PAD, y + 82, "shelf", 11, text_anchor="start"))
    cells = state.shelves[seat]
    rows = max((r for r, _ in cells), default=-1) + 1
    for (r, c), card in cells.items():
        down = (r, c) in state.down[seat]
        cls = "shelf-card down" if down else "shelf-card"
        cx, cy = 60 + c * (CARD_W + 4), y + 64 + r * (CARD_H + 4)
        body.append(
            _card(
                state,
                card,
                cx,
                cy,
                cls,
                data_seat=seat,
                data_row=r,
                data_col=c,
                opacity="0.55" if down else None,
            )
        )
    height = y - top + 64 + max(rows, 1) * (CARD_H + 4) + 8
    if state.sheets is not None:
        s = state.sheets[seat]
        score = (
            f"stability {s.stability}, prominent {s.prominent}, banned {s.banned}, "
            f"variety {s.variety}, focus {s.focus} = {s.total}"
        )
        body.append(text(PAD, top + height + 4, score, 12, text_anchor="start", cls="sheet"))
        height += 16
    return body, height


def render_svg(state: ExLibrisState) -> str:
    body = _header(state)
    y = 64
    per_row = (WIDTH - PAD) // (LOC_W + PAD)
    tiles = state.face_up_tiles()
    for i, tile in enumerate(tiles):
        row, col = divmod(i, per_row)
        body.append(_location(state, tile, PAD + col * (LOC_W + PAD), y + row * (LOC_H + PAD)))
    y += ((len(tiles) + per_row - 1) // per_row) * (LOC_H + PAD) + 6
    width = WIDTH
    for seat in range(state.players):
        part, height = _seat(state, seat, y)
        body += part
        y += height
        columns = max((c for _, c in state.shelves[seat]), default=0) + 1
        width = max(width, 60 + columns * (CARD_W + 4) + PAD)
    return document(width, y + 6, body, "ex_libris")
