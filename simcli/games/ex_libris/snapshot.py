"""Rebuilding an Ex Libris position (or a seat's view) from its snapshot.

A strategy in its own process receives its view as the JSON of
:meth:`ExLibrisState.snapshot`; :func:`rebuild` turns it back into a state
that plays, renders, evaluates and determinizes exactly like the view it was taken from.
The snapshot is checked for shape (keys, types, lengths, indices in range); anything else
is an :class:`IllegalMoveError` naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from simcli.game import IllegalMoveError
from simcli.games.chance import ChanceStreams
from simcli.games.ex_libris import assistants, effects, phases, shelf
from simcli.games.ex_libris.components import Components
from simcli.games.ex_libris.inspection import ScoreSheet
from simcli.games.ex_libris.state import STANDARD_BEGINNER, UNKNOWN, ExLibrisState
from simcli.games.ex_libris.tasks import Chance, Task

if TYPE_CHECKING:
    from simcli.games.ex_libris.game import ExLibris

#: Every kind of task by its name (the first item of a task in ``tasks``).
TASKS: Mapping[str, type[Task]] = {
    cls.name: cls for cls in (*phases.TASKS, *effects.TASKS, *assistants.TASKS)
}
CHANCES = frozenset(name for name, cls in TASKS.items() if issubclass(cls, Chance))
#: Task fields that hold a seat or a tile (checked against the table)
SEAT_FIELDS = frozenset({"seat", "taker"})
TILE_FIELDS = frozenset({"tile"})
KEYS = (
    "round",
    "first",
    "turn",
    "deck",
    "discard",
    "hands",
    "shelves",
    "entombed",
    "focus",
    "prominent",
    "banned",
    "libraries",
    "offered",
    "stack",
    "loc_discard",
    "permanent",
    "current",
    "area",
    "occupants",
    "home",
    "standard",
    "special",
    "taken",
    "final_round",
    "termination",
    "tasks",
    "viewer",
    "chance",
)


def _bad(key: str, what: str) -> IllegalMoveError:
    return IllegalMoveError(f"ex_libris snapshot: '{key}' must be {what}")


def _int(value: Any) -> bool:
    return type(value) is int


class _Reader:
    """Typed access to the snapshot's fields, each checked against the components."""

    def __init__(self, snap: Mapping[str, Any], players: int, comps: Components) -> None:
        self.snap = snap
        self.players = players
        self.books = len(comps.books)
        self.tiles = len(comps.locations)
        self.libraries = len(comps.libraries)
        self.categories = len(comps.categories)

    def count(self, key: str, lo: int = 0, hi: int | None = None) -> int:
        value = self.snap[key]
        if not _int(value) or value < lo or (hi is not None and value >= hi):
            span = f"{lo}..{hi - 1}" if hi is not None else f">= {lo}"
            raise _bad(key, f"an integer {span}, got {value!r}")
        return value

    def items(self, key: str, value: Any, limit: int, hidden: bool = False) -> list[int]:
        """A list of indices below ``limit`` (``-1`` too when ``hidden``)."""
        lo = UNKNOWN if hidden else 0
        if type(value) is not list or not all(_int(x) and lo <= x < limit for x in value):
            what = "-1 (unknown) or " if hidden else ""
            raise _bad(key, f"a list of {what}indices 0..{limit - 1}")
        return list(value)

    def per_seat(self, key: str, length: int | None = None) -> list[Any]:
        value = self.snap[key]
        n = self.players if length is None else length
        if type(value) is not list or len(value) != n:
            raise _bad(key, f"a list of {n} entries")
        return value

    def cards(self, key: str, hidden: bool = False) -> list[int]:
        return self.items(key, self.snap[key], self.books, hidden)

    def tile_list(self, key: str, hidden: bool = False) -> list[int]:
        return self.items(key, self.snap[key], self.tiles, hidden)


def rebuild(
    game: ExLibris, players: int, options: Mapping[str, Any], snap: Mapping[str, Any]
) -> ExLibrisState:
    """The state (or view) whose :meth:`ExLibrisState.snapshot` is ``snap``."""
    if not isinstance(snap, Mapping):
        raise IllegalMoveError("an ex_libris snapshot is a JSON object")
    missing = [key for key in KEYS if key not in snap]
    if missing:
        raise IllegalMoveError(f"ex_libris snapshot: missing '{missing[0]}'")
    comps = game.components(options)
    state = ExLibrisState(game, players, options, comps)
    read = _Reader(snap, players, comps)
    seats = range(players)
    viewer = snap["viewer"]
    if viewer is not None and (not _int(viewer) or viewer not in seats):
        raise _bad("viewer", f"null or a seat 0..{players - 1}")
    view = viewer is not None
    state.viewer = viewer
    state.round = read.count("round")
    state.first = read.count("first", 0, players)
    state.turn = read.count("turn", 0, players)
    # a view of the advanced game's library choice (round 0) has no category card yet
    unseen = view and state.round == 0
    state.prominent = read.count("prominent", UNKNOWN if unseen else 0, read.categories)
    state.banned = read.count("banned", UNKNOWN if unseen else 0, read.categories)
    state.deck = read.cards("deck", hidden=view)
    state.discard = read.cards("discard")
    state.taken = read.cards("taken")
    hands = [
        read.items("hands", h, read.books, hidden=view and (s != viewer or unseen))
        for s, h in enumerate(read.per_seat("hands"))
    ]
    if any(h != sorted(h) for h in hands):
        raise _bad("hands", "lists of card indices in ascending order")
    state.hands = hands
    state.entombed = [read.items("entombed", e, read.books) for e in read.per_seat("entombed")]
    state.shelves, state.down = [], []
    for raw in read.per_seat("shelves"):
        if type(raw) is not list or not all(
            type(x) is list
            and len(x) == 4
            and all(_int(v) for v in x)
            and 0 <= x[2] < read.books
            and x[3] in (0, 1)
            for x in raw
        ):
            raise _bad("shelves", "per seat a list of [row, column, card, face down 0/1]")
        cells, down = shelf.canonical(
            {(r, c): card for r, c, card, _ in raw}, {(r, c) for r, c, _, down in raw if down}
        )
        state.shelves.append(cells)
        state.down.append(down)
    state.focus = read.items("focus", read.per_seat("focus"), read.categories, hidden=view)
    state.libraries = read.items("libraries", read.per_seat("libraries"), read.libraries, True)
    state.offered = [
        read.items("offered", o, read.libraries, hidden=view) for o in read.per_seat("offered")
    ]
    state.stack = read.tile_list("stack", hidden=view)
    state.loc_discard = read.tile_list("loc_discard")
    state.permanent = read.tile_list("permanent")
    state.current = read.tile_list("current")
    state.area = [read.items("area", a, read.books) for a in read.per_seat("area", read.tiles)]
    occupants = []
    for raw in read.per_seat("occupants", read.tiles):
        if type(raw) is not list or not all(
            type(o) is list
            and len(o) == 3
            and all(_int(v) for v in o)
            and o[0] in seats
            and o[1] in (0, 1)
            for o in raw
        ):
            raise _bad("occupants", "per tile a list of [seat, special 0/1, bid]")
        occupants.append([(o[0], o[1], o[2]) for o in raw])
    state.occupants = occupants
    state.home = [read.items("home", h, 2) for h in read.per_seat("home")]
    state.standard = read.items("standard", read.per_seat("standard"), STANDARD_BEGINNER + 1)
    state.special = read.items("special", read.per_seat("special"), 2)
    final_round = snap["final_round"]
    if type(final_round) is not bool:
        raise _bad("final_round", "true or false")
    state.final_round = final_round
    termination = snap["termination"]
    if termination not in ("normal", "move_limit"):
        raise _bad("termination", "'normal' or 'move_limit'")
    state.termination = termination
    state.tasks = _tasks(snap["tasks"], seats, range(read.tiles))
    state.chance = ChanceStreams.from_snapshot(snap["chance"], CHANCES, "ex_libris snapshot")
    if state.tasks:
        return state
    # finished: the inspection is scored (a view carries the sheets, its focus is hidden)
    if not view:
        state.sheets = tuple(state.inspect())
        return state
    sheets = snap.get("inspection")
    if type(sheets) is not list or len(sheets) != players:
        raise _bad("inspection", f"the {players} score sheets of the finished game")
    try:
        state.sheets = tuple(ScoreSheet.from_json(sheet) for sheet in sheets)
    except ValueError as exc:
        raise _bad("inspection", f"a list of score sheets ({exc})") from None
    return state


def _tasks(raw: Any, seats: range, tiles: range) -> list[Task]:
    """The task stack from its JSON form: ``[name, field, ...]`` per task."""
    if type(raw) is not list:
        raise _bad("tasks", "a list of tasks")
    return [_task(item, seats, tiles) for item in raw]


def _task(item: Any, seats: range, tiles: range) -> Task:
    cls = TASKS.get(item[0]) if type(item) is list and item and type(item[0]) is str else None
    fields = cls.__match_args__ if cls is not None else ()  # type: ignore[attr-defined]
    if (
        cls is None
        or len(item) != 1 + len(fields)
        or not all(_int(v) for v in item[1:])
        or any(f in SEAT_FIELDS and v not in seats for f, v in zip(fields, item[1:], strict=True))
        or any(f in TILE_FIELDS and v not in tiles for f, v in zip(fields, item[1:], strict=True))
    ):
        raise _bad("tasks", f"a list of known tasks [name, integer fields...], got {item!r}")
    return cls(*item[1:])
