"""Throughput measurements: the bare engine against the full run path.

For each game, random self-play games per second through (a) a bare loop over the engine
(setup, legal moves, uniform choice, apply), (b) the full run path with 1 worker process,
(c) with every core, and (d) optionally the Dask executor on a local cluster. All figures
come from one invocation, interleaved and repeated: the best rate of each, and each ratio
as the median over the rounds of two adjacent measurements, so they hold even on a busy
machine.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from simcli.games import get_game


@dataclass
class BenchRow:
    """Best rate of each measurement (games/s) and the ratios of each round's adjacent
    measurements (one round: bare, 1 worker, every core, in that order)."""

    game: str
    players: int
    bare: float
    one_worker: float
    all_workers: float
    workers: int
    run_vs_bare: list[float] = field(default_factory=list)  # per round: 1 worker / bare
    many_vs_one: list[float] = field(default_factory=list)  # per round: all / 1 worker
    dask: float | None = None

    def lines(self) -> list[str]:
        out = [
            f"{self.game} ({self.players} players), best of {len(self.run_vs_bare)} "
            f"interleaved rounds; ratios: median of the rounds [min, max]",
            f"  bare engine loop          {self.bare:9.0f} games/s",
            f"  run, 1 worker             {self.one_worker:9.0f} games/s   "
            f"vs bare {_spread(self.run_vs_bare)}",
            f"  run, {self.workers} workers{' ' * (13 - len(str(self.workers)))}"
            f"{self.all_workers:9.0f} games/s   vs 1 worker {_spread(self.many_vs_one)}",
        ]
        if self.dask is not None:
            out.append(
                f"  run, dask local cluster   {self.dask:9.0f} games/s   vs 1 worker "
                f"{self.dask / self.one_worker:.2f}"
            )
        return out


def _spread(ratios: list[float]) -> str:
    return f"{statistics.median(ratios):.2f} [{min(ratios):.2f}, {max(ratios):.2f}]"


def bare_loop(game_id: str, players: int, games: int, seed: int = 1) -> float:
    game = get_game(game_id)
    options = game.resolve_options({})
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_state(players, options, game.sample_setup(players, options, rng))
        while not state.is_terminal():
            if state.current_player < 0:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_moves()))
        state.outcome()
    return games / (time.perf_counter() - start)


def _config_text(game_id: str, players: int, games: int, strategy: str = "") -> str:
    fmt = "solo" if players == 1 else "self_play"
    strategy = strategy or "{name: random, use: random}"
    return (
        f"name: bench\ngame: {game_id}\nplayers: {players}\n"
        f"strategies:\n  - {strategy}\nformat: {fmt}\n"
        f"games: {games}\nseed: 1\n"
    )


def run_path(
    game_id: str, players: int, games: int, folder: Path, strategy: str = "", **overrides
) -> float:
    from simcli.configfile import load_config
    from simcli.tournament.runner import run_tournament

    path = folder / "bench.yaml"
    path.write_text(_config_text(game_id, players, games, strategy))
    config = load_config(path, overrides)
    start = time.perf_counter()
    run_tournament(config, folder / "out", force=True, quiet=True)
    return games / (time.perf_counter() - start)


def bench_game(game_id: str, games: int, dask: bool = False, repeats: int = 3) -> BenchRow:
    """Each measurement ``repeats`` times, interleaved (a, b, c, a, b, c, ...), keeping the
    best rate of each (as ``timeit`` does: on a shared machine other work only ever slows
    a measurement down). The ratios are the median over the rounds of the ratio of two
    adjacent measurements, which saw the same machine: the speed of a shared machine can
    drift by tens of percent from one round to the next, which the ratio of two bests
    taken in different rounds would mix in."""
    game = get_game(game_id)
    players = min(game.player_counts)
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rounds = [
            (
                bare_loop(game_id, players, games),
                run_path(game_id, players, games, folder, workers=1),
                run_path(game_id, players, games, folder, workers=cores),
            )
            for _ in range(repeats)
        ]
        bare, one, many = (max(r[k] for r in rounds) for k in range(3))
        run_vs_bare = [r[1] / r[0] for r in rounds]
        many_vs_one = [r[2] / r[1] for r in rounds]
        dask_rate = None
        if dask:
            from distributed import LocalCluster

            with LocalCluster(
                n_workers=cores,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            ) as cluster:
                dask_rate = run_path(
                    game_id,
                    players,
                    games,
                    folder,
                    executor="dask",
                    scheduler=cluster.scheduler_address,
                )
    return BenchRow(
        game_id, players, bare, one, many, cores, run_vs_bare, many_vs_one, dask=dask_rate
    )


@dataclass
class IsolationRow:
    """Games/s of one strategy on 1 worker: in-process, ``isolation: process`` and the
    Python client as an external command; ratios to in-process per round."""

    game: str
    strategy: str
    inprocess: float
    process: float
    external: float
    process_ratio: list[float] = field(default_factory=list)
    external_ratio: list[float] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [
            f"{self.game}, {self.strategy} self-play on 1 worker, best of "
            f"{len(self.process_ratio)} interleaved rounds; ratios: median [min, max]",
            f"  in-process                {self.inprocess:9.1f} games/s",
            f"  isolation: process        {self.process:9.1f} games/s   vs in-process "
            f"{_spread(self.process_ratio)}",
            f"  external client command   {self.external:9.1f} games/s   vs in-process "
            f"{_spread(self.external_ratio)}",
        ]


def bench_isolation(
    game_id: str, games: int, use: str = "random", params: str = "", repeats: int = 3
) -> IsolationRow:
    """The cost of running a strategy out of process (start-up included: one process per
    seat for the whole run, as a worker keeps them)."""
    import sys

    game = get_game(game_id)
    players = min(game.player_counts)
    extra = f", params: {params}" if params else ""
    inproc = f"{{name: s, use: {use}{extra}}}"
    isolated = f"{{name: s, use: {use}, isolation: process{extra}}}"
    client = f"cmd:{sys.executable} -m simcli.protocol.client --use {use}"
    external = f"{{name: s, use: '{client}'{extra}}}"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rounds = [
            tuple(
                run_path(game_id, players, games, folder, strategy, workers=1)
                for strategy in (inproc, isolated, external)
            )
            for _ in range(repeats)
        ]
    best = [max(r[k] for r in rounds) for k in range(3)]
    label = use + (f" {params}" if params else "")
    return IsolationRow(
        game_id,
        label,
        *best,
        process_ratio=[r[1] / r[0] for r in rounds],
        external_ratio=[r[2] / r[0] for r in rounds],
    )
