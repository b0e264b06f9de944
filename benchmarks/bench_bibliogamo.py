"""Bibliogamo throughput, and the paired comparison of strategies from a solo run.

    python benchmarks/bench_bibliogamo.py [--games N]
    python benchmarks/bench_bibliogamo.py --compare results/bibliogamo/games.jsonl

Speed (one process): (a) a bare engine loop with uniformly random moves (setup, legal
moves, apply, reshuffles; no strategies, no records); (b) ``simcli.play`` with the
``random`` strategy (views, records); (c) a few games of ``greedy`` and
``bibliogamo_planner`` through ``simcli.play``.

``--compare LOG`` reads a ``format: solo`` log (every strategy on the same seeds) and
prints each strategy's mean score with a 95% t interval, and for every pair the mean
paired difference and the two-sided Wilcoxon signed-rank test over the shared seeds.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import time
from collections import defaultdict
from pathlib import Path

import simcli
from simcli.game import CHANCE
from simcli.games import get_game


def bare_loop(games: int) -> float:
    game = get_game("bibliogamo")
    options = game.resolve_options({})
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        pick = random.Random(~seed)
        state = game.new_state(1, options, game.sample_setup(1, options, rng))
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(pick.choice(state.legal_moves()))
    return games / (time.perf_counter() - start)


def via_play(use: str, games: int) -> float:
    game = get_game("bibliogamo")
    start = time.perf_counter()
    for index in range(games):
        record = simcli.play(game, [use], seed=1000 + index, index=index)
        if record["termination"] != "normal":
            raise SystemExit(f"{use}: game {index} ended {record['termination']}")
    return games / (time.perf_counter() - start)


def compare(log: Path) -> None:
    from scipy import stats

    scores: dict[str, dict[int, float]] = defaultdict(dict)
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if record.get("termination") != "normal" or record.get("game") != "bibliogamo":
            continue
        scores[record["seats"][0]][record["seed"]] = float(record["scores"][0])
    print(f"{'strategy':<12} {'games':>5} {'mean':>7}   95% interval")
    for name, by_seed in scores.items():
        values = list(by_seed.values())
        mean = statistics.fmean(values)
        half = stats.t.ppf(0.975, len(values) - 1) * statistics.stdev(values) / len(values) ** 0.5
        print(f"{name:<12} {len(values):>5} {mean:>7.2f}   [{mean - half:.2f}, {mean + half:.2f}]")
    for a, b in itertools.combinations(scores, 2):
        seeds = sorted(set(scores[a]) & set(scores[b]))
        diffs = [scores[a][s] - scores[b][s] for s in seeds]
        mean = statistics.fmean(diffs)
        half = stats.t.ppf(0.975, len(diffs) - 1) * statistics.stdev(diffs) / len(diffs) ** 0.5
        result = stats.wilcoxon(diffs)
        better = sum(d > 0 for d in diffs)
        worse = sum(d < 0 for d in diffs)
        print(
            f"{a} - {b}: {len(seeds)} shared seeds, mean difference {mean:+.2f} "
            f"[{mean - half:+.2f}, {mean + half:+.2f}], {a} higher on {better}, lower on "
            f"{worse}; Wilcoxon signed-rank W = {result.statistic:.1f}, p = {result.pvalue:.3g}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="random games to time")
    parser.add_argument("--compare", type=Path, help="a solo games.jsonl to compare")
    args = parser.parse_args()
    if args.compare:
        compare(args.compare)
        return
    print(f"(a) bare engine, random moves: {bare_loop(args.games):8.1f} games/s")
    print(f"(b) simcli.play, random:       {via_play('random', args.games):8.1f} games/s")
    few = max(1, args.games // 30)
    print(f"(c) simcli.play, greedy:       {via_play('greedy', few):8.1f} games/s")
    planner = via_play("bibliogamo_planner", few)
    print(f"    simcli.play, planner:      {planner:8.1f} games/s")


if __name__ == "__main__":
    main()
