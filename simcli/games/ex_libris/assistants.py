"""Placement rules of assistants: where they may go, home actions, and the special
assistants of the advanced game (their abilities hook into placement and effects)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simcli.game import IllegalMoveError
from simcli.games.chance import keyed_pick
from simcli.games.ex_libris.effects import Draw, Shelve, Take
from simcli.games.ex_libris.tasks import Chance, Decision, Task

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


#: The option ``home_action``: ``required`` (default): a home space's action is a draw or a
#: shelving; ``optional``: the player may also take neither (``[KIND, "pass"]``).
HOME_ACTION = "home_action"


def home_moves(
    state: ExLibrisState, seat: int, special: int, positions: list | None = None
) -> list[Any]:
    head = "shome" if special else "home"
    ab = ability(state, seat) if special else None
    optional = state.options.get(HOME_ACTION, "required") == "optional"
    if ab in ("bookworm", "gelatinous_cube"):
        # both home actions: draw a card, then shelve a card (shelving may be passed)
        return [[head, "both"], [head, "pass"]] if optional else [[head, "both"]]
    moves: list[Any] = [[head, "draw"]]
    hand = sorted(set(state.hands[seat]))
    moves.extend(state.shelve_moves(seat, hand, (head, "shelve"), positions))
    if optional:
        moves.append([head, "pass"])
    return moves


def apply_home(state: ExLibrisState, seat: int, special: int, move: list) -> list[Task]:
    """Carry out the home action ``move`` (one of :func:`home_moves`); the tasks it sets
    off."""
    ab = ability(state, seat) if special else None
    tomb: list[Task] = [Entomb(seat)] if ab == "mummy" else []
    if move[1] == "pass":  # option home_action: optional; a Mummy still entombs
        return tomb
    if ab in ("bookworm", "gelatinous_cube"):
        return [Draw(seat, 1), Shelve(seat, 1, 0)]
    if move[1] == "draw":
        return [Draw(seat, 1), *tomb]
    state.shelve_move(seat, move[1:])
    if ab == "gargoyle":
        return [Shelve(seat, 1, 0)]
    return tomb


def before_place(state: ExLibrisState, seat: int, tile: int, special: int) -> list[Task]:
    """Tasks that run when an assistant arrives, before the tile's own effect (the new
    assistant is not yet among the occupants)."""
    todo: list[Task] = []
    # a Gelatinous Cube already there takes a random card from each opponent who joins it
    for s, sp, _ in state.occupants[tile]:
        if sp and s != seat and ability(state, s) == "gelatinous_cube" and state.hands[seat]:
            todo.append(RandomCard(seat, s))
            break
    if not special:
        return todo
    ab = ability(state, seat)
    if ab == "wisp":
        todo.append(Draw(seat, 1))
    elif ab == "dragon":
        todo.append(Take(seat, tile, 1))
    elif ab == "goblin_sneak":
        if any(s != seat for s, _, _ in state.occupants[tile]):
            todo.append(NameCategory(seat, tile))
    elif ab == "automaton":
        mine = sum(1 for s, _, _ in state.occupants[tile] if s == seat)
        todo.extend(HomeAction(seat) for _ in range(mine))
    elif ab == "mummy":
        todo.append(Entomb(seat))
    return todo


def after_effect(
    state: ExLibrisState, seat: int, tile: int, special: int, resolution: bool
) -> list[Task]:
    """Tasks after the tile's effect for this assistant (Imp: may shelve a card)."""
    if not special or ability(state, seat) != "imp":
        return []
    if resolution != state.loc(tile).delayed:
        return []
    return [Shelve(seat, 1, 0)]


# ---------------------------------------------------------------- ability decisions


@dataclass(frozen=True, slots=True)
class HomeAction(Decision):
    """Automaton: ``seat`` takes one home action: ``["draw"]`` or ``["shelve", CARD, ROW,
    COLUMN]``."""

    name = "home_action"
    seat: int

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        return [["draw"]] + state.shelve_moves(self.seat, sorted(set(state.hands[self.seat])))

    def apply(self, state: ExLibrisState, move: Any) -> None:
        if move == ["draw"]:
            state.push(Draw(self.seat, 1))
            return
        state.shelve_move(self.seat, move)


@dataclass(frozen=True, slots=True)
class NameCategory(Decision):
    """Goblin Sneak on ``tile``: ``seat`` names a category (``["name", CODE]``); every
    opponent there, in space order, then gives it a card of that category."""

    name = "name_category"
    seat: int
    tile: int

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        return [["name", cat.code] for cat in state.comps.categories]

    def apply(self, state: ExLibrisState, move: Any) -> None:
        category = state.comps.category_index(move[1])
        givers: list[int] = []
        for s, _, _ in state.occupants[self.tile]:
            if s != self.seat and s not in givers:
                givers.append(s)
        state.push(*[Give(s, self.seat, category) for s in givers])  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Give(Decision):
    """``seat`` gives ``taker`` a hand card with a book of ``category`` (``["give",
    CARD]``); with none, it shows its hand and nothing happens."""

    name = "give"
    seat: int
    taker: int
    category: int

    def has_choice(self, state: ExLibrisState) -> bool:
        books = state.comps.books
        return any(self.category in books[c].books for c in state.hands[self.seat] if c >= 0)

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        books = state.comps.books
        return [
            ["give", books[c].name]
            for c in sorted(set(state.hands[self.seat]))
            if c >= 0 and self.category in books[c].books
        ]

    def apply(self, state: ExLibrisState, move: Any) -> None:
        card = state.card_of(move[1])
        state.remove_from_hand(self.seat, card)
        state.give_card(self.taker, card)


@dataclass(frozen=True, slots=True)
class Entomb(Decision):
    """Mummy: ``seat`` may lay a hand card on one of its shelved cards, which is entombed
    under it (``["entomb", CARD, ROW, COLUMN]``), or ``"pass"``."""

    name = "entomb"
    seat: int

    def has_choice(self, state: ExLibrisState) -> bool:
        return bool(state.hands[self.seat]) and bool(state.shelves[self.seat])

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        books = state.comps.books
        cells = state.shelves[self.seat]
        return ["pass"] + [
            ["entomb", books[h].name, r, c]
            for h in sorted(set(state.hands[self.seat]))
            if h >= 0
            for (r, c) in sorted(cells)
        ]

    def apply(self, state: ExLibrisState, move: Any) -> None:
        if move == "pass":
            return
        card = state.card_of(move[1])
        pos = (move[2], move[3])
        state.remove_from_hand(self.seat, card)
        cells = state.shelves[self.seat]
        state.entombed[self.seat].append(cells[pos])
        cells[pos] = card


@dataclass(frozen=True, slots=True)
class RandomCard(Chance):
    """Gelatinous Cube: ``taker`` takes a random hand card of ``seat``, who joined it; the
    outcome is the card's name."""

    name = "random_card"
    seat: int
    taker: int

    def sample(self, state: ExLibrisState, stream: random.Random) -> Any:
        # the card with the smallest key drawn for this event (simcli/games/chance.py)
        books = state.comps.books
        return books[keyed_pick(state.hands[self.seat], int, len(books), stream)].name

    def outcomes(self, state: ExLibrisState) -> list[tuple[Any, float]] | None:
        """Each card of the hand alike (a view that does not know the hand: ``None``)."""
        hand = state.hands[self.seat]
        if -1 in hand:
            return None
        books = state.comps.books
        return [(books[card].name, 1 / len(hand)) for card in hand]

    def settle(self, state: ExLibrisState, outcome: Any) -> None:
        card = state.comps.book_index(outcome)
        if card is None or card not in state.hands[self.seat]:
            raise IllegalMoveError(f"{outcome!r} is not a card in seat {self.seat}'s hand")
        state.remove_from_hand(self.seat, card)
        state.give_card(self.taker, card)


TASKS: tuple[type[Task], ...] = (HomeAction, NameCategory, Give, Entomb, RandomCard)
