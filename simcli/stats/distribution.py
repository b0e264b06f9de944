"""Bounded-memory summaries of a stream of numbers (game lengths, margins, points).

:class:`RunningMoments` keeps count, mean and the sum of squared deviations (Welford),
so means and t intervals are exact for any number of games.

:class:`StreamingDistribution` adds medians and quartiles. It keeps an exact count per
distinct value (game lengths and points are integers, so a million games usually have a
few hundred distinct values) while there are at most ``max_distinct`` of them. If a
stream has more distinct values, it switches once to a uniform random sample (a
reservoir) of ``reservoir_size`` values drawn with a seeded generator, so the quantiles
become estimates (flagged ``"exact": false``) and the result is still reproducible.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Iterable


class RunningMoments:
    """Count, mean, variance, minimum and maximum in one pass (Welford's algorithm)."""

    __slots__ = ("n", "mean", "m2", "min", "max")

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0
        self.min = math.inf
        self.max = -math.inf

    def add(self, x: float) -> None:
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)
        if x < self.min:
            self.min = x
        if x > self.max:
            self.max = x

    def add_weighted(self, x: float, count: int) -> None:
        """Add ``count`` copies of ``x`` (Chan et al. parallel update)."""
        if count <= 0:
            return
        n = self.n + count
        delta = x - self.mean
        self.mean += delta * count / n
        self.m2 += delta * delta * self.n * count / n
        self.n = n
        self.min = min(self.min, x)
        self.max = max(self.max, x)

    @property
    def variance(self) -> float | None:
        return self.m2 / (self.n - 1) if self.n > 1 else None

    @property
    def sd(self) -> float | None:
        v = self.variance
        return math.sqrt(max(v, 0.0)) if v is not None else None


def quantile_from_counts(values: list[float], counts: list[int], q: float) -> float | None:
    """Quantile ``q`` of sorted distinct ``values`` with ``counts`` (numpy 'linear')."""
    total = sum(counts)
    if total == 0:
        return None
    cum = []
    run = 0
    for c in counts:
        run += c
        cum.append(run)
    h = (total - 1) * q
    lo = math.floor(h)
    frac = h - lo

    def order_stat(i: int) -> float:
        return values[bisect.bisect_right(cum, i)]

    a = order_stat(lo)
    if frac == 0:
        return float(a)
    b = order_stat(min(lo + 1, total - 1))
    return float(a + frac * (b - a))


def counter_summary(counter: dict[float, int]) -> dict:
    """The :meth:`StreamingDistribution.summary` of a ``{value: count}`` histogram."""
    dist = StreamingDistribution(max_distinct=max(len(counter), 1))
    for value in sorted(counter):
        dist.moments.add_weighted(float(value), int(counter[value]))
    dist.counts = {float(v): int(c) for v, c in counter.items() if c > 0}
    return dist.summary()


def integer_bins(values: list[float], counts: list[int], max_bins: int) -> dict:
    """Whole-number ``values`` (sorted) in at most ``max_bins`` bins of a whole-number
    width ``w``, each ``[k w, (k + 1) w)`` (``values`` = the left edges ``k w``)."""
    lo, hi = int(values[0]), int(values[-1])
    width = 1
    while (hi // width) - (lo // width) + 1 > max_bins:
        width += 1
    first = (lo // width) * width
    binned = [0] * ((hi // width) - (lo // width) + 1)
    for v, c in zip(values, counts, strict=True):
        binned[(int(v) - first) // width] += c
    return {
        "values": [first + i * width for i in range(len(binned))],
        "counts": binned,
        "width": width,
        "binned": True,
    }


class StreamingDistribution:
    """Exact value counts while small, else a seeded reservoir sample (see module doc)."""

    def __init__(
        self, max_distinct: int = 2048, reservoir_size: int = 10_000, seed: int = 0
    ) -> None:
        self.moments = RunningMoments()
        self.counts: dict[float, int] | None = {}
        self.max_distinct = max_distinct
        self.reservoir_size = reservoir_size
        self.seed = seed
        self.reservoir: list[float] | None = None
        self._rng: random.Random | None = None

    @property
    def n(self) -> int:
        return self.moments.n

    @property
    def exact(self) -> bool:
        return self.counts is not None

    def add(self, x: float) -> None:
        m = self.moments  # RunningMoments.add, inlined: this is the hot path
        m.n += 1
        delta = x - m.mean
        m.mean += delta / m.n
        m.m2 += delta * (x - m.mean)
        if x < m.min:
            m.min = x
        if x > m.max:
            m.max = x
        counts = self.counts
        if counts is not None:
            counts[x] = counts.get(x, 0) + 1
            if len(counts) > self.max_distinct:
                self._to_reservoir()
            return
        # Algorithm R on the stream; moments.n already counts x
        assert self.reservoir is not None and self._rng is not None
        if len(self.reservoir) < self.reservoir_size:
            self.reservoir.append(x)
            return
        j = self._rng.randrange(self.moments.n)
        if j < self.reservoir_size:
            self.reservoir[j] = x

    def extend(self, xs: Iterable[float]) -> None:
        for x in xs:
            self.add(x)

    def _to_reservoir(self) -> None:
        assert self.counts is not None
        self._rng = random.Random(self.seed)
        values = list(self.counts)
        weights = [self.counts[v] for v in values]
        total = sum(weights)
        k = min(self.reservoir_size, total)
        # a uniform sample without replacement of everything seen so far
        sample = self._rng.sample(values, counts=weights, k=k)
        self.reservoir = sample
        self.counts = None

    def _sorted_pairs(self) -> tuple[list[float], list[int]]:
        if self.counts is not None:
            values = sorted(self.counts)
            return values, [self.counts[v] for v in values]
        assert self.reservoir is not None
        values = sorted(set(self.reservoir))
        tally: dict[float, int] = {}
        for x in self.reservoir:
            tally[x] = tally.get(x, 0) + 1
        return values, [tally[v] for v in values]

    def quantile(self, q: float) -> float | None:
        """Quantile with linear interpolation between order statistics (numpy's
        default ``'linear'`` method) of the counted values or of the reservoir."""
        values, counts = self._sorted_pairs()
        return quantile_from_counts(values, counts, q)

    def histogram(self) -> tuple[list[float], list[int]]:
        """Distinct values and their counts (of the reservoir once sampled)."""
        return self._sorted_pairs()

    def histogram_summary(self, max_bins: int = 40) -> dict:
        """A compact histogram for plots: exact values when there are at most
        ``max_bins`` distinct values, else at most ``max_bins`` equal-width bins
        (``values`` are the left edges, ``width`` the bin width). Whole-number values
        (points) get whole-number bins that start at a multiple of their width, so that
        every bin holds the same number of possible values and the bins of two
        histograms with the same width line up. Reservoir mode: of the sample."""
        values, counts = self._sorted_pairs()
        if not values:
            return {"values": [], "counts": [], "width": None, "binned": False}
        if len(values) <= max_bins:
            return {"values": values, "counts": counts, "width": None, "binned": False}
        lo, hi = values[0], values[-1]
        if all(float(v).is_integer() for v in values):
            return integer_bins(values, counts, max_bins)
        width = (hi - lo) / max_bins
        binned = [0] * max_bins
        for v, c in zip(values, counts, strict=True):
            binned[min(int((v - lo) / width), max_bins - 1)] += c
        return {
            "values": [lo + i * width for i in range(max_bins)],
            "counts": binned,
            "width": width,
            "binned": True,
        }

    def summary(self) -> dict:
        """``n``, ``mean``, ``sd``, ``min``, ``q1``, ``median``, ``q3``, ``max``, ``exact``.

        Undefined entries are ``None`` (no values: everything; one value: ``sd``).
        """
        m = self.moments
        if m.n == 0:
            return {
                "n": 0,
                "mean": None,
                "sd": None,
                "min": None,
                "q1": None,
                "median": None,
                "q3": None,
                "max": None,
                "exact": True,
            }
        return {
            "n": m.n,
            "mean": m.mean,
            "sd": m.sd,
            "min": m.min,
            "q1": self.quantile(0.25),
            "median": self.quantile(0.5),
            "q3": self.quantile(0.75),
            "max": m.max,
            "exact": self.exact,
        }
