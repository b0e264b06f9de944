"""Text picture of an Ex Libris position.

The town board (round, Prominent Works, Banned Books, piles), the face-up locations with
their assistants and cards, then each seat: assistants left, hand (only cards the picture
may show: a view shows its own seat's hand and counts for the others), and the shelf as a
grid of ``NAME:ICONS`` cells (row 0 on top, ``(...)`` for a face-down card).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simcli.game import CHANCE

if TYPE_CHECKING:
    from simcli.games.ex_libris.state import ExLibrisState

UNKNOWN = -1


def card_text(state: ExLibrisState, card: int) -> str:
    if card == UNKNOWN:
        return "?"
    book = state.comps.books[card]
    codes = "".join(state.comps.categories[c].code for c in book.books)
    return f"{book.name}:{codes}"


def shelf_lines(state: ExLibrisState, seat: int) -> list[str]:
    cells = state.shelves[seat]
    if not cells:
        return ["    (empty shelf)"]
    down = state.down[seat]
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    width = max(len(card_text(state, c)) for c in cells.values()) + 2
    lines = [("       " + "".join(f"{c:<{width}}" for c in range(cols))).rstrip()]
    for r in range(rows):
        out = []
        for c in range(cols):
            card = cells.get((r, c))
            if card is None:
                text = "."
            elif (r, c) in down:
                text = f"({card_text(state, card)})"
            else:
                text = card_text(state, card)
            out.append(f"{text:<{width}}")
        lines.append(f"    {r:>2} " + "".join(out).rstrip())
    return lines


def pending(state: ExLibrisState) -> str:
    if not state.tasks:
        return "game over"
    task = state.tasks[-1]
    if task.name == "place":
        return f"seat {state.turn} places an assistant"
    seat = task.player(state)
    return f"chance: {task.name}" if seat == CHANCE else f"seat {seat}: {task.name}"


def render_state(state: ExLibrisState) -> str:
    comps = state.comps
    cats = comps.categories
    lines = []
    final = " (final round)" if state.final_round else ""
    lines.append(f"Ex Libris - round {state.round}{final}, first player: seat {state.first}")
    if state.prominent == UNKNOWN:
        lines.append("Prominent Works: (not dealt yet)   Banned Books: (not dealt yet)")
    else:
        lines.append(
            f"Prominent Works: {cats[state.prominent].code} {cats[state.prominent].name}   "
            f"Banned Books: {cats[state.banned].code} {cats[state.banned].name}"
        )
    discard_top = card_text(state, state.discard[-1]) if state.discard else "-"
    lines.append(
        f"Deck {len(state.deck)} | discard {len(state.discard)} (top {discard_top}) | "
        f"location stack {len(state.stack)}, location discards {len(state.loc_discard)}"
    )
    lines.append(f"To play: {pending(state)}")
    lines.append("Locations (P = permanent):")
    for tile in state.face_up_tiles():
        loc = comps.locations[tile]
        mark = "P" if tile in state.permanent else " "
        timing = "delayed" if loc.delayed else "instant"
        occ = state.occupants[tile]
        who = " ".join(
            f"s{s}{'*' if special else ''}{f'(bid {bid})' if loc.has_bid else ''}"
            for s, special, bid in occ
        )
        spaces = f"{len(occ)}/{loc.open_spaces(state.players)}"
        text = f"  {mark} {loc.number:>2} {loc.name} [{timing}] {spaces}"
        if who:
            text += f": {who}"
        if state.area[tile]:
            text += "  cards: " + " ".join(card_text(state, c) for c in state.area[tile])
        lines.append(text)
    for seat in range(state.players):
        lib = state.libraries[seat]
        name = comps.libraries[lib].name if lib >= 0 else "(library not chosen)"
        special = (
            f", {comps.libraries[lib].assistant} {state.special[seat]}"
            if (state.advanced and lib >= 0)
            else ""
        )
        lines.append(
            f"Seat {seat} - {name}: assistants left {state.standard[seat]}{special}; "
            f"home spaces used {len(state.home[seat])}/3"
        )
        focus = state.focus[seat]
        if focus != UNKNOWN:
            lines.append(f"  focus: {cats[focus].code} {cats[focus].name}")
        hand = state.hands[seat]
        if hand and all(c == UNKNOWN for c in hand):
            lines.append(f"  hand: {len(hand)} cards")
        else:
            lines.append(f"  hand ({len(hand)}): " + " ".join(card_text(state, c) for c in hand))
        lines.append(f"  shelf ({len(state.shelves[seat])} cards):")
        lines.extend(shelf_lines(state, seat))
    if state.sheets is not None:
        lines.append("Inspection:")
        komi = state.options.get("komi", 0)
        for seat, s in enumerate(state.sheets):
            bonus = f", komi {seat * komi:+g} = {s.total + seat * komi:g}" if komi and seat else ""
            lines.append(
                f"  seat {seat}: stability {s.stability}, prominent {s.prominent}, banned "
                f"{s.banned}, variety {s.variety}, focus {s.focus} = {s.total}{bonus}"
            )
    return "\n".join(lines)
