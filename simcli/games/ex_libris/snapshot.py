"""Rebuilding an Ex Libris position (or a seat's view) from its snapshot.

A strategy in its own process receives its view as the JSON of
:meth:`ExLibrisState.snapshot`; :func:`rebuild` turns it back into a state
that plays, renders, evaluates and determinizes exactly like the view it was taken from.
The checks (keys, types, lengths, indices in range) come from the state's declared fields
(``ExLibrisState.state_fields``); anything else is an :class:`IllegalMoveError` naming
the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from simcli import statefields
from simcli.games.ex_libris import assistants, effects, phases
from simcli.games.ex_libris.state import ExLibrisState
from simcli.games.ex_libris.tasks import Chance, Task

if TYPE_CHECKING:
    from simcli.games.ex_libris.game import ExLibris

#: Every kind of task by its name (the first item of a task in ``tasks``).
TASKS: Mapping[str, type[Task]] = {
    cls.name: cls for cls in (*phases.TASKS, *effects.TASKS, *assistants.TASKS)
}
CHANCES = frozenset(name for name, cls in TASKS.items() if issubclass(cls, Chance))
KEYS = ExLibrisState.state_fields.keys


def rebuild(
    game: ExLibris, players: int, options: Mapping[str, Any], snap: Mapping[str, Any]
) -> ExLibrisState:
    """The state (or view) whose :meth:`ExLibrisState.snapshot` is ``snap``."""
    return statefields.load(game, ExLibrisState, players, options, snap)  # type: ignore[return-value]
