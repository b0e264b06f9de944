"""What `simcli balance` costs, measured in one run on this machine.

    python benchmarks/bench_balance.py throughput [--rounds R] [--workers N]
    python benchmarks/bench_balance.py tuner [--repeats N]

``throughput``: for each rung of a small Libraria balance (random and greedy self-play,
each stopped by its precision rule), games per second of the balance's segment against
a plain ``simcli.run`` of the same games (a self-play config with the same strategy, seed
and number of games), alternately (balance, run, balance, run, ...) so both see the same
machine; prints each rung's ratio (median of the rounds, [min, max]) and the balance's
wall time, metrics and report included.

``tuner``: games the sequential search spends on Shift Duel (tests/data/shift_duel.py,
fair komi -10 exactly) against a fixed grid of probes over the same range reaching the
same precision: the grid's games per point are raised until the median half-width of
its 95% interval is at most the search's median half-width. Seat outcomes are drawn from
the game's exact probabilities (seeded), through the same fit and interval.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

BALANCE = """name: bench-balance
game: libraria
options: {{opening: two_counters}}
balance:
  ladder: [random, greedy]
  precision: 0.025
  metric_games: 200
seed: 11
workers: {workers}
"""


def throughput(rounds: int, workers: int) -> None:
    import simcli
    from simcli.configfile import load_config

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = folder / "balance.yaml"
        config.write_text(BALANCE.format(workers=workers))
        ratios: dict[str, list[float]] = {}
        walls = []
        for r in range(rounds):
            started = time.perf_counter()
            outcome = simcli.balance(config, out=folder / f"b{r}", force=True, plots=False)
            walls.append(time.perf_counter() - started)
            info = json.loads((folder / f"b{r}" / "run.json").read_text())
            for seg in info["balance"]["segments"]:
                name = seg["label"].split()[-1]
                part = load_config(folder / "balance.yaml")
                plain = folder / f"{name}.yaml"
                plain.write_text(
                    f"name: plain\ngame: libraria\noptions: {{opening: two_counters}}\n"
                    f"strategies: [{name}]\nformat: self_play\ngames: {seg['games']}\n"
                    f"seed: {_segment_seed(part)}\nworkers: {workers}\n"
                )
                run = simcli.run(plain, out=folder / f"r{r}-{name}", force=True, plots=False)
                balance_rate = seg["games"] / seg["seconds"]
                run_rate = seg["games"] / run.result.seconds
                ratios.setdefault(name, []).append(balance_rate / run_rate)
                print(
                    f"round {r + 1}: {name}: balance {balance_rate:.0f} games/s, "
                    f"plain run {run_rate:.0f} games/s ({seg['games']} games)"
                )
            del outcome
        for name, values in ratios.items():
            print(
                f"{name}: balance / plain run {statistics.median(values):.2f} "
                f"[{min(values):.2f}, {max(values):.2f}] over {rounds} rounds"
            )
        wall = statistics.median(walls)
        print(f"balance wall time (metrics and reports included): median {wall:.1f} s")


def _segment_seed(config) -> int:
    from simcli.balancing.plan import Planner

    return Planner(config).segments([]).seed


def tuner(repeats: int) -> None:
    from test_balance import duel_share

    from simcli.balancing.plan import PROBE, Planner, Played
    from simcli.balancing.tuner import Probe, fair_value
    from simcli.configfile import load_config

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "duel.yaml"
        path.write_text(
            f"name: duel\ngame: {ROOT / 'tests/data/shift_duel.py'}:ShiftDuel\nseed: 3\n"
            "balance:\n  ladder: [random]\n  tune: {option: komi, low: -30, high: 10, "
            "probe_games: 300, max_games: 6000}\n"
        )
        config = load_config(path)
    rng = np.random.default_rng(7)

    def draw(value: float, games: int) -> tuple[int, int]:
        win, tie = duel_share(value)
        decisive = games - rng.binomial(games, tie)
        wins = rng.binomial(decisive, win / (1 - tie))
        return int(wins), int(decisive - wins)

    spent, widths = [], []
    for _ in range(repeats):
        planner = Planner(config)
        played = [Played(planner.segments([]), [[0]])]
        while (seg := planner.segments(played)) is not None and seg.kind == PROBE:
            won, lost = draw(seg.value, seg.games)
            rest = seg.games - won - lost
            played.append(Played(seg, [[0]] * won + [[1]] * lost + [[]] * rest))
        fair = planner.fair(played[1:])
        spent.append(sum(len(p.winners) for p in played[1:]))
        if fair.low is not None and fair.high is not None:
            widths.append((fair.high - fair.low) / 2)
    target = statistics.median(widths)
    print(
        f"search: median {statistics.median(spent):.0f} games, median half-width "
        f"{target:.2f} (komi points) over {repeats} runs"
    )
    grid = np.arange(-30, 10.5, 2.5)
    for per_point in (50, 100, 150, 200, 300, 400, 600, 800, 1200, 1600):
        halves = []
        for _ in range(max(repeats // 2, 10)):
            probes = [Probe(float(v), draw(float(v), per_point)) for v in grid]
            f = fair_value(probes, -30, 10, 1)
            if f.low is not None and f.high is not None:
                halves.append((f.high - f.low) / 2)
        half = statistics.median(halves)
        print(f"grid of {len(grid)} points x {per_point}: half-width {half:.2f}")
        if half <= target:
            games = per_point * len(grid)
            print(
                f"fixed grid: {games} games for the search's precision; the search "
                f"spent {statistics.median(spent) / games:.2f} of that"
            )
            return
    print("no grid size tried reached the search's precision")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    t = sub.add_parser("throughput")
    t.add_argument("--rounds", type=int, default=3)
    t.add_argument("--workers", type=int, default=2)
    u = sub.add_parser("tuner")
    u.add_argument("--repeats", type=int, default=40)
    args = parser.parse_args()
    if args.what == "throughput":
        throughput(args.rounds, args.workers)
    else:
        tuner(args.repeats)


if __name__ == "__main__":
    main()
