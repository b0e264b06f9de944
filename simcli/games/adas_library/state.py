"""The Ada's Library game state: rows, master order, hands, piles and the turn.

Move notation (positions are 0-based from the left end of the row; directions ``"L"``
and ``"R"``)::

    ["move1", p, "R"]     Move 1-4: the book at p moves exactly N places (books passed
    ["move4", p, "L"]       over close the gap); the target must be inside the row
    ["move_end", p, "L"]  Move to End: the book at p goes to the left/right end
    ["switch3", i]        Switch 1-4: swap the books at i and i + N
    ["reverse"]           swap the books at both ends
    ["master2", p, "R"]   Master Modify 1-2: the master card at p moves exactly N places
    ["exchange", i]       swap your book at i with your partner's book at i (2 players:
                          the opponent; 4 players: the seat facing you, 0<->3, 1<->2,
                          or with ``exchange_partner: diagonal`` 0<->2, 1<->3)
    ["discard", card]     discard a card of that type without effect

A chance turn (reshuffle of the discard pile into a new draw pile) has as its outcome the
new draw pile as a list of card types, top card first. The ``n``-th reshuffle of a game
orders the cards by keys drawn for (game, reshuffle ``n``), the same for every history
(see ``simcli/games/chance.py``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from simcli.frozen import freeze
from simcli.game import CHANCE, TERMINAL, IllegalMoveError, Outcome, State
from simcli.games.adas_library.components import CARD_TYPES, UNKNOWN, Components
from simcli.games.adas_library.rows import (
    DIRECTIONS,
    LEFT,
    MASTER_N,
    MOVE_N,
    SWITCH_N,
    boundaries,
    end_targets,
    exchange_positions,
    is_sorted,
    move_plays,
    out_of_order,
    plays_by_boundaries,
    ranks,
    shifted,
    switch_pairs,
    uniform,
)
from simcli.games.chance import ChanceStreams, copy_numbers, keyed_order

if TYPE_CHECKING:
    from simcli.games.adas_library.game import AdasLibrary

CARD_ORDER = {card: i for i, card in enumerate(CARD_TYPES)}


#: The values of the option ``exchange_partner``.
PARTNER_MODES = ("facing", "diagonal")


def partner_of(seat: int, players: int, mode: str = "facing") -> int:
    """The seat an Exchange trades with: the opponent, or with 4 players the seat
    directly opposite. Seated two on a side, playing clockwise (NW, NE, SE, SW), the
    players facing each other are 0<->3 and 1<->2 (``facing``); ``diagonal`` pairs
    0<->2 and 1<->3, the players sitting corner to corner."""
    if players == 2:
        return 1 - seat
    if mode == "facing":
        return players - 1 - seat
    if mode == "diagonal":
        return (seat + players // 2) % players
    raise ValueError(f"exchange_partner must be one of {', '.join(PARTNER_MODES)}, not {mode!r}")


def _position(value: Any, size: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMoveError(f"{what} must be a position number, not {value!r}")
    if not 0 <= value < size:
        raise IllegalMoveError(f"{what} {value} is outside 0..{size - 1}")
    return value


class AdasState(State):
    """A position. ``viewer`` is ``None`` for the full state, or the seat whose view this
    is: then the other hands and the draw pile hold the token ``"?"`` (unknown)."""

    def __init__(
        self,
        game: AdasLibrary,
        players: int,
        options: Mapping[str, Any],
        comp: Components,
        master: list[int],
        rows: list[list[int]],
        hands: list[list[str]],
        draw: list[str],
    ) -> None:
        self.game = game
        self.players = players
        self.options = freeze(options)
        self.comp = comp
        self.max_turns: int = options["max_turns"]
        self.partner_mode: str = options.get("exchange_partner", "facing")
        self.master = master
        self.rank = ranks(master)
        self.rows = rows
        self.hands = hands
        self.draw = draw  # top card first
        self.discard: list[str] = []  # oldest first, the last one is on top
        self.turns = 0  # completed player turns
        self.winner: int | None = None
        self.reshuffle = False  # the seat to move has played and waits for a reshuffle
        self.viewer: int | None = None
        self.chance = ChanceStreams()

    # -- turn structure ---------------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        if self.reshuffle:
            return CHANCE
        if self.turns >= self.max_turns:
            return TERMINAL
        return self.turns % self.players

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def partner(self, seat: int) -> int:
        return partner_of(seat, self.players, self.partner_mode)

    # -- moves ----------------------------------------------------------------------

    def plays(self, seat: int, card: str, ends: list[int] | None = None) -> list[list[Any]]:
        """Every use of ``card`` by ``seat`` that changes something, in fixed order
        (``ends``: ``run_ends`` of the seat's row, when the caller has it)."""
        row = self.rows[seat]
        if card in MOVE_N:
            return move_plays(card, row, MOVE_N[card], ends)
        if card == "move_end":
            return [[card, p, d] for p, d, _ in end_targets(row, ends)]
        if card in SWITCH_N:
            return [[card, i] for i in switch_pairs(row, SWITCH_N[card])]
        if card == "reverse":
            return [[card]] if row[0] != row[-1] else []
        if card in MASTER_N:
            return move_plays(card, self.master, MASTER_N[card])
        if card == "exchange":
            return [[card, i] for i in exchange_positions(row, self.rows[self.partner(seat)])]
        return []

    def legal_moves(self) -> list[list[Any]]:
        seat = self.current_player
        if seat < 0:
            return []
        held = set(self.hands[seat])
        cards = [card for card in CARD_TYPES if card in held]
        moves: list[list[Any]] = []
        row, master = self.rows[seat], self.master
        mask = boundaries(row)
        master_mask = -1
        for card in cards:  # move, Move to End and master cards: a table lookup
            if card in MASTER_N:
                table = plays_by_boundaries(len(master), MASTER_N[card])
                if table is not None and master_mask < 0:
                    master_mask = boundaries(master)
                index = master_mask
            elif card in MOVE_N or card == "move_end":
                table = plays_by_boundaries(len(row), MOVE_N.get(card))
                index = mask
            else:
                table = None
            if table is None:  # other cards, and rows too long for tables
                moves += self.plays(seat, card)
            else:
                moves += [[card, p, d] for p, d in table[index]]
        moves += [["discard", card] for card in cards]
        return moves

    def apply_trusted(self, move: Any) -> None:
        """:meth:`apply` without the checks, for a move from :meth:`legal_moves` (or a
        reshuffle from :meth:`sample_chance`)."""
        if self.reshuffle:
            self._apply_reshuffle(move)
            return
        seat = self.turns % self.players
        hand = self.hands[seat]
        card = move[0]
        if card == "discard":
            card = move[1]
            hand.remove(card)
            self.discard.append(card)
            self._draw(seat)
            return
        row = self.rows[seat]
        n = MOVE_N.get(card)
        if n is not None or card == "move_end":
            p = move[1]
            if n is None:
                q = 0 if move[2] == LEFT else len(row) - 1
            else:
                q = p - n if move[2] == LEFT else p + n
            self.rows[seat] = shifted(row, p, q)
        elif card in SWITCH_N:
            i, j = move[1], move[1] + SWITCH_N[card]
            row[i], row[j] = row[j], row[i]
        elif card == "reverse":
            row[0], row[-1] = row[-1], row[0]
        elif card in MASTER_N:
            p = move[1]
            n = MASTER_N[card]
            self.master = shifted(self.master, p, p - n if move[2] == LEFT else p + n)
            self.rank = ranks(self.master)
        else:  # exchange
            i = move[1]
            other = self.rows[self.partner(seat)]
            row[i], other[i] = other[i], row[i]
        hand.remove(card)
        self.discard.append(card)
        self._end_check(seat)
        if self.winner is None:
            self._draw(seat)

    def apply(self, move: Any) -> None:
        seat = self.current_player
        if seat == TERMINAL:
            raise IllegalMoveError("the game is over")
        if seat == CHANCE:
            self._apply_reshuffle(move)
            return
        if not isinstance(move, (list, tuple)) or not move or not isinstance(move[0], str):
            raise IllegalMoveError(
                f'an Ada\'s Library move is a list such as ["move2", 3, "R"] or '
                f'["discard", "reverse"], not {move!r}'
            )
        hand = self.hands[seat]
        if move[0] == "discard":
            if len(move) != 2 or not isinstance(move[1], str) or move[1] not in CARD_ORDER:
                raise IllegalMoveError(f'a discard is ["discard", card type], not {move!r}')
            card = move[1]
            if card not in hand:
                raise IllegalMoveError(f"seat {seat} holds no {card} card to discard")
            hand.remove(card)
            self.discard.append(card)
            self._draw(seat)
            return
        card = move[0]
        if card not in CARD_ORDER:
            raise IllegalMoveError(f"unknown card type {card!r} in move {move!r}")
        if card not in hand:
            raise IllegalMoveError(f"seat {seat} holds no {card} card to play")
        self._play(seat, card, list(move[1:]))
        hand.remove(card)
        self.discard.append(card)
        self._end_check(seat)
        if self.winner is None:
            self._draw(seat)

    def _play(self, seat: int, card: str, args: list[Any]) -> None:
        """Carry out a play, or raise IllegalMoveError (wrong arguments or no effect)."""
        row = self.rows[seat]
        size = len(row)

        def need(count: int, example: str) -> None:
            if len(args) != count:
                raise IllegalMoveError(f"{card} takes {example} after the card, got {args!r}")
            if count == 2 and args[1] not in DIRECTIONS:
                raise IllegalMoveError(f"{card}: direction must be 'L' or 'R', not {args[1]!r}")

        if card in MOVE_N or card == "move_end" or card in MASTER_N:
            need(2, "[position, 'L' or 'R']")
            items = self.master if card in MASTER_N else row
            what = "master position" if card in MASTER_N else "book position"
            p = _position(args[0], len(items), what)
            left = args[1] == LEFT
            if card == "move_end":
                q = 0 if left else len(items) - 1
                if q == p:
                    raise IllegalMoveError(f"move_end: book {p} is already at that end")
            else:
                n = MASTER_N[card] if card in MASTER_N else MOVE_N[card]
                q = p - n if left else p + n
                if not 0 <= q < len(items):
                    raise IllegalMoveError(
                        f"{card}: moving {what} {p} {n} place(s) {'left' if left else 'right'} "
                        f"leaves the row (a move must use all of its steps)"
                    )
            if uniform(items, min(p, q), max(p, q)):
                raise IllegalMoveError(f"{card} {args!r} changes nothing")
            if card in MASTER_N:
                self.master = shifted(items, p, q)
                self.rank = ranks(self.master)
            else:
                self.rows[seat] = shifted(items, p, q)
            return
        if card in SWITCH_N:
            need(1, "[left position]")
            n = SWITCH_N[card]
            i = _position(args[0], size, "book position")
            if i + n >= size:
                raise IllegalMoveError(f"{card}: there is no book {n} place(s) right of {i}")
            if row[i] == row[i + n]:
                raise IllegalMoveError(f"{card} {args!r} changes nothing (same colour)")
            row[i], row[i + n] = row[i + n], row[i]
            return
        if card == "reverse":
            need(0, "no arguments")
            if row[0] == row[-1]:
                raise IllegalMoveError("reverse changes nothing (both ends have one colour)")
            row[0], row[-1] = row[-1], row[0]
            return
        # exchange
        need(1, "[position]")
        other = self.rows[self.partner(seat)]
        i = _position(args[0], min(size, len(other)), "book position")
        if row[i] == other[i]:
            raise IllegalMoveError(f"exchange at {i} changes nothing (same colour)")
        row[i], other[i] = other[i], row[i]

    def _end_check(self, seat: int) -> None:
        """The acting seat wins if its row is sorted; otherwise the first sorted row in
        turn order after it (sorted by an Exchange or a master change) wins."""
        rank = self.rank
        for k in range(self.players):
            s = (seat + k) % self.players
            if is_sorted(self.rows[s], rank):
                self.winner = s
                return

    def _draw(self, seat: int) -> None:
        if self.draw:
            self.hands[seat].append(self.draw.pop(0))
            self.turns += 1
        else:
            self.reshuffle = True

    # -- chance -----------------------------------------------------------------------

    def sample_chance(self, rng: random.Random) -> list[str]:
        if not self.reshuffle or self.winner is not None:
            raise IllegalMoveError("no chance event is pending")
        pile = self.discard
        universe = self.comp.deck()
        numbers = copy_numbers(pile, universe)
        stream = self.chance.random(rng, "reshuffle")
        order = keyed_order(range(len(pile)), numbers.__getitem__, len(universe), stream)
        return [pile[i] for i in order]

    def _apply_reshuffle(self, outcome: Any) -> None:
        if (
            not isinstance(outcome, (list, tuple))
            or not all(isinstance(c, str) for c in outcome)
            or sorted(outcome) != sorted(self.discard)
        ):
            raise IllegalMoveError(
                f"a reshuffle outcome lists the {len(self.discard)} discarded cards in their "
                f"new draw order, top first; {outcome!r} is not an order of the discard pile"
            )
        self.draw = list(outcome)
        self.discard = []
        self.reshuffle = False
        self.chance.happened("reshuffle")
        self._draw(self.turns % self.players)

    # -- results and views ---------------------------------------------------------

    def out_of_order(self, seat: int) -> int:
        return out_of_order(self.rows[seat], self.rank)

    def outcome(self) -> Outcome:
        if self.winner is not None:
            scores = tuple(1.0 if s == self.winner else 0.0 for s in range(self.players))
            return Outcome(scores=scores, winners=(self.winner,), termination="normal")
        if self.is_terminal():
            return Outcome(scores=(0.0,) * self.players, winners=(), termination="move_limit")
        raise IllegalMoveError("the game is not over")

    def view(self, seat: int) -> AdasState:
        if not 0 <= seat < self.players:
            raise IllegalMoveError(f"there is no seat {seat}")
        view = self.clone()
        for s in range(self.players):
            if s != seat:
                view.hands[s] = [UNKNOWN] * len(view.hands[s])
        view.draw = [UNKNOWN] * len(view.draw)
        view.viewer = seat
        view.chance = self.chance.hidden()
        return view

    def snapshot(self) -> dict[str, Any]:
        names = self.comp.colours
        return {
            "master": [names[c] for c in self.master],
            "rows": [[names[c] for c in row] for row in self.rows],
            "hands": [list(hand) for hand in self.hands],
            "draw": list(self.draw),
            "discard": list(self.discard),
            "turns": self.turns,
            "winner": self.winner,
            "reshuffle": self.reshuffle,
            "viewer": self.viewer,
            "chance": self.chance.snapshot(),
        }

    def clone(self) -> AdasState:
        new = AdasState.__new__(AdasState)
        new.game = self.game
        new.players = self.players
        new.options = self.options
        new.comp = self.comp
        new.max_turns = self.max_turns
        new.partner_mode = self.partner_mode
        new.master = self.master.copy()
        new.rank = self.rank.copy()
        new.rows = [row.copy() for row in self.rows]
        new.hands = [hand.copy() for hand in self.hands]
        new.draw = self.draw.copy()
        new.discard = self.discard.copy()
        new.turns = self.turns
        new.winner = self.winner
        new.reshuffle = self.reshuffle
        new.viewer = self.viewer
        new.chance = self.chance.copy()
        return new

    def render(self) -> str:
        """Colours as letters (legend on the first line), positions numbered from 0."""
        letters = colour_letters(self.comp.colours)
        legend = "  ".join(f"{letters[c]}={name}" for c, name in enumerate(self.comp.colours))
        size = max(len(row) for row in self.rows)
        lines = [f"Ada's Library ({legend})"]
        lines.append("            " + " ".join(f"{i % 10}" for i in range(size)))
        lines.append("master      " + " ".join(letters[c] for c in self.master))
        current = self.current_player
        for s, row in enumerate(self.rows):
            mark = "*" if s == current else " "
            hand = " ".join(self.hands[s]) or "-"
            lines.append(
                f"{mark}seat {s}     "
                + " ".join(letters[c] for c in row)
                + f"   out of order {self.out_of_order(s)}   hand: {hand}"
            )
        top = self.discard[-1] if self.discard else "-"
        lines.append(f"draw pile {len(self.draw)}   discard pile {len(self.discard)} (top: {top})")
        if self.winner is not None:
            status = f"game over: seat {self.winner} wins"
        elif current == TERMINAL:
            status = "game over: turn limit, draw"
        elif current == CHANCE:
            status = "the discard pile is reshuffled"
        else:
            status = f"seat {current} to move"
        if current == TERMINAL:
            lines.append(f"{self.turns} turns played (limit {self.max_turns}): {status}")
        else:
            lines.append(f"turn {self.turns + 1} of {self.max_turns}: {status}")
        if self.viewer is not None:
            lines.append(f"(view of seat {self.viewer}: '?' = unknown card)")
        return "\n".join(lines)


def colour_letters(colours: Sequence[str]) -> list[str]:
    """One character per colour: the upper-cased initial, or the index when initials
    clash."""
    initials = [name[0].upper() for name in colours]
    if len(set(initials)) == len(initials):
        return initials
    return [str(i % 10) if len(colours) <= 10 else chr(65 + i) for i in range(len(colours))]
