"""Libraria random-vs-random throughput: bare engine loop vs the full run path.

    python benchmarks/bench_libraria.py [--games N] [--repeats R] [--dask]

Same measurements as ``simcli bench --game libraria``, plus the time of ``simcli --help``
(heavy imports must stay lazy). Targets on a 2-core machine: run/bare >= 0.5 with one
worker, 2 workers / 1 worker >= 1.7.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from simcli.bench import bench_game


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
    parser.add_argument("--dask", action="store_true")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved rounds (best kept)")
    args = parser.parse_args()
    row = bench_game("libraria", args.games, dask=args.dask, repeats=args.repeats)
    print("\n".join(row.lines()))
    print(f"  simcli --help             {help_time() * 1000:9.0f} ms (median of 5)")


if __name__ == "__main__":
    main()
