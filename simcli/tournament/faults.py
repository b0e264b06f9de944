"""How a game can go wrong, kept apart: a seat's forfeit (its strategy failed in any way)
and a rules error (the game module itself failed)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Forfeit(Exception):
    """Seat ``seat`` loses the game: ``kind`` is ``exception``, ``illegal_move``,
    ``timeout``, ``crashed`` or ``protocol``; ``message`` says what happened; ``trace``
    is the traceback of a strategy's exception (for ``run.log``), else empty."""

    seat: int
    kind: str
    message: str
    trace: str = ""


class GameError(Exception):
    """The rules module raised: a bug in the game, not in a strategy."""


def describe(exc: BaseException, limit: int = 500) -> str:
    """``Type: message`` of an exception raised by strategy code, without trusting it:
    a ``__str__`` that raises gives a placeholder (callers run this under the move clock,
    so one that never returns is a timeout)."""
    try:
        text = f"{type(exc).__name__}: {exc}"
    except BaseException:  # noqa: BLE001 - strategy code may raise anything here
        text = f"{type(exc).__name__}: <message could not be printed>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def trace_of(exc: BaseException, limit: int = 20_000) -> str:
    """The full traceback of an exception raised by strategy code, as text (for
    ``run.log``); like :func:`describe`, a message that cannot be printed does not
    stop it."""
    import traceback

    try:
        text = "".join(traceback.format_exception(exc))
    except BaseException:  # noqa: BLE001 - strategy code may raise anything here
        text = f"{type(exc).__name__}: <traceback could not be printed>\n"
    return text if len(text) <= limit else "...\n" + text[-limit:]
