"""Peak memory of a run does not grow with the number of games.

    python benchmarks/bench_memory.py [--games 10000 1000000]

Runs Libraria random self-play through the full run path (all cores) and prints the peak
resident memory of the parent process and of the largest worker for each size.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time

CHILD = """
import resource, sys
from pathlib import Path
from simcli.configfile import load_config
from simcli.tournament.runner import run_tournament
folder = Path(sys.argv[1])
(folder / "m.yaml").write_text(
    "name: mem\\ngame: libraria\\nstrategies: [random]\\nformat: self_play\\n"
    f"games: {sys.argv[2]}\\nseed: 1\\n"
)
run_tournament(load_config(folder / "m.yaml"), folder / "out", force=True, quiet=True)
parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(parent, workers)
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 1_000_000])
    args = parser.parse_args()
    for games in args.games:
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            out = subprocess.run(
                [sys.executable, "-c", CHILD, tmp, str(games)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            parent, worker = (int(x) / 1024 for x in out.split())
            print(
                f"{games:>9} games: parent peak {parent:6.1f} MB, largest worker peak "
                f"{worker:6.1f} MB ({time.perf_counter() - start:.0f} s)"
            )


if __name__ == "__main__":
    main()
