"""How many games an SPRT needs, and what a ``max_games`` cap costs.

The gate's LLR after ``n`` units (pairs or seeds) is close to a random walk: each unit
adds ``log(q1_i / q0_i)`` for its outcome ``i``, where ``q0``, ``q1`` are the outcome
distributions closest to the truth with expected scores ``s(elo0)``, ``s(elo1)`` (the
same maximum-likelihood tilt the test uses, :func:`simcli.gating.sprt.tilt`). The walk is
looked at every ``batch`` units and stops when it leaves ``[lower, upper]``.

:func:`operating` propagates the distribution of the walk on a grid between the bounds
(Gaussian steps with the walk's mean and variance per look), which gives, at a true Elo,
the probability of passing, failing or still running after every look; from that the
pass rate with and without the cap, the expected number of units to a decision, and the
smallest cap whose truncation costs at most one point of power (the pass rate at
``elo1`` and the fail rate at ``elo0``, each compared with the untruncated test).

Outcome distributions come from a draw-rate assumption: two independent games per pair,
the candidate in either seat, a draw half a point (pairs of games on one board are
usually positively correlated, which this ignores: the figures err on the safe side);
for a three-, four-player or solitaire gate one seed is one better / equal / worse unit
with ``draw_rate`` equal results.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from simcli.gating.sprt import bounds, expected_score, tilt

#: Largest acceptable loss of power (pass rate at elo1, fail rate at elo0) from the cap.
MAX_LOSS = 0.01

_GRID = 600
_HORIZON = 2_000_000  # units: the untruncated test is followed this far at most


def game_probs(elo: float, draw_rate: float) -> np.ndarray:
    """(loss, draw, win) of one game at ``elo`` with the given draw rate (lowered when
    the expected score leaves no room for it)."""
    s = expected_score(elo)
    d = min(draw_rate, 2 * s, 2 * (1 - s))
    return np.array([1 - s - d / 2, d, s - d / 2])


def unit_probs(elo: float, draw_rate: float, pentanomial: bool) -> np.ndarray:
    """Outcome distribution of one unit: pentanomial for a pair of independent games
    (pair scores 0, 1/4, 1/2, 3/4, 1), else trinomial (worse, equal, better)."""
    g = game_probs(elo, draw_rate)
    if not pentanomial:
        return g
    return np.convolve(g, g)


def _step(p: np.ndarray, q0: np.ndarray, q1: np.ndarray) -> tuple[float, float]:
    inc = np.log(q1) - np.log(q0)
    mean = float(p @ inc)
    return mean, float(p @ (inc - mean) ** 2)


@dataclass(frozen=True)
class Operating:
    """Operating characteristics of one SPRT at one true Elo."""

    elo: float
    units: int  # cap in units (pairs or seeds)
    passed: float  # with the cap
    failed: float
    undecided: float
    passed_untruncated: float
    failed_untruncated: float
    expected_units: float  # untruncated
    units_for_loss: int  # smallest cap losing at most MAX_LOSS of the decision's power


def operating(
    elo: float,
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    units: int,
    batch: int,
    probs,
) -> Operating:
    """``probs(elo)`` gives the outcome distribution at a true Elo."""
    lower, upper = bounds(alpha, beta)
    p = probs(elo)
    q0, q1 = probs_at(elo0, p), probs_at(elo1, p)
    mean, var = _step(p, q0, q1)
    h = (upper - lower) / _GRID
    x = lower + h * (np.arange(_GRID) + 0.5)
    # a look every `batch` units; looks grouped when one moves the walk by much less
    # than the grid spacing, or when a decision takes more than ~200 looks (grouped
    # looks stop a little later: the figures err on the safe side)
    wald = -lower * upper / var if var > 0 else 0.0  # expected units without drift
    k = batch
    while (math.sqrt(var * k) + abs(mean) * k < 2 * h or k * 200 < wald) and k < 10**6:
        k *= 2
    mu, sd = mean * k, math.sqrt(max(var * k, 1e-30))
    edges = np.concatenate([x - h / 2, [upper]])
    cdf = stats.norm.cdf((edges[None, :] - x[:, None] - mu) / sd)
    T = np.diff(cdf, axis=1)  # T[j, j'] from grid cell j to j'
    up = stats.norm.sf((upper - x - mu) / sd)
    down = stats.norm.cdf((lower - x - mu) / sd)
    f = np.zeros(_GRID)
    f[np.searchsorted(x, 0.0)] = 1.0
    passed = failed = 0.0
    expected = 0.0
    n = 0
    cap_pass = cap_fail = None
    history: list[tuple[int, float, float]] = []
    while n < _HORIZON:
        alive = f.sum()
        if n >= units and cap_pass is None:
            cap_pass, cap_fail = passed, failed
        if alive < 1e-6 and cap_pass is not None:
            break
        expected += alive * k
        passed += float(f @ up)
        failed += float(f @ down)
        f = f @ T
        n += k
        history.append((n, passed, failed))
    if cap_pass is None:  # pragma: no cover - horizon reached before the cap
        cap_pass, cap_fail = passed, failed
    good = passed if elo >= (elo0 + elo1) / 2 else failed
    need = n
    for m, pa, fa in history:
        if good - (pa if elo >= (elo0 + elo1) / 2 else fa) <= MAX_LOSS:
            need = m
            break
    return Operating(
        elo=elo,
        units=units,
        passed=cap_pass,
        failed=cap_fail,
        undecided=max(0.0, 1.0 - cap_pass - cap_fail),
        passed_untruncated=passed,
        failed_untruncated=failed,
        expected_units=expected,
        units_for_loss=need,
    )


def probs_at(elo: float, truth: np.ndarray) -> np.ndarray:
    """The hypothesis' distribution closest to the truth (the test's own tilt)."""
    return np.array(tilt(list(truth), expected_score(elo)))


@dataclass(frozen=True)
class Sizing:
    """What a gate config needs: expected units to a decision at elo0 and elo1, the
    operating characteristics with its cap, and the smallest cap losing at most one point
    of power."""

    at_elo0: Operating
    at_elo1: Operating
    units: int
    needed_units: int
    games_per_unit: int = 2

    @property
    def loss(self) -> float:
        """Power lost to the cap: max of the pass-rate loss at elo1 and the fail-rate
        loss at elo0."""
        return max(
            self.at_elo1.passed_untruncated - self.at_elo1.passed,
            self.at_elo0.failed_untruncated - self.at_elo0.failed,
        )

    @property
    def ok(self) -> bool:
        return self.loss <= MAX_LOSS

    @property
    def needed_games(self) -> int:
        return self.needed_units * self.games_per_unit

    def describe(self, unit: str = "pairs") -> str:
        g = self.games_per_unit
        e0, e1 = self.at_elo0, self.at_elo1
        return (
            f"expected games to a decision: {g * e0.expected_units:,.0f} at elo0, "
            f"{g * e1.expected_units:,.0f} at elo1; with max_games {g * self.units:,} the "
            f"pass rate is {e1.passed:.3f} at elo1 ({e1.passed_untruncated:.3f} untruncated) "
            f"and {e0.passed:.3f} at elo0, undecided {e1.undecided:.1%} / {e0.undecided:.1%}; "
            f"truncation costs {100 * self.loss:.1f} points of power; max_games "
            f"{self.needed_games:,} keeps the cost within {100 * MAX_LOSS:g} point"
        )


def size(
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    max_games: int,
    batch: int,
    *,
    draw_rate: float = 0.3,
    pentanomial: bool = True,
) -> Sizing:
    """Sizing from a draw-rate assumption (draws per game; equal results per seed for a
    trinomial gate)."""

    def probs(elo: float) -> np.ndarray:
        return unit_probs(elo, draw_rate, pentanomial)

    units = max_games // 2
    at0 = operating(elo0, elo0, elo1, alpha, beta, units, batch, probs)
    at1 = operating(elo1, elo0, elo1, alpha, beta, units, batch, probs)
    needed = max(at0.units_for_loss, at1.units_for_loss)
    needed = int(math.ceil(needed / batch) * batch)
    return Sizing(at0, at1, units, needed)


def spec_sizing(spec, players: int) -> Sizing:
    """:func:`size` for a config's ``gate:`` section (``GateSpec``)."""
    return size(
        spec.elo0,
        spec.elo1,
        spec.alpha,
        spec.beta,
        spec.max_games,
        spec.batch,
        draw_rate=spec.draw_rate,
        pentanomial=players == 2,
    )


def check_gate(where: str, spec, players: int, *, strict: bool, echo) -> Sizing:
    """Size the gate, print the figures; a cap that costs more than one point of power
    is a warning, or with ``strict`` a :class:`~simcli.errors.ConfigError`."""
    from simcli.errors import ConfigError

    sizing = spec_sizing(spec, players)
    assumption = (
        f"at {spec.draw_rate:.0%} draws"
        if players == 2
        else (f"at {spec.draw_rate:.0%} equal results")
    )
    text = f"gate sizing ({assumption}): {sizing.describe()}"
    if sizing.ok:
        echo(text)
        return sizing
    message = (
        f"{where}: gate.max_games {spec.max_games} cannot reach a decision often enough "
        f"(truncation costs {100 * sizing.loss:.1f} points of power; about "
        f"{sizing.needed_games} games needed {assumption}); raise max_games, widen "
        f"elo0/elo1 or set gate.draw_rate"
    )
    if strict:
        raise ConfigError(message)
    echo(text)
    echo(f"warning: {message}", err=True)
    return sizing
