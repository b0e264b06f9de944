"""Ada's Library speed: random self-play games per second, 2 and 4 players.

    python benchmarks/bench_adas_library.py [--games N]

Per player count:

- ``bare``: random legal moves played straight on the rules (setup, legal moves, apply,
  reshuffles), given in games per CPU second of this process so that other work on a
  shared machine does not distort it, and in wall-clock games per second.
- ``run 1w`` and ``run Nw``: the full ``simcli run`` path (views, strategies, records,
  log file) with 1 worker and with every core, in wall-clock games per second.

``simcli bench --game adas_library`` measures the 2-player case the same way. Random play
rarely sorts a row, so most games run to the default ``max_turns`` of 400.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

from simcli.bench import run_path
from simcli.game import CHANCE
from simcli.games import get_game


def bare(players: int, games: int) -> tuple[float, float, float]:
    """(games per CPU second, games per wall second, mean turns per game)."""
    game = get_game("adas_library")
    options = game.resolve_options({})
    turns = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_state(players, options, game.sample_setup(players, options, rng))
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_moves()))
        turns += state.turns
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return games / cpu, games / wall, turns / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per measurement")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for players in (2, 4):
            per_cpu, per_wall, turns = bare(players, args.games)
            one = run_path("adas_library", players, args.games, folder, workers=1)
            many = run_path("adas_library", players, args.games, folder, workers=cores)
            print(
                f"{players} players ({turns:.0f} turns per game): "
                f"bare {per_cpu:.1f}/CPU-s ({per_wall:.1f}/s wall), "
                f"run 1w {one:.1f}/s, run {cores}w {many:.1f}/s"
            )


if __name__ == "__main__":
    main()
