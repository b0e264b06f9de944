"""Bibliogamo rules: one position of the solitaire game and the five phases of a turn.

The state runs every step that needs no decision by itself (time advance, the
librarian's walk, the revealed card, drawing back to five) and stops at the player's
decisions or when a card must be drawn from an empty draw pile (a reshuffle: a chance
event whose outcome is the new order of the pile, top card first).

Move notation (strings; see docs/games/bibliogamo.md):

* ``"prestige N"``  choose Prestige Collection card N (option ``prestige: choose`` only)
* ``"keep"`` / ``"unblock C"``  phase 3: keep the block, or discard card C (whose small
  artisan icon matches the blocked artisan) to lift it
* ``"stay"`` / ``"walk +K"`` / ``"walk -K"``  phase 4a: pay K florins to move the librarian
  K spaces clockwise (+) or counter-clockwise (-), 1 <= K < track spaces
* ``"pass"`` / ``"sell"``  phase 4b: sell the complete book of the tower the librarian is on
* ``"accept"`` / ``"redraw"``  during a sale: take the price, or pay 1 day for a new card
* ``"done"`` / ``"hire A B T"``  phase 4c: play card A for its artisans on tower T and
  discard card B to pay (at most twice a turn); with option ``last_cubes: choose``, when
  fewer cubes are left than A could place, also ``"hire A B T LETTERS"``: the artisans
  (letters R S I B) that get the last cubes, for every choice other than printed order

A step with nothing to decide (no florins to walk, no book to sell, ...) is skipped.
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from collections.abc import Mapping
from itertools import combinations
from typing import TYPE_CHECKING, Any

from simcli.frozen import freeze
from simcli.game import CHANCE, TERMINAL, Game, IllegalMoveError, Outcome, State
from simcli.games.bibliogamo.components import ARTISAN_LETTERS, ARTISANS, CUBES, Components
from simcli.games.chance import ChanceStreams, keyed_order
from simcli.games.streamfield import Streams
from simcli.statefields import (
    ALL,
    Bool,
    Choice,
    DeclaredState,
    Field,
    Int,
    Maybe,
    Member,
    Seq,
    StateFields,
)

if TYPE_CHECKING:
    from simcli.games.bibliogamo.game import Bibliogamo

HAND_SIZE = 5  # "Draw back to a hand of 5 cards"
#: The options of the text's other readings (issue 37), left out of the resolved options
#: at their defaults (records of the default reading stay as they were):
#: ``blocked_cards``: which cards phase 3's block stops: "artisans" (default: the cards
#: that provide the blocked artisan), "small_icon" (the cards whose small icon shows it)
#: or "either";
BLOCKED_CARDS = "blocked_cards"
#: ``sale_redraw``: which card's florin icon picks the price after a re-draw:
#: "first_icon" (default: the first card's, always) or "chain" (the card before the new
#: price card, value by value).
SALE_REDRAW = "sale_redraw"

LAST_DAY = 40  # "The game is over when the Time Track eurocube reaches [40]"
BASE_MOVE = 3  # "Move the Librarian Pawn clockwise 3 spaces"
FLORINS_PER_VP = 5  # "For each 5 Florins you have, you gain 1 VP"
HIRES_PER_TURN = 2  # "You may do this action twice"

# Steps where the player decides; every other step is automatic.
DECISIONS = frozenset({"prestige", "unblock", "walk", "sell", "price", "hire"})
# Automatic steps that draw cards (they stop at a chance event when the pile is empty).
#   deal/refill: draw to HAND_SIZE; reveal: phase 2 card; sale: the two price cards;
#   redraw: one more price card.


#: Every step a position can stop at (the snapshot's ``step``).
STEPS = frozenset(
    {"prestige", "deal", "refill", "turn", "reveal", "unblock", "walk", "sell", "sale"}
    | {"redraw", "price", "hire", "end", "over"}
)
CARD = Member("cards")  # a card id
CARDS = Seq(CARD)
PER_TOWER = "towers"  # one entry per tower


class BibliogamoState(DeclaredState):
    """One position. The snapshot and the snapshot checks come from ``state_fields``;
    the clone and the view (everything but the order of the draw pile) are written out
    (search copies states often, the referee takes a view at every decision) and proven
    equal to the declared ones by check-game."""

    state_fields = StateFields(
        Field("step", Choice(tuple(sorted(STEPS)))),
        Field("turn", Int(0)),
        Field("time", Int(0)),
        Field("florins", Int(0)),
        Field("librarian", Int(0, "spaces")),
        Field("towers", Seq(Seq(Int(0), length=4), length=PER_TOWER)),  # artisans by type
        Field("sold", Seq(Int(0), length=PER_TOWER)),
        Field("marks", Seq(Int(0), length=PER_TOWER)),
        Field("prestige", Maybe(Member("prestige"))),
        Field("hand", CARDS),
        Field("draw", CARDS),
        Field("known", Int(0)),
        Field("discard", CARDS),
        Field("revealed", Maybe(CARD)),
        Field("blocked", Maybe(Int(0, 4))),
        Field("unblocked", Bool()),
        Field("sale", CARDS),
        Field("hires", Int(0)),
        Field("chance", Streams(("reshuffle",), "bibliogamo snapshot"), hidden=ALL),
        label="bibliogamo snapshot",
    )

    __slots__ = (
        "game",
        "players",
        "options",
        "comp",
        "step",
        "turn",
        "time",
        "florins",
        "librarian",
        "towers",
        "sold",
        "marks",
        "prestige",
        "hand",
        "draw",
        "known",
        "discard",
        "revealed",
        "blocked",
        "unblocked",
        "sale",
        "hires",
        "chance",
    )

    def __init__(
        self,
        game: Bibliogamo,
        options: Mapping[str, Any],
        comp: Components,
        deck: list[int],
        prestige: int | None,
        chance_key: int | None = None,
    ) -> None:
        self.game = game
        self.players = 1
        self.options = freeze(options)
        self.comp = comp
        self.turn = 0  # turns started
        self.time = 0  # the time track; a turn's phase 1 moves it to turn + paid days
        self.florins = comp.starting_florins
        self.librarian = comp.librarian_start
        n = len(comp.towers)
        self.towers = [[0, 0, 0, 0] for _ in range(n)]  # artisans placed, by type
        self.sold = [0] * n  # books sold, by tower
        self.marks = [0] * n  # prestige marks, by tower
        self.prestige = prestige
        self.hand: list[int] = []  # card ids, sorted
        self.draw = list(deck)  # top card first
        self.known = len(self.draw)  # top cards whose order is known (views: 0)
        self.discard: list[int] = []  # in the order discarded
        self.revealed: int | None = None  # this turn's phase 2 card
        self.blocked: int | None = None  # this turn's blocked artisan (index into ARTISANS)
        self.unblocked = False
        self.sale: list[int] = []  # cards turned over for the current sale, in order
        self.hires = 0
        self.chance = ChanceStreams(chance_key)
        self.step = "prestige" if prestige is None else "deal"
        self._run()

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int:
        step = self.step
        if step == "over":
            return TERMINAL
        if step in DECISIONS:
            return 0
        return CHANCE

    def is_terminal(self) -> bool:
        return self.step == "over"

    @property
    def cubes_on_board(self) -> int:
        return sum(sum(t) for t in self.towers)

    def tower_complete(self, t: int) -> bool:
        return self.towers[t] == list(self.comp.towers[t].recipe)

    def tower_here(self) -> int | None:
        return self.comp.tower_at[self.librarian]

    @property
    def books(self) -> int:
        return sum(self.sold)

    @property
    def price(self) -> int | None:
        """The price offered in the current sale (None outside a sale): the last card's
        florin value at the position the first card's icon shows; with option
        ``sale_redraw: chain``, the icon of the card turned over just before it."""
        if len(self.sale) < 2:
            return None
        cards = self.comp.cards
        chooser = self.sale[-2] if self.options.get(SALE_REDRAW) == "chain" else self.sale[0]
        return cards[self.sale[-1]].florins[cards[chooser].florin_icon]

    def prestige_points(self) -> int:
        if self.prestige is None:
            return 0
        return self.comp.prestige[self.prestige].points[sum(self.marks)]

    def score(self) -> int:
        """Books + floor(florins / 5) + prestige VP (the rule text's scoring)."""
        return self.books + self.florins // FLORINS_PER_VP + self.prestige_points()

    def can_play(self, card: int) -> bool:
        """May ``card`` be played for its artisans this turn (phase 3's block)? Which
        cards the block stops is the option ``blocked_cards``: those that provide the
        blocked artisan (default), those whose small icon shows it, or either."""
        blocked = self.blocked
        if blocked is None or self.unblocked:
            return True
        info = self.comp.cards[card]
        reading = self.options.get(BLOCKED_CARDS, "artisans")
        if reading == "artisans":
            return blocked not in info.artisans
        if reading == "small_icon":
            return info.blocked != blocked
        return blocked not in info.artisans and info.blocked != blocked

    def can_pay(self, card: int) -> bool:
        """May ``card`` be discarded to pay for a hire?"""
        return self.options["block_scope"] == "hire" or self.can_play(card)

    def can_sell(self) -> bool:
        t = self.tower_here()
        return t is not None and self.tower_complete(t) and len(self.draw) + len(self.discard) >= 2

    def can_redraw(self) -> bool:
        # "you may pay extra days of time only if they remain on the Time Track"
        return self.time < LAST_DAY and len(self.draw) + len(self.discard) >= 1

    def _unblock_cards(self) -> list[int]:
        if self.blocked is None or self.unblocked:
            return []
        cards = self.comp.cards
        return [c for c in self.hand if cards[c].blocked == self.blocked]

    def _hire_possible(self) -> bool:
        if self.hires >= HIRES_PER_TURN or len(self.hand) < 2:
            return False
        for a in self.hand:
            if self.can_play(a) and any(b != a and self.can_pay(b) for b in self.hand):
                return True
        return False

    def placeable(self, card: int, tower: int) -> list[int]:
        """The artisan types ``card`` provides that ``tower`` still needs (surplus beyond
        the recipe is lost), in printed order, before the cube limit."""
        recipe = self.comp.towers[tower].recipe
        placed = list(self.towers[tower])
        out = []
        for art in self.comp.cards[card].artisans:
            if placed[art] < recipe[art]:
                placed[art] += 1
                out.append(art)
        return out

    def hire_gain(self, card: int, tower: int) -> list[int]:
        """The artisan types ``card`` would add to ``tower`` now (surplus and cubes beyond
        the 26 are lost), in placement order: when cubes run short, the first ones
        printed get them."""
        return self.placeable(card, tower)[: max(0, CUBES - self.cubes_on_board)]

    def cube_choices(self, card: int, tower: int) -> list[tuple[int, ...]]:
        """With option ``last_cubes: choose``, when fewer cubes are left than ``card``
        could place on ``tower``: every other set of artisans the last cubes may go to
        (sorted artisan indices; the printed-order set is the plain hire)."""
        if self.options["last_cubes"] != "choose":
            return []
        placeable = self.placeable(card, tower)
        free = CUBES - self.cubes_on_board
        if free <= 0 or len(placeable) <= free:
            return []
        printed = tuple(sorted(placeable[:free]))
        return sorted({tuple(sorted(c)) for c in combinations(placeable, free)} - {printed})

    def legal_moves(self) -> list[Any]:
        step = self.step
        if step == "prestige":
            return [f"prestige {p}" for p in self.comp.prestige]
        if step == "unblock":
            return ["keep"] + [f"unblock {c}" for c in self._unblock_cards()]
        if step == "walk":
            k = min(self.florins, self.comp.spaces - 1)
            return (
                ["stay"]
                + [f"walk +{i}" for i in range(1, k + 1)]
                + [f"walk -{i}" for i in range(1, k + 1)]
            )
        if step == "sell":
            return ["pass", "sell"]
        if step == "price":
            return ["accept", "redraw"]
        if step == "hire":
            moves = ["done"]
            hand = self.hand
            towers = [" " + t.id for t in self.comp.towers]
            players = [a for a in hand if self.can_play(a)]
            if self.options["block_scope"] == "hire":
                payers = hand
            else:  # a card that may not be played may not pay either
                payers = players
            if self.options["last_cubes"] != "choose":  # no cube choices: one move a tower
                table = self.comp.hire_moves
                for a in players:
                    for b in payers:
                        if b != a:
                            moves += table[a, b]
                return moves
            for a in players:
                for b in payers:
                    if b != a:
                        prefix = f"hire {a} {b}"
                        for ti, t in enumerate(towers):
                            moves.append(prefix + t)
                            moves += [
                                f"{prefix}{t} {_letters(c)}" for c in self.cube_choices(a, ti)
                            ]
            return moves
        return []

    # ------------------------------------------------------------------ moves
    def apply(self, move: Any) -> None:
        step = self.step
        if step == "over":
            raise IllegalMoveError("the game is over")
        if step not in DECISIONS:
            self._apply_chance(move)
            self._run()
            return
        if not isinstance(move, str):
            raise IllegalMoveError(
                f"a Bibliogamo move is a string such as 'hire 3 17 history', not {move!r}"
            )
        word, _, rest = move.partition(" ")
        args = rest.split(" ") if rest else []
        if step == "hire":
            self._apply_hire(move, word, args)
        elif step == "price" and move in ("accept", "redraw"):
            if move == "accept":
                self._accept_sale()
                self.step = "hire"
            else:
                if not self.can_redraw():
                    raise IllegalMoveError(f"no redraw on day {self.time}: days end at 40")
                self.time += 1
                self.step = "redraw"
        elif step == "sell" and move in ("pass", "sell"):
            if move == "sell":
                self.sale = []
                self.step = "sale"
            else:
                self.step = "hire"
        elif step == "walk" and (move == "stay" or word == "walk"):
            if move != "stay":
                k = _parse_int(args[0] if len(args) == 1 else "", move, signed=True)
                limit = min(self.florins, self.comp.spaces - 1)
                if k == 0 or abs(k) > limit:
                    raise IllegalMoveError(
                        f"'{move}': walks go 1..{limit} spaces with {self.florins} florins"
                    )
                self.florins -= abs(k)
                self.librarian = (self.librarian + k) % self.comp.spaces
            self.step = "sell"
        elif step == "unblock" and (move == "keep" or word == "unblock"):
            if move != "keep":
                c = _parse_int(args[0] if len(args) == 1 else "", move)
                if c not in self._unblock_cards():
                    raise IllegalMoveError(
                        f"'{move}': card {c} is not in hand with the blocked artisan's icon"
                    )
                self.hand.remove(c)
                self.discard.append(c)
                self.unblocked = True
            self.step = "walk"
        elif step == "prestige" and word == "prestige":
            p = _parse_int(args[0] if len(args) == 1 else "", move)
            if p not in self.comp.prestige:
                raise IllegalMoveError(f"'{move}': no prestige card {p}")
            self.prestige = p
            self.step = "deal"
        else:
            raise IllegalMoveError(
                f"'{move}' is not a legal move now (step {step}); legal: "
                + ", ".join(map(str, self.legal_moves()[:6]))
            )
        self._run()

    def _apply_hire(self, move: str, word: str, args: list[str]) -> None:
        if move == "done":
            self.step = "end"
            return
        if word != "hire" or len(args) not in (3, 4):
            raise IllegalMoveError(f"'{move}': expected 'done' or 'hire CARD PAYMENT TOWER'")
        a = _parse_int(args[0], move)
        b = _parse_int(args[1], move)
        t = self.comp.tower_index.get(args[2])
        if t is None:
            raise IllegalMoveError(f"'{move}': no tower '{args[2]}'")
        if a not in self.hand or b not in self.hand or a == b:
            raise IllegalMoveError(f"'{move}': needs two different cards from the hand")
        if not self.can_play(a):
            raise IllegalMoveError(
                f"'{move}': card {a} has the blocked artisan ({ARTISANS[self.blocked]})"  # type: ignore[index]
            )
        if not self.can_pay(b):
            raise IllegalMoveError(f"'{move}': card {b} is blocked and may not pay")
        gain = self.hire_gain(a, t)
        if len(args) == 4:  # last_cubes: choose, the artisans that get the last cubes
            chosen = tuple(
                sorted(ARTISAN_LETTERS.index(x) for x in args[3] if x in ARTISAN_LETTERS)
            )
            if len(chosen) != len(args[3]) or chosen not in self.cube_choices(a, t):
                raise IllegalMoveError(
                    f"'{move}': the last cubes can go to "
                    + (
                        ", ".join(_letters(c) for c in self.cube_choices(a, t))
                        or "no other artisans (the plain hire places them)"
                    )
                )
            gain = list(chosen)
        self._hire(a, b, t, gain)

    def _hire(self, a: int, b: int, t: int, gain: list[int]) -> None:
        """Hire with card ``a`` paid by card ``b``: ``gain`` goes onto tower ``t``."""
        placed = self.towers[t]
        for art in gain:
            placed[art] += 1
        self.hand.remove(a)
        self.hand.remove(b)
        self.discard.append(a)
        self.discard.append(b)
        self.hires += 1

    def apply_trusted(self, move: Any) -> None:
        """:meth:`apply` for a move from :meth:`legal_moves`: hires skip the checks."""
        if self.step == "hire" and move != "done":
            args = move.split(" ")  # hire CARD PAYMENT TOWER [LETTERS]
            a, b, t = int(args[1]), int(args[2]), self.comp.tower_index[args[3]]
            if len(args) == 4:
                gain = self.hire_gain(a, t)
            else:
                gain = sorted(ARTISAN_LETTERS.index(x) for x in args[4])
            self._hire(a, b, t, gain)
            self._run()
            return
        self.apply(move)

    def _accept_sale(self) -> None:
        price = self.price
        if price is None:  # pragma: no cover - the step machine never allows it
            raise IllegalMoveError("no sale in progress")
        t = self.tower_here()
        self.florins += price
        self.towers[t] = [0, 0, 0, 0]  # type: ignore[index]
        self.sold[t] += 1  # type: ignore[index]
        if self.prestige is not None:
            wanted = self.comp.prestige[self.prestige].wanted(t)  # type: ignore[arg-type]
            if self.marks[t] < wanted:  # type: ignore[index]
                self.marks[t] += 1  # type: ignore[index]
        self.discard.extend(self.sale)
        self.sale = []

    # ------------------------------------------------------------------ chance
    def sample_chance(self, rng: random.Random) -> Any:
        if self.current_player != CHANCE:
            raise IllegalMoveError("no chance event is pending")
        if not self.draw:
            # the n-th reshuffle orders the cards by keys drawn for (game, n): the same
            # in every history (simcli/games/chance.py)
            stream = self.chance.random(rng, "reshuffle")
            number = {card: i for i, card in enumerate(self.comp.card_ids)}
            return keyed_order(self.discard, number.__getitem__, len(number), stream)
        return rng.choice(self.draw[self.known :])  # a view's guess at its next card

    def chance_outcomes(self) -> list[tuple[int, float]] | None:
        """In a view, the next card: each unseen card of the draw pile alike (copies
        of one card add up). A reshuffle lists nothing (``None``)."""
        if self.current_player != CHANCE:
            raise IllegalMoveError("no chance event is pending")
        if not self.draw:
            return None
        unseen = self.draw[self.known :]
        counts = Counter(unseen)
        return [(card, n / len(unseen)) for card, n in sorted(counts.items())]

    def _apply_chance(self, outcome: Any) -> None:
        if not self.draw:
            if (
                not isinstance(outcome, list)
                or any(isinstance(c, bool) or not isinstance(c, int) for c in outcome)
                or sorted(outcome) != sorted(self.discard)
            ):
                raise IllegalMoveError(
                    "a reshuffle's outcome is the new draw pile (top first): a list of "
                    f"exactly the {len(self.discard)} discarded card ids, got {outcome!r}"
                )
            self.draw = list(outcome)
            self.known = len(self.draw)
            self.discard = []
            self.chance.happened("reshuffle")
            return
        # Only in a view, where the draw pile's order is unknown: which card is next.
        unknown = self.draw[self.known :]
        if isinstance(outcome, bool) or outcome not in unknown:
            raise IllegalMoveError(
                f"the next card must be one of the unseen cards {unknown}, got {outcome!r}"
            )
        self.draw.remove(outcome)
        self.draw.insert(self.known, outcome)
        self.known += 1

    def _take(self) -> int | None:
        """The top card of the draw pile, or None when a chance event must come first."""
        if not self.draw or self.known == 0:
            return None
        self.known -= 1
        return self.draw.pop(0)

    def _out_of_cards(self) -> bool:
        return not self.draw and not self.discard

    # ------------------------------------------------------------------ automatic steps
    def _run(self) -> None:
        """Play automatic steps until a decision, a chance event or the end."""
        while True:
            step = self.step
            if step in ("deal", "refill"):
                # Phase 5: draw back to 5, reshuffling the discards when the pile runs out.
                while len(self.hand) < HAND_SIZE and not self._out_of_cards():
                    card = self._take()
                    if card is None:
                        return
                    insort(self.hand, card)
                self.step = "turn"
            elif step == "turn":
                # Phase 1: time; phase 2: the librarian walks 3 clockwise.
                self.turn += 1
                self.time += 1
                self.librarian = (self.librarian + BASE_MOVE) % self.comp.spaces
                self.revealed = self.blocked = None
                self.unblocked = False
                self.hires = 0
                self.step = "reveal"
            elif step == "reveal":
                # Phase 2: turn over the top card onto the discards, follow its icon.
                card = self._take()
                if card is None:
                    return
                self.discard.append(card)
                self.revealed = card
                info = self.comp.cards[card]
                self.librarian = (self.librarian + info.librarian) % self.comp.spaces
                self.blocked = info.blocked  # phase 3
                self.step = "unblock"
            elif step == "unblock":
                if self._unblock_cards():
                    return
                self.step = "walk"
            elif step == "walk":
                if self.florins > 0:
                    return
                self.step = "sell"
            elif step == "sell":
                if self.can_sell():
                    return
                self.step = "hire"
            elif step == "sale":
                while len(self.sale) < 2:
                    card = self._take()
                    if card is None:
                        return
                    self.sale.append(card)
                self.step = "price"
            elif step == "redraw":
                card = self._take()
                if card is None:
                    return
                self.sale.append(card)  # replaces the price card; the first card stays
                self.step = "price"
            elif step == "price":
                if self.can_redraw():
                    return
                self._accept_sale()
                self.step = "hire"
            elif step == "hire":
                if self._hire_possible():
                    return
                self.step = "end"
            elif step == "end":
                # End of phase 4: the game ends after the turn in which day 40 is reached.
                self.step = "over" if self.time >= LAST_DAY else "refill"
            else:  # "prestige", "over"
                return

    # ------------------------------------------------------------------ contract
    def outcome(self) -> Outcome:
        if self.step != "over":
            raise IllegalMoveError("the game is not over")
        return Outcome(scores=(self.score(),), winners=(0,))

    def clone(self) -> BibliogamoState:
        new = BibliogamoState.__new__(BibliogamoState)
        new.game = self.game
        new.players = 1
        new.options = self.options
        new.comp = self.comp
        new.step = self.step
        new.turn = self.turn
        new.time = self.time
        new.florins = self.florins
        new.librarian = self.librarian
        new.towers = [t.copy() for t in self.towers]
        new.sold = self.sold.copy()
        new.marks = self.marks.copy()
        new.prestige = self.prestige
        new.hand = self.hand.copy()
        new.draw = self.draw.copy()
        new.known = self.known
        new.discard = self.discard.copy()
        new.revealed = self.revealed
        new.blocked = self.blocked
        new.unblocked = self.unblocked
        new.sale = self.sale.copy()
        new.hires = self.hires
        new.chance = self.chance.copy()
        return new

    def view(self, seat: int) -> BibliogamoState:
        """The declared view (see :meth:`viewed`), written out: the referee takes one at
        every decision. check-game proves it equal to the derived one."""
        new = self.clone()
        new.chance = self.chance.hidden()
        self.viewed(new, seat)
        return new

    def viewed(self, new: State, seat: int) -> None:
        """The view hides the order of the draw pile (its contents follow from the cards
        seen, so they are kept, sorted) and the chance key. Drawing from a view is a
        chance event."""
        assert isinstance(new, BibliogamoState)
        new.draw.sort()
        new.known = 0

    @classmethod
    def empty(cls, game: Game, players: int, options: Mapping[str, Any]) -> BibliogamoState:
        state = cls.__new__(cls)
        state.game, state.players, state.options = game, 1, freeze(options)  # type: ignore[assignment]
        state.comp = game.components(options["components"])  # type: ignore[attr-defined]
        return state

    @classmethod
    def field_limits(cls, game: Game, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        comp: Components = game.components(options["components"])  # type: ignore[attr-defined]
        return {
            "players": players,
            "spaces": comp.spaces,
            PER_TOWER: len(comp.towers),
            "cards": comp.cards,
            "prestige": comp.prestige,
        }

    def loaded(self, snap: Mapping[str, Any]) -> None:
        if self.known > len(self.draw):
            raise IllegalMoveError("bibliogamo snapshot: 'known' must be at most the draw pile")

    def render(self) -> str:
        comp = self.comp
        lines = []
        status = {
            "over": "game over",
            "prestige": "choose a Prestige Collection card",
            "unblock": "phase 3: lift the block?",
            "walk": "phase 4a: pay florins to move the librarian?",
            "sell": "phase 4b: sell the book here?",
            "price": "phase 4b: accept the price or redraw?",
            "hire": f"phase 4c: hire ({self.hires} of 2 done)",
        }.get(self.step, "waiting for a reshuffle")
        lines.append(f"Bibliogamo  turn {self.turn}  day {self.time}/{LAST_DAY}  -- {status}")
        # Track: one column per space, tower ids' first letters, '*' = librarian.
        nums = " ".join(f"{s:>2}" for s in range(comp.spaces))
        marks = " ".join(
            f"{(comp.towers[t].id[0].upper() if t is not None else '.'):>2}" for t in comp.tower_at
        )
        pawn = " ".join(f"{'^L' if s == self.librarian else '':>2}" for s in range(comp.spaces))
        lines += [f"track  {nums}", f"       {marks}", f"       {pawn}".rstrip()]
        lines.append(
            f"towers (placed/needed {' '.join(ARTISAN_LETTERS)}), "
            f"cubes on board {self.cubes_on_board}/{CUBES}:"
        )
        for t, tower in enumerate(comp.towers):
            parts = []
            for k, letter in enumerate(ARTISAN_LETTERS):
                need = tower.recipe[k]
                parts.append(f"{letter} {self.towers[t][k]}/{need}" if need else f"{letter}  - ")
            done = "  COMPLETE" if self.tower_complete(t) else ""
            dist = (tower.space - self.librarian) % comp.spaces
            lines.append(
                f"  {tower.name:<16} @{tower.space:<2} {'  '.join(parts)}  "
                f"sold {self.sold[t]}  (+{dist} from librarian){done}"
            )
        prestige = "none chosen yet"
        if self.prestige is not None:
            pc = comp.prestige[self.prestige]
            wanted = ", ".join(comp.towers[b].id for b in pc.books)
            prestige = (
                f"{pc.id} '{pc.name}' [{wanted}] marked {sum(self.marks)}"
                f" -> {self.prestige_points()} VP (table {list(pc.points)})"
            )
        lines.append(f"prestige: {prestige}")
        lines.append(
            f"florins {self.florins}  books {self.books}  score now {self.score()}"
            f"  (books + florins//5 + prestige)"
        )
        if self.revealed is not None:
            block = ARTISANS[self.blocked] if self.blocked is not None else "-"
            state = " (lifted)" if self.unblocked else ""
            lines.append(f"revealed card {self.revealed}: blocked artisan {block}{state}")
        if self.sale:
            price = self.price
            offer = f": price {price} florins" if price is not None else ""
            lines.append(f"sale cards {self.sale}{offer}")
        lines.append("hand:")
        for c in self.hand:
            lines.append("  " + describe_card(comp, c))
        order = "order known" if self.known == len(self.draw) else "order hidden"
        lines.append(
            f"draw pile {len(self.draw)} cards ({order}), discard pile {len(self.discard)} cards"
        )
        return "\n".join(lines)


def describe_card(comp: Components, card: int) -> str:
    """One line: ``12: lib +1, blocks S, gives R S I, florins 1/3/5 (icon 2)``."""
    info = comp.cards[card]
    gives = " ".join(ARTISAN_LETTERS[a] for a in info.artisans)
    values = "/".join(map(str, info.florins))
    return (
        f"{card:>2}: lib {info.librarian:+d}, blocks {ARTISAN_LETTERS[info.blocked]}, "
        f"gives {gives}, florins {values} (icon {info.florin_icon + 1})"
    )


def _letters(artisans: tuple[int, ...]) -> str:
    return "".join(ARTISAN_LETTERS[a] for a in artisans)


def _parse_int(text: str, move: str, signed: bool = False) -> int:
    body = text[1:] if signed and text[:1] in "+-" and len(text) > 1 else text
    if not (body.isascii() and body.isdigit()) or (signed and text[:1] not in "+-"):
        raise IllegalMoveError(f"'{move}' is not a legal move in this notation")
    return int(text)
