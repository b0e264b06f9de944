"""Calibration of the headline seat test by seeded simulation with a known truth.

Outcomes are drawn from Bradley-Terry / Plackett-Luce models with known strengths and no
game engine. Gaps: equal strategies, moderate gaps (0 / -150 / -300 Elo) and
quickstart-like gaps (0 / -413 / -710 Elo). With no seat effect the headline test must
reject in 3-7% of tournaments at 0.05; the pooled binomial test (the old headline) is
shown to be far below that between unequal strategies.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from simcli.stats.seat_tests import detectable_stratified, stratified_seat_test
from simcli.stats.significance import binomial_test, sign_test

REPS = 600
NAT = math.log(10) / 400  # natural units per Elo
GAPS = {
    "equal": (0.0, 0.0, 0.0),
    "moderate": (0.0, -150.0, -300.0),
    "quickstart": (0.0, -413.0, -710.0),
}


def _round_robin(elo, reps, games, rng, *, seat_adv=0.0, draw=0.0):
    """Two seats, every ordered matchup `games` independent games: a list of orders
    dicts, one per tournament."""
    names = "ABC"[: len(elo)]
    out = [dict() for _ in range(reps)]
    for (i, a), (j, b) in itertools.permutations(enumerate(names), 2):
        p = 1 / (1 + math.exp(-((elo[i] - elo[j]) * NAT + seat_adv)))
        d = rng.binomial(games, draw, size=reps)
        w = rng.binomial(games - d, p)
        for r in range(reps):
            out[r][((a, b), (0, 1))] = int(w[r])
            out[r][((a, b), (1, 0))] = int(games - d[r] - w[r])
            out[r][((a, b), (0, 0))] = int(d[r])
    return out


def _rates(orders_list):
    strat = pooled = 0
    for orders in orders_list:
        strat += stratified_seat_test(orders, 2)[0].p_value <= 0.05
        k = sum(v for (_, rk), v in orders.items() if rk == (0, 1))
        n = sum(v for (_, rk), v in orders.items() if rk != (0, 0))
        pooled += binomial_test(k, n).p_value <= 0.05
    return strat / len(orders_list), pooled / len(orders_list)


@pytest.mark.slow
@pytest.mark.parametrize("gap,seed", [("equal", 1), ("moderate", 2), ("quickstart", 3)])
def test_stratified_two_seat_test_holds_its_level(gap, seed) -> None:
    rng = np.random.default_rng(seed)
    strat, pooled = _rates(_round_robin(GAPS[gap], REPS, 40, rng, draw=0.2))
    assert 0.03 <= strat <= 0.07, (gap, strat, pooled)
    if gap == "quickstart":
        # the pooled binomial test, once the headline, hardly ever rejects here
        assert pooled < 0.015, pooled


@pytest.mark.slow
def test_stratified_test_finds_a_seat_effect_the_pooled_test_misses() -> None:
    rng = np.random.default_rng(4)
    strat, pooled = _rates(_round_robin(GAPS["quickstart"], 300, 100, rng, seat_adv=0.3))
    assert strat > 0.4 and pooled < strat / 5, (strat, pooled)  # measured 0.50 vs 0.04


def sign_rate(elo, reps, pairs, rng) -> float:
    """Rejection rate of the sign test on seat-swapped pairs: each pair shares a board
    that favours one side by a random amount (same board in both games) and the two
    strategies swap seats; no seat effect."""
    rejected = 0
    for _ in range(reps):
        pos = neg = 0
        for i, j in itertools.combinations(range(3), 2):
            board = rng.normal(0.0, 1.0, size=pairs)
            p = 1 / (1 + np.exp(-((elo[i] - elo[j]) * NAT + board)))
            first = rng.random(pairs) < p  # i wins with i in seat 0
            second = rng.random(pairs) < p  # i wins with i in seat 1
            seat0 = first.astype(int) + (~second).astype(int)  # seat 0's two results
            pos += int((seat0 == 2).sum())
            neg += int((seat0 == 0).sum())
        rejected += sign_test(pos, neg).p_value <= 0.05
    return rejected / reps


@pytest.mark.slow
@pytest.mark.parametrize("gap,seed", [("equal", 5), ("quickstart", 6)])
def test_sign_test_on_seat_swapped_pairs_holds_its_level(gap, seed) -> None:
    rate = sign_rate(GAPS[gap], REPS, 150, np.random.default_rng(seed))
    assert 0.03 <= rate <= 0.07, rate


def _three_seat(elo, reps, rng, *, seat_adv=(0.0, 0.0, 0.0), tie=0.1):
    """Four strategies, three seats: every lineup of three in every seating, with an
    unbalanced schedule (the first seating of each lineup played three times as often)."""
    names = "ABCD"
    out = [dict() for _ in range(reps)]
    for combo in itertools.combinations(range(4), 3):
        for k, perm in enumerate(itertools.permutations(combo)):
            games = 36 if k == 0 else 12
            eta = np.array([elo[i] * NAT + seat_adv[s] for s, i in enumerate(perm)])
            p = np.exp(eta) / np.exp(eta).sum()
            ties = rng.binomial(games, tie, size=reps)
            wins = np.array([rng.multinomial(games - t, p) for t in ties])
            strats = tuple(names[i] for i in perm)
            for r in range(reps):
                out[r][(strats, (0, 0, 0))] = int(ties[r])
                for s in range(3):
                    ranks = tuple(0 if x == s else 1 for x in range(3))
                    out[r][(strats, ranks)] = int(wins[r, s])
    return out


@pytest.mark.slow
@pytest.mark.parametrize("elo,seed", [((0, 0, 0, 0), 7), ((0, -150, -413, -710), 8)])
def test_stratified_three_seat_test_holds_its_level(elo, seed) -> None:
    rng = np.random.default_rng(seed)
    data = _three_seat(elo, 400, rng)
    rejected = sum(stratified_seat_test(o, 3)[0].p_value <= 0.05 for o in data)
    assert 0.03 <= rejected / 400 <= 0.07, rejected / 400


@pytest.mark.slow
def test_detectable_effect_is_detected_about_80_percent_of_the_time() -> None:
    # equal strategies, 2 seats: the stated smallest detectable share of decisive games
    # for seat 0 must give about 80% power when it is the truth
    rng = np.random.default_rng(9)
    base = _round_robin(GAPS["equal"], 1, 100, rng)[0]
    d = stratified_seat_test(base, 2)[1]
    share = detectable_stratified(d)["seat0_share"]
    adv = math.log(share / (1 - share))
    data = _round_robin(GAPS["equal"], 400, 100, rng, seat_adv=adv)
    power = sum(stratified_seat_test(o, 2)[0].p_value <= 0.05 for o in data) / 400
    assert 0.74 <= power <= 0.86, (share, power)


def test_stratified_equals_cochran_mantel_haenszel_by_hand() -> None:
    # one lineup {a, b}: a wins 30 of 50 in seat 0 and 20 of 50 in seat 1 (no draws).
    # CMH on the 2x2 table rows = a's seat, cols = a won/lost: n11 = 30, E = 50*50/100
    # = 25, var = 50^4 / (100^2 * 99) = 6.3131; chi2 = 25 / 6.3131 = 3.9600, p = 0.04659.
    orders = {
        (("a", "b"), (0, 1)): 30,
        (("a", "b"), (1, 0)): 20,
        (("b", "a"), (1, 0)): 20,
        (("b", "a"), (0, 1)): 30,
    }
    res, sc = stratified_seat_test(orders, 2)
    assert res.statistic == pytest.approx(3.9600, abs=1e-4)
    assert res.p_value == pytest.approx(0.04659, abs=1e-5)
    assert sc.observed.tolist() == [60, 40] and sc.expected.tolist() == [50, 50]
    # self-play only: the winning copy's seat is a fair coin, variance n/4
    res, _ = stratified_seat_test({(("a", "a"), (0, 1)): 60, (("a", "a"), (1, 0)): 40}, 2)
    assert res.statistic == pytest.approx(100 / 25)
    # one seating only: seat and strategy confounded, no test
    res, _ = stratified_seat_test({(("a", "b"), (0, 1)): 60, (("a", "b"), (1, 0)): 40}, 2)
    assert res.p_value is None and "confounded" in res.note


@pytest.mark.slow
def test_sign_test_detectable_share_has_80_percent_power() -> None:
    # the stated smallest share of "seat 0 better" among n non-even pairs: the exact
    # sign test rejects at about 80% when it is the truth (binomial draws, seeded)
    from simcli.stats.seat_tests import detectable_sign

    rng = np.random.default_rng(10)
    n = 200
    share = detectable_sign(n)["seat0_better"]
    pos = rng.binomial(n, share, size=REPS)
    power = np.mean([sign_test(int(k), n - int(k)).p_value <= 0.05 for k in pos])
    assert 0.74 <= power <= 0.86, (share, power)
