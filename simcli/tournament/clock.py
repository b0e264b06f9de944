"""Per-move time limits.

A strategy whose ``choose`` takes longer than ``move_time_limit`` seconds forfeits the game
(kind ``timeout``). Each move runs inside ``with clock.move() as watch:``; afterwards
``watch.fired`` says whether the limit passed, so a strategy that swallows the timeout
exception, or returns late, still forfeits.

* :class:`SignalClock` — ``SIGALRM`` through ``setitimer``, for the main thread of a
  process (local worker processes, ``--workers 0``): it raises :class:`MoveTimeout` inside
  the strategy, and also interrupts ``time.sleep`` and other system calls. It reads the
  time as well: a move that took longer than the limit is a timeout even if the alarm
  never fired (a strategy that switched it off, ignored or blocked ``SIGALRM``), and a
  handler a strategy put in its place is replaced before the next move. The clock and
  the signal functions are bound when this module is imported, so that a strategy that
  replaces ``time.monotonic`` or ``signal.setitimer`` changes neither.
* :class:`ThreadClock` — for other threads, which cannot receive signals (simcli used as
  a library from a thread): it measures the move and the strategy forfeits when the move
  returns late. It cannot interrupt a move that never returns. (Dask workers play in pool
  worker processes, under the signal clock.)

A strategy stuck where the alarm cannot reach it (C code with the signal blocked) is
caught by the local pool itself, which stops and replaces the worker (see ``pool.py``).
"""

from __future__ import annotations

import signal
import threading
from time import monotonic

# Bound once: a strategy that replaces signal.setitimer or time.monotonic later (it runs
# in this process) changes neither the alarm nor the reading of the referee's clock.
_setitimer = signal.setitimer
_ITIMER_REAL = signal.ITIMER_REAL
_signal = signal.signal
_getsignal = signal.getsignal


class MoveTimeout(BaseException):
    """Raised inside a strategy that overran its move time limit. A BaseException, so
    that a strategy's own ``except Exception`` cannot swallow it."""


class StopNow(BaseException):
    """The user asked twice to stop the run (Ctrl-C, SIGTERM): stop at once. Distinct from
    KeyboardInterrupt so that a strategy raising that is just a forfeit; and only the
    instances made by :func:`stop_now` count, so a strategy raising ``StopNow`` itself
    forfeits too."""


_STOPS: list[StopNow] = []  # the instances raised by the run's stop handler


def stop_now() -> StopNow:
    """The exception the stop handler raises (remembered, see :func:`is_stop_request`)."""
    exc = StopNow()
    _STOPS.append(exc)
    return exc


def is_stop_request(exc: BaseException) -> bool:
    """True for a :class:`StopNow` raised by the stop handler (not by a strategy)."""
    return type(exc) is StopNow and any(exc is stop for stop in _STOPS)


class _Watch:
    __slots__ = ("fired",)

    def __init__(self) -> None:
        self.fired = False


class SignalClock:
    def __init__(self, limit: float):
        self.limit = limit
        self._watch: _Watch | None = None
        self.handler = self._fire  # one bound method, to tell it from a strategy's
        _signal(signal.SIGALRM, self.handler)

    def _fire(self, signum, frame) -> None:
        watch = self._watch
        if watch is not None and not watch.fired:
            watch.fired = True
            raise MoveTimeout()

    def move(self) -> _SignalMove:
        return _SignalMove(self)


class _SignalMove:
    __slots__ = ("clock", "started", "watch")

    def __init__(self, clock: SignalClock):
        self.clock = clock
        self.watch = _Watch()
        self.started = 0.0

    def __enter__(self) -> _Watch:
        clock = self.clock
        if _getsignal(signal.SIGALRM) is not clock.handler:  # a strategy replaced it
            _signal(signal.SIGALRM, clock.handler)
        clock._watch = self.watch
        self.started = monotonic()
        _setitimer(_ITIMER_REAL, clock.limit)
        return self.watch

    def __exit__(self, *exc) -> None:
        _setitimer(_ITIMER_REAL, 0)
        self.clock._watch = None
        if monotonic() - self.started > self.clock.limit:  # the alarm was kept away
            self.watch.fired = True


class ThreadClock:
    def __init__(self, limit: float):
        self.limit = limit

    def move(self) -> _ThreadMove:
        return _ThreadMove(self.limit)


class _ThreadMove:
    __slots__ = ("limit", "started", "watch")

    def __init__(self, limit: float):
        self.limit = limit
        self.watch = _Watch()
        self.started = 0.0

    def __enter__(self) -> _Watch:
        self.started = monotonic()
        return self.watch

    def __exit__(self, *exc) -> None:
        if monotonic() - self.started > self.limit:
            self.watch.fired = True


class NoClock:
    def move(self) -> _ThreadMove:  # pragma: no cover - the runner skips the clock
        return _ThreadMove(float("inf"))


def make_clock(limit: float | None):
    """The right clock for the calling thread, or one that never fires."""
    if not limit:
        return NoClock()
    if threading.current_thread() is threading.main_thread():
        return SignalClock(limit)
    return ThreadClock(limit)
