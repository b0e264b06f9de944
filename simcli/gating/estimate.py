"""Elo estimate and interval corrected for the SPRT's stopping rule.

A test that stops when the LLR leaves its bounds stops early on lucky streaks, so the
plain estimate from the final counts is biased away from the middle of the bounds and its
interval covers less than it says. As fishtest does, the LLR is treated as a Brownian
motion with drift and the outcome of the test is ordered stage-wise: at a true Elo ``e``,
``G(e)`` is the probability of an outcome "worse" than the one observed (failing earlier,
passing later, or still running below the observed LLR at the observed time). ``G``
falls as ``e`` rises; the corrected estimate solves ``G(e) = 1/2`` (median unbiased) and
the ``1 - p`` interval runs from the root of ``G(e) = 1 - p/2`` to that of ``G(e) = p/2``.

Drift and variance of the LLR per unit (pair or seed) at a hypothetical expected score
``s`` follow fishtest's Brownian approximation of the GSPRT: with ``s_hat``, ``v_hat``
the observed mean and variance of the unit score (zero counts regularised to 1e-3) and
``v = v_hat + (s - s_hat)^2``, drift ``(s - (s0 + s1)/2) (s1 - s0) / v`` and variance
``(s1 - s0)^2 / v``. The observed point is ``(T, y) = (N, N * drift(s_hat))``; a point
beyond a bound is moved back onto it along its slope (the test stopped there).

``G`` is computed in closed form: the sub-density of the walk that has not left
``[a, b]`` by time ``T`` is a sum of images, ``exp(g x - mu^2 T / (2 sigma^2))`` times
``phi(x - c)`` over ``c = -2kA`` (sign +) and ``c = 2a - 2kA`` (sign -), ``A = b - a``,
``g = mu / sigma^2``; its integrals against ``1`` and ``exp(-2 g x)`` are normal
distribution functions. The probability of having failed by ``T`` is the eventual
probability of failing minus that of the survivors.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

from simcli.gating.sprt import REGULARIZE, bounds, expected_score

_ELO_LIMIT = 1000.0


@dataclass(frozen=True)
class Corrected:
    """The corrected estimate: ``None`` for a value beyond +-1000 Elo (``note`` says)."""

    elo: float | None
    low: float | None
    high: float | None
    los: float
    confidence: float
    note: str | None = None

    def to_dict(self) -> dict:
        out = {
            "estimate": self.elo,
            "low": self.low,
            "high": self.high,
            "los": self.los,
            "confidence": self.confidence,
            "method": "corrected for the SPRT stopping rule (stage-wise ordering, Brownian "
            "approximation of the LLR, as fishtest)",
        }
        if self.note:
            out["note"] = self.note
        return out


def _moments(counts: Sequence[float]) -> tuple[float, float, float]:
    reg = [max(float(c), REGULARIZE) for c in counts]
    n = sum(reg)
    k = len(reg) - 1
    s = sum(c * i / k for i, c in enumerate(reg)) / n
    v = sum(c * (i / k - s) ** 2 for i, c in enumerate(reg)) / n
    return n, s, v


def _log_diff_ndtr(u1: np.ndarray, u2: np.ndarray) -> np.ndarray:
    """log(Phi(u2) - Phi(u1)) for u1 <= u2, accurate in both tails."""
    upper = (u1 + u2) > 0
    hi = np.where(upper, special.log_ndtr(-u1), special.log_ndtr(u2))
    lo = np.where(upper, special.log_ndtr(-u2), special.log_ndtr(u1))
    with np.errstate(divide="ignore"):
        return hi + np.log1p(-np.exp(np.minimum(lo - hi, 0.0)))


def _survivor_integrals(a, b, mu, var, T, y, g_factor):
    """Sum over images of the integral from ``a`` to ``y`` of the survivors' sub-density
    times ``exp(g_factor * g * x)`` (``g_factor`` 0 or -2), as (log magnitudes, signs)."""
    A = b - a
    s = math.sqrt(var * T)
    g = mu / var
    K = int(math.ceil(4 * s / A)) + 3
    k = np.arange(-K, K + 1)
    cs = np.concatenate([-2 * k * A, 2 * a - 2 * k * A])
    sign = np.concatenate([np.ones(k.size), -np.ones(k.size)])
    h = g * (1 + g_factor)  # exponent of exp(h x) after the factor
    # integral of exp(h x - mu^2 T / (2 var)) phi_s(x - c) from a to y
    shift = h * s * s
    log_pref = h * cs + (h * h * s * s) / 2 - mu * mu * T / (2 * var)
    lo = (a - cs - shift) / s
    hi = (y - cs - shift) / s
    return log_pref + _log_diff_ndtr(lo, hi), sign


def _signed_sum(logs: np.ndarray, signs: np.ndarray) -> float:
    m = float(np.max(logs))
    if not math.isfinite(m):
        return 0.0
    return float(np.sum(signs * np.exp(logs - m)) * math.exp(m))


def outcome_probability(a, b, mu, var, T, y) -> float:
    """``G`` (the interval of level ``1 - p`` holds an Elo exactly when ``p/2 <= G <=
    1 - p/2``): probability that a Brownian motion with drift ``mu`` and variance ``var``
    per unit, started at 0 between ``a < 0 < b``, fails before ``T`` or is still running
    at ``T`` below ``y``."""
    g = mu / var
    A = b - a
    survive_below_y = _signed_sum(*_survivor_integrals(a, b, mu, var, T, y, 0.0))
    survive = _signed_sum(*_survivor_integrals(a, b, mu, var, T, b, 0.0))
    # P_x(fail eventually) = (exp(-2g x) - exp(-2g b)) / (exp(-2g a) - exp(-2g b))
    if abs(g * A) < 1e-9:
        fail_from_0 = b / A
        # no drift: P_x(fail) = (b - x) / A, integrated numerically
        xs = np.linspace(a, b, 2001)
        dens = _density(a, b, mu, var, T, xs)
        fail_survivors = float(np.trapezoid(dens * (b - xs) / A, xs))
    else:
        logs_e, signs_e = _survivor_integrals(a, b, mu, var, T, b, -2.0)
        if g > 0:
            d = math.exp(-2 * g * A)
            fail_from_0 = (math.exp(2 * g * a) - d) / (1 - d)
            e1 = _signed_sum(logs_e + 2 * g * a, signs_e)
            fail_survivors = (e1 - d * survive) / (1 - d)
        else:
            d = math.exp(2 * g * A)
            fail_from_0 = (1 - math.exp(2 * g * b)) / (1 - d)
            e1 = _signed_sum(logs_e + 2 * g * b, signs_e)
            fail_survivors = (survive - e1) / (1 - d)
    failed_by_T = fail_from_0 - fail_survivors
    return float(min(max(failed_by_T + survive_below_y, 0.0), 1.0))


def _density(a, b, mu, var, T, xs):
    s = math.sqrt(var * T)
    A = b - a
    K = int(math.ceil(4 * s / A)) + 3
    out = np.zeros_like(xs)
    for k in range(-K, K + 1):
        for c, sign in ((-2 * k * A, 1.0), (2 * a - 2 * k * A, -1.0)):
            z = (xs - c) / s
            out += sign * np.exp(mu / var * xs - mu * mu * T / (2 * var) - z * z / 2)
    return out / (s * math.sqrt(2 * math.pi))


@dataclass(frozen=True)
class _State:
    a: float
    b: float
    s0: float
    s1: float
    s_hat: float
    v_hat: float
    T: float
    y: float

    def drift_var(self, s: float) -> tuple[float, float]:
        v = self.v_hat + (s - self.s_hat) ** 2
        return (s - (self.s0 + self.s1) / 2) * (self.s1 - self.s0) / v, (self.s1 - self.s0) ** 2 / v

    def G(self, elo: float) -> float:
        mu, var = self.drift_var(expected_score(elo))
        return outcome_probability(self.a, self.b, mu, var, self.T, self.y)


def stopping_state(
    counts: Sequence[float], elo0: float, elo1: float, alpha: float, beta: float
) -> _State:
    a, b = bounds(alpha, beta)
    n, s_hat, v_hat = _moments(counts)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    slope = (s_hat - (s0 + s1) / 2) * (s1 - s0) / v_hat
    T, y = n, n * slope
    if y < a:
        T, y = a / slope, a
    elif y > b:
        T, y = b / slope, b
    return _State(a, b, s0, s1, s_hat, v_hat, T, y)


def corrected_estimate(
    counts: Sequence[float],
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    confidence: float = 0.95,
) -> Corrected:
    """Median-unbiased Elo and its interval after a (possibly stopped) SPRT on trinomial
    ``[L, D, W]`` or pentanomial counts."""
    if sum(counts) <= 0:
        return Corrected(None, None, None, 0.5, confidence, "nothing counted yet")
    if max(counts) == sum(counts):
        labels = {0: "lost", len(counts) - 1: "won"}
        kind = labels.get(list(counts).index(max(counts)), "drawn (even)")
        return Corrected(
            None,
            None,
            None,
            0.5,
            confidence,
            f"every counted unit was {kind}: the outcomes do not vary, so there is no "
            "corrected estimate",
        )
    st = stopping_state(counts, elo0, elo1, alpha, beta)
    p = 1 - confidence

    def solve(target: float) -> float | None:
        lo, hi = -_ELO_LIMIT, _ELO_LIMIT
        f_lo, f_hi = st.G(lo) - target, st.G(hi) - target
        if f_lo < 0 or f_hi > 0:  # G falls with the Elo
            return None
        return float(optimize.brentq(lambda e: st.G(e) - target, lo, hi, xtol=1e-6))

    est = solve(0.5)
    low = solve(1 - p / 2)
    high = solve(p / 2)
    note = None
    if est is None or low is None or high is None:
        side = "won" if st.s_hat > 0.5 else "lost"
        note = (
            f"nearly every counted unit was {side}: the corrected estimate lies beyond "
            f"±{_ELO_LIMIT:g} Elo"
        )
    return Corrected(est, low, high, st.G(0.0), confidence, note)
