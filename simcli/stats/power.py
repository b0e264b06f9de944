"""Power and sample size: of the two-sided binomial seat test, of the seat test a run
plans, and of a comparison of two variants.

``binomial_power(n, p1)`` is the probability that the exact two-sided binomial test of
``p = p0`` at level ``alpha`` rejects when the true rate is ``p1`` and ``n`` decisive
games are played. ``games_for_power`` inverts it (normal approximation or exact search),
``detectable_share`` answers the reverse question (the rate ``n`` games detect).

Planning a run (``seat_effect_games``, ``seat_detectable``): seat 0 wins a share ``p`` of
the decisive games, the other seats lose evenly. Two seats: the one-proportion test of
``p = 1/2`` (``games_for_power``; the same normal approximation as the report's
detectable effect of the sign test). More seats: the test with ``seats - 1`` degrees of
freedom that the report's headline stratified test is (noncentral chi-square, with the
null covariance of the decisive wins per seat among equal strategies: noncentrality
``n k^2 d^2 / (k - 1)`` for ``k`` seats and ``p = 1/k + d``). Two variants
(``two_sample_games``): the classical two-proportion formula without continuity
correction (Fleiss, *Statistical Methods for Rates and Proportions*, the "classical"
sample size).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, stats

POWER = 0.8  # the power every planning figure is stated at


def binomial_pvalues(n: int, p0: float = 0.5) -> np.ndarray:
    """Two-sided exact binomial p-value for every ``k`` in ``0..n`` (vectorised).

    Same rule as ``scipy.stats.binomtest(k, n, p0).pvalue``: the sum of the
    probabilities of all outcomes no more likely than ``k`` (relative tolerance 1e-7).
    """
    k = np.arange(n + 1)
    pmf = stats.binom.pmf(k, n, p0)
    order = np.sort(pmf)
    cum = np.cumsum(order)
    idx = np.searchsorted(order, pmf * (1 + 1e-7), side="right") - 1
    return np.minimum(cum[idx], 1.0)


def binomial_power(
    n: int, p1: float, p0: float = 0.5, alpha: float = 0.05, method: str = "exact"
) -> float:
    """Power of the two-sided binomial test of ``p0`` with ``n`` trials when the truth
    is ``p1``. ``method`` is ``"exact"`` (exact test, exact distribution) or ``"normal"``
    (normal approximation of both)."""
    if n <= 0:
        return 0.0
    if method == "normal":
        z = stats.norm.ppf(1 - alpha / 2)
        se0 = math.sqrt(p0 * (1 - p0) / n)
        se1 = math.sqrt(p1 * (1 - p1) / n)
        d = p1 - p0
        return float(stats.norm.cdf((d - z * se0) / se1) + stats.norm.cdf((-d - z * se0) / se1))
    if method != "exact":
        raise ValueError("method must be 'exact' or 'normal'")
    if p0 == 0.5:
        # symmetric null: the two-sided p-value of k <= n/2 is 2 * cdf(k), so the
        # rejection region is k <= c or k >= n - c with c the largest k whose cdf <= a/2
        c = int(stats.binom.ppf(alpha / 2, n, 0.5))
        while c >= 0 and 2 * stats.binom.cdf(c, n, 0.5) > alpha:
            c -= 1
        if c < 0:
            return 0.0
        return float(stats.binom.cdf(c, n, p1) + stats.binom.sf(n - c - 1, n, p1))
    pvals = binomial_pvalues(n, p0)
    reject = pvals <= alpha
    return float(stats.binom.pmf(np.arange(n + 1), n, p1)[reject].sum())


def games_for_power(
    p1: float,
    p0: float = 0.5,
    alpha: float = 0.05,
    power: float = 0.8,
    method: str = "normal",
) -> int:
    """Smallest number of decisive games for the two-sided test to reach ``power``.

    ``normal``: ``n = ((z_{1-a/2} sqrt(p0 q0) + z_{power} sqrt(p1 q1)) / (p1 - p0))^2``
    rounded up. ``exact``: the smallest ``n`` from which the exact test's power stays at
    or above ``power`` for the next 1% of games (the exact power saw-tooths in ``n``).
    """
    if p1 == p0:
        raise ValueError("p1 must differ from p0")
    za = stats.norm.ppf(1 - alpha / 2)
    zb = stats.norm.ppf(power)
    n_normal = math.ceil(
        ((za * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / (p1 - p0)) ** 2
    )
    if method == "normal":
        return n_normal
    if method != "exact":
        raise ValueError("method must be 'exact' or 'normal'")
    lo = max(1, int(n_normal * 0.9))
    hi = int(n_normal * 1.3) + 50
    ok = np.array([binomial_power(n, p1, p0, alpha) >= power for n in range(lo, hi + 1)])
    window = max(1, (hi - lo) // 30)
    for i in range(len(ok) - window):
        if ok[i : i + window].all():
            return lo + i
    raise RuntimeError("no sample size found")  # pragma: no cover


def _z(alpha: float, power: float) -> tuple[float, float]:
    return float(stats.norm.isf(alpha / 2)), float(stats.norm.ppf(power))


def _normal_games(p1: float, p0: float, alpha: float, power: float) -> float:
    za, zb = _z(alpha, power)
    return ((za * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / (p1 - p0)) ** 2


def detectable_share(n: float, p0: float = 0.5, alpha: float = 0.05, power: float = POWER) -> float:
    """Smallest rate ``p1 > p0`` that the two-sided test of ``p0`` detects with ``power``
    from ``n`` decisive games (normal approximation; the inverse of
    ``games_for_power``); 1.0 when even ``p1 = 1`` needs more games."""
    if n <= 0:
        raise ValueError("n must be positive")
    if _normal_games(1.0, p0, alpha, power) > n:
        return 1.0
    return float(optimize.brentq(lambda p: _normal_games(p, p0, alpha, power) - n, p0 + 1e-12, 1.0))


def noncentrality(df: int, alpha: float = 0.05, power: float = POWER) -> float:
    """The noncentrality at which a chi-square test with ``df`` degrees of freedom at
    level ``alpha`` rejects with probability ``power``."""
    crit = stats.chi2.isf(alpha, df)
    return float(
        optimize.brentq(lambda lam: stats.ncx2.sf(crit, df, lam) - power, 1e-6, 1e4, xtol=1e-8)
    )


def _check_seats(seats: int) -> None:
    if seats < 2:
        raise ValueError("a seat effect needs at least two seats")


def seat_effect_games(share: float, seats: int, alpha: float = 0.05, power: float = POWER) -> int:
    """Decisive games the seat test needs to detect seat 0 winning ``share`` of them
    (against ``1/seats``) with ``power`` (see the module doc)."""
    _check_seats(seats)
    even = 1.0 / seats
    if not even < share < 1:
        raise ValueError(f"share must be between {even:.4g} and 1")
    if seats == 2:
        return games_for_power(share, 0.5, alpha, power)
    lam = noncentrality(seats - 1, alpha, power)
    return math.ceil(lam * (seats - 1) / (seats**2 * (share - even) ** 2))


def seat_detectable(n: float, seats: int, alpha: float = 0.05, power: float = POWER) -> float:
    """Smallest share of the decisive games seat 0 must win for the seat test to detect
    it with ``power`` from ``n`` decisive games (the inverse of ``seat_effect_games``)."""
    _check_seats(seats)
    if seats == 2:
        return detectable_share(n, 0.5, alpha, power)
    lam = noncentrality(seats - 1, alpha, power)
    return min(1.0, 1.0 / seats + math.sqrt(lam * (seats - 1) / (n * seats**2)))


def two_sample_games(p1: float, p2: float, alpha: float = 0.05, power: float = POWER) -> int:
    """Games per group for the two-sided two-proportion test to detect ``p1`` against
    ``p2`` with ``power`` (classical normal formula, no continuity correction):
    ``n = (z_{1-a/2} sqrt(2 pbar qbar) + z_power sqrt(p1 q1 + p2 q2))^2 / (p1 - p2)^2``."""
    if p1 == p2:
        raise ValueError("p1 must differ from p2")
    za, zb = _z(alpha, power)
    pbar = (p1 + p2) / 2
    top = za * math.sqrt(2 * pbar * (1 - pbar)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return math.ceil((top / (p1 - p2)) ** 2)


def with_draws(decisive: int, draw_rate: float) -> int:
    """Games to play for ``decisive`` decisive games at ``draw_rate``."""
    return math.ceil(decisive / (1.0 - draw_rate))


def share_to_elo(share: float) -> float:
    """Two seats: seat 0's share of decisive games between equal strategies as Elo."""
    return math.inf if share >= 1 else 400.0 * math.log10(share / (1.0 - share))
