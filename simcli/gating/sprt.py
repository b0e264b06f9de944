"""The generalized sequential probability ratio test (GSPRT) of fishtest and fastchess.

Outcomes are counted per game (trinomial: loss, draw, win) or, better, per seat-swapped
pair of games (pentanomial: pair scores 0, 1/4, 1/2, 3/4, 1 for the candidate). Under the
logistic Elo model a hypothesis ``elo`` fixes the expected score
``s = 1 / (1 + 10 ** (-elo / 400))``. The log-likelihood ratio compares the maximum
likelihood outcome distributions with expected score ``s1`` and ``s0``:

    LLR = N * sum_i p_i * (log q1_i - log q0_i)

where ``p`` is the observed distribution and ``q_s`` maximises ``sum p_i log q_i`` subject
to ``sum q_i a_i = s``: ``q_i = p_i / (1 + theta * (a_i - s))`` with ``theta`` the root of
``sum p_i (a_i - s) / (1 + theta (a_i - s)) = 0`` (found with ``scipy.optimize.brentq``).
Zero counts are replaced by 1e-3 (as fishtest does) so that one game never decides.
The test stops when LLR leaves ``[ln(beta / (1 - alpha)), ln((1 - beta) / alpha)]``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from simcli.stats.ratings import expected_score  # the same logistic Elo model

REGULARIZE = 1e-3


def elo_from_score(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper): accept H0 below the lower, H1 above the upper."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _pdf(counts: Sequence[float]) -> tuple[float, list[tuple[float, float]]]:
    reg = [max(float(c), REGULARIZE) for c in counts]
    n = sum(reg)
    k = len(reg) - 1
    return n, [(i / k, c / n) for i, c in enumerate(reg)]


def _mle(pdf: list[tuple[float, float]], s: float) -> list[float]:
    from scipy.optimize import brentq

    lo_a = min(a for a, _ in pdf)
    hi_a = max(a for a, _ in pdf)
    eps = 1e-9
    # 1 + theta * (a - s) > 0 for every a: theta in (-1/(hi - s), 1/(s - lo))
    lo_t = -1.0 / (hi_a - s) + eps
    hi_t = 1.0 / (s - lo_a) - eps

    def f(theta: float) -> float:
        return sum(p * (a - s) / (1.0 + theta * (a - s)) for a, p in pdf)

    theta = brentq(f, lo_t, hi_t, xtol=1e-14, maxiter=500)
    return [p / (1.0 + theta * (a - s)) for a, p in pdf]


def tilt(probs: Sequence[float], score: float) -> list[float]:
    """The outcome distribution with expected score ``score`` closest (maximum
    likelihood) to ``probs`` (zeros floored at 1e-6), as the test computes it."""
    v = [max(float(x), 1e-6) for x in probs]
    total, k = sum(v), len(v) - 1
    return _mle([(i / k, x / total) for i, x in enumerate(v)], score)


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for trinomial
    ``[L, D, W]`` or pentanomial ``[LL, LD, DD+WL, WD, WW]`` counts."""
    if sum(counts) == 0:
        return 0.0
    n, pdf = _pdf(counts)
    q0 = _mle(pdf, expected_score(elo0))
    q1 = _mle(pdf, expected_score(elo1))
    return n * sum(
        p * (math.log(b) - math.log(a)) for (_, p), a, b in zip(pdf, q0, q1, strict=True)
    )


@dataclass(frozen=True)
class EloEstimate:
    elo: float
    low: float
    high: float
    los: float  # likelihood of superiority: P(true Elo > 0)
    score: float

    @property
    def margin(self) -> float:
        return (self.high - self.low) / 2.0


def elo_estimate(counts: Sequence[float], confidence: float = 0.95) -> EloEstimate:
    """Elo with a normal-approximation interval from trinomial or pentanomial counts
    (the per-unit variance of the score, as fishtest and fastchess report it)."""
    from scipy.stats import norm

    n = float(sum(counts))
    if n == 0:
        return EloEstimate(0.0, -math.inf, math.inf, 0.5, 0.5)
    k = len(counts) - 1
    score = sum(c * i / k for i, c in enumerate(counts)) / n
    var = sum(c * (i / k - score) ** 2 for i, c in enumerate(counts)) / n
    se = math.sqrt(var / n)
    z = norm.ppf(0.5 + confidence / 2.0)
    low = elo_from_score(score - z * se)
    high = elo_from_score(score + z * se)
    los = 0.5 if se == 0 else float(norm.cdf((score - 0.5) / se))
    if se == 0:
        los = 1.0 if score > 0.5 else 0.0 if score < 0.5 else 0.5
    return EloEstimate(elo_from_score(score), low, high, los, score)


@dataclass(frozen=True)
class SprtState:
    llr: float
    lower: float
    upper: float

    @property
    def verdict(self) -> str | None:
        """ "H1" (passed), "H0" (regression) or None (go on)."""
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return None


def sprt(
    counts: Sequence[float], elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05
) -> SprtState:
    lower, upper = bounds(alpha, beta)
    return SprtState(llr(counts, elo0, elo1), lower, upper)
