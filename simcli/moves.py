"""What a move is, for the referee: a plain JSON value, compared by value.

A strategy's answer is checked here before it touches the game, by the in-process referee
and by the protocol client alike (so both write the same forfeit message). Checking runs
no code of the answer's own: only the exact types ``int`` (not ``bool``), ``str`` and
``list`` are moves, so no ``__eq__``, ``__hash__`` or ``__repr__`` of a subclass runs.
"""

from __future__ import annotations

from itertools import repeat
from operator import is_
from typing import Any

#: How deep a move's lists may nest (no game's notation comes close).
MAX_MOVE_DEPTH = 16


class IllegalAnswer(Exception):
    """A strategy's answer is not one of the legal moves (the message says why)."""


def is_plain_move(value: Any, depth: int = 0) -> bool:
    """True when ``value`` is built of the exact types ``int``, ``str`` and ``list``."""
    kind = type(value)
    if kind is int or kind is str:
        return True
    if kind is list and depth < MAX_MOVE_DEPTH:
        return all(is_plain_move(item, depth + 1) for item in value)
    return False


def not_a_move(value: Any) -> str:
    """The reason a value that fails :func:`is_plain_move` is refused."""
    return (
        f"a {type(value).__name__} is not a move (moves are JSON integers, strings or "
        "lists of them)"
    )


def short(value: Any, limit: int = 80) -> str:
    """``repr`` of a plain JSON value, cut to ``limit`` characters."""
    try:
        text = repr(value)
    except ValueError:  # an int of thousands of digits
        text = f"<an integer of {value.bit_length()} bits>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def find_move(legal: list[Any], move: Any) -> Any:
    """The game's own legal move equal to ``move``; :class:`IllegalAnswer` otherwise.

    The common answers take a short way: an exact ``int`` or ``str`` is plain by its
    type, and a list that *is* one of ``legal``'s own moves (a strategy handed the legal
    moves themselves, see ``play.py``) needs no walk and no comparison."""
    kind = type(move)
    if kind is list and any(map(is_, legal, repeat(move))):
        return move
    if kind is not int and kind is not str and not is_plain_move(move):
        raise IllegalAnswer(not_a_move(move))
    try:
        return legal[legal.index(move)]
    except ValueError:
        raise IllegalAnswer(f"{short(move)} is not a legal move") from None


def copy_move(move: Any) -> Any:
    """A copy of a legal move that shares no list with the original."""
    return [copy_move(item) for item in move] if type(move) is list else move
