"""Bibliogamo as SVG: the librarian's circular track with the six towers on their spaces
and the librarian's pawn, the time track, each tower's workshop (one slot per artisan its
recipe needs, filled by the artisans hired, and the books sold), florins, books and
score, the Prestige Collection card and the hand."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from simcli.games.bibliogamo.components import ARTISAN_LETTERS, CUBES
from simcli.games.svgtools import circle, document, rect, text

if TYPE_CHECKING:
    from simcli.games.bibliogamo.state import BibliogamoState

CX, CY, RADIUS = 200, 210, 160
ARTISAN_FILLS = ("#2e86c1", "#229954", "#c0392b", "#7d3c98")  # R S I B
RIGHT = 420


def _track(state: BibliogamoState) -> list[str]:
    comp = state.comp
    body = [circle(CX, CY, RADIUS, fill="none", stroke="#b9ad94", stroke_width=2)]
    for space in range(comp.spaces):
        angle = 2 * math.pi * space / comp.spaces - math.pi / 2  # clockwise from the top
        x, y = CX + RADIUS * math.cos(angle), CY + RADIUS * math.sin(angle)
        tower = comp.tower_at[space]
        if tower is None:
            body.append(
                circle(x, y, 9, cls="space", data_space=space, fill="#faf6ec", stroke="#7a6a4f")
            )
            body.append(text(x, y + 3, space, 8, fill="#777"))
        else:
            done = state.tower_complete(tower)
            body.append(
                rect(
                    x - 17,
                    y - 17,
                    34,
                    34,
                    rx=4,
                    cls="tower",
                    data_space=space,
                    data_tower=comp.towers[tower].id,
                    fill="#f4d03f" if done else "#efe3c8",
                    stroke="#5d4a2e",
                )
            )
            body.append(text(x, y + 4, comp.towers[tower].id[:4], 9, font_weight="bold"))
        if space == state.librarian:
            px, py = CX + (RADIUS - 32) * math.cos(angle), CY + (RADIUS - 32) * math.sin(angle)
            body.append(circle(px, py, 10, cls="librarian", data_space=space, fill="#212121"))
            body.append(text(px, py + 4, "L", 10, fill="#fff"))
    return body


def _time_track(state: BibliogamoState) -> list[str]:
    from simcli.games.bibliogamo.state import LAST_DAY

    body = [text(CX, CY - 40, f"day {state.time} of {LAST_DAY}", 13, font_weight="bold")]
    width = 200 / LAST_DAY
    for day in range(1, LAST_DAY + 1):
        x = CX - 100 + (day - 1) * width
        passed = day <= state.time
        body.append(
            rect(
                x,
                CY - 30,
                width,
                10,
                cls="day passed" if passed else "day",
                fill="#5d4a2e" if passed else "#efe3c8",
                stroke="#fff",
                stroke_width=0.5,
            )
        )
    lines = [
        f"florins {state.florins}   books {state.books}",
        f"score now {state.score()}",
        f"turn {state.turn}, cubes on board {state.cubes_on_board}/{CUBES}",
    ]
    body += [text(CX, CY + 4 + 16 * i, s, 12) for i, s in enumerate(lines)]
    return body


def _towers(state: BibliogamoState) -> list[str]:
    comp = state.comp
    body = [
        text(
            RIGHT,
            22,
            "towers (artisans hired / needed)",
            13,
            text_anchor="start",
            font_weight="bold",
        )
    ]
    for t, tower in enumerate(comp.towers):
        y = 36 + t * 34
        done = "  complete" if state.tower_complete(t) else ""
        label = f"{tower.name} @{tower.space}: sold {state.sold[t]}{done}"
        body.append(text(RIGHT, y + 10, label, 11, text_anchor="start"))
        x = RIGHT
        for k, need in enumerate(tower.recipe):
            for slot in range(need):
                hired = slot < state.towers[t][k]
                body.append(
                    rect(
                        x,
                        y + 14,
                        11,
                        11,
                        cls="cube" if hired else "slot",
                        data_tower=tower.id,
                        data_artisan=ARTISAN_LETTERS[k],
                        fill=ARTISAN_FILLS[k] if hired else "#fff",
                        stroke=ARTISAN_FILLS[k],
                    )
                )
                x += 13
            x += 6 if need else 0
    legend = "  ".join(f"{a}" for a in ARTISAN_LETTERS)
    body.append(
        text(
            RIGHT,
            36 + len(comp.towers) * 34 + 4,
            f"slots: {legend} in this order",
            10,
            text_anchor="start",
            fill="#555",
        )
    )
    return body


def _cards(state: BibliogamoState, top: float) -> list[str]:
    from simcli.games.bibliogamo.state import describe_card

    comp = state.comp
    lines: list[tuple[str, str, int | None]] = []
    if state.prestige is not None:
        pc = comp.prestige[state.prestige]
        wanted = ", ".join(comp.towers[b].id for b in pc.books)
        marked = f"marked {sum(state.marks)} -> {state.prestige_points()} VP"
        lines.append(("prestige", f"Prestige: {pc.name} [{wanted}] {marked}", None))
    if state.revealed is not None:
        lines.append(("revealed", f"revealed card {state.revealed}", None))
    if state.sale:
        price = "" if state.price is None else f", price {state.price} florins"
        lines.append(("sale", f"sale cards {state.sale}{price}", None))
    lines += [("card", "hand " + describe_card(comp, c), c) for c in state.hand]
    piles = f"draw pile {len(state.draw)}, discard pile {len(state.discard)}"
    lines.append(("piles", piles, None))
    return [
        text(RIGHT, top + 16 * i, s, 11, text_anchor="start", cls=cls, data_card=card)
        for i, (cls, s, card) in enumerate(lines)
    ]


def render_svg(state: BibliogamoState) -> str:
    body = _track(state) + _time_track(state) + _towers(state)
    top = 36 + len(state.comp.towers) * 34 + 28
    cards = _cards(state, top)
    height = max(2 * CY, top + 16 * len(cards))
    return document(RIGHT + 420, height, body + cards, "bibliogamo")
