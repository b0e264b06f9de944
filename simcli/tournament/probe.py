"""A short timing probe before a run: a few of its games played in this process, timed,
to estimate how long the whole run takes."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from simcli.config import Config
from simcli.tournament.schedule import PairedSchedule, Schedule
from simcli.tournament.worker import ChunkPlayer

#: The probe stops after the game that crosses this many seconds (at least one game).
BUDGET_SECONDS = 2.0
#: ... and is given up after this many seconds (a strategy that hangs).
TIMEOUT_SECONDS = 30.0


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


def free_cpus() -> int:
    """CPUs that other processes leave free: the CPU count less the load average of the
    last minute (at least one). On a machine other jobs keep busy, two workers play no
    faster than one, and an estimate over every CPU was three times too short."""
    cpus = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # not on every platform
        load = 0.0
    return max(1, min(cpus, int(cpus - load + 0.5)))


def parallelism(config: Config) -> int:
    """Processes that play at once on this machine: the workers, at most one per CPU
    that the machine's load leaves free (:func:`free_cpus`)."""
    return max(1, min(config.workers, free_cpus()))


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
    timeout: float = TIMEOUT_SECONDS,
) -> Probe | None:
    """Play up to ``games`` games of ``schedule`` (fresh strategies, nothing written,
    nothing logged), stopping early once ``budget`` seconds have passed. They are played
    in a forked child process, as a worker would play them, so that a strategy that
    crashes, prints or hangs cannot touch the command; None for 0 games, or when the
    child fails or takes more than ``timeout`` seconds."""
    import multiprocessing

    if games <= 0 or schedule.total == 0:
        return None
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(
        target=_probe_child, args=(config, schedule, games, budget, send), daemon=True
    )
    child.start()
    send.close()
    try:
        return receive.recv() if receive.poll(timeout) else None
    except (EOFError, OSError):  # the child died
        return None
    finally:
        receive.close()
        if child.is_alive():
            child.kill()
        child.join()


def _probe_child(
    config: Config, schedule: Schedule | PairedSchedule, games: int, budget: float, send: Any
) -> None:
    import logging

    from simcli.protocol.sandbox import die_with_parent

    die_with_parent()  # a run killed while it probes leaves no probe behind
    logging.disable(logging.CRITICAL)  # the probe's forfeits are not the run's
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # nor is whatever a strategy prints
    os.dup2(devnull, 2)
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
    send.send(Probe(played, time.perf_counter() - started))
