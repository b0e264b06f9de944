"""Error rates and average sample size of the gate's SPRT, by simulation.

    python studies/calibration/sprt_error_rates.py [--runs 2000]

Synthetic seat-swapped pairs (two independent games, 30% draws) with a known true Elo;
the test looks every 10 pairs, as `gate: {batch: 10}` does. At the true Elo = elo0 the
pass rate must be <= alpha + 0.02; at elo1 >= 1 - beta - 0.02.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))

from test_gate import _simulate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=2000)
    args = parser.parse_args()
    for elo0, elo1 in ((0.0, 40.0), (-10.0, 10.0)):
        for true in (elo0, elo1):
            rate, pairs = _simulate(true, elo0, elo1, args.runs, seed=1000 + int(true * 10))
            print(
                f"elo0 {elo0:+.0f} elo1 {elo1:+.0f} true {true:+.0f}: pass rate {rate:.3f} "
                f"over {args.runs} tests, {2 * pairs:.0f} games on average"
            )


if __name__ == "__main__":
    main()
