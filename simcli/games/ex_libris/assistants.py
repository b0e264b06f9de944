"""Placement rules of assistants: where they may go, home actions, and the special
assistants of the advanced game (their abilities hook into placement and effects)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from simcli.game import IllegalMoveError
from simcli.games.chance import keyed_pick

if TYPE_CHECKING:
    from simcli.games.ex_libris.state import ExLibrisState


def ability(state: ExLibrisState, seat: int) -> str | None:
    """The ability of ``seat``'s special assistant (``None`` in the beginner game)."""
    lib = state.libraries[seat]
    if not state.advanced or lib < 0:
        return None
    return state.comps.libraries[lib].ability


def _special_owner_blocks(state: ExLibrisState, seat: int, tile: int) -> bool:
    """A Snowman on an instant tile, or a Sasquatch anywhere, keeps opponents away."""
    for s, special, _ in state.occupants[tile]:
        if special and s != seat:
            ab = ability(state, s)
            if ab == "sasquatch" or (ab == "snowman" and not state.loc(tile).delayed):
                return True
    return False


def may_visit(state: ExLibrisState, seat: int, tile: int, special: int) -> bool:
    ab = ability(state, seat) if special else None
    if ab == "ghost":
        # Ghost: never Diviner's Hut (the start tile); ignores the space limit elsewhere.
        return not state.loc(tile).start and not _special_owner_blocks(state, seat, tile)
    if not state.open_space(tile):
        return False
    if _special_owner_blocks(state, seat, tile):
        return False
    if ab == "sasquatch":
        return all(s == seat for s, _, _ in state.occupants[tile])
    return True


def home_moves(
    state: ExLibrisState, seat: int, special: int, positions: list | None = None
) -> list[Any]:
    head = "shome" if special else "home"
    ab = ability(state, seat) if special else None
    if ab in ("bookworm", "gelatinous_cube"):
        # both home actions: draw a card, then shelve a card (shelving may be passed)
        return [[head, "both"]]
    moves: list[Any] = [[head, "draw"]]
    hand = sorted(set(state.hands[seat]))
    moves.extend(state.shelve_moves(seat, hand, (head, "shelve"), positions))
    return moves


def apply_home(state: ExLibrisState, seat: int, special: int, move: list) -> list[tuple]:
    head = "shome" if special else "home"
    ab = ability(state, seat) if special else None
    if ab in ("bookworm", "gelatinous_cube"):
        if move != [head, "both"]:
            raise IllegalMoveError(f"this assistant takes both home actions: [{head!r}, 'both']")
        return [("draw", seat, 1), ("shelve", seat, 1, 0)]
    tomb = [("entomb", seat)] if ab == "mummy" else []
    if move == [head, "draw"]:
        return [("draw", seat, 1), *tomb]
    if len(move) == 5 and move[1] == "shelve":
        card, r, c = state.parse_shelve([move[1], *move[2:]], "shelve")
        state.shelve_card(seat, card, r, c)
        if ab == "gargoyle":
            return [("shelve", seat, 1, 0)]
        return tomb
    raise IllegalMoveError(
        f"a home action is [{head!r}, 'draw'] or [{head!r}, 'shelve', CARD, ROW, COLUMN]; "
        f"got {move!r}"
    )


def before_place(state: ExLibrisState, seat: int, tile: int, special: int) -> list[tuple]:
    """Tasks that run when an assistant arrives, before the tile's own effect (the new
    assistant is not yet among the occupants)."""
    todo: list[tuple] = []
    # a Gelatinous Cube already there takes a random card from each opponent who joins it
    for s, sp, _ in state.occupants[tile]:
        if sp and s != seat and ability(state, s) == "gelatinous_cube" and state.hands[seat]:
            todo.append(("random_card", seat, s))
            break
    if not special:
        return todo
    ab = ability(state, seat)
    if ab == "wisp":
        todo.append(("draw", seat, 1))
    elif ab == "dragon":
        todo.append(("take", seat, tile, 1))
    elif ab == "goblin_sneak":
        if any(s != seat for s, _, _ in state.occupants[tile]):
            todo.append(("name_category", seat, tile))
    elif ab == "automaton":
        mine = sum(1 for s, _, _ in state.occupants[tile] if s == seat)
        todo.extend(("home_action", seat) for _ in range(mine))
    elif ab == "mummy":
        todo.append(("entomb", seat))
    return todo


def after_effect(
    state: ExLibrisState, seat: int, tile: int, special: int, resolution: bool
) -> list[tuple]:
    """Tasks after the tile's effect for this assistant (Imp: may shelve a card)."""
    if not special or ability(state, seat) != "imp":
        return []
    if resolution != state.loc(tile).delayed:
        return []
    return [("shelve", seat, 1, 0)]


# ---------------------------------------------------------------- ability decisions


def has_choice(state: ExLibrisState, task: tuple) -> bool:
    head, seat = task[0], task[1]
    if head == "library":
        return True
    if head == "home_action":
        return True
    if head == "name_category":
        return True
    if head == "give":
        cat = task[3]
        return any(cat in state.comps.books[c].books for c in state.hands[seat] if c >= 0)
    if head == "entomb":
        return bool(state.hands[seat]) and bool(state.shelves[seat])
    raise IllegalMoveError(f"unknown task {head!r}")


def legal_moves(state: ExLibrisState, task: tuple) -> list[Any]:
    head, seat = task[0], task[1]
    books = state.comps.books
    if head == "library":
        return [["library", state.comps.libraries[i].name] for i in state.offered[seat]]
    if head == "home_action":
        return [["draw"]] + state.shelve_moves(seat, sorted(set(state.hands[seat])))
    if head == "name_category":
        return [["name", cat.code] for cat in state.comps.categories]
    if head == "give":
        cat = task[3]
        return [
            ["give", books[c].name]
            for c in sorted(set(state.hands[seat]))
            if c >= 0 and cat in books[c].books
        ]
    if head == "entomb":
        cells = state.shelves[seat]
        return ["pass"] + [
            ["entomb", books[h].name, r, c]
            for h in sorted(set(state.hands[seat]))
            if h >= 0
            for (r, c) in sorted(cells)
        ]
    raise IllegalMoveError(f"unknown task {head!r}")


def apply(state: ExLibrisState, task: tuple, move: Any) -> None:
    head, seat = task[0], task[1]
    if head == "home_action" and isinstance(move, list) and move[:1] == ["shelve"]:
        card, r, c = state.parse_shelve(move, "shelve")
        state.shelve_card(seat, card, r, c)  # checks the position and the hand first
        state.tasks.pop()
        return
    if move not in legal_moves(state, task):
        raise IllegalMoveError(f"{move!r} is not a legal move here ({state.describe()})")
    state.tasks.pop()
    if head == "library":
        lib = next(i for i in state.offered[seat] if state.comps.libraries[i].name == move[1])
        state.libraries[seat] = lib
        state.offered[seat] = []
    elif head == "home_action":
        state.push(("draw", seat, 1))
    elif head == "name_category":
        cat = state.comps.category_index(move[1])
        tile = task[2]
        seen: list[int] = []
        for s, _, _ in state.occupants[tile]:
            if s != seat and s not in seen:
                seen.append(s)
        state.push(*[("give", s, seat, cat) for s in seen])
    elif head == "give":
        card = state.card_of(move[1])
        state.remove_from_hand(seat, card)
        state.give_card(task[2], card)
    elif head == "entomb":
        if move == "pass":
            return
        card = state.card_of(move[1])
        pos = (move[2], move[3])
        state.remove_from_hand(seat, card)
        covered = state.shelves[seat][pos]
        state.entombed[seat].append(covered)
        state.shelves[seat][pos] = card


def sample_chance(state: ExLibrisState, rng: random.Random) -> Any:
    task = state.tasks[-1]
    if task[0] == "random_card":
        # the card with the smallest key drawn for this event (simcli/games/chance.py)
        hand = state.hands[task[1]]
        return state.comps.books[keyed_pick(hand, int, len(state.comps.books), rng)].name
    raise IllegalMoveError("no chance event is pending")


def apply_chance(state: ExLibrisState, task: tuple, outcome: Any) -> None:
    if task[0] == "random_card":
        _, giver, taker = task
        card = state.comps.book_index(outcome)
        if card is None or card not in state.hands[giver]:
            raise IllegalMoveError(f"{outcome!r} is not a card in seat {giver}'s hand")
        state.remove_from_hand(giver, card)
        state.give_card(taker, card)
        state.tasks.pop()
        return
    raise IllegalMoveError(f"unknown chance event {task[0]!r}")
