"""Finding the fair value of a compensation option from probes at a rung.

Two seats: seat 0's share of the decisive games at option value ``x`` is modelled as
``1 / (1 + exp(-b (x - theta)))`` (logistic regression on the probes' counts); the fair
value is ``theta``, where the share is 1/2, and its 95% interval is the profile
likelihood interval (the values of ``theta`` a likelihood-ratio test at 5% does not
reject). The next probe goes to the current estimate, where a probe tells most about
``theta``. More seats: each seat's share is fitted the same way, the fair value
minimises the squared distance of the shares from uniform, and its interval comes from
a seeded parametric bootstrap of the probes' counts.

Races of named variants (:func:`race_survivors`) keep every variant whose imbalance is
not significantly above the best one's (Bonferroni over the variants).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

from simcli.stats.intervals import wilson_interval

CHI2_95 = float(stats.chi2.ppf(0.95, 1))


@dataclass(frozen=True)
class Probe:
    """Decisive games won per seat at one option value."""

    value: float
    wins: tuple[int, ...]

    @property
    def decisive(self) -> int:
        return sum(self.wins)


@dataclass(frozen=True)
class FairValue:
    """The fair value's estimate and 95% interval (``None`` ends: the interval reaches
    past what the probes can bound). ``inside``: whether the estimate lies in the tuned
    range; ``note`` says why there is no estimate."""

    fair: float | None
    low: float | None
    high: float | None
    inside: bool
    note: str = ""


def _loglik(b: float, theta: float, x: np.ndarray, w: np.ndarray, n: np.ndarray) -> float:
    z = b * (x - theta)
    # w log s(z) + (n - w) log(1 - s(z)), with log s(z) = -log(1 + e^-z)
    return float(np.sum(-w * np.logaddexp(0.0, -z) - (n - w) * np.logaddexp(0.0, z)))


def _fit(x: np.ndarray, w: np.ndarray, n: np.ndarray) -> tuple[float, float, float] | None:
    """Maximum likelihood (a, b) of logit p = a + b x, and the log-likelihood; None when
    the data give no finite fit (every game won by one seat, or no slope)."""

    def nll(p: np.ndarray) -> float:
        z = p[0] + p[1] * x
        return float(np.sum(w * np.logaddexp(0.0, -z) + (n - w) * np.logaddexp(0.0, z)))

    scale = max(float(np.ptp(x)), 1e-9)
    best = optimize.minimize(nll, np.zeros(2), method="BFGS", options={"gtol": 1e-9})
    a, b = (float(v) for v in best.x)
    if not np.all(np.isfinite(best.x)) or abs(b) * scale < 1e-6 or abs(b) * scale > 1e3:
        return None
    return a, b, -float(best.fun)


def _profile(theta: float, x: np.ndarray, w: np.ndarray, n: np.ndarray, b0: float) -> float:
    """max over b of the log-likelihood with the root fixed at ``theta``."""
    # concave in b (z is linear in b): a bounded search finds the maximum
    reach = 50 * abs(b0)
    best = optimize.minimize_scalar(
        lambda b: -_loglik(b, theta, x, w, n),
        bounds=(-reach, reach),
        method="bounded",
        options={"xatol": abs(b0) * 1e-6},
    )
    return -float(best.fun)


def fair_two_seats(probes: Sequence[Probe], low: float, high: float) -> FairValue:
    """Seat 0's share is 1/2 at ``fair`` (see the module's doc)."""
    x = np.array([p.value for p in probes], dtype=float)
    w = np.array([p.wins[0] for p in probes], dtype=float)
    n = np.array([p.decisive for p in probes], dtype=float)
    if len(set(x.tolist())) < 2 or n.sum() == 0:
        return FairValue(None, None, None, False, "probes at two values are needed")
    fit = _fit(x, w, n)
    if fit is None:
        return FairValue(None, None, None, False, "the seat share does not change with it")
    a, b, best = fit
    theta = -a / b
    span = high - low
    lo_edge, hi_edge = low - 2 * span, high + 2 * span

    def excess(t: float) -> float:
        return 2 * (best - _profile(t, x, w, n, b)) - CHI2_95

    def end(edge: float) -> float | None:
        if excess(edge) <= 0:
            return None  # not bounded within twice the range beyond it
        return float(optimize.brentq(excess, min(theta, edge), max(theta, edge), xtol=1e-6))

    inner = min(max(theta, lo_edge), hi_edge)
    if not lo_edge < theta < hi_edge:
        return FairValue(inner, None, None, False, "the fitted fair value is far outside")
    return FairValue(theta, end(lo_edge), end(hi_edge), low <= theta <= high)


def _shares_fit(probes: Sequence[Probe], seats: int) -> list[tuple[float, float]] | None:
    x = np.array([p.value for p in probes], dtype=float)
    n = np.array([p.decisive for p in probes], dtype=float)
    fits = []
    for s in range(seats):
        w = np.array([p.wins[s] for p in probes], dtype=float)
        fit = _fit(x, w, n)
        if fit is None:
            return None
        fits.append(fit[:2])
    return fits


def _most_uniform(fits: list[tuple[float, float]], low: float, high: float) -> float:
    grid = np.linspace(low, high, 2001)
    shares = np.array([1 / (1 + np.exp(-(a + b * grid))) for a, b in fits])
    shares = shares / shares.sum(axis=0)  # the seats' shares of one game add up to 1
    distance = ((shares - 1 / len(fits)) ** 2).sum(axis=0)
    return float(grid[int(np.argmin(distance))])


def fair_many_seats(
    probes: Sequence[Probe], low: float, high: float, seed: int, resamples: int = 200
) -> FairValue:
    """The value in [low, high] whose fitted seat shares are closest to uniform."""
    seats = len(probes[0].wins)
    if len({p.value for p in probes}) < 2:
        return FairValue(None, None, None, False, "probes at two values are needed")
    fits = _shares_fit(probes, seats)
    if fits is None:
        return FairValue(None, None, None, False, "the seat shares do not change with it")
    fair = _most_uniform(fits, low, high)
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(resamples):
        drawn = [
            Probe(p.value, tuple(rng.multinomial(p.decisive, np.array(p.wins) / p.decisive)))
            if p.decisive
            else p
            for p in probes
        ]
        again = _shares_fit(drawn, seats)
        if again is not None:
            values.append(_most_uniform(again, low, high))
    if len(values) < resamples // 2:
        return FairValue(fair, None, None, True, "the bootstrap fits failed")
    lo, hi = np.quantile(values, [0.025, 0.975])
    inside = low < fair < high  # at an end of the range: the best is at or beyond it
    return FairValue(fair, float(lo), float(hi), inside)


def fair_value(probes: Sequence[Probe], low: float, high: float, seed: int) -> FairValue:
    if len(probes[0].wins) == 2:
        return fair_two_seats(probes, low, high)
    return fair_many_seats(probes, low, high, seed)


def imbalance_interval(wins: Sequence[int], confidence: float) -> tuple[float, float, float]:
    """The gap between the largest and the smallest seat share of the decisive games:
    estimate and an interval from the seats' Wilson intervals (1 - Ludii's balance)."""
    n = sum(wins)
    if not n:
        return 1.0, 0.0, 1.0
    shares = [k / n for k in wins]
    bounds = [wilson_interval(k, n, confidence) for k in wins]
    low = max(0.0, max(b[0] for b in bounds) - min(b[1] for b in bounds))
    high = max(b[1] for b in bounds) - min(b[0] for b in bounds)
    return max(shares) - min(shares), low, high


def race_survivors(wins: dict[str, Sequence[int]]) -> list[str]:
    """The variants not significantly less fair than the fairest: a variant is dropped
    when the low end of its imbalance interval is above the high end of the fairest
    one's (each at 1 - 0.05/m, m the number of variants)."""
    confidence = 1 - 0.05 / max(len(wins), 1)
    gaps = {name: imbalance_interval(w, confidence) for name, w in wins.items()}
    best = min(gaps, key=lambda name: gaps[name][0])
    return [name for name, g in gaps.items() if name == best or g[1] <= gaps[best][2]]


def next_probe(fair: FairValue, low: float, high: float, nearest) -> float:
    """Where the next probe goes: at the estimate (held inside the range), on the
    option's grid."""
    target = fair.fair if fair.fair is not None else (low + high) / 2
    return nearest(min(max(target, low), high))


def settled(fair: FairValue, tolerance: float) -> bool:
    """The interval is bounded and at most ``tolerance`` from the estimate each side."""
    if fair.fair is None or fair.low is None or fair.high is None:
        return False
    return fair.high - fair.fair <= tolerance and fair.fair - fair.low <= tolerance


def no_fair_value(fair: FairValue, low: float, high: float) -> bool:
    """The whole interval lies outside the tuned range: no value in it evens the game."""
    if fair.fair is None:
        return False
    below = fair.high is not None and fair.high < low
    above = fair.low is not None and fair.low > high
    return below or above


def binomial_test(k: int, n: int) -> float:
    return float(stats.binomtest(k, n, 0.5).pvalue) if n else 1.0


__all__ = [
    "FairValue",
    "Probe",
    "binomial_test",
    "fair_many_seats",
    "fair_two_seats",
    "fair_value",
    "imbalance_interval",
    "next_probe",
    "no_fair_value",
    "race_survivors",
    "settled",
]
