"""Per-move time limits.

A strategy that takes longer than ``move_time_limit`` seconds for one move forfeits the
game (kind ``timeout``). Two mechanisms raise :class:`MoveTimeout` inside the strategy:

* :class:`SignalClock` — ``SIGALRM`` through ``setitimer``, for the main thread of a
  process (local worker processes, ``--workers 0``). It also interrupts ``time.sleep`` and
  other system calls.
* :class:`ThreadClock` — a watchdog thread that raises the exception asynchronously in
  the playing thread (``PyThreadState_SetAsyncExc``), for threads that cannot receive
  signals (Dask workers). It acts at the next Python bytecode: a strategy blocked inside C
  code is only stopped when it returns to Python.

A strategy stuck in C code for good is caught by the local pool itself, which stops and
replaces a worker whose move overruns the limit by a grace period (see ``pool.py``).
"""

from __future__ import annotations

import ctypes
import signal
import threading
import time
from contextlib import AbstractContextManager, nullcontext


class MoveTimeout(BaseException):
    """Raised inside a strategy that overran its move time limit. A BaseException, so
    that a strategy's own ``except Exception`` cannot swallow it."""


class SignalClock:
    def __init__(self, limit: float):
        self.limit = limit
        self._armed = False
        signal.signal(signal.SIGALRM, self._fire)

    def _fire(self, signum, frame) -> None:
        if self._armed:
            self._armed = False
            raise MoveTimeout()

    def move(self) -> AbstractContextManager:
        return _SignalMove(self)


class _SignalMove:
    __slots__ = ("clock",)

    def __init__(self, clock: SignalClock):
        self.clock = clock

    def __enter__(self) -> None:
        self.clock._armed = True
        signal.setitimer(signal.ITIMER_REAL, self.clock.limit)

    def __exit__(self, *exc) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        self.clock._armed = False


class ThreadClock:
    """One watchdog thread per clock; ``move()`` arms it for the calling thread."""

    def __init__(self, limit: float):
        self.limit = limit
        self._cond = threading.Condition()
        self._deadline: float | None = None
        self._target: int | None = None
        self._token = 0
        self._thread = threading.Thread(target=self._watch, name="simcli-move-clock", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        with self._cond:
            while True:
                if self._deadline is None:
                    self._cond.wait()
                    continue
                remaining = self._deadline - time.monotonic()
                if remaining > 0:
                    self._cond.wait(remaining)
                    continue
                target, self._deadline = self._target, None
                if target is not None:
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(
                        ctypes.c_ulong(target), ctypes.py_object(MoveTimeout)
                    )

    def move(self) -> AbstractContextManager:
        return _ThreadMove(self)


class _ThreadMove:
    __slots__ = ("clock",)

    def __init__(self, clock: ThreadClock):
        self.clock = clock

    def __enter__(self) -> None:
        clock = self.clock
        with clock._cond:
            clock._target = threading.get_ident()
            clock._deadline = time.monotonic() + clock.limit
            clock._cond.notify()

    def __exit__(self, *exc) -> None:
        clock = self.clock
        with clock._cond:
            clock._deadline = None
            clock._target = None


class NoClock:
    def move(self) -> AbstractContextManager:
        return nullcontext()


def make_clock(limit: float | None):
    """The right clock for the calling thread, or one that never fires."""
    if not limit:
        return NoClock()
    if threading.current_thread() is threading.main_thread():
        return SignalClock(limit)
    return ThreadClock(limit)
