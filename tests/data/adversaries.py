"""Strategies that attack the referee, for tests/test_referee.py and tests/test_isolation.py.

Each plays random moves (from its own seeded RNG) while trying one way of cheating or of
breaking the run. None of them is a strategy anyone should write.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import time

from simcli.game import State
from simcli.strategy import Strategy


class _Random(Strategy):
    def pick(self, legal):
        return self.rng.choice(legal)


class RewriteOptions(_Random):
    """Tries to change the rules through the view's options (and keeps playing)."""

    def choose(self, view, legal):
        for key, value in (("tiebreak", "first_player"), ("opening", "one_counter")):
            try:
                view.options[key] = value
            except TypeError:
                pass
        try:
            self.game.options.clear()
        except (TypeError, AttributeError):
            pass
        return self.pick(legal)


class RewriteLegal(_Random):
    """Answers a legal move after changing the nested lists of every offered move."""

    def choose(self, view, legal):
        move = self.pick(legal)
        answer = list(move) if isinstance(move, list) else move
        for offered in legal:
            if isinstance(offered, list):
                offered.append("cheat")
                offered.clear()
        return answer


class ApplyToView(_Random):
    """Plays a move on the view it is handed (old runners passed the live state to
    strategies that declared ``modifies_view = False``)."""

    modifies_view = False

    def choose(self, view, legal):
        move = self.pick(legal)
        try:
            view.apply(legal[-1])
        except Exception:
            pass
        return move


class SleepyEq:
    def __eq__(self, other):
        time.sleep(30)
        return True

    __hash__ = None


class SleepyMove(_Random):
    """Answers an object whose ``__eq__`` sleeps."""

    def choose(self, view, legal):
        return SleepyEq()


class _Raises:
    def __init__(self, exc):
        self.exc = exc

    def __eq__(self, other):
        raise self.exc

    def __repr__(self):
        raise self.exc

    __hash__ = None


class ExitInEq(_Random):
    """Answers an object whose ``__eq__``/``__repr__`` raise ``SystemExit(3)``."""

    def choose(self, view, legal):
        return _Raises(SystemExit(3))


class InterruptInEq(_Random):
    """Answers an object whose ``__eq__``/``__repr__`` raise ``KeyboardInterrupt``."""

    def choose(self, view, legal):
        return _Raises(KeyboardInterrupt())


class ExitInChoose(_Random):
    """Raises ``SystemExit`` from ``choose``."""

    def choose(self, view, legal):
        raise SystemExit(4)


class _BadMessage(Exception):
    def __str__(self):
        raise SystemExit(5)


class UnprintableError(_Random):
    """Raises an exception whose message cannot be printed."""

    def choose(self, view, legal):
        raise _BadMessage()


class RaiseStopNow(_Random):
    """Raises the runner's own stop exception."""

    def choose(self, view, legal):
        from simcli.tournament.clock import StopNow

        raise StopNow()


class SignalParent(_Random):
    """Sends SIGINT to the process that started it, once per move (and plays on)."""

    def choose(self, view, legal):
        try:
            os.kill(os.getppid(), signal.SIGINT)
        except OSError:
            pass
        return self.pick(legal)


def _hidden_states(view: State) -> int:
    """How many game states this process can reach that are not its own view or a copy
    of it: frames of its callers, and every State object the garbage collector knows."""
    found = 0
    mine = view.snapshot() if view is not None else None
    frame = sys._getframe(1)
    while frame is not None:
        for value in list(frame.f_locals.values()):
            if isinstance(value, State) and value is not view and value.snapshot() != mine:
                found += 1
        frame = frame.f_back
    for obj in gc.get_objects():
        if isinstance(obj, State) and obj is not view and getattr(obj, "viewer", 0) is None:
            found += 1
    return found


class Spy(_Random):
    """Looks for hidden information everywhere it can and forfeits (raising ``Leak``) the
    moment it finds any: a full state among its callers' frames or the garbage collector's
    objects, a deal it has seen before (kept in a module global across games), or a
    readable file of the run's output folder (``params: {folder: PATH}``)."""

    seen_seeds: list[int] = []  # module-level memory across games

    def __init__(self, folder: str = ""):
        self.folder = folder

    def start_game(self, game, seat, rng):
        super().start_game(game, seat, rng)
        marker = rng.getstate()[1][:4]
        if marker in Spy.seen_seeds:
            raise Leak("this process has seen this deal before")
        Spy.seen_seeds.append(marker)

    def choose(self, view, legal):
        found = _hidden_states(view)
        if found:
            raise Leak(f"found {found} full game state(s)")
        if self.folder:
            for name in ("games.jsonl", "run.json", "run.log"):
                try:
                    with open(os.path.join(self.folder, name), encoding="utf-8") as handle:
                        handle.read(1)
                except OSError:
                    continue
                raise Leak(f"read {name} of the run's folder")
        return self.pick(legal)


class Leak(Exception):
    pass
