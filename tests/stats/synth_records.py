"""Synthetic game records (schema 1) for the statistics and report tests.

No game engine: outcomes are drawn from known models with a seeded numpy generator.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

#: Records made one after another get rising indexes, as the records of one run do (a
#: log whose indexes do not rise is refused by every reader).
_INDEXES = itertools.count()


def make_record(
    seats,
    winners,
    scores=None,
    *,
    seed=0,
    termination="normal",
    moves=None,
    variant=None,
    detail=None,
    game="libraria",
    index=None,
    options=None,
):
    rec = {
        "schema": 1,
        "game": game,
        "options": options if options is not None else {"opening": "two_counters"},
        "index": next(_INDEXES) if index is None else index,
        "seed": seed,
        "seats": list(seats),
        "setup": {},
        "moves": list(moves) if moves is not None else [0, 1, {"chance": 2}, 3],
        "scores": scores,
        "winners": list(winners),
        "termination": termination,
        "final_hash": "0" * 16,
    }
    if variant is not None:
        rec["variant"] = variant
    if detail is not None:
        rec["detail"] = detail
    return rec


def logistic(x):
    return 1.0 / (1.0 + np.exp(-x))


def elo_to_nat(elo):
    return elo * math.log(10) / 400.0


def two_player_round_robin(
    strengths: dict[str, float],
    pairs_per_matchup: int,
    *,
    seat_advantage: float = 0.0,
    draw_rate: float = 0.0,
    rng=None,
    variant=None,
    seed_base=0,
):
    """Seat-swapped pairs for every matchup; strengths and seat advantage in natural
    units (P(seat 0 wins | not drawn) = logistic(r0 - r1 + seat_advantage))."""
    rng = rng if rng is not None else np.random.default_rng(0)
    names = list(strengths)
    out = []
    seed = seed_base
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            for _ in range(pairs_per_matchup):
                seed += 1
                for s0, s1 in ((a, b), (b, a)):
                    p = logistic(strengths[s0] - strengths[s1] + seat_advantage)
                    if rng.random() < draw_rate:
                        winners, scores = [], [5, 5]
                    elif rng.random() < p:
                        winners, scores = [0], [6 + int(rng.integers(0, 4)), 5]
                    else:
                        winners, scores = [1], [5, 6 + int(rng.integers(0, 4))]
                    moves = list(range(int(rng.integers(10, 30))))
                    out.append(
                        make_record(
                            (s0, s1), winners, scores, seed=seed, moves=moves, variant=variant
                        )
                    )
    return out


def self_play(name, games, *, p_seat0=0.5, draw_rate=0.0, rng=None, variant=None):
    rng = rng if rng is not None else np.random.default_rng(0)
    out = []
    for i in range(games):
        if rng.random() < draw_rate:
            winners = []
        else:
            winners = [0] if rng.random() < p_seat0 else [1]
        scores = [3 if 0 in winners else 2, 3 if 1 in winners else 2]
        out.append(make_record((name, name), winners, scores, seed=1000 + i, variant=variant))
    return out


def solo(strategy_means: dict[str, float], seeds: int, *, rng=None, noise=2.0):
    """Solitaire: every strategy plays the same seeds; score = seed effect + mean + noise."""
    rng = rng if rng is not None else np.random.default_rng(0)
    seed_effect = rng.integers(0, 20, size=seeds)
    out = []
    for name, mean in strategy_means.items():
        for i in range(seeds):
            score = int(seed_effect[i] + round(mean + rng.normal(0, noise)))
            out.append(make_record((name,), [0] if score > 15 else [], [score], seed=i))
    return out
