"""Several games at once on strategy processes, with the records of one game at a time.

A decision that crosses a process boundary costs a round trip (two context switches and
two JSON codings), which for a game of tiny decisions is most of its time. When every
out-of-process strategy can interleave games (the Python client can; a program says so
in its handshake) and no move time limit applies, a worker keeps up to ``window`` games
in flight: each game runs until it waits for a strategy process, its request is sent,
and the worker moves on to the next game, so a process answers a batch of requests per
wake-up. Requests to one process are answered in order.

Records do not change: each game is a function of its seed and its strategies, whatever
else is in flight (every strategy instance is per game and seat, seeded from the game).
When a strategy process fails in any way that stops it (exit, garbage, silence), the
games in flight are abandoned, every strategy process is stopped, and those games are
played again one at a time from their first move, which is how a worker without
interleaving plays them: the failing game forfeits exactly as it would there, and the
others never see a process that has played part of them.
"""

from __future__ import annotations

import select
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

from simcli.tournament.faults import Forfeit
from simcli.tournament.play import Ask, GamePlay
from simcli.tournament.remote import RemoteSeat
from simcli.tournament.strategy_process import StrategyFault

#: Games a worker keeps in flight when its strategy processes can interleave: more than a
#: range of the run holds (at most 100 games), so that its games, which start together
#: and mostly move in step, take one round trip per move number, not two.
WINDOW = 128


class Job(NamedTuple):
    """One game to play: its index, how to start it, and the seat seed each strategy
    process it uses will get (to hold it back while a process must first restart)."""

    index: int
    make: Callable[[], GamePlay]
    seeds: list[tuple[RemoteSeat, int]]


class _Abandon(Exception):
    """A strategy process failed: play the games in flight again, one at a time."""


def interleave(
    jobs: Iterable[Job],
    window: int,
    replay: Callable[[int], dict[str, Any]],
    stop_all: Callable[[], None],
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Play ``jobs`` with up to ``window`` in flight; yields ``(index, record)`` in the
    order of ``jobs``. ``replay(index)`` plays one game alone from the start;
    ``stop_all()`` stops every strategy process of the worker."""
    games = _Games(replay, stop_all)
    upcoming = iter(jobs)
    job = next(upcoming, None)
    try:
        while job is not None or games.inflight:
            while job is not None and len(games.inflight) < window:
                if games.inflight and any(p.needs_fresh_process(s) for p, s in job.seeds):
                    break  # that process must restart first: let the games in flight end
                games.start(job)
                job = next(upcoming, None)
            yield from games.finished()
            if games.inflight:
                games.wait()
        yield from games.finished()
    finally:
        if games.inflight:  # the caller stopped early: no process keeps half a game
            games.abandon(replay_them=False)


class _Games:
    def __init__(self, replay: Callable[[int], dict[str, Any]], stop_all: Callable[[], None]):
        self.replay = replay
        self.stop_all = stop_all
        self.inflight: dict[int, GamePlay] = {}
        self.order: deque[int] = deque()
        self.done: dict[int, dict[str, Any]] = {}
        self.waiting: set[RemoteSeat] = set()  # players with requests not yet answered
        self.since: dict[RemoteSeat, float] = {}  # when each one's oldest request went out
        self.unsent: set[RemoteSeat] = set()  # players with requests queued, not yet sent

    def start(self, job: Job) -> None:
        self.order.append(job.index)
        play = job.make()
        self.inflight[job.index] = play
        self._step(job.index, play, None, None)

    def finished(self) -> Iterator[tuple[int, dict[str, Any]]]:
        while self.order and self.order[0] in self.done:
            index = self.order.popleft()
            yield index, self.done.pop(index)

    def _step(self, index: int, play: GamePlay, move: Any, forfeit: Forfeit | None) -> None:
        """Run game ``index`` to its next request (sent) or its end (recorded)."""
        try:
            ask: Ask = play.send(move) if forfeit is None else play.throw(forfeit)
        except StopIteration as stop:
            self.done[index] = stop.value
            del self.inflight[index]
            return
        player = ask.player
        player.request(ask.index, ask.seat, ask.view, ask.legal)  # sent before the next wait
        if not player.pending:
            self.since[player] = time.monotonic()
        player.pending.append(ask)
        self.waiting.add(player)
        self.unsent.add(player)

    def _send(self) -> bool:
        """Send every queued request now, so the strategy processes work on them while
        this worker goes on; False when a process is gone (the games were abandoned)."""
        now = time.monotonic()
        try:
            for player in self.unsent:
                assert player.process is not None
                player.process.flush(now + player.factory.move_seconds)
        except (StrategyFault, AssertionError):
            self.abandon()
            return False
        self.unsent.clear()
        return True

    def wait(self) -> None:
        """Take the answers that arrive next (or abandon the games on a failure)."""
        if not self._send():
            return
        poller = select.poll()
        by_fd = {}
        now = time.monotonic()
        timeout = None
        for player in self.waiting:
            process = player.process
            if process is None:
                self.abandon()
                return
            by_fd[process.stdout] = player
            poller.register(process.stdout, select.POLLIN | select.POLLHUP | select.POLLERR)
            left = self.since[player] + player.factory.move_seconds - now
            timeout = left if timeout is None else min(timeout, left)
        if timeout is not None and timeout <= 0:
            self.abandon()  # played again alone, the late answer is that seat's timeout
            return
        events = poller.poll(None if timeout is None else timeout * 1000)
        if not events:
            self.abandon()
            return
        for fd, _ in events:
            player = by_fd[fd]
            if player.process is None:  # an answer above made every game start again
                return
            try:
                self._answers(player)
            except (StrategyFault, _Abandon):
                self.abandon()
                return
            if not self._send():
                return

    def _answers(self, player: RemoteSeat) -> None:
        """Act on the answers that arrived from one process: messages of their own, or
        the entries of a ``moves`` line (``batch`` extension), each for the oldest
        request not yet answered."""
        assert player.process is not None
        pending = player.pending
        batches = player.process.batches
        for reply in player.process.available():
            if batches and reply["type"] == "moves":
                entries = reply.get("moves")
                if type(entries) is not list or len(entries) > len(pending):
                    raise _Abandon  # not a list of answers, or answers nobody asked for
                answer = player.answer_entry
            else:
                entries = [reply]
                answer = player.answer
            self.since[player] = time.monotonic()
            for entry in entries:
                if not pending:
                    raise _Abandon  # an answer nobody asked for
                ask = pending.popleft()
                try:
                    move = answer(ask.seat, entry, ask.legal)
                except Forfeit as forfeit:
                    self._step(ask.index, self.inflight[ask.index], None, forfeit)
                else:
                    self._step(ask.index, self.inflight[ask.index], move, None)
                if player.process is None:  # the step above abandoned everything
                    return
            if not pending:
                self.waiting.discard(player)

    def abandon(self, replay_them: bool = True) -> None:
        """Stop every strategy process and play the games in flight again, alone."""
        games = sorted(self.inflight)
        for play in self.inflight.values():
            play.close()
        self.inflight.clear()
        self.waiting.clear()
        self.since.clear()
        self.unsent.clear()
        self.stop_all()
        if replay_them:
            for index in games:
                self.done[index] = self.replay(index)
