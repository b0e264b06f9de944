"""The Ex Libris position and its rules engine.

The engine is a stack of *tasks* (small typed objects, the next one last; their kinds and
rules are in ``tasks.py``, ``effects.py``, ``phases.py`` and ``assistants.py``). Automatic
tasks (reveal a location, deal cards, resolve a tile, clean up) run inside :meth:`apply`
until the next task needs a decision of a seat or a chance outcome. Every decision inside
a turn (which card to take, where to shelve it, a bid, a flip before the inspection) is a
move of the seat, so strategies make them and the record holds them. See
``docs/games/ex_libris.md`` for the notation.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from simcli.frozen import freeze
from simcli.game import TERMINAL, IllegalMoveError, Outcome, State
from simcli.games.chance import ChanceStreams
from simcli.games.compensation import KOMI, with_komi
from simcli.games.ex_libris import inspection, shelf
from simcli.games.ex_libris.components import Components, Location
from simcli.games.ex_libris.tasks import Chance, Task

if TYPE_CHECKING:
    from simcli.games.ex_libris.game import ExLibris

UNKNOWN = -1
HOME_SPACES = 3
STANDARD_BEGINNER = 3
STANDARD_ADVANCED = 2
HAND_SIZE = 6


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
        self.tasks: list[Task] = []
        self.chance = ChanceStreams()

    # ------------------------------------------------------------------ basics

    @property
    def current_player(self) -> int:
        return self.tasks[-1].player(self) if self.tasks else TERMINAL

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

    def shelve_move(self, seat: int, move: list) -> None:
        """Carry out ``seat``'s legal ``["shelve", CARD, ROW, COLUMN]``."""
        self.shelve_card(seat, self.card_of(move[1]), move[2], move[3])

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

    def push(self, *tasks: Task) -> None:
        """Schedule ``tasks`` to run next, in the order given."""
        self.tasks.extend(reversed(tasks))

    def run(self) -> None:
        """Carry out automatic tasks, and finish decisions with nothing to choose, until
        a decision, a chance event or the end."""
        tasks = self.tasks
        while tasks:
            task = tasks[-1]
            if task.blocks(self):
                return
            tasks.pop()
            task.run(self)

    def open_space(self, tile: int) -> bool:
        return len(self.occupants[tile]) < self.loc(tile).open_spaces(self.players)

    # ------------------------------------------------------------------ moves

    def legal_moves(self) -> list[Any]:
        return self.tasks[-1].legal_moves(self) if self.tasks else []

    def apply(self, move: Any) -> None:
        if not self.tasks:
            raise IllegalMoveError("the game is over")
        task = self.tasks[-1]
        if isinstance(task, Chance):
            self._apply_chance(task, move)
            self.run()
            return
        # A refused move must leave the state as it was: check it against the legal
        # moves before anything changes (the tasks' apply may assume a legal move).
        self._play(task, self._offered(move))

    def apply_trusted(self, move: Any) -> None:
        """:meth:`apply` without looking ``move`` up among the legal moves (which costs a
        second generation of them): for a move from :meth:`legal_moves`, or a chance
        outcome from :meth:`sample_chance`, which :meth:`apply` takes as it is)."""
        task = self.tasks[-1]
        if isinstance(task, Chance):
            self.apply(move)
            return
        self._trusted = True
        try:
            self._play(task, move)
        finally:
            del self._trusted  # back to the class's False

    def _play(self, task: Task, move: Any) -> None:
        """Carry out the legal decision ``move`` of ``task`` and run on."""
        self.tasks.pop()
        task.apply(self, move)  # type: ignore[attr-defined]
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
        return self.tasks[-1].describe(self) if self.tasks else "game over"

    # ------------------------------------------------------------------ chance

    def sample_chance(self, rng: random.Random) -> Any:
        task = self.tasks[-1] if self.tasks else None
        if not isinstance(task, Chance):
            raise IllegalMoveError("no chance event is pending")
        # the n-th event of a kind draws from its own stream, keyed by (game, kind, n):
        # a shuffle orders the cards by per-card keys (simcli/games/chance.py)
        return task.sample(self, self.chance.random(rng, task.name))

    def _apply_chance(self, task: Chance, outcome: Any) -> None:
        task.settle(self, outcome)  # raises before any change
        self.tasks.pop()
        self.chance.happened(task.name)

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
        komi = self.options.get(KOMI, 0)  # seat s gets s x komi (0: the rules as written)
        return Outcome(
            scores=with_komi([float(s.total) for s in sheets], komi),
            winners=inspection.winners(sheets, hand_sizes, komi),
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
            "tasks": [t.to_json() for t in self.tasks],
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


def _same_types(a: Any, b: Any) -> bool:
    """Equal values that are also spelled alike (``1`` and ``True`` or ``1.0`` are not)."""
    if isinstance(a, list):
        return isinstance(b, list) and all(map(_same_types, a, b))
    return type(a) is type(b)


def _is_move(move: Any) -> bool:
    return isinstance(move, (str, int, list)) and not isinstance(move, bool)
