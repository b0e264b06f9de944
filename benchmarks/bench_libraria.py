"""Libraria random-vs-random throughput: bare engine loop vs the full run path.

    python benchmarks/bench_libraria.py [--games N]

(a) a bare loop over the engine (setup, legal moves, apply; no strategies, no records);
(b) the full ``simcli run`` path with 1 worker process: strategies, records, JSON,
    the process pool, logging to run.log, games.jsonl;
(c) the same with 2 workers.
Prints games/s and the ratios b/a and c/b measured in this one run, and the time of
``simcli --help`` (heavy imports must stay lazy).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from simcli.config import load_config
from simcli.games import get_game
from simcli.tournament.runner import run_tournament

CONFIG = """\
name: bench
game: libraria
strategies:
  - {name: random, use: random}
  - {name: random2, use: random}
format: round_robin
games: %d
seed: 1
"""


def bare_loop(games: int) -> float:
    game = get_game("libraria")
    options = game.resolve_options({})
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_state(2, options, game.sample_setup(2, options, rng))
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
        state.outcome()
    return games / (time.perf_counter() - start)


def full_run(games: int, workers: int, folder: Path) -> float:
    path = folder / "bench.yaml"
    path.write_text(CONFIG % games)
    config = load_config(path, {"workers": workers})
    start = time.perf_counter()
    run_tournament(config, folder / f"w{workers}", force=True, quiet=True)
    return games / (time.perf_counter() - start)


def help_time(repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "simcli.cli.main", "--help"], check=True, capture_output=True
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        a = bare_loop(args.games)
        b = full_run(args.games, 1, folder)
        c = full_run(args.games, 2, folder)
    print(f"(a) bare engine loop      {a:9.0f} games/s")
    print(f"(b) simcli run, 1 worker  {b:9.0f} games/s   b/a = {b / a:.2f}  (target >= 0.5)")
    print(f"(c) simcli run, 2 workers {c:9.0f} games/s   c/b = {c / b:.2f}  (target >= 1.7)")
    print(f"simcli --help             {help_time() * 1000:9.0f} ms (median of 5)")


if __name__ == "__main__":
    main()
