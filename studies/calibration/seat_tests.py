"""False-positive rates of the seat tests between unequal strategies, by simulation.

    python studies/calibration/seat_tests.py [--reps 4000]

Round robins of three strategies (two seats, 40 games per ordered matchup, 20% draws,
independent games) with no seat effect: the headline stratified test and the pooled
binomial test at 0.05; seat-swapped pairs (150 per matchup, a shared random board per
pair) for the sign test; three seats with four strategies and an unbalanced schedule for
the stratified test. Figures go to docs/statistics.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "stats"))

import test_seat_calibration as cal  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=4000)
    args = parser.parse_args()
    n = args.reps
    for gap, elo in cal.GAPS.items():
        rng = np.random.default_rng(100)
        strat, pooled = cal._rates(cal._round_robin(elo, n, 40, rng, draw=0.2))
        print(f"2 seats {gap:10s} {elo}: stratified {strat:.3f}, pooled binomial {pooled:.3f}")
    for gap in ("equal", "quickstart"):
        for pairs in (50, 150):
            rate = cal.sign_rate(cal.GAPS[gap], n, pairs, np.random.default_rng(200))
            print(f"sign test {gap:10s} {pairs} pairs per matchup: {rate:.3f}")
    for elo in ((0, 0, 0, 0), (0, -150, -413, -710)):
        data = cal._three_seat(elo, n, np.random.default_rng(300))
        rate = np.mean([cal.stratified_seat_test(o, 3)[0].p_value <= 0.05 for o in data])
        print(f"3 seats {elo}: stratified {rate:.3f}")


if __name__ == "__main__":
    main()
