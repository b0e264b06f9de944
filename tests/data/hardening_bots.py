"""Strategies that break a run in the ways issue 36 found, for tests/test_hardening_*.py.

Each plays random moves from its own seeded RNG (so that, where the attack changes
nothing, its games are exactly a random strategy's) while trying one attack.
"""

from __future__ import annotations

import gc
import signal
import sys
import time

from simcli.strategy import Strategy

LONE = "\ud800"  # a lone surrogate: valid in a Python str, not encodable as UTF-8


def _frames():
    """The frames of the caller's callers, innermost first."""
    frame = sys._getframe(2)
    while frame is not None:
        yield frame
        frame = frame.f_back


class _Random(Strategy):
    def choose(self, view, legal):
        return self.rng.choice(legal)


# -- 1. strings that cannot be encoded ------------------------------------------------


class SurrogateError(_Random):
    """Raises an exception whose message holds a lone surrogate."""

    def choose(self, view, legal):
        raise ValueError(f"no good move {LONE} here")


class _SurrogateStr(Exception):
    def __str__(self):
        return f"str() {LONE} of mine"


class SurrogateStr(_Random):
    """Raises an exception whose __str__ returns a lone surrogate."""

    def choose(self, view, legal):
        raise _SurrogateStr()


class SurrogateInStart(_Random):
    """Fails in start_game with a lone surrogate in the message."""

    def start_game(self, game, seat, rng):
        super().start_game(game, seat, rng)
        raise RuntimeError(f"cannot start {LONE}")


# -- 2. leaving while being built -----------------------------------------------------


class ExitInInit(_Random):
    def __init__(self):
        raise SystemExit(0)


class InterruptInInit(_Random):
    def __init__(self):
        raise KeyboardInterrupt


class CustomBase(BaseException):
    pass


class BaseInInit(_Random):
    def __init__(self):
        raise CustomBase("gone")


class ErrorInInit(_Random):
    def __init__(self):
        raise RuntimeError("cannot build")


class GeneratorExitInInit(_Random):
    def __init__(self):
        raise GeneratorExit


# -- 3. the game object ---------------------------------------------------------------


def _worthless(state, seat):
    return 0.0


class RewriteEvaluate(_Random):
    """Replaces the evaluate of the game object it is handed (greedy uses it)."""

    def start_game(self, game, seat, rng):
        super().start_game(game, seat, rng)
        game.evaluate = _worthless


class RewriteEvaluateDict(_Random):
    """The same through the instance's __dict__."""

    def start_game(self, game, seat, rng):
        super().start_game(game, seat, rng)
        vars(game)["evaluate"] = _worthless


class RewriteViewGameSetup(_Random):
    """Rigs the setup of every later game through its view's game object: every tile
    becomes a 3 (a board no honest deal gives)."""

    def choose(self, view, legal):
        game = view.game
        real = type(game).sample_setup

        def rigged(players, options, rng, _real=real, _game=game):
            setup = _real(_game, players, options, rng)
            setup["tiles"] = [3] * len(setup["tiles"])
            return setup

        try:
            game.sample_setup = rigged
        except (AttributeError, TypeError):
            pass
        return self.rng.choice(legal)


# -- 4. failing before the first move -------------------------------------------------


class FailInStart(_Random):
    def start_game(self, game, seat, rng):
        super().start_game(game, seat, rng)
        raise ValueError("no start")


class ExitInStart(_Random):
    def start_game(self, game, seat, rng):
        super().start_game(game, seat, rng)
        raise SystemExit(2)


class SlowStart(_Random):
    def start_game(self, game, seat, rng):
        super().start_game(game, seat, rng)
        time.sleep(1.5)


class FailsInGame(_Random):
    """Builds for the config check (``check_params`` in-process, the client's ``hello``
    in its own process), fails in every game's constructor (the referee's, which may be
    compiled and then leaves no Python frame to look for)."""

    def __init__(self):
        if not {frame.f_code.co_name for frame in _frames()} & {"check_params", "hello"}:
            raise RuntimeError("cannot build for a game")


class Grab(_Random):
    """Keeps the game objects it is handed and its views' (for a test's eyes)."""

    seen: list = []

    def start_game(self, game, seat, rng):
        super().start_game(game, seat, rng)
        Grab.seen.append(("start", seat, game))

    def choose(self, view, legal):
        Grab.seen.append(("view", self.seat, view.game))
        return self.rng.choice(legal)


# -- 7. switching the alarm off ---------------------------------------------------------


class AlarmOff(_Random):
    """Switches off the referee's alarm, then takes longer than the move time limit."""

    def choose(self, view, legal):
        signal.setitimer(signal.ITIMER_REAL, 0)
        time.sleep(0.6)
        return self.rng.choice(legal)


class AlarmIgnored(_Random):
    """Ignores SIGALRM, then takes longer than the move time limit."""

    def choose(self, view, legal):
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        time.sleep(0.6)
        return self.rng.choice(legal)


class AlarmBlocked(_Random):
    """Blocks SIGALRM, then takes longer than the move time limit."""

    def choose(self, view, legal):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            time.sleep(0.6)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
        return self.rng.choice(legal)


class ClockPatched(_Random):
    """Stops the clock the referee might read (time.monotonic, time.perf_counter) and
    switches the alarm off through a patched setitimer, then overruns."""

    def choose(self, view, legal):
        signal.setitimer(signal.ITIMER_REAL, 0)
        frozen = time.monotonic()
        time.monotonic = lambda: frozen
        time.perf_counter = lambda: frozen
        signal.setitimer = lambda *args: (0.0, 0.0)
        try:
            deadline = _real_monotonic() + 0.6
            while _real_monotonic() < deadline:
                _real_sleep(0.05)
        finally:
            time.monotonic = _real_monotonic
            time.perf_counter = _real_perf_counter
            signal.setitimer = _real_setitimer
        return self.rng.choice(legal)


_real_monotonic = time.monotonic
_real_perf_counter = time.perf_counter
_real_sleep = time.sleep
_real_setitimer = signal.setitimer


# -- 8. rewriting the referee's state -------------------------------------------------


def _referee_states(view):
    """The Libraria states this process holds, other than the view, at the view's
    position: the referee's (and any copy of it)."""
    from simcli.games.libraria import LibrariaState

    return [
        obj
        for obj in gc.get_objects()
        if type(obj) is LibrariaState
        and obj is not view
        and obj.ply == view.ply
        and obj.board == view.board
    ]


def _take_over(seat, view):
    for state in _referee_states(view):
        for spot, owner in enumerate(state.board):
            if owner == 1 - seat:
                state.board[spot] = seat


class GcCheat(_Random):
    """Finds the referee's state through gc and turns the opponent's counters into its
    own."""

    def choose(self, view, legal):
        _take_over(self.seat, view)
        return self.rng.choice(legal)


class FrameCheat(_Random):
    """Finds the referee's state in its callers' frames and rewrites its tiles to
    favour itself (every tile a 3) once, near the end."""

    def choose(self, view, legal):
        if len(legal) <= 2:
            frame = sys._getframe(1)
            while frame is not None:
                state = frame.f_locals.get("state")
                if state is not None and state is not view and hasattr(state, "tiles"):
                    state.tiles = tuple(3 for _ in state.tiles)
                    break
                frame = frame.f_back
        return self.rng.choice(legal)


class CheatOnce(_Random):
    """Plays like GcCheat in about one game in four (decided by its seeded RNG), honestly
    in the others."""

    def start_game(self, game, seat, rng):
        super().start_game(game, seat, rng)
        self.cheat = rng.random() < 0.25

    def choose(self, view, legal):
        if self.cheat:
            _take_over(self.seat, view)
        return self.rng.choice(legal)


class SurrogateMove(_Random):
    """Answers a string move holding a lone surrogate (no legal move does)."""

    def choose(self, view, legal):
        return f"spot {LONE}"


# -- 7. channels between the processes of one strategy --------------------------------


def _open_channels():
    """The channels this process can open that a sandbox should refuse."""
    import ctypes
    import socket

    opened = []
    libc = ctypes.CDLL(None, use_errno=True)
    private = 0  # IPC_PRIVATE
    for name, call in (
        ("shmget", lambda: libc.shmget(private, 4096, 0o1600)),
        ("semget", lambda: libc.semget(private, 1, 0o1600)),
        ("msgget", lambda: libc.msgget(private, 0o1600)),
    ):
        if call() >= 0:
            opened.append(name)
    try:
        rt = ctypes.CDLL("librt.so.1", use_errno=True)
        queue = rt.mq_open(b"/simcli-hardening", 0o102, 0o600, None)  # O_RDWR | O_CREAT
        if queue >= 0:
            opened.append("mq_open")
            rt.mq_unlink(b"/simcli-hardening")
    except OSError:
        pass
    for name, family, kind in (
        ("udp", socket.AF_INET, socket.SOCK_DGRAM),
        ("unix", socket.AF_UNIX, socket.SOCK_STREAM),
    ):
        try:
            socket.socket(family, kind).close()
            opened.append(name)
        except OSError:
            pass
    return opened


class Channels(_Random):
    """Forfeits (raising Leak) if it can open a channel to another process: SysV
    shared memory, semaphores or message queues, a POSIX message queue, a socket."""

    def choose(self, view, legal):
        opened = _open_channels()
        if opened:
            raise Leak("opened " + ", ".join(opened))
        return self.rng.choice(legal)


class Leak(Exception):
    pass
