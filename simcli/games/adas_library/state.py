# cython: annotation_typing=False
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
                          or with ``exchange_partner: diagonal`` 0<->2, 1<->3); with
                          ``exchange_position: mirrored`` with the partner's book at
                          size - 1 - i, the one across the table
    ["discard", card]     discard a card of that type without effect

A chance turn (reshuffle of the discard pile into a new draw pile) has as its outcome the
new draw pile as a list of card types, top card first. The ``n``-th reshuffle of a game
orders the cards by keys drawn for (game, reshuffle ``n``), the same for every history
(see ``simcli/games/chance.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from simcli.frozen import freeze
from simcli.game import CHANCE, TERMINAL, Game, IllegalMoveError, Outcome
from simcli.games.adas_library.components import CARD_TYPES, UNKNOWN, Components
from simcli.games.adas_library.playout import play_out
from simcli.games.adas_library.rows import (
    ACTIONS,
    DIRECTIONS,
    EXCHANGE_PLAYS,
    LEFT,
    MASTER_N,
    MASTER_PLAYS,
    MOVE_N,
    REVERSE_PLAY,
    ROW_PLAYS,
    SHIFT_CARDS,
    SHIFT_LISTS,
    SHIFT_N,
    SWITCH_N,
    SWITCH_PLAYS,
    boundary_bits,
    differences,
    nth_difference,
    out_of_order,
    ranks,
    shift_block,
    shift_lists,
    shift_plays_at,
    uniform,
)
from simcli.games.chance import ChanceStreams, copy_numbers, keyed_order
from simcli.games.streamfield import Streams
from simcli.native import runs_compiled
from simcli.statefields import (
    ALL,
    OWNER,
    Bad,
    Bool,
    Choice,
    DeclaredState,
    Field,
    Int,
    Kind,
    Maybe,
    Seq,
    StateFields,
)

if TYPE_CHECKING:
    from simcli.games.adas_library.game import AdasLibrary

CARD_ORDER = {card: i for i, card in enumerate(CARD_TYPES)}
#: Card kinds, by how their plays are found (see :func:`hand_plan`).
SWITCH, REVERSE = range(2)
OTHER_KINDS: dict[str, tuple[int, int | None]] = {
    **{card: (SWITCH, n) for card, n in SWITCH_N.items()},
    "reverse": (REVERSE, None),
}
ROW_SHIFTS = (*MOVE_N, "move_end")  # cards whose plays shift a book of the row
#: card -> (kind of play, argument): the card's index in ``SHIFT_CARDS`` for the
#: shifting cards, the distance for the Switches, 0 otherwise.
DRAWS: dict[str, tuple[int, int]] = {
    **{card: (ROW_PLAYS, SHIFT_CARDS.index(card)) for card in ROW_SHIFTS},
    **{card: (MASTER_PLAYS, SHIFT_CARDS.index(card)) for card in MASTER_N},
    **{card: (SWITCH_PLAYS, n) for card, n in SWITCH_N.items()},
    "reverse": (REVERSE_PLAY, 0),
    "exchange": (EXCHANGE_PLAYS, 0),
}


#: (kind, argument, card) of :data:`DRAWS` for each card of a hand, in card order.
Draws = tuple[tuple[int, int, str], ...]


class HandPlan(NamedTuple):
    """What :meth:`AdasState.legal_moves` needs to know of a hand (its distinct cards,
    in :data:`CARD_TYPES` order, the order of the legal moves)."""

    shifts: tuple[str, ...]  # move and Move to End cards
    others: tuple[tuple[str, int, int | None], ...]  # (card, kind, distance): switches, reverse
    masters: tuple[str, ...]  # master cards
    exchange: bool
    discards: tuple[list[str], ...]  # ["discard", card] of every card (copied, never handed out)
    draws: Draws  # (kind, argument, card) of DRAWS, every card


#: frozenset of a hand -> its :class:`HandPlan` (filled as hands are met; a hand is a
#: subset of the card types and "?", so at most 2 ** 14 of them).
HAND_PLANS: dict[frozenset[str], HandPlan] = {}


#: the frozenset of a hand -> (draws, discards) of its :class:`HandPlan`: what
#: :meth:`AdasState.random_legal_move` looks up once per move (a pair, not the named
#: tuple's attributes).
HAND_DRAWS: dict[frozenset[str], tuple[Draws, tuple[list[str], ...]]] = {}


def fresh(segments: Sequence[Sequence[list[Any]]]) -> list[list[Any]]:
    """The moves of ``segments`` in one list, each a list of its own: the moves of a
    tuple (a kept table's) are copied, those of a list (built for this call) taken."""
    moves: list[list[Any]] = []
    for segment in segments:
        if segment.__class__ is tuple:
            moves += map(list.copy, segment)
        else:
            moves += segment
    return moves


def hand_plan(hand: Collection[str]) -> HandPlan:
    """The :class:`HandPlan` of ``hand`` (kept in :data:`HAND_PLANS`)."""
    cards = [card for card in CARD_TYPES if card in hand]
    plan = HandPlan(
        shifts=tuple(card for card in cards if card in ROW_SHIFTS),
        others=tuple((card, *OTHER_KINDS[card]) for card in cards if card in OTHER_KINDS),
        masters=tuple(card for card in cards if card in MASTER_N),
        exchange="exchange" in cards,
        discards=tuple(["discard", card] for card in cards),
        draws=tuple((*DRAWS[card], card) for card in cards if card in DRAWS),
    )
    HAND_PLANS[frozenset(hand)] = plan
    return plan


def draw_play(
    draws: tuple[tuple[int, int, str], ...],
    discards: tuple[list[str], ...],
    row: list[int],
    master: list[int],
    other: list[int],
    mirrored: bool,
    randbelow: Callable[[int], int],
) -> list[Any] | None:
    """``legal_moves()[randbelow(n)]`` of the seat with the row ``row`` and the hand
    plan's ``draws`` and ``discards`` (``other``: the partner's row): the plays of each
    card are counted (the shifts looked up by the row's boundary bits, the swaps
    counted), ``randbelow`` is called once with their total, and only the play drawn is
    built. None (and no draw) for rows or master orders too long for the tables."""
    size = len(row)
    lists = SHIFT_LISTS.get(size) or shift_lists(size)
    if not lists:
        return None
    bits = boundary_bits(row)
    master_lists = lists
    master_bits = -1  # boundary_bits(master), when the hand holds a master card
    start = len(other) - 1 if mirrored else 0  # the partner's book facing row[0]
    step = -1 if mirrored else 1
    common = min(size, len(other))
    counts = []
    total = 0
    for kind, arg, _ in draws:
        if kind == ROW_PLAYS:
            # None until met (an empty tuple is scanned again: a card that never plays)
            count = len(lists[arg][bits] or shift_plays_at(lists, arg, bits, size))
        elif kind == SWITCH_PLAYS:
            count = differences(row, row, arg, 1, size - arg)
        elif kind == REVERSE_PLAY:
            count = 1 if row[0] != row[size - 1] else 0
        elif kind == MASTER_PLAYS:
            if master_bits < 0:
                master_lists = SHIFT_LISTS.get(len(master)) or shift_lists(len(master))
                if not master_lists:
                    return None
                master_bits = boundary_bits(master)
            count = len(
                master_lists[arg][master_bits]
                or shift_plays_at(master_lists, arg, master_bits, len(master))
            )
        else:
            count = differences(row, other, start, step, common)
        counts.append(count)
        total += count
    i = randbelow(total + len(discards))
    for e in range(len(counts)):
        count = counts[e]
        if i < count:
            kind, arg, card = draws[e]
            if kind == ROW_PLAYS:
                return lists[arg][bits][i].copy()
            if kind == SWITCH_PLAYS:
                return [card, nth_difference(row, row, arg, 1, i)]
            if kind == REVERSE_PLAY:
                return [card]
            if kind == MASTER_PLAYS:
                return master_lists[arg][master_bits][i].copy()
            return [card, nth_difference(row, other, start, step, i)]
        i -= count
    return discards[i].copy()


def first_sorted(rows: list[list[int]], rank: list[int], seat: int) -> int:
    """The first seat, in turn order from ``seat``, whose row is sorted (-1: none)."""
    players = len(rows)
    for k in range(players):
        s = (seat + k) % players
        previous = -1
        row = rows[s]
        for i in range(len(row)):  # rows.is_sorted, inline: once per play
            colour = row[i]
            r = rank[colour]
            if r < previous:
                break
            previous = r
        else:
            return s
    return -1


#: The values of the option ``exchange_partner``.
PARTNER_MODES = ("facing", "diagonal")
#: The values of the option ``exchange_position``: the partner's book an Exchange takes
#: for yours at ``i`` is at ``i`` (the text's example) or at ``size - 1 - i`` (the book
#: physically across the table, the rows being laid left to right by facing players).
POSITION_MODES = ("same_index", "mirrored")
EXCHANGE_POSITION = "exchange_position"


def exchange_index(i: int, size: int, mirrored: bool) -> int:
    """The position in the partner's row (``size`` books) that an Exchange of your book
    at ``i`` takes: ``i``, or ``size - 1 - i`` when ``mirrored``."""
    return size - 1 - i if mirrored else i


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


@dataclass(frozen=True)
class Colours(Kind):
    """Colour ids, written as the components' colour names: the master order (``rows``
    false: each colour once) or every seat's row (``rows`` true: ``books`` names each)."""

    rows: bool = False
    scalar = False
    plain = False
    contextual = True

    def copy(self, value: Any) -> Any:
        return [row.copy() for row in value] if self.rows else value.copy()

    def encode_in(self, state: Any, value: Any) -> Any:
        names = state.comp.colours
        if self.rows:
            return [[names[c] for c in row] for row in value]
        return [names[c] for c in value]

    def decode(self, raw: Any, limits: Mapping[str, Any], masked: bool) -> Any:
        index: Mapping[str, int] = limits["colours"]
        if not self.rows:
            if (
                type(raw) is not list
                or sorted(map(str, raw)) != sorted(index)
                or not all(type(name) is str for name in raw)
            ):
                raise Bad(f"a list of each of the colours {', '.join(index)} once")
            return [index[name] for name in raw]
        books = limits["books"]
        if (
            type(raw) is not list
            or len(raw) != limits["players"]
            or not all(
                type(row) is list
                and len(row) == books
                and all(type(name) is str and name in index for name in row)
                for row in raw
            )
        ):
            raise Bad(f"{limits['players']} rows of {books} colour names")
        return [[index[name] for name in row] for row in raw]


CARDS = Seq(Choice(CARD_TYPES, unknown=UNKNOWN))  # card types, "?" where hidden
SEAT = Int(0, "players")


class AdasState(DeclaredState):
    """A position. ``viewer`` is ``None`` for the full state, or the seat whose view this
    is: then the other hands and the draw pile hold the token ``"?"`` (unknown). The
    snapshot and the snapshot checks come from ``state_fields``; the clone and the view
    are written by hand (search copies states often, the referee takes a view at every
    decision) and proven equal to the declared ones by check-game."""

    state_fields = StateFields(
        Field("master", Colours()),
        Field("rows", Colours(rows=True)),
        Field("hands", Seq(CARDS, length="players"), hidden=OWNER),
        Field("draw", CARDS, hidden=ALL),  # top card first
        Field("discard", CARDS),  # oldest first, the last one is on top
        Field("turns", Int(0)),  # completed player turns
        Field("winner", Maybe(SEAT)),
        Field("reshuffle", Bool()),  # the seat to move has played and waits for a reshuffle
        Field("viewer", Maybe(SEAT)),
        Field("chance", Streams(("reshuffle",), "Ada's Library snapshot"), hidden=ALL),
        viewer="viewer",
        label="Ada's Library snapshot",
    )

    __slots__ = (
        "game",
        "players",
        "options",
        "comp",
        "max_turns",
        "partner_mode",
        "partners",
        "mirrored",
        "master",
        "rank",
        "rows",
        "hands",
        "draw",
        "discard",
        "turns",
        "winner",
        "reshuffle",
        "viewer",
        "chance",
    )

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
        #: seat -> the seat its Exchanges trade with
        self.partners = tuple(partner_of(s, players, self.partner_mode) for s in range(players))
        #: option ``exchange_position: mirrored`` (left out of the options at its default)
        self.mirrored: bool = options.get(EXCHANGE_POSITION, "same_index") == "mirrored"
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
        return self.partners[seat]

    # -- moves ----------------------------------------------------------------------

    def plays(self, seat: int, card: str) -> list[list[Any]]:
        """Every use of ``card`` by ``seat`` that changes something, in fixed order."""
        return fresh(self._segments(seat, hand_plan((card,))))

    def legal_moves(self) -> list[list[Any]]:
        if self.winner is not None or self.reshuffle or self.turns >= self.max_turns:
            return []
        seat = self.turns % self.players
        hand = self.hands[seat]
        plan = HAND_PLANS.get(frozenset(hand)) or hand_plan(hand)
        segments = self._segments(seat, plan)
        segments.append(plan.discards)
        return fresh(segments)

    def random_legal_move(self, randbelow: Callable[[int], int]) -> list[Any]:
        """The move ``legal_moves()[randbelow(n)]`` (n: the number of legal moves),
        for random rollouts: see :func:`draw_play`."""
        if self.winner is None and not self.reshuffle and self.turns < self.max_turns:
            seat = self.turns % self.players
            hand = self.hands[seat]
            cards = frozenset(hand)
            found = HAND_DRAWS.get(cards)
            if found is None:
                plan = HAND_PLANS.get(cards) or hand_plan(hand)
                found = HAND_DRAWS[cards] = plan.draws, plan.discards
            draws, discards = found
            rows = self.rows
            move = draw_play(
                draws,
                discards,
                rows[seat],
                self.master,
                rows[self.partners[seat]],
                self.mirrored,
                randbelow,
            )
            if move is not None:
                return move
        return super().random_legal_move(randbelow)

    if runs_compiled(play_out):  # else State.playout, the contract's loop, faster as Python

        def playout(self, rng: random.Random, randbelow: Callable[[int], int]) -> None:
            """The contract's loop (``State.playout``), played in one C loop by
            ``playout.play_out``. A subclass (a variant may change the rules the kernel
            plays) and a state the kernel does not take (a view's unknown cards) play the
            contract's loop."""
            if type(self) is not AdasState or play_out(self, rng, randbelow, -1) < 0:
                super().playout(rng, randbelow)

    def _segments(self, seat: int, plan: HandPlan) -> list[Sequence[list[Any]]]:
        """The plays of the cards of ``plan`` by ``seat`` in :data:`CARD_TYPES` order,
        as segments for :func:`fresh`: tuples are kept tables' moves (never to be handed
        out or changed), lists are moves built here.

        The plays of the move and Move to End cards (and of the master cards) depend only
        on where neighbouring books (master cards) differ: they are looked up by that key
        (see ``rows.shift_block``). Switches and Exchanges are the positions where two
        books differ."""
        row = self.rows[seat]
        segments: list[Sequence[list[Any]]] = []
        if plan.shifts:
            segments.append(shift_block(plan.shifts, row))
        if plan.others:
            built = []
            for card, kind, n in plan.others:
                if kind == SWITCH:
                    built += [[card, i] for i in range(len(row) - n) if row[i] != row[i + n]]
                elif row[0] != row[-1]:  # reverse
                    built.append([card])
            segments.append(built)
        if plan.masters:
            segments.append(shift_block(plan.masters, self.master))
        if plan.exchange:
            other = self.rows[self.partners[seat]]
            if self.mirrored:
                other = other[::-1]  # the partner's book at size - 1 - i faces yours at i
            size = min(len(row), len(other))
            segments.append([["exchange", i] for i in range(size) if row[i] != other[i]])
        return segments

    def apply_trusted(self, move: Any) -> None:
        """:meth:`apply` without the checks, for a move from :meth:`legal_moves` (or a
        reshuffle from :meth:`sample_chance`)."""
        if self.reshuffle:
            self._reshuffled(move)
            return
        seat = self.turns % self.players
        card = move[0]
        if card == "discard":
            card = move[1]
        else:
            rows = self.rows
            kind, n = ACTIONS[card]
            if kind == ROW_PLAYS or kind == MASTER_PLAYS:  # one item shifted
                items = rows[seat] if kind == ROW_PLAYS else self.master
                p = move[1]
                if n == 0:  # Move to End
                    q = 0 if move[2] == LEFT else len(items) - 1
                else:
                    q = p - n if move[2] == LEFT else p + n
                items.insert(q, items.pop(p))
                if kind == MASTER_PLAYS:
                    self.rank = ranks(items)
            else:
                row = rows[seat]
                if kind == SWITCH_PLAYS:
                    i = move[1]
                    other = row
                    j = i + n
                elif kind == REVERSE_PLAY:
                    i = 0
                    other = row
                    j = len(row) - 1
                else:  # exchange
                    i = move[1]
                    other = rows[self.partners[seat]]
                    j = len(other) - 1 - i if self.mirrored else i
                row[i], other[j] = other[j], row[i]
            winner = first_sorted(rows, self.rank, seat)
            if winner >= 0:
                self.winner = winner
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        if self.winner is None:
            draw = self.draw
            if draw:  # _draw, inline: once per play
                hand.append(draw.pop(0))
                self.turns += 1
            else:
                self.reshuffle = True

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
        else:
            card = move[0]
            if card not in CARD_ORDER:
                raise IllegalMoveError(f"unknown card type {card!r} in move {move!r}")
            if card not in hand:
                raise IllegalMoveError(f"seat {seat} holds no {card} card to play")
            self._check_play(seat, card, list(move[1:]))
        self.apply_trusted(move)  # checked: carried out as search carries it out

    def _check_play(self, seat: int, card: str, args: list[Any]) -> None:
        """Raise IllegalMoveError unless ``card`` with ``args`` is a play that changes
        something (the arguments in range, of the right kinds and number)."""
        row = self.rows[seat]
        size = len(row)

        def need(count: int, example: str) -> None:
            if len(args) != count:
                raise IllegalMoveError(f"{card} takes {example} after the card, got {args!r}")
            if count == 2 and args[1] not in DIRECTIONS:
                raise IllegalMoveError(f"{card}: direction must be 'L' or 'R', not {args[1]!r}")

        if card in SHIFT_N:
            need(2, "[position, 'L' or 'R']")
            items = self.master if card in MASTER_N else row
            what = "master position" if card in MASTER_N else "book position"
            p = _position(args[0], len(items), what)
            left = args[1] == LEFT
            n = SHIFT_N[card]
            if n is None:  # Move to End
                q = 0 if left else len(items) - 1
                if q == p:
                    raise IllegalMoveError(f"move_end: book {p} is already at that end")
            else:
                q = p - n if left else p + n
                if not 0 <= q < len(items):
                    raise IllegalMoveError(
                        f"{card}: moving {what} {p} {n} place(s) {'left' if left else 'right'} "
                        f"leaves the row (a move must use all of its steps)"
                    )
            if uniform(items, min(p, q), max(p, q)):
                raise IllegalMoveError(f"{card} {args!r} changes nothing")
        elif card in SWITCH_N:
            need(1, "[left position]")
            n = SWITCH_N[card]
            i = _position(args[0], size, "book position")
            if i + n >= size:
                raise IllegalMoveError(f"{card}: there is no book {n} place(s) right of {i}")
            if row[i] == row[i + n]:
                raise IllegalMoveError(f"{card} {args!r} changes nothing (same colour)")
        elif card == "reverse":
            need(0, "no arguments")
            if row[0] == row[-1]:
                raise IllegalMoveError("reverse changes nothing (both ends have one colour)")
        else:  # exchange
            need(1, "[position]")
            other = self.rows[self.partners[seat]]
            i = _position(args[0], min(size, len(other)), "book position")
            j = exchange_index(i, len(other), self.mirrored)
            if row[i] == other[j]:
                raise IllegalMoveError(f"exchange at {i} changes nothing (same colour)")

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
        universe, first = self.comp.universe
        numbers = copy_numbers(pile, universe, first)
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
        self._reshuffled(outcome)

    def _reshuffled(self, outcome: Sequence[str]) -> None:
        """The discard pile becomes the draw pile in the order ``outcome`` (checked)."""
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
        """The declared view, written out: the referee takes one at every decision.
        check-game proves it equal to the derived one."""
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

    @classmethod
    def empty(cls, game: Game, players: int, options: Mapping[str, Any]) -> AdasState:
        comp = game.components(options)  # type: ignore[attr-defined]
        return cls(game, players, options, comp, [], [], [], [])  # type: ignore[arg-type]

    @classmethod
    def field_limits(cls, game: Game, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        comp: Components = game.components(options)  # type: ignore[attr-defined]
        colours = {name: i for i, name in enumerate(comp.colours)}
        return {"players": players, "colours": colours, "books": comp.books_each(players)}

    def loaded(self, snap: Mapping[str, Any]) -> None:
        self.rank = ranks(self.master)

    def clone(self) -> AdasState:
        new = AdasState.__new__(AdasState)
        new.game = self.game
        new.players = self.players
        new.options = self.options
        new.comp = self.comp
        new.max_turns = self.max_turns
        new.partner_mode = self.partner_mode
        new.partners = self.partners
        new.mirrored = self.mirrored
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
