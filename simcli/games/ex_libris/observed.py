"""What each seat sees of an Ex Libris move (*Reglas del juego Ex Libris*), for
``Strategy.observe``: a reshuffled deck or location stack is face down; the Gelatinous
Cube's random card is seen by the seat that gives it and the seat that takes it; a card
given to a Goblin Sneak goes from hand to hand, seen by those two alone (``["give", None]``
for the others). Every other move is open."""

from __future__ import annotations

from typing import Any

from simcli.game import CHANCE


def observed_move(state: Any, actor: int, move: Any, seat: int) -> Any:
    """``move`` (made by ``actor`` in ``state``, the position before it) as ``seat`` sees
    it: the move, ``None`` (hidden) or ``["give", None]``."""
    tasks = state.tasks
    task = tasks[-1] if tasks else None
    if actor == CHANCE:
        if getattr(task, "name", None) == "random_card" and seat in (task.seat, task.taker):
            return move
        return None
    if type(move) is list and move and move[0] == "give" and getattr(task, "name", "") == "give":
        return move if seat in (actor, task.taker) else ["give", None]
    return move
