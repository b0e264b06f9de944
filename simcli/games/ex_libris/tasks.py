"""The kinds of step on the Ex Libris engine's stack.

The engine (:class:`~simcli.games.ex_libris.state.ExLibrisState`) keeps a stack of tasks,
the next one last. Each task is a small dataclass: its fields say what it is about (a seat,
a tile, a count) and its methods hold its rule. There are three kinds:

* :class:`Auto`: runs by itself (reveal a location, deal cards, resolve a tile, ...);
* :class:`Decision`: waits for a move of one seat: its legal moves and what a move does;
  with nothing to choose it is finished without a move;
* :class:`Chance`: waits for a chance outcome: how to draw one and what it does.

Tasks are frozen (a clone of the state shares them): a task that goes on
(two cards to take, one taken) replaces itself with a new one. A task's JSON form is its
name and then its fields, in order (``["take", 0, 5, 2]``): the ``tasks`` of a snapshot.
The rules of each task live in the modules named for what they hold: ``effects`` (the
location effects, card moves), ``phases`` (the round, placement and inspection),
``assistants`` (the special assistants' abilities).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from simcli.game import CHANCE
from simcli.statefields import Bad, Kind

if TYPE_CHECKING:
    from simcli.games.ex_libris.state import ExLibrisState


#: Every kind of task by its name (the first item of a task in a snapshot's ``tasks``),
#: filled as the task classes are defined and never changed after.
REGISTRY: dict[str, type[Task]] = {}


class Task:
    """A step of the engine (see the module doc). Subclasses are slotted dataclasses whose
    fields are integers (seats, tiles, counts, flags), so the JSON form is plain."""

    __slots__ = ()
    #: the task's name in snapshots, chance streams and messages
    name: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" in cls.__dict__:  # a kind of task (the slotted class replaces its draft)
            REGISTRY[cls.name] = cls

    def blocks(self, state: ExLibrisState) -> bool:
        """True if the task waits for a move or a chance outcome; else the engine takes it
        off the stack and calls :meth:`run`."""
        return False

    def run(self, state: ExLibrisState) -> None:
        """Carry out the task (it is already off the stack)."""

    def player(self, state: ExLibrisState) -> int:
        """Who is to act while the task waits."""
        raise NotImplementedError

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        return []

    def describe(self, state: ExLibrisState) -> str:
        """The pending decision in a few words, for error messages."""
        return f"pending {self.name} of seat {self.player(state)}"

    def to_json(self) -> list[Any]:
        return [self.name, *(getattr(self, field) for field in self.__match_args__)]  # type: ignore[attr-defined]


class Auto(Task):
    """A task that runs by itself."""

    __slots__ = ()


class Decision(Task):
    """A decision of seat ``seat`` (every subclass has the field, first)."""

    __slots__ = ()
    seat: int

    def blocks(self, state: ExLibrisState) -> bool:
        return self.has_choice(state)

    def has_choice(self, state: ExLibrisState) -> bool:
        """False when there is nothing to decide: the task is then finished by :meth:`run`
        (which by default does nothing)."""
        return True

    def player(self, state: ExLibrisState) -> int:
        return self.seat

    def apply(self, state: ExLibrisState, move: Any) -> None:
        """Carry out ``move``, one of :meth:`legal_moves` (the task is already off the
        stack; a task that goes on pushes its next self)."""
        raise NotImplementedError


#: Task fields that hold a seat or a tile (checked against the table in a snapshot)
SEAT_FIELDS = frozenset({"seat", "taker"})
TILE_FIELDS = frozenset({"tile"})


@dataclass(frozen=True)
class TaskList(Kind):
    """The declared kind of the engine's stack: ``[name, field, ...]`` per task, next last;
    every field an integer, seats and tiles in range."""

    scalar = False
    plain = False

    def copy(self, value: Any) -> Any:
        return value.copy()  # tasks are frozen: a copy shares them

    def encode(self, value: Any) -> Any:
        return [t.to_json() for t in value]

    def decode(self, raw: Any, limits: Mapping[str, int], masked: bool) -> Any:
        if type(raw) is not list:
            raise Bad("a list of tasks")
        seats, tiles = range(limits["players"]), range(limits["tiles"])
        return [_task(item, seats, tiles) for item in raw]


def _task(item: Any, seats: range, tiles: range) -> Task:
    cls = REGISTRY.get(item[0]) if type(item) is list and item and type(item[0]) is str else None
    fields = cls.__match_args__ if cls is not None else ()  # type: ignore[attr-defined]
    values = item[1:] if cls is not None else []
    if (
        cls is None
        or len(values) != len(fields)
        or not all(type(v) is int for v in values)
        or any(f in SEAT_FIELDS and v not in seats for f, v in zip(fields, values, strict=True))
        or any(f in TILE_FIELDS and v not in tiles for f, v in zip(fields, values, strict=True))
    ):
        raise Bad(f"a list of known tasks [name, integer fields...], got {item!r}")
    return cls(*values)


class Chance(Task):
    """A chance event: the n-th event of a name draws from its own stream."""

    __slots__ = ()

    def blocks(self, state: ExLibrisState) -> bool:
        return True

    def player(self, state: ExLibrisState) -> int:
        return CHANCE

    def describe(self, state: ExLibrisState) -> str:
        return f"pending {self.name} of chance"

    def sample(self, state: ExLibrisState, stream: random.Random) -> Any:
        """An outcome drawn from the event's own ``stream``."""
        raise NotImplementedError

    def outcomes(self, state: ExLibrisState) -> list[tuple[Any, float]] | None:
        """Every outcome with its probability, where the event can list them (see
        :meth:`~simcli.game.State.chance_outcomes`); ``None`` for a shuffle."""
        return None

    def settle(self, state: ExLibrisState, outcome: Any) -> None:
        """Carry out ``outcome`` (the task is still on the stack); raise
        :class:`~simcli.game.IllegalMoveError` before any change if it is not possible."""
        raise NotImplementedError
