"""The Dask executor: the same ranges of the schedule, played on a Dask distributed
cluster (``--executor dask --scheduler ADDRESS``).

Each task carries the config (a few kilobytes, so a worker that joins or replaces a lost
one needs nothing else) and plays one range, returning a :class:`Chunk`. A Dask worker
does not play games in its own threads: each of its threads keeps a one-worker
:class:`~simcli.tournament.pool.LocalPool` per config and hands it the task's range. So a
strategy that kills its process, or a move that never returns, costs on Dask exactly what
it costs on the local pool: the same worker process replaced, the same game retried once
alone and then recorded as ``error``, the same records (the retry and blame policy is the
pool's, in one place). Move time limits are the local pool's too (the alarm in the
worker process, and its watchdog for a move the alarm cannot reach).

What is left to Dask is the loss of a whole Dask worker (its machine, or the worker
process itself): Dask re-runs its tasks; a range that keeps failing is split into single
games, and a game that fails again is recorded as ``error``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import multiprocessing
import threading
from collections import deque
from collections.abc import Iterator

from simcli.config import Config
from simcli.errors import SimcliError
from simcli.tournament.pool import LocalPool
from simcli.tournament.schedule import PairedSchedule, Schedule
from simcli.tournament.worker import Chunk, lost_game_record, pack

log = logging.getLogger("simcli.dask")

_POOLS: dict[tuple[str, int], LocalPool] = {}  # per Dask worker: (config, thread)


def _config_key(config: Config) -> str:
    text = json.dumps([config.to_dict(), config.source], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def play_range_remote(
    config: Config, schedule: Schedule | PairedSchedule, key: str, start: int, stop: int
) -> tuple[Chunk, list[tuple[int, str]]]:
    """Runs on a Dask worker: the range played by this thread's pool of the config,
    and the games a dying pool worker affected."""
    slot = (key, threading.get_ident())
    pool = _POOLS.get(slot)
    if pool is None:
        _allow_worker_processes()
        pool = _POOLS[slot] = LocalPool(config, schedule, 1)
    return pool.play(start, stop)


def _allow_worker_processes() -> None:
    """A Dask worker started by a nanny is a daemonic process, which multiprocessing
    forbids to start processes (they would outlive it). Pool workers cannot: each dies
    with its parent (``die_with_parent``), so the rule is lifted for this process."""
    multiprocessing.current_process()._config["daemon"] = False  # type: ignore[attr-defined]


def close_players(key: str) -> int:
    """Runs on every Dask worker at the end of a run: stop that run's pool workers and
    their strategy processes (a Dask worker outlives the run; they must not)."""
    closed = 0
    for slot in [s for s in _POOLS if s[0] == key]:
        _POOLS.pop(slot).close()
        closed += 1
    return closed


class DaskExecutor:
    def __init__(self, config: Config, schedule: Schedule | PairedSchedule, client=None):
        try:
            from distributed import Client
        except ImportError:
            raise SimcliError(
                "the dask executor needs Dask distributed: pip install 'simcli[dask]'"
            ) from None
        self.config = config
        self.schedule = schedule
        self.affected: list[tuple[int, str]] = []
        self.stopping = False
        self.ranges: dict[str, tuple[int, int]] = {}  # future key -> range
        self._own_client = client is None
        try:
            self.client = client or Client(config.scheduler, timeout="10s")
        except OSError as exc:
            raise SimcliError(
                f"cannot reach the Dask scheduler at {config.scheduler}: {exc}"
            ) from None
        self.key = _config_key(config)
        workers = len(self.client.scheduler_info().get("workers", {})) or 1
        self.window = max(4, workers * 4)

    def start(self) -> None:
        pass

    def stop(self) -> None:
        self.stopping = True

    def release(self) -> None:
        pass

    def run(self, ranges: Iterator[tuple[int, int]]) -> Iterator[Chunk]:
        from distributed import wait

        in_flight: deque = deque()
        pending = iter(ranges)
        while True:
            while not self.stopping and len(in_flight) < self.window:
                task = next(pending, None)
                if task is None:
                    break
                in_flight.append(self._submit(*task))
            if not in_flight:
                return
            done = wait(list(in_flight), return_when="FIRST_COMPLETED").done
            for future in [f for f in in_flight if f in done]:
                in_flight.remove(future)
                try:
                    chunk, affected = future.result()
                    self.ranges.pop(future.key, None)
                    self.affected.extend(affected)
                    yield chunk
                except Exception as exc:  # e.g. KilledWorker: a game keeps killing workers
                    yield from self._recover(future, exc, in_flight)

    def _recover(self, future, exc: Exception, in_flight: deque) -> Iterator[Chunk]:
        start, stop = self.ranges.pop(future.key)
        why = f"{type(exc).__name__}: {exc}"
        if stop - start > 1:  # find the culprit: every game of the range alone
            log.warning("games %d..%d: %s; retrying them one by one", start, stop - 1, why)
            for index in range(start, stop):
                in_flight.append(self._submit(index, index + 1))
            return
        log.error("game %d: %s; recorded as error", start, why)
        self.affected.append((start, f"{why}; recorded as error"))
        line, outcome = lost_game_record(self.config, self.schedule, start, "worker_died", why)
        yield pack(start, [line], [outcome])

    def _submit(self, start: int, stop: int):
        future = self.client.submit(
            play_range_remote,
            self.config,
            self.schedule,
            self.key,
            start,
            stop,
            pure=False,
            retries=1,
        )
        self.ranges[future.key] = (start, stop)
        return future

    def close(self) -> None:
        try:
            self.client.run(close_players, self.key)
        except Exception as exc:  # a worker gone with its processes: nothing to stop there
            log.warning("could not reach every Dask worker to stop strategy processes: %s", exc)
        if self._own_client:
            self.client.close()
