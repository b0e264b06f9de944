"""How a game can go wrong, kept apart: a seat's forfeit (its strategy failed in any way)
and a rules error (the game module itself failed)."""

from __future__ import annotations

from dataclasses import dataclass


def safe_text(text: str) -> str:
    """``text`` as a plain ``str`` that encodes as UTF-8: every lone surrogate (a valid
    Python string, a valid JSON escape, but no character) becomes its ``\\udXXX``
    escape. Every string that comes from a strategy or a bot goes through this before
    it is logged, written to a record or printed, so that none can end a run."""
    if type(text) is not str:
        text = str.__str__(text) if isinstance(text, str) else str(text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


@dataclass
class Forfeit(Exception):
    """Seat ``seat`` loses the game: ``kind`` is ``exception``, ``illegal_move``,
    ``timeout``, ``crashed`` or ``protocol``; ``message`` says what happened; ``trace``
    is the traceback of a strategy's exception (for ``run.log``), else empty. Both are
    made safe to encode (:func:`safe_text`): they come from the strategy."""

    seat: int
    kind: str
    message: str
    trace: str = ""

    def __post_init__(self) -> None:
        self.message = safe_text(self.message)
        self.trace = safe_text(self.trace)


class GameError(Exception):
    """The rules module raised: a bug in the game, not in a strategy."""


def describe(exc: BaseException, limit: int = 500) -> str:
    """``Type: message`` of an exception raised by strategy code, without trusting it:
    a ``__str__`` that raises gives a placeholder (callers run this under the move clock,
    so one that never returns is a timeout)."""
    try:
        text = safe_text(f"{type(exc).__name__}: {exc}")
    except BaseException:  # noqa: BLE001 - strategy code may raise anything here
        text = f"{type(exc).__name__}: <message could not be printed>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def trace_of(exc: BaseException, limit: int = 20_000) -> str:
    """The full traceback of an exception raised by strategy code, as text (for
    ``run.log``); like :func:`describe`, a message that cannot be printed does not
    stop it."""
    import traceback

    try:
        text = safe_text("".join(traceback.format_exception(exc)))
    except BaseException:  # noqa: BLE001 - strategy code may raise anything here
        text = f"{type(exc).__name__}: <traceback could not be printed>\n"
    return text if len(text) <= limit else "...\n" + text[-limit:]
