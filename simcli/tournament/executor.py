"""The executor seam: how ranges of the schedule get played (:class:`Executor`).

* ``InProcess`` — ``--workers 0``: plays in the calling process (debugging, profiling).
* ``LocalPool`` (``pool.py``) — forked worker processes; the default.
* ``DaskExecutor`` (``dask_executor.py``) — a Dask distributed cluster.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Protocol, runtime_checkable

from simcli.config import Config
from simcli.tournament.schedule import PairedSchedule, Schedule
from simcli.tournament.worker import Chunk, ChunkPlayer, pack


@runtime_checkable
class Executor(Protocol):
    """What the runner needs of an executor."""

    #: Games that needed a retry or were lost to a dying worker: ``(index, what)``.
    affected: list[tuple[int, str]]

    def run(self, ranges: Iterator[tuple[int, int]]) -> Iterator[Chunk]:
        """Play the ranges; chunks may arrive in any order (the runner writes them in
        schedule order)."""
        ...

    def start(self) -> None:
        """Get ready to play (a local pool forks its workers), before the run's first
        range is known: they start while the runner writes the run's start."""
        ...

    def stop(self) -> None:
        """Dispatch nothing more; let the games in flight finish."""
        ...

    def release(self) -> None:
        """The run is over: let workers go down (a local pool's exit on their own) while
        the runner writes the run's end, before :meth:`close`."""
        ...

    def close(self) -> None:
        """Release workers, processes and connections."""
        ...


#: Worker processes per CPU beyond which a larger local pool only adds processes: the
#: pool is capped there (and at the games to play), with a notice.
WORKERS_PER_CPU = 4


def pool_size(requested: int, games: int, cpus: int | None = None) -> tuple[int, str]:
    """The worker processes a local pool starts for ``requested`` when ``games`` games
    are to be played: at most one per game (no more can be in flight) and
    :data:`WORKERS_PER_CPU` per CPU; and why it is fewer (empty when it is not)."""
    cpus = cpus or os.cpu_count() or 1
    if requested <= 1:
        return requested, ""
    bound = WORKERS_PER_CPU * cpus
    if games < bound:
        if requested <= max(games, 1):
            return requested, ""
        return max(games, 1), f"{games} game(s) to play"
    if requested <= bound:
        return requested, ""
    return bound, f"at most {WORKERS_PER_CPU} per CPU, {cpus} CPU(s)"


def chunk_ranges(start: int, total: int, size: int) -> Iterator[tuple[int, int]]:
    for first in range(start, total, size):
        yield first, min(first + size, total)


def default_chunk_size(total: int, workers: int) -> int:
    """About 16 ranges per worker, between 1 and 100 games each."""
    return max(1, min(100, total // (max(workers, 1) * 16) or 1))


class InProcess:
    def __init__(self, config: Config, schedule: Schedule | PairedSchedule):
        self.player = ChunkPlayer(config, schedule)
        self.stopping = False
        self.affected: list[tuple[int, str]] = []

    def start(self) -> None:
        pass

    def stop(self) -> None:
        self.stopping = True

    def release(self) -> None:
        pass

    def run(self, ranges: Iterator[tuple[int, int]]) -> Iterator[Chunk]:
        for start, stop in ranges:
            if self.stopping:
                return
            games = self.player.play_range(start, stop)
            for index, (line, outcome) in enumerate(games, start):
                yield pack(index, [line], [outcome])
                if self.stopping:
                    games.close()
                    return

    def close(self) -> None:
        self.player.close()


def make_executor(config: Config, schedule: Schedule | PairedSchedule, workers: int) -> Executor:
    if config.executor == "dask":
        from simcli.tournament.dask_executor import DaskExecutor

        return DaskExecutor(config, schedule)
    if workers == 0:
        return InProcess(config, schedule)
    from simcli.tournament.pool import LocalPool

    return LocalPool(config, schedule, workers)
