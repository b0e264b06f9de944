"""The example report of docs/statistics.md, from synthetic records with a known truth.

    python studies/calibration/example_report.py

Three strategies with strengths 0 / 1.08 / 1.42 natural units (0 / +188 / +247 Elo),
every matchup 150 seat-swapped pairs, 4% draws, in two variants: 'standard' with a seat-0
advantage of 0.1 natural units (17.4 Elo: seat 0 wins 52.5% of decisive games between
equal strategies) and 'second_player_bonus' without one. Prints the compact text report.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "stats"))

from synth_records import two_player_round_robin  # noqa: E402

from simcli.report.api import build_summary  # noqa: E402
from simcli.report.render import render  # noqa: E402


def main() -> None:
    rng = np.random.default_rng(2024)
    strengths = {"random": 0.0, "greedy": 1.08, "lookahead": 1.42}
    records = []
    for variant, adv, base in (("standard", 0.1, 0), ("second_player_bonus", 0.0, 10_000)):
        records += two_player_round_robin(
            strengths,
            150,
            seat_advantage=adv,
            draw_rate=0.04,
            rng=rng,
            variant=variant,
            seed_base=base,
        )
    info = {
        "status": "complete",
        "config": {
            "name": "libraria-seat-bias",
            "game": "libraria",
            "strategies": [{"name": n, "use": n} for n in strengths],
        },
    }
    print(render(build_summary(records, run_info=info), "text", detail=False))


if __name__ == "__main__":
    main()
