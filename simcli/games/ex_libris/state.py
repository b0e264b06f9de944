"""The Ex Libris position and its rules engine.

The engine is a stack of *tasks* (small tuples, the next one last). Automatic tasks
(reveal a location, deal cards, resolve a tile, clean up) run inside :meth:`apply` until
the next task needs a decision of a seat or a chance outcome. Every decision inside a turn
(which card to take, where to shelve it, a bid, a flip before the inspection) is a move
of the seat, so strategies make them and the record holds them. See
``docs/games/ex_libris.md`` for the notation.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from simcli.frozen import freeze
from simcli.game import CHANCE, TERMINAL, IllegalMoveError, Outcome, State
from simcli.games.chance import ChanceStreams, keyed_order
from simcli.games.ex_libris import assistants, inspection, shelf
from simcli.games.ex_libris.components import Components, Location

if TYPE_CHECKING:
    from simcli.games.ex_libris.game import ExLibris

UNKNOWN = -1
HOME_SPACES = 3
STANDARD_BEGINNER = 3
STANDARD_ADVANCED = 2
HAND_SIZE = 6

#: Tasks that wait for a decision of a seat (their second field is the seat).
DECISIONS = frozenset(
    {
        "library",
        "take",
        "shelve",
        "swap",
        "discard_draw",
        "discard",
        "search",
        "bid",
        "flip",
        "home_action",
        "name_category",
        "give",
        "entomb",
    }
)
CHANCES = frozenset({"reshuffle_deck", "reshuffle_locs", "random_card"})


def trigger_for(options: Mapping[str, Any], players: int) -> int:
    value = options["final_round_trigger"]
    if isinstance(value, int):
        return value
    if isinstance(value, Mapping):
        return int(value[str(players)])
    return {2: 13, 3: 12, 4: 11}[players]  # option "auto"


class ExLibrisState(State):
    """A full position (or, with ``viewer`` set, what one seat knows: unknown cards,
    tiles and focus cards are -1)."""

    game: ExLibris

    def __init__(self, game: ExLibris, players: int, options: Mapping[str, Any], comps: Components):
        self.game = game
        self.players = players
        self.options = freeze(options)
        self.comps = comps
        self.advanced = options["mode"] == "advanced"
        self.trigger = trigger_for(options, players)
        self.max_rounds: int = options["max_rounds"]
        self.prominent_ties: str = options["prominent_ties"]
        self.viewer: int | None = None
        self.round = 0
        self.first = 0
        self.turn = 0
        self.deck: list[int] = []  # top = last
        self.discard: list[int] = []  # top = last
        self.hands: list[list[int]] = [[] for _ in range(players)]  # sorted
        self.shelves: list[dict[tuple[int, int], int]] = [{} for _ in range(players)]
        self.down: list[set[tuple[int, int]]] = [set() for _ in range(players)]
        self.entombed: list[list[int]] = [[] for _ in range(players)]
        self.focus: list[int] = [UNKNOWN] * players
        self.prominent = 0
        self.banned = 0
        self.libraries: list[int] = [UNKNOWN] * players
        self.offered: list[list[int]] = [[] for _ in range(players)]
        self.stack: list[int] = []  # location tile indices, top = last
        self.loc_discard: list[int] = []
        self.permanent: list[int] = []
        self.current: list[int] = []
        n_tiles = len(comps.locations)
        self.area: list[list[int]] = [[] for _ in range(n_tiles)]
        # occupants per tile, in space order: (seat, special 0/1, bid)
        self.occupants: list[list[tuple[int, int, int]]] = [[] for _ in range(n_tiles)]
        self.home: list[list[int]] = [[] for _ in range(players)]  # special 0/1 per space
        standard = STANDARD_ADVANCED if self.advanced else STANDARD_BEGINNER
        self.standard: list[int] = [standard] * players
        self.special: list[int] = [1 if self.advanced else 0] * players
        self.taken: list[int] = []  # cards received by the effect being carried out
        self.final_round = False
        self.termination = "normal"
        self.sheets: tuple[inspection.ScoreSheet, ...] | None = None  # set by the scoring
        self.tasks: list[tuple] = []
        self.chance = ChanceStreams()

    # ------------------------------------------------------------------ basics

    @property
    def current_player(self) -> int:
        if not self.tasks:
            return TERMINAL
        task = self.tasks[-1]
        head = task[0]
        if head == "place":
            return self.turn
        if head in CHANCES:
            return CHANCE
        return task[1]

    def is_terminal(self) -> bool:
        return not self.tasks

    def loc(self, tile: int) -> Location:
        return self.comps.locations[tile]

    def face_up_tiles(self) -> list[int]:
        return sorted(self.permanent + self.current)

    def card_name(self, card: int) -> str:
        return "?" if card == UNKNOWN else self.comps.books[card].name

    def card_of(self, name: Any) -> int:
        card = self.comps.book_index(name)
        if card is None:
            raise IllegalMoveError(f"no book card named {name!r}")
        return card

    def out_count(self, seat: int) -> int:
        """Assistants of ``seat`` placed this round (locations and home)."""
        n = len(self.home[seat])
        for occ in self.occupants:
            n += sum(1 for s, _, _ in occ if s == seat)
        return n

    # ------------------------------------------------------------------ card moves

    def give_card(self, seat: int, card: int) -> None:
        bisect.insort(self.hands[seat], card)

    def remove_from_hand(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        i = bisect.bisect_left(hand, card)
        if i >= len(hand) or hand[i] != card:
            raise IllegalMoveError(f"{self.card_name(card)} is not in seat {seat}'s hand")
        del hand[i]

    #: True only while :meth:`apply_trusted` carries out a move from :meth:`legal_moves`:
    #: the checks that repeat the move generation are then skipped
    _trusted = False

    def shelve_card(self, seat: int, card: int, r: int, c: int) -> None:
        cells = self.shelves[seat]
        if not self._trusted and (r, c) not in shelf.open_positions(cells):
            raise IllegalMoveError(f"cannot shelve at row {r}, column {c} of seat {seat}'s shelf")
        self.remove_from_hand(seat, card)
        shelf.place(cells, self.down[seat], (r, c), card)

    def shelve_moves(
        self,
        seat: int,
        cards: list[int],
        head: str | tuple = "shelve",
        positions: list[tuple[int, int]] | None = None,
    ) -> list[list]:
        """Every ``[head, CARD, ROW, COLUMN]`` (``head`` a tuple: spliced in) of ``cards``
        on the open positions of the seat's shelf (``positions``, when the caller has
        them already)."""
        if positions is None:
            positions = shelf.open_positions(self.shelves[seat])
        moves = []
        for card in cards:
            if card == UNKNOWN:
                continue
            name = self.comps.books[card].name
            for r, c in positions:
                moves.append([head, name, r, c] if head == "shelve" else [*head, name, r, c])
        return moves

    # ------------------------------------------------------------------ engine

    def push(self, *tasks: tuple) -> None:
        """Schedule ``tasks`` to run next, in the order given."""
        self.tasks.extend(reversed(tasks))

    def run(self) -> None:
        """Carry out automatic tasks until a decision, a chance event or the end."""
        tasks = self.tasks
        while tasks:
            task = tasks[-1]
            head = task[0]
            if head in CHANCES:
                return
            if head in DECISIONS or head == "place":
                if self._has_choice(task):
                    return
                tasks.pop()
                self._skip(task)
                continue
            tasks.pop()
            getattr(self, "_auto_" + head)(task)

    def _has_choice(self, task: tuple) -> bool:
        head = task[0]
        if head == "place":
            n = self.players
            for i in range(n):
                seat = (self.turn + i) % n
                if self.standard[seat] or self.special[seat]:
                    self.turn = seat
                    return True
            return False
        seat = task[1]
        hand = self.hands[seat]
        if head == "take":
            return task[3] > 0 and bool(self.area[task[2]])
        if head == "shelve":
            if task[2] <= 0:
                return False
            if task[3]:
                return any(card in hand for card in self.taken)
            return bool(hand)
        if head == "swap":
            return task[3] > 0 and bool(hand) and bool(self.area[task[2]])
        if head == "discard_draw":
            return task[2] > 0 and bool(hand)
        if head == "discard":
            return task[2] > 0 and bool(hand)
        if head == "search":
            return bool(self.discard)
        if head in ("bid", "flip"):
            return True
        return assistants.has_choice(self, task)

    def _skip(self, task: tuple) -> None:
        """A decision with nothing to decide: finish it."""
        head = task[0]
        if head == "place":
            self.push(*[("resolve", t) for t in self.face_up_tiles()], ("cleanup",))
        elif head == "discard_draw" and task[3]:
            self.push(("draw", task[1], task[3]))

    # automatic tasks ------------------------------------------------------

    def _auto_round(self, task: tuple) -> None:
        self.round += 1
        self.push(("reveal",), ("prep",), ("place",))
        self.turn = self.first

    def _auto_reveal(self, task: tuple) -> None:
        while len(self.current) < self.players:
            if self.stack:
                self.current.append(self.stack.pop())
            elif self.loc_discard:
                self.push(("reshuffle_locs",), ("reveal",))
                return
            else:
                return

    def _auto_prep(self, task: tuple) -> None:
        fills = []
        for tile in self.face_up_tiles():
            n = self.loc(tile).setup_cards(self.players)
            if n:
                fills.append(("fill", tile, n))
        self.push(*fills)

    def _auto_fill(self, task: tuple) -> None:
        _, tile, n = task
        while n > 0:
            if not self.deck:
                if self.discard:
                    self.push(("reshuffle_deck",), ("fill", tile, n))
                return
            self.area[tile].append(self.deck.pop())
            n -= 1

    def _auto_draw(self, task: tuple) -> None:
        _, seat, n = task
        while n > 0:
            if not self.deck:
                if self.discard:
                    self.push(("reshuffle_deck",), ("draw", seat, n))
                return
            self.give_card(seat, self.deck.pop())
            n -= 1

    def _auto_first(self, task: tuple) -> None:
        self.first = task[1]

    def _auto_begin(self, task: tuple) -> None:
        self.taken = []

    def _auto_pay(self, task: tuple) -> None:
        _, seat, n = task
        n = min(n, len(self.hands[seat]))
        if n:
            self.push(("discard", seat, n))

    def _auto_resolve(self, task: tuple) -> None:
        tile = task[1]
        loc = self.loc(tile)
        occ = self.occupants[tile]
        todo: list[tuple] = []
        order = list(range(len(occ)))
        if loc.has_bid:
            order.sort(key=lambda i: (-occ[i][2], i))
        for i in order:
            seat, special, bid = occ[i]
            if loc.delayed:
                todo.extend(self.effect_tasks(seat, tile, bid))
            todo.extend(assistants.after_effect(self, seat, tile, special, resolution=True))
        todo.append(("clear", tile))
        self.push(*todo)

    def _auto_clear(self, task: tuple) -> None:
        tile = task[1]
        self.discard.extend(self.area[tile])
        self.area[tile] = []
        self.occupants[tile] = []

    def _auto_cleanup(self, task: tuple) -> None:
        if self.final_round:
            self.push(("inspect",))
            return
        if self.current:
            lowest = min(self.current)
            self.permanent.append(lowest)
            self.permanent.sort()
            self.loc_discard.extend(t for t in self.current if t != lowest)
            self.current = []
        for seat in range(self.players):
            self.home[seat] = []
            self.standard[seat] = STANDARD_ADVANCED if self.advanced else STANDARD_BEGINNER
            self.special[seat] = 1 if self.advanced else 0
        if any(len(cells) >= self.trigger for cells in self.shelves):
            self.final_round = True
        if self.round >= self.max_rounds:
            self.termination = "move_limit"
            self.push(("inspect",))
            return
        self.push(("round",))

    def _auto_inspect(self, task: tuple) -> None:
        n = self.players
        self.push(*[("flip", (self.first + i) % n) for i in range(n)], ("score",))

    def _auto_score(self, task: tuple) -> None:
        self.sheets = tuple(self.inspect())

    # effects --------------------------------------------------------------

    def effect_tasks(self, seat: int, tile: int, bid: int = 0, placing: bool = False) -> list:
        """The tasks that carry out ``tile``'s effect for ``seat``. When ``placing`` on a
        delayed tile only the bid runs now."""
        loc = self.loc(tile)
        todo: list[tuple] = [("begin", seat)]
        for step in loc.effect:
            op, n = step.op, step.n
            if placing and loc.delayed:
                if op == "bid":
                    todo.append(("bid", seat, tile, n))
                continue
            if op == "bid":
                continue
            if op == "draw":
                todo.append(("draw", seat, n))
            elif op == "draw_per_assistant":
                todo.append(("draw", seat, n * self.out_count(seat)))
            elif op == "first_player":
                todo.append(("first", seat))
            elif op == "take":
                todo.append(("take", seat, tile, n))
            elif op == "shelve":
                todo.append(("shelve", seat, n, 0))
            elif op == "shelve_taken":
                todo.append(("shelve", seat, n, 1))
            elif op == "swap":
                todo.append(("swap", seat, tile, n))
            elif op == "discard_draw":
                todo.append(("discard_draw", seat, n, 0))
            elif op == "search_discard":
                todo.append(("search", seat, n))
            elif op == "draw_keep":
                todo.append(("draw", seat, n))
                todo.append(("discard", seat, n - step.k))
            elif op == "pay_bid":
                todo.append(("pay", seat, bid))
        return todo if len(todo) > 1 else []

    # ------------------------------------------------------------------ moves

    def legal_moves(self) -> list[Any]:
        if not self.tasks:
            return []
        task = self.tasks[-1]
        head = task[0]
        if head in CHANCES:
            return []
        if head == "place":
            return self._placement_moves(self.turn)
        seat = task[1]
        names = self.comps.books
        hand = self.hands[seat]
        if head == "take":
            return [["take", names[c].name] for c in _unique(self.area[task[2]])]
        if head == "shelve":
            cards = [c for c in hand if c in self.taken] if task[3] else hand
            return self.shelve_moves(seat, _unique(cards)) + ["pass"]
        if head == "swap":
            return [
                ["swap", names[h].name, names[a].name]
                for h in _unique(hand)
                if h != UNKNOWN
                for a in _unique(self.area[task[2]])
            ] + ["pass"]
        if head == "discard_draw":
            return [["discard", names[c].name] for c in _unique(hand) if c != UNKNOWN] + ["done"]
        if head == "discard":
            return [["discard", names[c].name] for c in _unique(hand) if c != UNKNOWN]
        if head == "search":
            top = self.discard[-task[2] :]
            return [["take", names[c].name] for c in sorted(set(top))]
        if head == "bid":
            return [["bid", b] for b in range(min(task[3], len(hand)) + 1)]
        if head == "flip":
            cells = self.shelves[seat]
            down = self.down[seat]
            return ["done"] + [
                ["flip", names[cells[pos]].name] for pos in sorted(cells) if pos not in down
            ]
        return assistants.legal_moves(self, task)

    def _placement_moves(self, seat: int) -> list[Any]:
        moves: list[Any] = []
        kinds = []
        if self.standard[seat]:
            kinds.append(0)
        if self.special[seat]:
            kinds.append(1)
        positions = None  # the seat's open shelf positions, found once for both kinds
        tiles = self.face_up_tiles()
        locations, occupants, players = self.comps.locations, self.occupants, self.players
        for special in kinds:
            prefix = "s" if special else ""
            if self.advanced:
                for tile in tiles:
                    if assistants.may_visit(self, seat, tile, special):
                        moves.append([prefix + "loc", self.loc(tile).number])
            else:  # no abilities: a tile may be visited while it has an open space
                moves += [
                    [prefix + "loc", locations[tile].number]
                    for tile in tiles
                    if len(occupants[tile]) < locations[tile].open_spaces(players)
                ]
            if len(self.home[seat]) < HOME_SPACES:
                if positions is None:
                    positions = shelf.open_positions(self.shelves[seat])
                moves.extend(assistants.home_moves(self, seat, special, positions))
        return moves

    def open_space(self, tile: int) -> bool:
        return len(self.occupants[tile]) < self.loc(tile).open_spaces(self.players)

    def apply(self, move: Any) -> None:
        if not self.tasks:
            raise IllegalMoveError("the game is over")
        task = self.tasks[-1]
        head = task[0]
        if head in CHANCES:
            self._apply_chance(task, move)
            self.run()
            return
        # A refused move must leave the state as it was: check it against the legal
        # moves before anything changes (the handlers below may assume a legal move).
        self._play(task, self._offered(move))

    def apply_trusted(self, move: Any) -> None:
        """:meth:`apply` without looking ``move`` up among the legal moves (which costs a
        second generation of them): for a move from :meth:`legal_moves`, or a chance
        outcome from :meth:`sample_chance`, which :meth:`apply` takes as it is)."""
        task = self.tasks[-1]
        if task[0] in CHANCES:
            self.apply(move)
            return
        self._trusted = True
        try:
            self._play(task, move)
        finally:
            del self._trusted  # back to the class's False

    def _play(self, task: tuple, move: Any) -> None:
        """Carry out the legal decision ``move`` of ``task`` and run on."""
        head = task[0]
        if head == "place":
            self._apply_placement(move)
        elif head in ("shelve", "take", "swap", "discard_draw", "discard", "search", "bid", "flip"):
            getattr(self, "_apply_" + head)(task, move)
        else:
            assistants.apply(self, task, move)
        self.run()

    def _offered(self, move: Any) -> Any:
        """The legal move equal to ``move`` (the game's own value), or IllegalMoveError."""
        legal = self.legal_moves()
        if _is_move(move):
            for offered in legal:
                if offered == move and _same_types(offered, move):
                    return offered
        raise IllegalMoveError(f"{move!r} is not a legal move here ({self.describe()})")

    def describe(self) -> str:
        """A short description of the pending decision, for error messages."""
        if not self.tasks:
            return "game over"
        task = self.tasks[-1]
        if task[0] == "place":
            return f"seat {self.turn} places an assistant"
        return f"pending {task[0]} of {'chance' if task[0] in CHANCES else f'seat {task[1]}'}"

    def _apply_placement(self, move: Any) -> None:
        seat = self.turn
        if not isinstance(move, list) or not move or not isinstance(move[0], str):
            raise IllegalMoveError(f"{move!r} is not a placement ({self.describe()})")
        kind = move[0]
        special = 1 if kind.startswith("s") else 0
        if special and not self.special[seat] or not special and not self.standard[seat]:
            raise IllegalMoveError(f"seat {seat} has no such assistant left for {move!r}")
        base = kind[1:] if special else kind
        follow: list[tuple] = []
        if base == "loc" and len(move) == 2:
            tile = self.comps.location_index(move[1])
            if tile is None or tile not in self.face_up_tiles():
                raise IllegalMoveError(f"location {move[1]!r} is not on the table")
            if not assistants.may_visit(self, seat, tile, special):
                raise IllegalMoveError(f"seat {seat} may not visit location {move[1]} now")
            follow = assistants.before_place(self, seat, tile, special)
            self.occupants[tile].append((seat, special, 0))
            loc = self.loc(tile)
            follow += self.effect_tasks(seat, tile, placing=True)
            if not loc.delayed:
                follow += assistants.after_effect(self, seat, tile, special, resolution=False)
        elif base == "home":
            if len(self.home[seat]) >= HOME_SPACES:
                raise IllegalMoveError(f"seat {seat}'s home spaces are full")
            follow = assistants.apply_home(self, seat, special, move)
            self.home[seat].append(special)
        else:
            raise IllegalMoveError(f"{move!r} is not a placement ({self.describe()})")
        if special:
            self.special[seat] -= 1
        else:
            self.standard[seat] -= 1
        self.turn = (seat + 1) % self.players
        self.push(*follow)

    def _apply_shelve(self, task: tuple, move: Any) -> None:
        _, seat, n, only_taken = task
        if move != "pass":
            card, r, c = self.parse_shelve(move, "shelve")
            if only_taken and card not in self.taken:
                raise IllegalMoveError(
                    f"only a card taken by this effect may be shelved, not {move!r}"
                )
            self.shelve_card(seat, card, r, c)  # checks the position and the hand first
        self.tasks.pop()
        if move == "pass":
            return
        if n > 1:
            self.tasks.append(("shelve", seat, n - 1, only_taken))

    def parse_shelve(self, move: Any, head: str) -> tuple[int, int, int]:
        if (
            not isinstance(move, list)
            or len(move) != 4
            or move[0] != head
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in move[2:])
        ):
            raise IllegalMoveError(f"expected [{head!r}, CARD, ROW, COLUMN], got {move!r}")
        return self.card_of(move[1]), move[2], move[3]

    def _apply_take(self, task: tuple, move: list) -> None:
        _, seat, tile, n = task
        card = self.card_of(move[1])
        self.area[tile].remove(card)
        self.give_card(seat, card)
        self.taken.append(card)
        self.tasks.pop()
        if n > 1:
            self.tasks.append(("take", seat, tile, n - 1))

    def _apply_swap(self, task: tuple, move: Any) -> None:
        _, seat, tile, n = task
        self.tasks.pop()
        if move == "pass":
            return
        mine, theirs = self.card_of(move[1]), self.card_of(move[2])
        self.remove_from_hand(seat, mine)
        self.area[tile].remove(theirs)
        self.area[tile].append(mine)
        self.give_card(seat, theirs)
        self.taken.append(theirs)
        if n > 1:
            self.tasks.append(("swap", seat, tile, n - 1))

    def _apply_discard_draw(self, task: tuple, move: Any) -> None:
        _, seat, n, count = task
        self.tasks.pop()
        if move == "done":
            if count:
                self.push(("draw", seat, count))
            return
        card = self.card_of(move[1])
        self.remove_from_hand(seat, card)
        self.discard.append(card)
        if n > 1:
            self.tasks.append(("discard_draw", seat, n - 1, count + 1))
        else:
            self.push(("draw", seat, count + 1))

    def _apply_discard(self, task: tuple, move: list) -> None:
        _, seat, n = task
        card = self.card_of(move[1])
        self.remove_from_hand(seat, card)
        self.discard.append(card)
        self.tasks.pop()
        if n > 1:
            self.tasks.append(("discard", seat, n - 1))

    def _apply_search(self, task: tuple, move: list) -> None:
        seat = task[1]
        card = self.card_of(move[1])
        # the card is among the top cards (checked): remove its last occurrence
        idx = len(self.discard) - 1 - self.discard[::-1].index(card)
        del self.discard[idx]
        self.give_card(seat, card)
        self.taken.append(card)
        self.tasks.pop()

    def _apply_bid(self, task: tuple, move: list) -> None:
        _, seat, tile, _ = task
        occ = self.occupants[tile]
        s, special, _ = occ[-1]
        occ[-1] = (s, special, move[1])
        self.tasks.pop()

    def _apply_flip(self, task: tuple, move: Any) -> None:
        seat = task[1]
        if move == "done":
            self.tasks.pop()
            return
        card = self.card_of(move[1])
        for pos, c in self.shelves[seat].items():
            if c == card:
                self.down[seat].add(pos)
                return

    # chance ------------------------------------------------------------------

    def sample_chance(self, rng: random.Random) -> Any:
        if not self.tasks or self.tasks[-1][0] not in CHANCES:
            raise IllegalMoveError("no chance event is pending")
        head = self.tasks[-1][0]
        # the n-th event of a kind draws from its own stream, keyed by (game, kind, n):
        # a shuffle orders the cards by per-card keys (simcli/games/chance.py)
        stream = self.chance.random(rng, head)
        if head == "reshuffle_deck":
            order = keyed_order(self.discard, int, len(self.comps.books), stream)
            return [self.comps.books[c].name for c in order]
        if head == "reshuffle_locs":
            order = keyed_order(self.loc_discard, int, len(self.comps.locations), stream)
            return [self.loc(t).number for t in order]
        return assistants.sample_chance(self, stream)

    def _apply_chance(self, task: tuple, outcome: Any) -> None:
        head = task[0]
        self._apply_chance_outcome(task, outcome)  # raises before any change
        self.chance.happened(head)

    def _apply_chance_outcome(self, task: tuple, outcome: Any) -> None:
        head = task[0]
        if head == "reshuffle_deck":
            if not isinstance(outcome, list):
                raise IllegalMoveError("a deck reshuffle outcome lists card names in draw order")
            cards = [self.card_of(name) for name in outcome]
            if sorted(cards) != sorted(self.discard):
                raise IllegalMoveError("a deck reshuffle must reorder exactly the discard pile")
            self.deck = cards[::-1]
            self.discard = []
        elif head == "reshuffle_locs":
            if not isinstance(outcome, list):
                raise IllegalMoveError("a location reshuffle outcome lists tile numbers")
            tiles = [self.comps.location_index(n) for n in outcome]
            if None in tiles or sorted(tiles) != sorted(self.loc_discard):  # type: ignore[type-var]
                raise IllegalMoveError("a location reshuffle must reorder the location discards")
            self.stack = tiles[::-1]  # type: ignore[assignment]
            self.loc_discard = []
        else:
            assistants.apply_chance(self, task, outcome)
            return
        self.tasks.pop()

    # ------------------------------------------------------------------ scoring

    def inspect(self) -> list[inspection.ScoreSheet]:
        """Score every shelf as it stands (alphabetical check included)."""
        return inspection.inspect_all(
            self.shelves,
            self.down,
            [b.books for b in self.comps.books],
            self.prominent,
            self.banned,
            self.focus,
            len(self.comps.categories),
            self.prominent_ties,
        )

    def outcome(self) -> Outcome:
        if self.tasks or self.sheets is None:
            raise IllegalMoveError("the game is not over")
        sheets = self.sheets
        hand_sizes = [len(h) for h in self.hands]
        return Outcome(
            scores=tuple(float(s.total) for s in sheets),
            winners=inspection.winners(sheets, hand_sizes),
            termination=self.termination,
        )

    # ------------------------------------------------------------------ copies

    def snapshot(self) -> dict[str, Any]:
        """The position as JSON. The view of a scored game also holds ``inspection``, the
        score sheets (computed with the focus cards the view hides), so that a view
        rebuilt from its snapshot has the same outcome; a full state recomputes them."""
        snap = {
            "round": self.round,
            "first": self.first,
            "turn": self.turn,
            "deck": list(self.deck),
            "discard": list(self.discard),
            "hands": [list(h) for h in self.hands],
            "shelves": [
                [[r, c, card, int((r, c) in down)] for (r, c), card in sorted(cells.items())]
                for cells, down in zip(self.shelves, self.down, strict=True)
            ],
            "entombed": [list(e) for e in self.entombed],
            "focus": list(self.focus),
            "prominent": self.prominent,
            "banned": self.banned,
            "libraries": list(self.libraries),
            "offered": [list(o) for o in self.offered],
            "stack": list(self.stack),
            "loc_discard": list(self.loc_discard),
            "permanent": list(self.permanent),
            "current": list(self.current),
            "area": [list(a) for a in self.area],
            "occupants": [[list(o) for o in occ] for occ in self.occupants],
            "home": [list(h) for h in self.home],
            "standard": list(self.standard),
            "special": list(self.special),
            "taken": list(self.taken),
            "final_round": self.final_round,
            "termination": self.termination,
            "tasks": [list(t) for t in self.tasks],
            "viewer": self.viewer,
            "chance": self.chance.snapshot(),
        }
        if self.viewer is not None and self.sheets is not None:
            snap["inspection"] = [sheet.to_json() for sheet in self.sheets]
        return snap

    def clone(self) -> ExLibrisState:
        new = ExLibrisState.__new__(ExLibrisState)
        new.__dict__.update(self.__dict__)
        new.deck = self.deck.copy()
        new.discard = self.discard.copy()
        new.hands = [h.copy() for h in self.hands]
        new.shelves = [s.copy() for s in self.shelves]
        new.down = [d.copy() for d in self.down]
        new.entombed = [e.copy() for e in self.entombed]
        new.focus = self.focus.copy()
        new.libraries = self.libraries.copy()
        new.offered = [o.copy() for o in self.offered]
        new.stack = self.stack.copy()
        new.loc_discard = self.loc_discard.copy()
        new.permanent = self.permanent.copy()
        new.current = self.current.copy()
        new.area = [a.copy() for a in self.area]
        new.occupants = [o.copy() for o in self.occupants]
        new.home = [h.copy() for h in self.home]
        new.standard = self.standard.copy()
        new.special = self.special.copy()
        new.taken = self.taken.copy()
        new.tasks = self.tasks.copy()
        new.chance = self.chance.copy()
        return new

    def view(self, seat: int) -> ExLibrisState:
        """What ``seat`` knows: its own hand and focus, every shelf, the board, the public
        discard piles, the sizes of other hands, the deck and the location stack (and
        once the game is scored, the public score sheets: see :meth:`snapshot`). Shelves
        are in reading order, as in the snapshot, so that a view rebuilt from it is the
        same object to a strategy down to the order it iterates a shelf in. During the
        library choice (round 0): its own two offered tiles and the libraries already
        chosen, but no category card and no hand card."""
        new = self.clone()
        new.viewer = seat
        new.chance = self.chance.hidden()
        for other in range(self.players):
            new.shelves[other], new.down[other] = shelf.canonical(
                self.shelves[other], self.down[other]
            )
        new.deck = [UNKNOWN] * len(self.deck)
        new.stack = [UNKNOWN] * len(self.stack)
        for other in range(self.players):
            if other != seat:
                new.hands[other] = [UNKNOWN] * len(self.hands[other])
                new.focus[other] = UNKNOWN
                new.offered[other] = [UNKNOWN] * len(self.offered[other])
        if self.round == 0:
            # The advanced game's library choice is setup step 4; the category cards and
            # the hands are dealt later (steps 6-8), so nobody has seen them yet. The
            # setup draws them in advance; the view shows six face-down cards per hand.
            new.prominent = new.banned = UNKNOWN
            new.focus = [UNKNOWN] * self.players
            new.hands = [[UNKNOWN] * len(hand) for hand in self.hands]
        return new

    def render(self) -> str:
        from simcli.games.ex_libris.render import render_state

        return render_state(self)


def _unique(cards: list[int]) -> list[int]:
    """Distinct cards in ascending order (cards are unique, but views may hold -1)."""
    return sorted(set(cards))


def _same_types(a: Any, b: Any) -> bool:
    """Equal values that are also spelled alike (``1`` and ``True`` or ``1.0`` are not)."""
    if isinstance(a, list):
        return isinstance(b, list) and all(map(_same_types, a, b))
    return type(a) is type(b)


def _is_move(move: Any) -> bool:
    return isinstance(move, (str, int, list)) and not isinstance(move, bool)
