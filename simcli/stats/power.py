"""Power of the two-sided binomial seat test and the games needed for a given power.

``binomial_power(n, p1)`` is the probability that the exact two-sided binomial test of
``p = p0`` at level ``alpha`` rejects when the true rate is ``p1`` and ``n`` decisive
games are played. ``games_for_power`` inverts it (normal approximation or exact search).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats


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
