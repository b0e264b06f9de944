"""Calibration of the rating model with draws (Davidson / Davidson-Luce), by simulation.

    python studies/calibration/draw_model.py [--sims 2000]

Two seats, three strategies (0 / -0.4 / -0.9 natural units), 60 games per ordered
seating, no seat effect, draws at 0%, 30% and 60% between equal strategies, drawn from
the Davidson model. Prints the rejection rate of the likelihood-ratio seat test at 0.05
and the coverage of the 95% Wald intervals of a rating difference and of the seat
advantage. Figures go to docs/statistics.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "stats"))

from test_stats_calibration import (  # noqa: E402
    _davidson_round_robin,
    seat_model_calibration,
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sims", type=int, default=2000)
    args = parser.parse_args()
    strength = {"A": 0.0, "B": -0.4, "C": -0.9}
    for draw_rate in (0.0, 0.3, 0.6):
        nu = 2 * draw_rate / (1 - draw_rate)
        rng = np.random.default_rng(500 + int(draw_rate * 100))
        data = _davidson_round_robin(rng, args.sims, strength, 60, nu)
        rejected, covered_b, covered_seat = seat_model_calibration(data, strength)
        print(
            f"draws {draw_rate:.0%}: LR seat test rejects {rejected:.3f}, coverage "
            f"rating B-A {covered_b:.3f}, seat advantage {covered_seat:.3f} "
            f"({args.sims} tournaments)"
        )


if __name__ == "__main__":
    main()
