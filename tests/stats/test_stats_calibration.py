"""Calibration by simulation with known truth (seeded, no game engine).

Outcomes are drawn in bulk with numpy; the report's own functions then judge each
simulated tournament. p-values and intervals are computed once per distinct count and
looked up, which is exactly what calling the function per tournament would give.
"""

import math

import numpy as np
import pytest

from simcli.stats.intervals import binom_ci, t_interval
from simcli.stats.power import binomial_power
from simcli.stats.ratings import ELO_PER_NAT, fit_with_seat_test
from simcli.stats.significance import binomial_test, sign_test

TOURNAMENTS = 2000


def _rejection_rate(k, n, test, alpha=0.05):
    cache = {}
    rejected = 0
    for kk, nn in zip(k.tolist(), n.tolist(), strict=True):
        key = (kk, nn)
        if key not in cache:
            cache[key] = test(kk, nn).p_value
        rejected += cache[key] <= alpha
    return rejected / len(k)


@pytest.mark.slow
def test_seat_test_size_without_seat_effect():
    rng = np.random.default_rng(20240601)
    games = 400
    decisive = rng.binomial(games, 0.9, size=TOURNAMENTS)  # 10% draws
    seat1 = rng.binomial(decisive, 0.5)
    rate = _rejection_rate(seat1, decisive, binomial_test)
    assert 0.03 <= rate <= 0.07, rate


@pytest.mark.slow
def test_seat_test_power_matches_binomial_power():
    rng = np.random.default_rng(7)
    n, p1 = 500, 0.56
    seat1 = rng.binomial(n, p1, size=TOURNAMENTS)
    rate = _rejection_rate(seat1, np.full(TOURNAMENTS, n), binomial_test)
    expected = binomial_power(n, p1)
    assert 0.5 < expected < 0.9  # a power where a mismatch would show
    assert abs(rate - expected) <= 0.05, (rate, expected)


@pytest.mark.slow
def test_pair_sign_test_size_without_seat_effect():
    rng = np.random.default_rng(99)
    pairs = 150
    # per pair: seat 0 better, seat 1 better or even (e.g. one strategy won both)
    counts = rng.multinomial(pairs, [0.2, 0.2, 0.6], size=TOURNAMENTS)
    pos, neg = counts[:, 0], counts[:, 1]
    rate = _rejection_rate(pos, neg, lambda a, b: sign_test(a, b))
    assert 0.03 <= rate <= 0.07, rate


@pytest.mark.parametrize("p_true,n", [(0.3, 250), (0.55, 400), (0.08, 300)])
def test_wilson_interval_coverage(p_true, n):
    rng = np.random.default_rng(int(p_true * 1000) + n)
    k = rng.binomial(n, p_true, size=TOURNAMENTS)
    cover = {kk: binom_ci(kk, n).contains(p_true) for kk in np.unique(k).tolist()}
    coverage = np.mean([cover[kk] for kk in k.tolist()])
    assert 0.93 <= coverage <= 0.97, coverage


@pytest.mark.slow
def test_t_interval_coverage_for_mean_points():
    rng = np.random.default_rng(3)
    size = 40
    points = rng.poisson(6.0, size=(TOURNAMENTS, size))  # skewed integer points
    means = points.mean(axis=1)
    sds = points.std(axis=1, ddof=1)
    covered = 0
    for m, s in zip(means.tolist(), sds.tolist(), strict=True):
        covered += t_interval(size, m, s).contains(6.0)
    assert 0.93 <= covered / TOURNAMENTS <= 0.97


@pytest.mark.slow
def test_rating_model_seat_test_power_with_seat_effect():
    rng = np.random.default_rng(5)
    sims = 200
    adv = math.log(0.56 / 0.44)  # equal strategies: seat 0 wins 56%
    seatings = [("A", "B"), ("B", "A")]
    games = 250
    wins = rng.binomial(games, 1 / (1 + math.exp(-adv)), size=(sims, 2))
    rejected = 0
    for w0, w1 in wins.tolist():
        data = {
            (("A", "B"), (0, 1)): w0,
            (("A", "B"), (1, 0)): games - w0,
            (("B", "A"), (0, 1)): w1,
            (("B", "A"), (1, 0)): games - w1,
        }
        rejected += fit_with_seat_test(data)[1].p_value <= 0.05
    # 500 games, p = 0.56: binomial power ~0.78; the LR test is close to it
    expected = binomial_power(2 * games, 0.56)
    assert abs(rejected / sims - expected) <= 0.1, (rejected / sims, expected)
    assert len(seatings) == 2


def _davidson_round_robin(rng, sims, strength, games, nu, seat_adv=0.0):
    """Every ordered seating `games` games drawn from the Davidson model: seat-0 player
    a, seat-1 player b, t = exp((r_a - r_b + h) / 2), P(a) = t / S, P(draw) = nu / S,
    P(b) = (1/t) / S with S = t + 1/t + nu."""
    seatings = [(a, b) for a in strength for b in strength if a != b]
    out = [dict() for _ in range(sims)]
    for a, b in seatings:
        t = math.exp((strength[a] - strength[b] + seat_adv) / 2)
        S = t + 1 / t + nu
        counts = rng.multinomial(games, [t / S, nu / S, 1 / t / S], size=sims)
        for r in range(sims):
            out[r][((a, b), (0, 1))] = int(counts[r, 0])
            out[r][((a, b), (0, 0))] = int(counts[r, 1])
            out[r][((a, b), (1, 0))] = int(counts[r, 2])
    return out


@pytest.mark.slow
@pytest.mark.parametrize("draw_rate,seed", [(0.0, 31), (0.3, 32), (0.6, 33)])
def test_draw_model_seat_test_size_and_coverage(draw_rate, seed):
    """No seat effect, unequal strategies, draws at 0/30/60% between equals: the LR seat
    test on the Davidson model rejects 3-7% at 0.05 and the 95% intervals of a rating
    difference and of the seat advantage cover 93-97%. (Counting a draw as half a win
    and half a loss gave 2.0% / 0.3% rejections and 98.8-100% coverage at 30% / 60%.)"""
    rng = np.random.default_rng(seed)
    sims = 500  # studies/calibration/draw_model.py runs 2000
    strength = {"A": 0.0, "B": -0.4, "C": -0.9}
    nu = 2 * draw_rate / (1 - draw_rate)  # draw probability nu / (2 + nu) between equals
    data = _davidson_round_robin(rng, sims, strength, 60, nu)
    rejected, covered_b, covered_seat = seat_model_calibration(data, strength)
    assert 0.03 <= rejected <= 0.07, rejected
    assert 0.93 <= covered_b <= 0.97, covered_b
    assert 0.93 <= covered_seat <= 0.97, covered_seat


def seat_model_calibration(data, strength) -> tuple[float, float, float]:
    """No true seat effect: rejection rate of the LR seat test at 0.05, and coverage of
    the 95% intervals of R_B - R_A and of the seat advantage, over tournaments."""
    true_b = (strength["B"] - strength["A"]) * ELO_PER_NAT
    rejected = covered_b = covered_seat = 0
    for d in data:
        fit, lrt = fit_with_seat_test(d, names=list(strength))
        rejected += lrt.p_value <= 0.05
        covered_b += fit.rating_interval("B").contains(true_b)
        covered_seat += fit.first_seat_advantage().contains(0.0)
    n = len(data)
    return rejected / n, covered_b / n, covered_seat / n
