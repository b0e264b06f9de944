"""Hypothesis tests used by the report, and multiple-comparison correction.

Every test returns a :class:`TestResult`. A test that cannot be computed (no decisive
games, a single category, ...) returns ``p_value=None`` with a ``note`` saying why; it
never returns NaN.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy import stats

#: Multiple-comparison methods: key -> name used in the report.
CORRECTION_METHODS: dict[str, str] = {
    "bh": "Benjamini-Hochberg false discovery rate (scipy.stats.false_discovery_control, "
    "method='bh')",
    "by": "Benjamini-Yekutieli false discovery rate (scipy.stats.false_discovery_control, "
    "method='by')",
    "holm": "Holm family-wise error rate",
    "bonferroni": "Bonferroni family-wise error rate",
    "none": "no correction",
}


@dataclass(frozen=True)
class TestResult:
    """The outcome of one hypothesis test."""

    __test__ = False  # not a pytest test class

    test: str
    statistic: float | None
    p_value: float | None
    n: float
    df: float | None = None
    note: str | None = None

    @property
    def defined(self) -> bool:
        return self.p_value is not None

    def to_dict(self) -> dict:
        data = asdict(self)
        for key in ("df", "note"):
            if data[key] is None:
                del data[key]
        return data


def _undefined(test: str, n: float, note: str) -> TestResult:
    return TestResult(test, None, None, n, note=note)


def _clip_p(p: float) -> float:
    return float(min(max(p, 0.0), 1.0))


def binomial_test(k: int, n: int, p0: float = 0.5) -> TestResult:
    """Two-sided exact binomial test of ``k`` successes in ``n`` trials against ``p0``
    (``scipy.stats.binomtest``). Used for the two-seat test on decisive games."""
    k, n = int(round(k)), int(round(n))
    if n <= 0:
        return _undefined("exact binomial test", 0, "no decisive games")
    res = stats.binomtest(k, n, p0, alternative="two-sided")
    return TestResult("exact binomial test", float(k), _clip_p(res.pvalue), n)


def sign_test(positive: int, negative: int) -> TestResult:
    """Two-sided sign test: ``positive`` vs ``negative`` non-tied pairs (ties dropped)."""
    n = int(positive) + int(negative)
    if n <= 0:
        return _undefined("sign test", 0, "no pair with a better seat")
    res = stats.binomtest(int(positive), n, 0.5)
    return TestResult("sign test", float(positive), _clip_p(res.pvalue), n)


def chi2_gof_test(counts: Sequence[float], probs: Sequence[float] | None = None) -> TestResult:
    """Pearson chi-square goodness of fit of ``counts`` to ``probs`` (uniform by default)."""
    obs = np.asarray(counts, dtype=float)
    total = float(obs.sum())
    if obs.size < 2:
        return _undefined("chi-square goodness of fit", total, "fewer than two categories")
    if total <= 0:
        return _undefined("chi-square goodness of fit", 0, "no decisive games")
    p = np.full(obs.size, 1.0 / obs.size) if probs is None else np.asarray(probs, float)
    res = stats.chisquare(obs, total * p / p.sum())
    note = None
    if (total * p / p.sum()).min() < 5:
        note = "expected count below 5: chi-square approximation is rough"
    return TestResult(
        "chi-square goodness of fit",
        float(res.statistic),
        _clip_p(res.pvalue),
        total,
        df=float(obs.size - 1),
        note=note,
    )


def homogeneity_test(table: Sequence[Sequence[float]]) -> TestResult:
    """Pearson chi-square test of homogeneity for a rows x columns count table
    (``scipy.stats.chi2_contingency`` without continuity correction). Rows or columns
    that are all zero are dropped first."""
    t = np.asarray(table, dtype=float)
    if t.ndim != 2:
        raise ValueError("table must be two-dimensional")
    t = t[t.sum(axis=1) > 0]
    if t.size:
        t = t[:, t.sum(axis=0) > 0]
    if t.shape[0] < 2 or t.ndim < 2 or t.shape[1] < 2:
        return _undefined(
            "chi-square test of homogeneity",
            float(t.sum()),
            "fewer than two non-empty rows or columns",
        )
    res = stats.chi2_contingency(t, correction=False)
    note = None
    if np.min(res.expected_freq) < 5:
        note = "expected count below 5: chi-square approximation is rough"
    return TestResult(
        "chi-square test of homogeneity",
        float(res.statistic),
        _clip_p(res.pvalue),
        float(t.sum()),
        df=float(res.dof),
        note=note,
    )


def seat_by_strategy_test(wins: Sequence[float], losses: Sequence[float]) -> TestResult:
    """Does one strategy win more often in some seats? Decisive wins and losses per seat.

    Two seats: Fisher's exact test on the 2x2 table; more seats: chi-square test of
    homogeneity on the 2 x seats table.
    """
    w = np.asarray(wins, dtype=float)
    lo = np.asarray(losses, dtype=float)
    table = np.vstack([w, lo])
    keep = table.sum(axis=0) > 0
    table = table[:, keep]
    if table.shape[1] < 2:
        return _undefined(
            "Fisher exact test", float(table.sum()), "decisive games in one seat only"
        )
    if table.shape[1] == 2:
        if (table.sum(axis=1) == 0).any():
            return _undefined(
                "Fisher exact test", float(table.sum()), "no decisive wins or no losses"
            )
        res = stats.fisher_exact(np.round(table).astype(int))
        return TestResult(
            "Fisher exact test", float(res.statistic), _clip_p(res.pvalue), float(table.sum())
        )
    return homogeneity_test(table.T)


def wilcoxon_from_counts(diff_counts: Mapping[float, int]) -> tuple[TestResult, dict]:
    """Paired Wilcoxon signed-rank test from a histogram ``{difference: count}``.

    Zero differences are dropped (``zero_method='wilcox'``). With at most 50 non-zero
    differences the data are expanded and passed to ``scipy.stats.wilcoxon`` (exact or
    permutation distribution); above that the normal approximation with tie correction
    is computed directly from the counts, identical to
    ``scipy.stats.wilcoxon(d, method='asymptotic')`` without continuity correction.

    Returns the test and a dict with ``n_pairs``, ``n_nonzero``, ``positive``,
    ``negative``, ``w_plus``, ``w_minus``.
    """
    items = sorted((float(d), int(c)) for d, c in diff_counts.items() if c > 0)
    n_pairs = sum(c for _, c in items)
    nonzero = [(d, c) for d, c in items if d != 0.0]
    n = sum(c for _, c in nonzero)
    positive = sum(c for d, c in nonzero if d > 0)
    info = {"n_pairs": n_pairs, "n_nonzero": n, "positive": positive, "negative": n - positive}
    test = "Wilcoxon signed-rank test"
    if n == 0:
        return _undefined(test, n_pairs, "all paired differences are zero or no pairs"), info
    # ranks of |d| with ties averaged, from the counts
    by_abs: dict[float, list[int]] = {}
    for d, c in nonzero:
        slot = by_abs.setdefault(abs(d), [0, 0])
        slot[0 if d > 0 else 1] += c
    w_plus = 0.0
    tie_term = 0.0
    below = 0
    for a in sorted(by_abs):
        pos, neg = by_abs[a]
        t = pos + neg
        avg_rank = below + (t + 1) / 2.0
        w_plus += pos * avg_rank
        tie_term += t**3 - t
        below += t
    total = n * (n + 1) / 2.0
    w_minus = total - w_plus
    info.update(w_plus=w_plus, w_minus=w_minus)
    if n <= 50:
        d = np.repeat([d for d, _ in nonzero], [c for _, c in nonzero])
        res = stats.wilcoxon(d)
        method = "exact" if tie_term == 0 else "permutation" if n <= 13 else "normal"
        info["method"] = method
        return TestResult(test, float(res.statistic), _clip_p(res.pvalue), n), info
    mean = n * (n + 1) / 4.0
    var = n * (n + 1) * (2 * n + 1) / 24.0 - tie_term / 48.0
    info["method"] = "normal"
    if var <= 0:
        return _undefined(test, n, "no variation in the differences"), info
    z = (w_plus - mean) / math.sqrt(var)
    p = 2.0 * stats.norm.sf(abs(z))
    info["z"] = z
    return TestResult(test, float(min(w_plus, w_minus)), _clip_p(p), n), info


def adjust_pvalues(pvalues: Sequence[float], method: str = "bh") -> np.ndarray:
    """Adjusted p-values for one family of tests.

    ``bh`` and ``by`` use ``scipy.stats.false_discovery_control``; ``holm`` and
    ``bonferroni`` control the family-wise error rate; ``none`` returns the input.
    """
    if method not in CORRECTION_METHODS:
        raise ValueError(
            f"unknown correction {method!r}; use one of {', '.join(CORRECTION_METHODS)}"
        )
    p = np.asarray(pvalues, dtype=float)
    if p.size == 0 or method == "none":
        return p.copy()
    if np.isnan(p).any():
        raise ValueError("p-values must not be NaN")
    m = p.size
    if method in ("bh", "by"):
        return np.clip(stats.false_discovery_control(p, method=method), 0.0, 1.0)
    if method == "bonferroni":
        return np.minimum(p * m, 1.0)
    # Holm step-down
    order = np.argsort(p, kind="stable")
    adjusted = np.empty(m)
    running = 0.0
    for rank, idx in enumerate(order):
        running = max(running, (m - rank) * p[idx])
        adjusted[idx] = min(running, 1.0)
    return adjusted
