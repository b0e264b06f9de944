"""The executor seam: how chunks of the schedule get played.

Both executors take ``(start, stop)`` index ranges and yield their results **in schedule
order**, whatever order the workers finish in, so the log is identical for any worker
count. ``InProcess`` plays in the calling process (``--workers 0``; handy for debugging);
``LocalPool`` uses a ``concurrent.futures.ProcessPoolExecutor`` with the fork start
method (required by multiprocessing-logging), keeping a bounded window of chunks in
flight so memory does not grow with the number of games.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor

from simcli.config import Config
from simcli.tournament.worker import Chunk, ChunkPlayer, init_worker, play_chunk


def chunk_ranges(total: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, total, size):
        yield start, min(start + size, total)


def default_chunk_size(total: int, workers: int) -> int:
    """About 16 chunks per worker, between 1 and 200 games each."""
    return max(1, min(200, total // (max(workers, 1) * 16) or 1))


class InProcess:
    def __init__(self, config: Config):
        self.player = ChunkPlayer(config)

    def run(self, ranges: Iterator[tuple[int, int]]) -> Iterator[Chunk]:
        for start, stop in ranges:
            yield self.player.play(start, stop)

    def close(self) -> None:
        pass


class LocalPool:
    def __init__(self, config: Config, workers: int):
        self.workers = workers
        self.pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("fork"),
            initializer=init_worker,
            initargs=(config,),
        )

    def run(self, ranges: Iterator[tuple[int, int]]) -> Iterator[Chunk]:
        window: deque[Future] = deque()
        limit = self.workers * 4
        for start, stop in ranges:
            window.append(self.pool.submit(play_chunk, start, stop))
            if len(window) >= limit:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def make_executor(config: Config, workers: int) -> InProcess | LocalPool:
    if workers == 0:
        return InProcess(config)
    return LocalPool(config, workers)
