"""Location effects: one task per effect primitive, and the deck reshuffle.

A location's effect is a list of primitives (``components.PRIMITIVES``);
:func:`effect_tasks` turns it into the tasks that carry it out for one assistant. The card
moves the primitives make (draw, take from the tile's card area, shelve, swap, discard,
search the discard pile, bid) are each a task here, with their legal moves and their rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simcli.game import IllegalMoveError
from simcli.games.chance import keyed_order
from simcli.games.ex_libris.state import UNKNOWN
from simcli.games.ex_libris.tasks import Auto, Chance, Decision, Task

if TYPE_CHECKING:
    from simcli.games.ex_libris.components import Step
    from simcli.games.ex_libris.state import ExLibrisState


def unique(cards: list[int]) -> list[int]:
    """Distinct cards in ascending order (cards are unique, but views may hold -1)."""
    return sorted(set(cards))


def deal(state: ExLibrisState, n: int, receive: Callable[[int], Any]) -> int:
    """Deal up to ``n`` cards off the deck to ``receive``; the number still owed when the
    deck runs out (a reshuffle of the discard pile may then deal them)."""
    deck = state.deck
    while n > 0 and deck:
        receive(deck.pop())
        n -= 1
    return n


# ---------------------------------------------------------------- automatic steps


@dataclass(frozen=True, slots=True)
class Begin(Auto):
    """The start of one assistant's effect: no card is "taken by this effect" yet."""

    name = "begin"
    seat: int

    def run(self, state: ExLibrisState) -> None:
        state.taken = []


@dataclass(frozen=True, slots=True)
class Draw(Auto):
    """``seat`` draws ``n`` cards; an empty deck is first rebuilt from the discard pile
    (none left there either: the rest of the draw is lost)."""

    name = "draw"
    seat: int
    n: int

    def run(self, state: ExLibrisState) -> None:
        owed = deal(state, self.n, lambda card: state.give_card(self.seat, card))
        if owed and state.discard:
            state.push(ReshuffleDeck(), Draw(self.seat, owed))


@dataclass(frozen=True, slots=True)
class First(Auto):
    """``seat`` takes the first-player token."""

    name = "first"
    seat: int

    def run(self, state: ExLibrisState) -> None:
        state.first = self.seat


@dataclass(frozen=True, slots=True)
class Pay(Auto):
    """``seat`` pays its bid of ``n``: discards that many cards (at most its hand)."""

    name = "pay"
    seat: int
    n: int

    def run(self, state: ExLibrisState) -> None:
        n = min(self.n, len(state.hands[self.seat]))
        if n:
            state.push(Discard(self.seat, n))


# ---------------------------------------------------------------- decisions


@dataclass(frozen=True, slots=True)
class Take(Decision):
    """``seat`` takes ``n`` cards, one at a time, from the card area of ``tile``:
    ``["take", CARD]``."""

    name = "take"
    seat: int
    tile: int
    n: int

    def has_choice(self, state: ExLibrisState) -> bool:
        return self.n > 0 and bool(state.area[self.tile])

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        books = state.comps.books
        return [["take", books[c].name] for c in unique(state.area[self.tile])]

    def apply(self, state: ExLibrisState, move: Any) -> None:
        card = state.card_of(move[1])
        state.area[self.tile].remove(card)
        state.give_card(self.seat, card)
        state.taken.append(card)
        if self.n > 1:
            state.push(Take(self.seat, self.tile, self.n - 1))


@dataclass(frozen=True, slots=True)
class Shelve(Decision):
    """``seat`` may shelve up to ``n`` cards, one at a time (``["shelve", CARD, ROW,
    COLUMN]``, or ``"pass"`` to stop); with ``only_taken`` 1 only cards taken by this
    effect."""

    name = "shelve"
    seat: int
    n: int
    only_taken: int

    def has_choice(self, state: ExLibrisState) -> bool:
        if self.n <= 0:
            return False
        hand = state.hands[self.seat]
        if self.only_taken:
            return any(card in hand for card in state.taken)
        return bool(hand)

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        hand = state.hands[self.seat]
        cards = [c for c in hand if c in state.taken] if self.only_taken else hand
        return state.shelve_moves(self.seat, unique(cards)) + ["pass"]

    def apply(self, state: ExLibrisState, move: Any) -> None:
        if move == "pass":
            return
        state.shelve_move(self.seat, move)
        if self.n > 1:
            state.push(Shelve(self.seat, self.n - 1, self.only_taken))


@dataclass(frozen=True, slots=True)
class Swap(Decision):
    """``seat`` may swap, up to ``n`` times, a hand card with one in the card area of
    ``tile``: ``["swap", MINE, THEIRS]``, or ``"pass"``."""

    name = "swap"
    seat: int
    tile: int
    n: int

    def has_choice(self, state: ExLibrisState) -> bool:
        return self.n > 0 and bool(state.hands[self.seat]) and bool(state.area[self.tile])

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        books = state.comps.books
        area = unique(state.area[self.tile])
        return [
            ["swap", books[h].name, books[a].name]
            for h in unique(state.hands[self.seat])
            if h != UNKNOWN
            for a in area
        ] + ["pass"]

    def apply(self, state: ExLibrisState, move: Any) -> None:
        if move == "pass":
            return
        mine, theirs = state.card_of(move[1]), state.card_of(move[2])
        area = state.area[self.tile]
        state.remove_from_hand(self.seat, mine)
        area.remove(theirs)
        area.append(mine)
        state.give_card(self.seat, theirs)
        state.taken.append(theirs)
        if self.n > 1:
            state.push(Swap(self.seat, self.tile, self.n - 1))


@dataclass(frozen=True, slots=True)
class DiscardDraw(Decision):
    """``seat`` may discard up to ``n`` more cards (``["discard", CARD]``, or ``"done"``),
    then draws one more than it discarded in all (``count`` so far)."""

    name = "discard_draw"
    seat: int
    n: int
    count: int

    def has_choice(self, state: ExLibrisState) -> bool:
        return self.n > 0 and bool(state.hands[self.seat])

    def run(self, state: ExLibrisState) -> None:
        # nothing (left) to discard: draw for the cards discarded so far
        if self.count:
            state.push(Draw(self.seat, self.count))

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        return discard_moves(state, self.seat) + ["done"]

    def apply(self, state: ExLibrisState, move: Any) -> None:
        if move == "done":
            self.run(state)
            return
        discard_card(state, self.seat, move)
        if self.n > 1:
            state.push(DiscardDraw(self.seat, self.n - 1, self.count + 1))
        else:
            state.push(Draw(self.seat, self.count + 1))


@dataclass(frozen=True, slots=True)
class Discard(Decision):
    """``seat`` discards ``n`` cards, one at a time: ``["discard", CARD]``."""

    name = "discard"
    seat: int
    n: int

    def has_choice(self, state: ExLibrisState) -> bool:
        return self.n > 0 and bool(state.hands[self.seat])

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        return discard_moves(state, self.seat)

    def apply(self, state: ExLibrisState, move: Any) -> None:
        discard_card(state, self.seat, move)
        if self.n > 1:
            state.push(Discard(self.seat, self.n - 1))


def discard_moves(state: ExLibrisState, seat: int) -> list[Any]:
    books = state.comps.books
    return [["discard", books[c].name] for c in unique(state.hands[seat]) if c != UNKNOWN]


def discard_card(state: ExLibrisState, seat: int, move: list) -> None:
    card = state.card_of(move[1])
    state.remove_from_hand(seat, card)
    state.discard.append(card)


@dataclass(frozen=True, slots=True)
class Search(Decision):
    """``seat`` takes one of the top ``n`` cards of the discard pile: ``["take", CARD]``."""

    name = "search"
    seat: int
    n: int

    def has_choice(self, state: ExLibrisState) -> bool:
        return bool(state.discard)

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        books = state.comps.books
        return [["take", books[c].name] for c in sorted(set(state.discard[-self.n :]))]

    def apply(self, state: ExLibrisState, move: Any) -> None:
        card = state.card_of(move[1])
        # the card is among the top cards: remove its last occurrence
        pile = state.discard
        del pile[len(pile) - 1 - pile[::-1].index(card)]
        state.give_card(self.seat, card)
        state.taken.append(card)


@dataclass(frozen=True, slots=True)
class Bid(Decision):
    """``seat``, just placed on ``tile``, bids 0 up to ``n`` cards (at most its hand):
    ``["bid", B]``. Bids decide the resolution order; the bid is paid then."""

    name = "bid"
    seat: int
    tile: int
    n: int

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        return [["bid", b] for b in range(min(self.n, len(state.hands[self.seat])) + 1)]

    def apply(self, state: ExLibrisState, move: Any) -> None:
        occupants = state.occupants[self.tile]
        seat, special, _ = occupants[-1]
        occupants[-1] = (seat, special, move[1])


# ---------------------------------------------------------------- chance


@dataclass(frozen=True, slots=True)
class ReshuffleDeck(Chance):
    """The discard pile is shuffled into a new deck; the outcome lists the card names in
    draw order."""

    name = "reshuffle_deck"

    def sample(self, state: ExLibrisState, stream: random.Random) -> Any:
        books = state.comps.books
        return [books[c].name for c in keyed_order(state.discard, int, len(books), stream)]

    def settle(self, state: ExLibrisState, outcome: Any) -> None:
        if not isinstance(outcome, list):
            raise IllegalMoveError("a deck reshuffle outcome lists card names in draw order")
        cards = [state.card_of(name) for name in outcome]
        if sorted(cards) != sorted(state.discard):
            raise IllegalMoveError("a deck reshuffle must reorder exactly the discard pile")
        state.deck = cards[::-1]
        state.discard = []


# ---------------------------------------------------------------- a location's effect


def effect_tasks(
    state: ExLibrisState, seat: int, tile: int, bid: int = 0, placing: bool = False
) -> list[Task]:
    """The tasks that carry out ``tile``'s effect for ``seat`` (who bid ``bid``). When
    ``placing`` on a delayed tile only the bid runs now (the rest in the resolution)."""
    steps = state.loc(tile).effect
    if placing and state.loc(tile).delayed:
        todo = [Bid(seat, tile, step.n) for step in steps if step.op == "bid"]
    else:
        todo = [task for step in steps for task in step_tasks(state, seat, tile, step, bid)]
    return [Begin(seat), *todo] if todo else []


def step_tasks(state: ExLibrisState, seat: int, tile: int, step: Step, bid: int) -> list[Task]:
    """The tasks of one effect primitive (a bid is made at placement: nothing now)."""
    op, n = step.op, step.n
    if op == "draw":
        return [Draw(seat, n)]
    if op == "draw_per_assistant":
        return [Draw(seat, n * state.out_count(seat))]
    if op == "first_player":
        return [First(seat)]
    if op == "take":
        return [Take(seat, tile, n)]
    if op in ("shelve", "shelve_taken"):
        return [Shelve(seat, n, int(op == "shelve_taken"))]
    if op == "swap":
        return [Swap(seat, tile, n)]
    if op == "discard_draw":
        return [DiscardDraw(seat, n, 0)]
    if op == "search_discard":
        return [Search(seat, n)]
    if op == "draw_keep":
        return [Draw(seat, n), Discard(seat, n - step.k)]
    if op == "pay_bid":
        return [Pay(seat, bid)]
    return []


TASKS: tuple[type[Task], ...] = (
    Begin,
    Draw,
    First,
    Pay,
    Take,
    Shelve,
    Swap,
    DiscardDraw,
    Discard,
    Search,
    Bid,
    ReshuffleDeck,
)
