"""A short timing probe before a run: a few of its games played in this process, timed,
to estimate how long the whole run takes."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from simcli.config import Config
from simcli.tournament.schedule import PairedSchedule, Schedule
from simcli.tournament.worker import ChunkPlayer

#: The probe stops after the game that crosses this many seconds (at least one game).
BUDGET_SECONDS = 2.0


@dataclass(frozen=True)
class Probe:
    """``games`` games of the schedule played in ``seconds`` (wall time, one process)."""

    games: int
    seconds: float

    @property
    def per_game(self) -> float:
        return self.seconds / self.games

    def estimate(self, games: int, parallel: int) -> float:
        """Seconds for ``games`` games over ``parallel`` processes (pool start-up and
        the parent's writing not counted)."""
        return self.per_game * games / max(parallel, 1)


def parallelism(config: Config) -> int:
    """Processes that play at once on this machine: the workers, at most one per CPU."""
    return max(1, min(config.workers, os.cpu_count() or 1))


def spread(total: int, games: int) -> list[int]:
    """``games`` indexes spread evenly over ``0 .. total - 1`` (tables, variants and
    seatings differ across the schedule)."""
    games = min(games, total)
    return sorted({i * total // games for i in range(games)})


def probe(
    config: Config,
    schedule: Schedule | PairedSchedule,
    games: int,
    budget: float = BUDGET_SECONDS,
) -> Probe | None:
    """Play up to ``games`` games of ``schedule`` here (fresh strategies, nothing
    written), stopping early once ``budget`` seconds have passed; None for 0 games."""
    if games <= 0 or schedule.total == 0:
        return None
    player = ChunkPlayer(config, schedule)
    played = 0
    started = time.perf_counter()
    try:
        for index in spread(schedule.total, games):
            player.record(index)
            played += 1
            if time.perf_counter() - started > budget:
                break
    finally:
        player.close()
    return Probe(played, time.perf_counter() - started)
