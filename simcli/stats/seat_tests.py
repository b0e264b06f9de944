"""The headline seat test of a group, valid between strategies of unequal strength.

Pooling seat 0's decisive wins over a round robin mixes seat and skill: a strong strategy
wins in every seat, which inflates the variance of the pooled count and makes the exact
binomial test conservative (it rejects a true null far less often than alpha). Two tests
remove skill instead:

* **Sign test on seat-swapped pairs** (two seats, every mixed game paired on a shared
  seed): see :func:`simcli.stats.significance.sign_test`.
* **Test stratified by lineup** (:func:`stratified_seat_test`, any number of seats): the
  games are split into strata by the multiset of strategies at the table. Without a seat
  effect the outcome of a game (which strategy won, or no single winner) does not depend
  on who sat where, so within a stratum the outcomes are exchangeable across the games'
  seatings. Conditioning on the outcome counts and the seating counts of every stratum
  (a contingency table with fixed margins, as in the Cochran-Mantel-Haenszel test) gives
  the exact mean and covariance of the seat win counts; the statistic
  ``Q = D' V^+ D`` (``D`` observed minus expected wins per seat, the last seat dropped
  because the counts add up to the decisive games) is referred to chi-square with
  ``rank(V)`` degrees of freedom. With two seats and two strategies per stratum this is
  the Cochran-Mantel-Haenszel statistic without continuity correction. Self-play strata
  (the same strategy in several seats) contribute the seat of the winning copy, uniform
  over the copies under the null.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from scipy import stats

from simcli.stats.power import POWER, detectable_share, noncentrality
from simcli.stats.significance import TestResult

STRATIFIED = "stratified seat test (by lineup)"


@dataclass(frozen=True)
class SeatScore:
    """Observed and expected (no seat effect) decisive wins per seat, and the covariance
    of the observed wins under the null."""

    observed: np.ndarray
    expected: np.ndarray
    cov: np.ndarray
    decisive: float
    strata: int


def _winner(strats: tuple[str, ...], ranks: tuple[int, ...]) -> str | None:
    first = [s for s, r in enumerate(ranks) if r == 0]
    return strats[first[0]] if len(first) == 1 else None


def seat_score(orders: Mapping, seats: int) -> SeatScore:
    """Accumulate :class:`SeatScore` from ``{(strategy per seat, rank per seat): games}``."""
    strata: dict[tuple[str, ...], dict[tuple[tuple[str, ...], str | None], float]] = {}
    observed = np.zeros(seats)
    for (strats, ranks), w in orders.items():
        if w <= 0:
            continue
        win = _winner(tuple(strats), tuple(ranks))
        if win is not None:
            observed[[r for r in ranks].index(0)] += w
        cell = strata.setdefault(tuple(sorted(strats)), {})
        key = (tuple(strats), win)
        cell[key] = cell.get(key, 0.0) + w
    expected = np.zeros(seats)
    cov = np.zeros((seats, seats))
    decisive = 0.0
    for cells in strata.values():
        seatings = sorted({s for s, _ in cells})
        outcomes = sorted({w for _, w in cells}, key=lambda x: (x is None, x or ""))
        N = np.zeros((len(seatings), len(outcomes)))
        A = np.zeros((len(seatings), len(outcomes), seats))
        for i, s in enumerate(seatings):
            for j, w in enumerate(outcomes):
                N[i, j] = cells.get((s, w), 0.0)
                if w is not None:
                    held = [k for k, nm in enumerate(s) if nm == w]
                    A[i, j, held] = 1.0 / len(held)
        total = N.sum()
        n, c = N.sum(axis=1), N.sum(axis=0)
        mean_n = np.outer(n, c) / total
        expected += np.einsum("rw,rwp->p", mean_n, A)
        decisive += float(N[:, [j for j, w in enumerate(outcomes) if w is not None]].sum())
        # the winning copy's seat in self-play: uniform over the copies under the null
        copies = np.einsum("rwp,pq->rwpq", A, np.eye(seats)) - np.einsum("rwp,rwq->rwpq", A, A)
        cov += np.einsum("rw,rwpq->pq", mean_n, copies)
        if total < 2:
            continue
        MR = total * np.diag(n) - np.outer(n, n)
        MW = total * np.diag(c) - np.outer(c, c)
        cov += np.einsum("rwp,rs,wv,svq->pq", A, MR, MW, A) / (total**2 * (total - 1))
    return SeatScore(observed, expected, cov, decisive, len(strata))


def _reduced(sc: SeatScore) -> tuple[np.ndarray, np.ndarray, int]:
    d = (sc.observed - sc.expected)[:-1]
    v = sc.cov[:-1, :-1]
    rank = int(np.linalg.matrix_rank(v, tol=1e-9 * max(float(np.abs(v).max(initial=0)), 1e-300)))
    return d, v, rank


def stratified_seat_test(orders: Mapping, seats: int) -> tuple[TestResult, SeatScore]:
    """The stratified seat test (see module doc) and its score."""
    sc = seat_score(orders, seats)
    if sc.decisive <= 0:
        return TestResult(STRATIFIED, None, None, 0, note="no decisive games"), sc
    d, v, rank = _reduced(sc)
    if rank == 0:
        note = "no lineup was played in more than one seating: seat and strategy are confounded"
        return TestResult(STRATIFIED, None, None, sc.decisive, note=note), sc
    q = float(d @ np.linalg.pinv(v) @ d)
    p = float(stats.chi2.sf(max(q, 0.0), rank))
    return TestResult(STRATIFIED, q, min(max(p, 0.0), 1.0), sc.decisive, df=float(rank)), sc


def detectable_stratified(sc: SeatScore, alpha: float = 0.05) -> dict | None:
    """Smallest shift of seat 0's decisive wins (the other seats losing evenly) that the
    stratified test detects with 80% power (noncentral chi-square approximation), as
    extra wins, as a share of the decisive games and, for two seats, in Elo between
    equal strategies."""
    seats = len(sc.observed)
    d, v, rank = _reduced(sc)
    if rank == 0 or sc.decisive <= 0:
        return None
    u = np.full(seats - 1, -1.0 / (seats - 1))
    u[0] = 1.0
    info = float(u @ np.linalg.pinv(v) @ u)
    if info <= 0:
        return None
    wins = math.sqrt(noncentrality(rank, alpha, POWER) / info)
    share = wins / sc.decisive
    out = {
        "power": POWER,
        "alpha": alpha,
        "test": STRATIFIED,
        "seat0_extra_wins": wins,
        "seat0_extra_share": share,
        "seat0_share": 1.0 / seats + share,
    }
    p = 0.5 + share
    out["elo"] = 400.0 * math.log10(p / (1 - p)) if seats == 2 and p < 1 else None
    return out


def detectable_sign(n: int, alpha: float = 0.05) -> dict | None:
    """Smallest share of "seat 0 better" among ``n`` non-even pairs that the two-sided
    sign test detects with 80% power (normal approximation)."""
    if n <= 0:
        return None
    p1 = detectable_share(n, 0.5, alpha, POWER)
    return {"power": POWER, "alpha": alpha, "test": "sign test", "pairs": n, "seat0_better": p1}
