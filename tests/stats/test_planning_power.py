"""The planning figures of simcli/stats/power.py against published sample sizes and by
seeded simulation with a known truth."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from simcli.stats.power import (
    detectable_share,
    games_for_power,
    noncentrality,
    seat_detectable,
    seat_effect_games,
    share_to_elo,
    two_sample_games,
    with_draws,
)


def test_one_proportion_against_published_values() -> None:
    # Chow, Shao & Wang, Sample Size Calculations in Clinical Research (2008), one-sample
    # one-sided test p0 = 0.02, p = 0.05, alpha 0.05, power 0.8: n = 191 (a one-sided
    # test at 0.05 is the two-sided formula at alpha 0.10)
    assert games_for_power(0.05, 0.02, alpha=0.10) == 191
    # the textbook two-sided example 0.5 -> 0.6: ((1.96 * 0.5 + 0.8416 * 0.4899) / 0.1)^2
    # = 193.8 -> 194
    assert games_for_power(0.6) == 194
    assert seat_effect_games(0.6, 2) == 194


def test_two_proportions_against_published_values() -> None:
    # Fleiss' "classical" (no continuity correction) two-sample size, as JMP's documented
    # example gives it: p1 0.08, p2 0.06, two-sided alpha 0.05, power 0.8 -> 2554 per group
    assert two_sample_games(0.08, 0.06) == 2554
    assert two_sample_games(0.06, 0.08) == 2554
    # docs/statistics.md: seat bias 52% vs 50% between two variants, about 9806 each
    assert two_sample_games(0.5, 0.52) == 9806
    with pytest.raises(ValueError):
        two_sample_games(0.3, 0.3)


def test_chi_square_noncentrality_against_cohen() -> None:
    # Cohen, Statistical Power Analysis for the Behavioral Sciences (1988), chi-square
    # tests at alpha 0.05 and power 0.80: lambda = 7.85 (1 df), 9.64 (2 df), 10.90 (3 df),
    # so effect size w = 0.1 needs N = 785, 964, 1090
    assert [round(noncentrality(df), 2) for df in (1, 2, 3)] == [7.85, 9.63, 10.90]
    for seats, n in ((3, 964), (4, 1090)):
        # seat 0 at 1/k + d, the others losing evenly: w^2 = k^2 d^2 / (k - 1)
        d = math.sqrt(0.01 * (seats - 1) / seats**2)
        assert seat_effect_games(1 / seats + d, seats) == pytest.approx(n, abs=1)


def test_the_two_directions_are_inverse() -> None:
    for seats in (2, 3, 4):
        for share in (1 / seats + 0.01, 1 / seats + 0.05):
            n = seat_effect_games(share, seats)
            assert seat_detectable(n, seats) <= share < seat_detectable(n - 1, seats)
    assert detectable_share(4904) == pytest.approx(0.52, abs=1e-4)
    assert seat_detectable(1, 2) == 1.0  # one game detects nothing
    assert share_to_elo(0.5) == 0.0 and share_to_elo(1 / (1 + 10 ** (-10 / 400))) == (
        pytest.approx(10.0)
    )
    assert with_draws(900, 0.1) == 1000
    with pytest.raises(ValueError):
        seat_effect_games(0.3, 3)  # below the even share
    with pytest.raises(ValueError):
        seat_detectable(100, 1)  # a solitaire game has no seat effect


def test_power_by_seeded_simulation() -> None:
    rng = np.random.default_rng(20)
    runs = 4000
    # two seats, the truth 55%: the two-sided exact binomial test rejects in ~80%
    n = seat_effect_games(0.55, 2)
    wins = rng.binomial(n, 0.55, size=runs)
    lo, hi = stats.binom.ppf(0.025, n, 0.5), stats.binom.isf(0.025, n, 0.5)
    rate = np.mean((wins < lo) | (wins > hi))
    assert rate == pytest.approx(0.80, abs=0.025), rate
    # three seats, the truth (0.38, 0.31, 0.31): chi-square goodness of fit with 2 df
    n = seat_effect_games(0.38, 3)
    counts = rng.multinomial(n, [0.38, 0.31, 0.31], size=runs)
    q = ((counts - n / 3) ** 2 / (n / 3)).sum(axis=1)
    rate = np.mean(q > stats.chi2.isf(0.05, 2))
    assert rate == pytest.approx(0.80, abs=0.025), rate
    # two variants, seat 0 at 50% and 55%: the pooled two-proportion z test
    n = two_sample_games(0.5, 0.55)
    a = rng.binomial(n, 0.5, size=runs) / n
    b = rng.binomial(n, 0.55, size=runs) / n
    pooled = (a + b) / 2
    z = (b - a) / np.sqrt(2 * pooled * (1 - pooled) / n)
    rate = np.mean(np.abs(z) > stats.norm.isf(0.025))
    assert rate == pytest.approx(0.80, abs=0.025), rate
