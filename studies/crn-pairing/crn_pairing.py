"""How well a run pairs two strategies: the variance of their paired differences.

    python studies/crn-pairing/crn_pairing.py LOG A B [LOG2]

LOG is a ``games.jsonl``. In a ``solo`` run (one player) a unit is a seed, played once by
A and once by B; the paired difference is A's score minus B's. In a two-player run a unit
is a seat-swapped pair (two games on one seed, A in each seat); the paired difference is
the mean over the two games of A's score minus B's. Prints the number of units, the mean
and variance of the differences, the share of games with a chance event after the setup,
and the units needed for the verdict "A differs from B" at the observed mean and standard
deviation: n = (z * sd / mean)^2 with z = 2.576 (two-sided p < 0.01 at the expected
value), and with 80% power (z = 2.576 + 0.842), and for the sign test (normal
approximation at the observed share of units where A is better). With LOG2 (the same run under other
draws) prints both and the ratio of the variances.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

Z99 = 2.5758
Z80 = 0.8416


def paired(path: Path, a: str, b: str) -> dict[str, float]:
    by_seed: dict[int, list[float]] = defaultdict(list)
    a_score: dict[int, float] = {}
    b_score: dict[int, float] = {}
    games = chance_games = 0
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        seats = rec["seats"]
        if set(seats) != {a, b} and seats not in ([a], [b]):
            continue
        if rec["scores"] is None:
            continue
        games += 1
        chance_games += any(isinstance(m, dict) for m in rec["moves"])
        if len(seats) == 1:
            sign = 1.0 if seats[0] == a else -1.0
            by_seed[rec["seed"]].append(sign * rec["scores"][0])
            (a_score if seats[0] == a else b_score)[rec["seed"]] = rec["scores"][0]
        else:
            ia, ib = seats.index(a), seats.index(b)
            by_seed[rec["seed"]].append(rec["scores"][ia] - rec["scores"][ib])
    solo = len(seats) == 1
    diffs = [sum(v) if solo else sum(v) / len(v) for v in by_seed.values()]
    # solo: the correlation of A's and B's scores on a seed (what pairing exploits)
    pairs = [(a_score[k], b_score[k]) for k in a_score if k in b_score]
    corr = (
        statistics.correlation([x for x, _ in pairs], [y for _, y in pairs])
        if solo and len(pairs) > 2
        else math.nan
    )
    diffs = [d for d, v in zip(diffs, by_seed.values(), strict=True) if len(v) == 2]
    better = sum(d > 0 for d in diffs)
    worse = sum(d < 0 for d in diffs)
    q = better / (better + worse) if better + worse else 0.5
    mean = statistics.fmean(diffs)
    var = statistics.variance(diffs)
    sd = math.sqrt(var)
    return {
        "units": len(diffs),
        "mean": mean,
        "variance": var,
        "games": games,
        "chance_share": chance_games / games if games else 0.0,
        "n_p01": (Z99 * sd / mean) ** 2 if mean else math.inf,
        "n_p01_power80": ((Z99 + Z80) * sd / mean) ** 2 if mean else math.inf,
        "corr": corr,
        "better": better,
        "worse": worse,
        # sign test, normal approximation: decisive units for p < 0.01 at the expected
        # share, divided by the share of decisive units
        "n_sign": (Z99 * 0.5 / (q - 0.5)) ** 2 * len(diffs) / (better + worse)
        if q != 0.5
        else math.inf,
    }


def show(label: str, r: dict[str, float]) -> None:
    print(
        f"{label}: {r['units']} units, mean difference {r['mean']:+.3f}, variance "
        f"{r['variance']:.3f} (sd {math.sqrt(r['variance']):.3f}); games with a chance "
        f"event {r['chance_share']:.0%}; units needed: {math.ceil(r['n_p01'])} "
        f"(p < 0.01 at the mean), {math.ceil(r['n_p01_power80'])} (80% power); A better "
        f"in {r['better']}, worse in {r['worse']}: sign test needs {math.ceil(r['n_sign'])}"
        + ("" if math.isnan(r["corr"]) else f"; correlation of A's and B's scores {r['corr']:.3f}")
    )


def main(argv: list[str]) -> None:
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    first = paired(Path(argv[0]), argv[1], argv[2])
    show(argv[0], first)
    if len(argv) == 4:
        second = paired(Path(argv[3]), argv[1], argv[2])
        show(argv[3], second)
        if first["variance"]:
            ratio = second["variance"] / first["variance"]
            print(f"variance ratio (second / first): {ratio:.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
