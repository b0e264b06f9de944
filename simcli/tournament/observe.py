"""What each seat is told of the game's moves: ``Strategy.observe`` and the protocol's
``moved`` message.

After every move (every seat's, and every chance event) the referee tells each observing
seat who moved and the move *as that seat may see it*. Which part of a move a seat may
see is the game's to say, through an optional method of its :class:`~simcli.game.Game`::

    def observed_move(self, state, actor, move, seat):
        '''What ``seat`` sees of ``move``, made by ``actor`` (a seat or CHANCE) in
        ``state`` (the position before the move; not to be changed).'''

returning the move, a masked copy of it, or ``None`` (all of it hidden). A game without
one gets the default: in a perfect-information game every move is public; in a
hidden-information game the seats' own moves are public and chance outcomes (shuffles,
draws) are hidden from every seat. Ex Libris, whose rules show some moves to two seats
only, has its own (simcli/games/ex_libris/observed.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simcli.game import CHANCE, Game, State

#: What ``seat`` sees of a move: ``(state before the move, actor, move, seat) -> shown``.
Reading = Callable[[State, int, Any, int], Any]


def public(state: State, actor: int, move: Any, seat: int) -> Any:
    """Every move as it was made (perfect information)."""
    return move


def chance_hidden(state: State, actor: int, move: Any, seat: int) -> Any:
    """The default of a hidden-information game: the seats' moves are public, a chance
    outcome (the order of a shuffled pile, a card drawn) is hidden (``None``)."""
    return None if actor == CHANCE else move


def reading_of(game: Game) -> Reading | None:
    """How ``game``'s moves are shown to the seats; ``None`` when every move is public
    (nothing to mask)."""
    hook = getattr(game, "observed_move", None)
    if hook is not None:
        return hook
    if getattr(game, "perfect_information", True):
        return None
    return chance_hidden
