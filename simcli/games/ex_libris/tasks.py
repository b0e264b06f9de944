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
from typing import TYPE_CHECKING, Any, ClassVar

from simcli.game import CHANCE

if TYPE_CHECKING:
    from simcli.games.ex_libris.state import ExLibrisState


class Task:
    """A step of the engine (see the module doc). Subclasses are slotted dataclasses whose
    fields are integers (seats, tiles, counts, flags), so the JSON form is plain."""

    __slots__ = ()
    #: the task's name in snapshots, chance streams and messages
    name: ClassVar[str]

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

    def settle(self, state: ExLibrisState, outcome: Any) -> None:
        """Carry out ``outcome`` (the task is still on the stack); raise
        :class:`~simcli.game.IllegalMoveError` before any change if it is not possible."""
        raise NotImplementedError
