"""Confidence intervals for proportions (win rates) and means (points).

Proportion intervals come from ``scipy.stats.binomtest(k, n).proportion_ci(...)`` when the
number of successes is a whole number. Shared first places (1/k of a win) and score rates
(a draw is half a point) make fractional success counts; for those the same formulas are
evaluated in closed form (they are continuous in ``k``), so a fractional count gets the
interval the formula would give, and an integer count gets exactly scipy's answer.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
from scipy import stats

#: Interval methods accepted by ``--ci-method`` (the names scipy's ``proportion_ci`` uses).
CI_METHODS: tuple[str, ...] = ("wilson", "wilsoncc", "exact")

CI_METHOD_NAMES = {
    "wilson": "Wilson score interval",
    "wilsoncc": "Wilson score interval with continuity correction",
    "exact": "Clopper-Pearson exact interval",
}


@dataclass(frozen=True)
class Interval:
    """An estimate with a two-sided confidence interval.

    ``estimate``/``low``/``high`` are ``None`` (never NaN) when they cannot be computed;
    ``note`` then says why.
    """

    estimate: float | None
    low: float | None
    high: float | None
    n: float
    method: str
    confidence: float = 0.95
    note: str | None = None

    def contains(self, value: float) -> bool:
        if self.low is None or self.high is None:
            return False
        return self.low <= value <= self.high

    @property
    def defined(self) -> bool:
        return self.estimate is not None and self.low is not None and self.high is not None

    def to_dict(self) -> dict:
        data = asdict(self)
        if data["note"] is None:
            del data["note"]
        return data


def _z(confidence: float) -> float:
    return float(stats.norm.ppf(0.5 + confidence / 2.0))


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")


def wilson_interval(k, n, confidence: float = 0.95):
    """Wilson score interval for ``k`` successes in ``n`` trials (closed form).

    Works for fractional ``k`` and vectorises over numpy arrays. Returns ``(low, high)``.
    For 600 of 1000 it gives (0.5693, 0.6299).
    """
    _check_confidence(confidence)
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    z = _z(confidence)
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    center = (p + z2 / (2.0 * n)) / denom
    half = z * np.sqrt(np.maximum(p * (1.0 - p) / n + z2 / (4.0 * n * n), 0.0)) / denom
    low = np.clip(center - half, 0.0, 1.0)
    high = np.clip(center + half, 0.0, 1.0)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def wilsoncc_interval(k, n, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval with continuity correction (Newcombe 1998, method 4)."""
    _check_confidence(confidence)
    z = _z(confidence)
    p = k / n
    q = 1.0 - p
    z2 = z * z
    denom = 2.0 * (n + z2)
    if p <= 0.0:
        low = 0.0
    else:
        low = 2 * n * p + z2 - 1 - z * math.sqrt(max(z2 - 2 - 1 / n + 4 * p * (n * q + 1), 0.0))
        low = max(0.0, low / denom)
    if p >= 1.0:
        high = 1.0
    else:
        high = 2 * n * p + z2 + 1 + z * math.sqrt(max(z2 + 2 - 1 / n + 4 * p * (n * q - 1), 0.0))
        high = min(1.0, high / denom)
    return low, high


def clopper_pearson_interval(k, n, confidence: float = 0.95) -> tuple[float, float]:
    """Clopper-Pearson interval from beta quantiles (valid for fractional ``k``)."""
    _check_confidence(confidence)
    alpha = 1.0 - confidence
    low = 0.0 if k <= 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
    high = 1.0 if k >= n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
    return low, high


_CLOSED_FORM = {
    "wilson": wilson_interval,
    "wilsoncc": wilsoncc_interval,
    "exact": clopper_pearson_interval,
}


def binom_ci(k: float, n: float, *, method: str = "wilson", confidence: float = 0.95) -> Interval:
    """Proportion ``k / n`` with a confidence interval.

    ``method`` is one of :data:`CI_METHODS`. Whole-number ``k`` and ``n`` use
    ``scipy.stats.binomtest(k, n).proportion_ci(confidence, method)``; fractional
    counts use the same formula in closed form. ``n == 0`` gives an undefined interval
    with a note.
    """
    if method not in CI_METHODS:
        raise ValueError(f"unknown interval method {method!r}; use one of {CI_METHODS}")
    _check_confidence(confidence)
    if n <= 0:
        return Interval(None, None, None, 0, method, confidence, note="no games")
    if k < 0 or k > n + 1e-9:
        raise ValueError(f"successes {k} outside 0..{n}")
    k = min(max(k, 0.0), n)
    if float(k).is_integer() and float(n).is_integer():
        ci = stats.binomtest(int(k), int(n)).proportion_ci(
            confidence_level=confidence, method=method
        )
        low, high = float(ci.low), float(ci.high)
    else:
        low, high = _CLOSED_FORM[method](float(k), float(n), confidence)
    return Interval(float(k) / float(n), low, high, n, method, confidence)


def t_interval(n: int, mean: float | None, sd: float | None, confidence: float = 0.95) -> Interval:
    """Student t interval for a mean from ``n`` observations with sample sd ``sd``."""
    _check_confidence(confidence)
    if n <= 0 or mean is None:
        return Interval(None, None, None, 0, "t", confidence, note="no scored games")
    if n == 1 or sd is None or not math.isfinite(sd):
        return Interval(
            float(mean), None, None, n, "t", confidence, note="one observation: no interval"
        )
    half = float(stats.t.ppf(0.5 + confidence / 2.0, n - 1)) * sd / math.sqrt(n)
    return Interval(float(mean), float(mean) - half, float(mean) + half, n, "t", confidence)
