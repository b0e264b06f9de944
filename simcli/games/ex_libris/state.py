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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simcli import statefields
from simcli.frozen import freeze
from simcli.game import TERMINAL, Game, IllegalMoveError, Outcome, State
from simcli.games.chance import ChanceStreams
from simcli.games.compensation import KOMI, with_komi
from simcli.games.ex_libris import inspection, shelf
from simcli.games.ex_libris.components import Components, Location
from simcli.games.ex_libris.tasks import REGISTRY, Chance, Task, TaskList
from simcli.games.streamfield import Streams
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
    Record,
    Seq,
    StateFields,
)

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


@dataclass(frozen=True)
class Shelves(Kind):
    """Every seat's shelf (``shelves``, position -> card) with its face-down positions
    (``down``), as per seat a list of ``[row, column, card, face down 0/1]`` in reading
    order."""

    scalar = False
    plain = False

    def copy(self, value: Any) -> Any:
        cells, down = value
        return [c.copy() for c in cells], [d.copy() for d in down]

    def encode(self, value: Any) -> Any:
        return [
            [[r, c, card, int((r, c) in down)] for (r, c), card in sorted(cells.items())]
            for cells, down in zip(*value, strict=True)
        ]

    def decode(self, raw: Any, limits: Mapping[str, int], masked: bool) -> Any:
        what = "per seat a list of [row, column, card, face down 0/1]"
        if type(raw) is not list or len(raw) != limits["players"]:
            raise Bad(what)
        cells_of, down_of = [], []
        for one in raw:
            if type(one) is not list or not all(
                type(x) is list
                and len(x) == 4
                and all(type(v) is int for v in x)
                and 0 <= x[2] < limits["books"]
                and x[3] in (0, 1)
                for x in one
            ):
                raise Bad(what)
            cells, down = shelf.canonical(
                {(r, c): card for r, c, card, _ in one}, {(r, c) for r, c, _, d in one if d}
            )
            cells_of.append(cells)
            down_of.append(down)
        return cells_of, down_of


CARD = Int(0, "books")
CARDS = Seq(CARD)
TILES = Seq(Int(0, "tiles"))


def _seats(kind: Kind) -> Seq:
    """One ``kind`` per seat."""
    return Seq(kind, length="players")


def _chance_kinds() -> frozenset[str]:
    """The names of the chance events (the chance streams' kinds)."""
    return frozenset(name for name, cls in REGISTRY.items() if issubclass(cls, Chance))


class ExLibrisState(DeclaredState):
    """A full position (or, with ``viewer`` set, what one seat knows: unknown cards,
    tiles and focus cards are -1). The snapshot and the snapshot checks come from
    ``state_fields``; the clone and the view are written out (search copies states often,
    the referee takes a view at every decision) and proven equal to the declared ones by
    check-game."""

    game: ExLibris

    state_fields = StateFields(
        Field("round", Int(0)),
        Field("first", Int(0, "players")),
        Field("turn", Int(0, "players")),
        Field("deck", CARDS, hidden=ALL),  # top = last
        Field("discard", CARDS),  # top = last
        # a view of the advanced game's library choice (round 0) shows no hand card yet
        Field("hands", _seats(Seq(CARD, ordered=True)), hidden=OWNER, maybe_unknown=True),
        Field("shelves", Shelves(), also=("down",)),
        Field("entombed", _seats(CARDS)),
        Field("focus", _seats(Int(0, "categories")), hidden=OWNER),
        Field("prominent", Int(0, "categories"), maybe_unknown=True),  # dealt after round 0
        Field("banned", Int(0, "categories"), maybe_unknown=True),
        Field("libraries", _seats(Int(-1, "libraries"))),  # -1 until chosen
        Field("offered", _seats(Seq(Int(0, "libraries"))), hidden=OWNER),
        Field("stack", TILES, hidden=ALL),  # location tiles, top = last
        Field("loc_discard", TILES),
        Field("permanent", TILES),
        Field("current", TILES),
        Field("area", Seq(CARDS, length="tiles")),
        # occupants per tile, in space order: (seat, special 0/1, bid)
        Field("occupants", Seq(Seq(Record((Int(0, "players"), Int(0, 2), Int()))), length="tiles")),
        Field("home", _seats(Seq(Int(0, 2)))),  # special 0/1 per space
        Field("standard", _seats(Int(0, STANDARD_BEGINNER + 1))),
        Field("special", _seats(Int(0, 2))),
        Field("taken", CARDS),  # cards received by the effect being carried out
        Field("final_round", Bool()),
        Field("termination", Choice(("normal", "move_limit"))),
        Field("tasks", TaskList()),
        Field("viewer", Maybe(Int(0, "players"))),
        Field("chance", Streams(_chance_kinds, "ex_libris snapshot"), hidden=ALL),
        viewer="viewer",
        label="ex_libris snapshot",
    )
    #: a view of a scored game also holds the score sheets (see :meth:`snapshot`)
    extra_snapshot_keys = ("inspection",)

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

    def chance_outcomes(self) -> list[tuple[Any, float]] | None:
        """The listed outcomes of the pending chance event: a random hand card (the
        Gelatinous Cube) lists each card; a shuffle lists none (``None``)."""
        task = self.tasks[-1] if self.tasks else None
        if not isinstance(task, Chance):
            raise IllegalMoveError("no chance event is pending")
        return task.outcomes(self)

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
        """The position as JSON: the declared fields. The view of a scored game also
        holds ``inspection``, the score sheets (computed with the focus cards the view
        hides), so that a view rebuilt from its snapshot has the same outcome; a full
        state recomputes them."""
        snap = statefields.snapshot(self)
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
        """The declared view (see :meth:`viewed`), written out: the referee takes one at
        every decision. check-game proves it equal to the derived one."""
        new = self.clone()
        new.viewer = seat
        new.chance = self.chance.hidden()
        new.deck = [UNKNOWN] * len(self.deck)
        new.stack = [UNKNOWN] * len(self.stack)
        for other in range(self.players):
            if other != seat:
                new.hands[other] = [UNKNOWN] * len(self.hands[other])
                new.focus[other] = UNKNOWN
                new.offered[other] = [UNKNOWN] * len(self.offered[other])
        self.viewed(new, seat)
        return new

    def viewed(self, new: State, seat: int) -> None:
        """What ``seat`` knows: its own hand and focus, every shelf, the board, the public
        discard piles, the sizes of other hands, the deck and the location stack (and
        once the game is scored, the public score sheets: see :meth:`snapshot`); the
        declared fields hide the rest. Shelves are in reading order, as in the snapshot,
        so that a view rebuilt from it is the same object to a strategy down to the order
        it iterates a shelf in. During the library choice (round 0): its own two offered
        tiles and the libraries already chosen, but no category card and no hand card."""
        assert isinstance(new, ExLibrisState)
        for other in range(self.players):
            new.shelves[other], new.down[other] = shelf.canonical(
                self.shelves[other], self.down[other]
            )
        if self.round == 0:
            # The advanced game's library choice is setup step 4; the category cards and
            # the hands are dealt later (steps 6-8), so nobody has seen them yet. The
            # setup draws them in advance; the view shows six face-down cards per hand.
            new.prominent = new.banned = UNKNOWN
            new.focus = [UNKNOWN] * self.players
            new.hands = [[UNKNOWN] * len(hand) for hand in self.hands]

    # ------------------------------------------------------------------ from a snapshot

    @classmethod
    def empty(cls, game: Game, players: int, options: Mapping[str, Any]) -> ExLibrisState:
        return cls(game, players, options, game.components(options))  # type: ignore[arg-type, attr-defined]

    @classmethod
    def field_limits(cls, game: Game, players: int, options: Mapping[str, Any]) -> dict[str, int]:
        comps: Components = game.components(options)  # type: ignore[attr-defined]
        return {
            "players": players,
            "books": len(comps.books),
            "tiles": len(comps.locations),
            "libraries": len(comps.libraries),
            "categories": len(comps.categories),
        }

    def loaded(self, snap: Mapping[str, Any]) -> None:
        """A loaded view shows unknown hand and category cards only during the library
        choice (round 0), its own hand otherwise; a finished game gets its score sheets
        (a view's from the snapshot: its focus cards are hidden)."""
        viewer = self.viewer
        if viewer is not None and self.round != 0:
            if UNKNOWN in self.hands[viewer]:
                raise _bad("hands", "the viewer's own cards after the library choice")
            if UNKNOWN in (self.prominent, self.banned):
                raise _bad("prominent", "a category after the library choice")
        if self.tasks:
            return
        if viewer is None:
            self.sheets = tuple(self.inspect())
            return
        sheets = snap.get("inspection")
        if type(sheets) is not list or len(sheets) != self.players:
            raise _bad("inspection", f"the {self.players} score sheets of the finished game")
        try:
            self.sheets = tuple(inspection.ScoreSheet.from_json(sheet) for sheet in sheets)
        except ValueError as exc:
            raise _bad("inspection", f"a list of score sheets ({exc})") from None

    def render(self) -> str:
        from simcli.games.ex_libris.render import render_state

        return render_state(self)


def _bad(key: str, what: str) -> IllegalMoveError:
    return IllegalMoveError(f"ex_libris snapshot: '{key}' must be {what}")


def _same_types(a: Any, b: Any) -> bool:
    """Equal values that are also spelled alike (``1`` and ``True`` or ``1.0`` are not)."""
    if isinstance(a, list):
        return isinstance(b, list) and all(map(_same_types, a, b))
    return type(a) is type(b)


def _is_move(move: Any) -> bool:
    return isinstance(move, (str, int, list)) and not isinstance(move, bool)
