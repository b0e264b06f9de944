"""The local executor: a pool of forked worker processes that survives its workers.

Each worker owns a pipe and a small shared status array (index of the game it is
playing, start time of the current move). The parent sends it one range of the schedule at
a time, plus the next one queued behind it so that a worker never waits for the parent
between ranges; the worker sends back played games in small batches. The parent notices at once
when a worker dies (its process sentinel) and, with a move time limit, when a move
overruns the limit by a grace period (a strategy stuck where the in-worker alarm cannot
reach it); it then stops that worker, starts a new one, and re-queues the unfinished part
of the range. The game that was being played is retried once, alone; if it fails again it
is recorded as ``error``. Nothing else is lost, and since games are deterministic the
retried games give the same records.

Workers ignore SIGINT: the parent decides how a run stops (see ``runner.py``).
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import time
from collections import deque
from collections.abc import Iterator
from multiprocessing.connection import Connection, wait

from simcli.config import Config
from simcli.protocol.sandbox import die_with_parent
from simcli.tournament.schedule import PairedSchedule, Schedule
from simcli.tournament.worker import Chunk, ChunkPlayer, WorkerStatus, lost_game_record, pack

log = logging.getLogger("simcli.pool")

FLUSH_SECONDS = 0.2  # a worker sends what it has played at least this often
QUEUED = 2  # ranges a worker holds at once: the one it plays and the next
HANG_GRACE = 2.0  # seconds past the move limit before a worker is stopped


def _worker_main(
    config: Config,
    schedule: Schedule | PairedSchedule,
    conn: Connection,
    status: WorkerStatus,
    prepared: ChunkPlayer | None = None,
) -> None:
    # The parent decides how a run stops: workers ignore Ctrl-C and SIGTERM (inherited
    # from the terminal's process group) and check the stop flag between games.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    die_with_parent()
    # The player the parent built before forking (this process's own copy of it), or,
    # where the parent could not build it, one built here (what fails then is this
    # worker's death, handled by the pool, not the parent's)
    if prepared is not None:
        player = prepared.ready(status)
    else:
        player = ChunkPlayer(config, schedule, status)
    try:
        _serve(player, conn, status)
    finally:
        player.close()


def _serve(player: ChunkPlayer, conn: Connection, status: WorkerStatus) -> None:
    while True:
        task = conn.recv()
        if task is None:
            return
        start, stop = task
        lines, outcomes, first = [], [], start
        last_flush = time.monotonic()
        games = player.play_range(start, stop)
        for line, outcome in games if not status.stopping else ():
            lines.append(line)
            outcomes.append(outcome)
            if time.monotonic() - last_flush >= FLUSH_SECONDS:
                conn.send(pack(first, lines, outcomes))
                first += len(outcomes)
                lines, outcomes = [], []
                last_flush = time.monotonic()
            if status.stopping:  # the parent is stopping: keep what is played, end the range
                games.close()
                break
        # the range's last games and its end in one message: one wake-up of the parent
        conn.send(("done", start, stop, pack(first, lines, outcomes) if outcomes else None))


class _Worker:
    def __init__(
        self,
        ctx,
        config: Config,
        schedule: Schedule | PairedSchedule,
        number: int,
        prepared: ChunkPlayer | None = None,
    ):
        self.status = WorkerStatus(ctx)
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_worker_main,
            args=(config, schedule, child, self.status, prepared),
            name=f"worker-{number}",
            daemon=True,
        )
        self.process.start()
        child.close()
        self.tasks: deque[tuple[int, int]] = deque()  # sent, not yet done; [0] in play
        self.received = 0  # next index of tasks[0] not yet received
        self.stopped_for: str | None = None  # why the parent stopped it, if it did
        self.released = False  # told to exit (see release)

    def send(self, task: tuple[int, int]) -> bool:
        """Queue ``task``; False if the worker is gone (its death is handled by the
        sentinel, and the task is not its own) or was told to exit (:meth:`release`)."""
        if self.released:
            return False
        idle = not self.tasks
        if idle:  # this range is played at once; reset the status before it starts
            self.status.game = task[0]
            self.status.move_started = 0.0
        try:
            self.conn.send(task)
        except OSError:  # it died since we last looked
            return False
        if idle:
            self.received = task[0]
        self.tasks.append(task)
        return True

    def receive(self, message) -> Chunk | None:
        """Account for one message of the worker; return the played games it holds."""
        if isinstance(message, Chunk):
            self.received = message.stop
            return message
        # ("done", start, stop, last games or None): the range in play is finished, the
        # next one starts
        last = message[3]
        if last is not None:
            self.received = last.stop
        self.tasks.popleft()
        if self.tasks:
            self.received = self.tasks[0][0]
        return last

    def release(self) -> None:
        """Tell the worker to exit once it is idle (once: it reads nothing after)."""
        if self.released or self.tasks:
            return
        self.released = True
        try:
            if self.process.is_alive():
                self.conn.send(None)
        except OSError:
            pass

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class LocalPool:
    """Executor over forked worker processes; yields :class:`Chunk` objects as they
    arrive (not in schedule order: the runner reorders them)."""

    def __init__(self, config: Config, schedule: Schedule | PairedSchedule, workers: int):
        self.config = config
        self.schedule = schedule
        self.ctx = multiprocessing.get_context("fork")
        self.limit = config.move_time_limit
        self.size = workers
        self.workers: list[_Worker] = []
        self.spawned = 0
        self.retries: deque[tuple[int, int]] = deque()
        self.retried: set[int] = set()
        self.affected: list[tuple[int, str]] = []  # (index, what happened)
        self.stopping = False
        self.prepared: ChunkPlayer | None | bool = False  # False: not built yet

    def _spawn(self) -> _Worker:
        self.spawned += 1
        worker = _Worker(self.ctx, self.config, self.schedule, self.spawned, self._prepared())
        if self.stopping:
            worker.status.request_stop()
        self.workers.append(worker)
        return worker

    def _prepared(self) -> ChunkPlayer | None:
        """The player every worker forks with, built once here (``None``: it could not
        be, and each worker builds its own). Built before the fork rather than after, it
        saves each worker the work of a cold process: about a millisecond a worker."""
        if self.prepared is False:
            try:
                self.prepared = ChunkPlayer(self.config, self.schedule, ready=False)
            except Exception:  # noqa: BLE001 - the worker builds it and fails as before
                self.prepared = None
        return self.prepared

    def start(self) -> None:
        """Fork the workers now (:meth:`run` forks those still missing)."""
        for _ in range(self.size - len(self.workers)):  # a pool kept between runs has them
            self._spawn()

    def stop(self) -> None:
        """Dispatch nothing more; every worker finishes the game it is playing."""
        self.stopping = True
        for worker in self.workers:
            worker.status.request_stop()

    def release(self) -> None:
        """Tell every idle worker to exit; :meth:`close` then waits for them (a process
        takes a millisecond or two to go down)."""
        for worker in self.workers:
            worker.release()

    def run(self, ranges: Iterator[tuple[int, int]]) -> Iterator[Chunk]:
        self.start()
        pending = iter(ranges)
        exhausted = False
        while True:
            for worker in list(self.workers):
                while len(worker.tasks) < QUEUED and not self.stopping:
                    task = self.retries.popleft() if self.retries else None
                    if task is None and not exhausted:
                        task = next(pending, None)
                        exhausted = task is None
                    if task is None:
                        break
                    if not worker.send(task):
                        self.retries.appendleft(task)
                        if not worker.tasks:  # died idle: nothing to account for
                            self._swap(worker)
                        break
            busy = [w for w in self.workers if w.tasks]
            if not busy:
                if self.stopping or (exhausted and not self.retries):
                    return
                continue
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout=0.5)
            for worker in busy:
                yield from self._drain(worker, ready)
            if self.limit:
                self._stop_hung([w for w in busy if w in self.workers])

    def play(self, start: int, stop: int) -> tuple[Chunk, list[tuple[int, str]]]:
        """Games ``start .. stop - 1`` as one chunk, and the games of the range that were
        affected by a dying worker: what a Dask task returns (``dask_executor.py``). The
        workers stay for the next range; :meth:`close` ends them."""
        seen = len(self.affected)
        lines, outcomes = [], []
        for chunk in sorted(self.run(iter([(start, stop)])), key=lambda c: c.start):
            if chunk.start != start + len(outcomes):  # the pool's own invariant, checked
                raise RuntimeError(f"games {start}..{stop - 1}: chunk at {chunk.start} misplaced")
            lines.append(chunk.lines)
            outcomes.extend(chunk.outcomes)
        if len(outcomes) != stop - start:
            raise RuntimeError(f"games {start}..{stop - 1}: only {len(outcomes)} played")
        return Chunk(start, "".join(lines), outcomes), self.affected[seen:]

    def _drain(self, worker: _Worker, ready: list) -> Iterator[Chunk]:
        if worker.conn in ready:
            yield from self._read(worker)
        if worker.tasks and not worker.process.is_alive():
            # Whatever it sent before dying is still in the pipe: read it all first, so
            # that the accounting below starts exactly where its last message ended.
            yield from self._read(worker)
        if worker.tasks and not worker.process.is_alive():
            if worker.stopped_for:
                yield from self._replace(worker, "worker_stopped", worker.stopped_for)
            else:
                code = worker.process.exitcode
                yield from self._replace(
                    worker, "worker_died", f"worker process died (exit code {code})"
                )

    def _read(self, worker: _Worker) -> Iterator[Chunk]:
        try:
            while worker.tasks and worker.conn.poll():
                chunk = worker.receive(worker.conn.recv())
                if chunk is not None:
                    yield chunk
        except (EOFError, OSError):
            pass  # the worker died; its sentinel says so

    def _stop_hung(self, busy: list[_Worker]) -> None:
        now = time.monotonic()
        for worker in busy:
            started = worker.status.move_started
            overdue = started and now - started > self.limit + HANG_GRACE
            if worker.tasks and overdue and not worker.stopped_for:
                worker.stopped_for = (
                    f"a move did not return within {self.limit:g} s + {HANG_GRACE:g} s "
                    f"grace; worker stopped"
                )
                log.warning("%s: %s", worker.process.name, worker.stopped_for)
                worker.process.kill()

    def _swap(self, worker: _Worker) -> None:
        """Stop ``worker`` for good and start a fresh one in its place."""
        worker.kill()
        self.workers.remove(worker)
        self._spawn()

    def _replace(self, worker: _Worker, kind: str, why: str) -> Iterator[Chunk]:
        start, stop = worker.tasks.popleft()
        never_started = list(worker.tasks)  # queued behind the range it was playing
        culprit = worker.status.game  # the game it was playing (shared memory)
        self._swap(worker)
        if worker.received >= stop:  # it died after sending every game: nothing is lost
            self.retries.extend(never_started)
            return
        if not worker.received <= culprit < stop:
            culprit = worker.received
        if worker.received < culprit:
            self.retries.append((worker.received, culprit))
        if culprit + 1 < stop:
            self.retries.append((culprit + 1, stop))
        self.retries.extend(never_started)
        if culprit in self.retried:
            log.error("game %d: %s again; recorded as error", culprit, why)
            self.affected.append((culprit, f"{why}; recorded as error"))
            line, outcome = lost_game_record(self.config, self.schedule, culprit, kind, why)
            yield pack(culprit, [line], [outcome])
        else:
            log.warning("game %d: %s; retrying it once", culprit, why)
            self.affected.append((culprit, f"{why}; retried"))
            self.retried.add(culprit)
            self.retries.appendleft((culprit, culprit + 1))

    def close(self) -> None:
        self.release()
        deadline = time.monotonic() + 2
        for worker in self.workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            worker.kill()
        self.workers.clear()
