"""Operating characteristics of the gate's SPRT with its max_games cap, by simulation.

    python studies/calibration/gate_operating.py [--runs 1000]

For the default bounds and every example of docs/gating.md (and configs/regression.yaml):
synthetic seat-swapped pairs (two independent games, 30% draws) with a known true Elo at
elo0, midway and elo1; the real SPRT (simcli.gating.sprt) looks every `batch` pairs and
gives up at max_games. Prints the pass / fail / undecided rates, the mean games played,
the model's prediction (simcli.gating.sizing), and the coverage of the plain and the
corrected 95% Elo intervals with the mean of each estimate. Figures go to
docs/gating.md.
"""

from __future__ import annotations

import argparse

import numpy as np

from simcli.gating.estimate import stopping_state
from simcli.gating.sizing import size, unit_probs
from simcli.gating.sprt import elo_estimate, sprt

SETTINGS = [  # (label, elo0, elo1, max_games, batch)
    ("default bounds", 0.0, 10.0, 20000, 50),
    ("improvement example", 0.0, 5.0, 67000, 50),
    ("non-regression example", -10.0, 0.0, 17200, 50),
    ("configs/regression.yaml", 0.0, 10.0, 16800, 10),
]


def simulate(true, elo0, elo1, max_games, batch, runs, rng):
    p = unit_probs(true, 0.3, True)
    pairs = max_games // 2
    verdicts, games, cov, cov_plain, est_plain = [], [], 0, 0, []
    for _ in range(runs):
        draws = rng.choice(5, size=pairs, p=p)
        c = np.zeros(5, dtype=np.int64)
        verdict = None
        for start in range(0, pairs, batch):
            c += np.bincount(draws[start : start + batch], minlength=5)
            verdict = sprt(c.tolist(), elo0, elo1).verdict
            if verdict:
                break
        verdicts.append(verdict)
        games.append(2 * int(c.sum()))
        st = stopping_state(c.tolist(), elo0, elo1, 0.05, 0.05)
        cov += 0.025 <= st.G(true) <= 0.975
        e = elo_estimate(c.tolist())
        cov_plain += e.low <= true <= e.high
        est_plain.append(e.elo)
    n = runs
    return {
        "pass": verdicts.count("H1") / n,
        "fail": verdicts.count("H0") / n,
        "undecided": verdicts.count(None) / n,
        "games": float(np.mean(games)),
        "coverage": cov / n,
        "coverage_plain": cov_plain / n,
        "mean_plain": float(np.mean(est_plain)),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--only", help="run the settings whose label contains this text")
    args = parser.parse_args()
    for label, elo0, elo1, max_games, batch in SETTINGS:
        if args.only and args.only not in label:
            continue
        model = size(elo0, elo1, 0.05, 0.05, max_games, batch, draw_rate=0.3)
        print(f"{label}: elo0 {elo0:g}, elo1 {elo1:g}, max_games {max_games}, batch {batch}")
        print(f"  model: {model.describe()}")
        for true in (elo0, (elo0 + elo1) / 2, elo1):
            rng = np.random.default_rng(int(1000 + 10 * true + max_games))
            r = simulate(true, elo0, elo1, max_games, batch, args.runs, rng)
            print(
                f"  true {true:+g}: pass {r['pass']:.3f}, fail {r['fail']:.3f}, undecided "
                f"{r['undecided']:.3f}, games {r['games']:,.0f}; 95% interval covers "
                f"{r['coverage']:.3f} corrected, {r['coverage_plain']:.3f} plain (mean plain "
                f"estimate {r['mean_plain']:+.2f}) over {args.runs} runs"
            )


if __name__ == "__main__":
    main()
