"""The one routine that compares candidate moves on sampled deals, and its pick rules.

A *sample* is one full state consistent with the searching seat's view (a
determinisation, ``game.determinize(view, rng)``: the only way a search sees a hidden
card) together with what its candidates share besides the deal: the ``seed`` of the
random numbers of their continuations (chance turns, the policies' tie-breaks), a
``weight`` and a ``memo`` for values that do not depend on the candidate. Every
candidate is played on every sample (common random numbers), so what differs between
two candidates' values is the move, not the luck of the draw.

:func:`compare` values every candidate on every sample and lets a *pick rule* choose:

* :class:`BestTotal`: the best summed value; the first candidate (the base policy's
  move) wins ties, and a later one must beat the best so far by more than
  ``tolerance``; ``keep`` is a bonus per sample for the first candidate;
* :class:`PairedEvidence`: the first candidate unless an alternative's mean paired
  difference from it is above ``keep`` and more than ``z`` standard errors.

Optionally (``finalists``, ``more``) the best candidates are judged again on more
samples and the others drop out: the budget goes where the choice is close.

Sums are plain left-to-right additions (not the built-in ``sum``, whose float algorithm
changed in Python 3.12), so the same seed picks the same move on any Python.

:class:`SampledSearch` is the base of the strategies built on it: they supply
:meth:`~SampledSearch.candidate_moves` and :meth:`~SampledSearch.value` (public hooks),
and :meth:`~SampledSearch.compare` runs the routine and records ``last_values``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from simcli.game import Game, Move, State
from simcli.strategy import Strategy
from simcli_strategies.search.common import move_key

#: The value of a candidate's position (the state right after the move) on a sample.
Value = Callable[[State, "Sample"], float]


@dataclass(slots=True)
class Sample:
    """One deal every candidate is played on: the full ``state`` (each candidate gets a
    copy), the ``seed`` of the random numbers its continuations share, a ``weight`` the
    values are multiplied by (``None``: none), and a ``memo`` the candidates share."""

    state: State
    seed: int | None = None
    weight: float | None = None
    memo: dict[Any, Any] = field(default_factory=dict)


def sampled_deals(
    game: Game,
    view: State,
    rng: random.Random,
    count: int,
    *,
    first: State | None = None,
    seeded: bool = True,
) -> Iterator[Sample]:
    """``count`` samples drawn as they are used: each a ``game.determinize(view, rng)``
    (``first`` as the first one, when given) and, when ``seeded``, a seed of 64 bits from
    ``rng`` right after it."""
    for i in range(count):
        state = first if i == 0 and first is not None else game.determinize(view, rng)
        yield Sample(state, rng.getrandbits(64) if seeded else None)


def sampled_values(
    moves: Sequence[Move], samples: Iterable[Sample], value: Value
) -> list[list[float]]:
    """Each move played on a copy of every sample's state and valued: the values by move,
    then by sample (samples in the outer loop, so a sample is drawn, then used by every
    move, then the next one is drawn)."""
    values: list[list[float]] = [[] for _ in moves]
    for sample in samples:
        state = sample.state
        weight = sample.weight
        for c, move in enumerate(moves):
            after = state.clone()
            after.apply_trusted(move)
            v = value(after, sample)
            values[c].append(v if weight is None else weight * v)
    return values


# -- pick rules ------------------------------------------------------------------------------


def total(values: Iterable[float]) -> float:
    """The sum, added left to right (the same float on every Python version)."""
    out = 0.0
    for v in values:
        out += v
    return out


def first_best(totals: list[float], tolerance: float = 0.0) -> int:
    """The index of the best of ``totals``: a later total must beat the best so far by
    more than ``tolerance`` to take its place, so ties go to the earlier candidate (the
    base policy's move comes first)."""
    best = 0
    for c in range(1, len(totals)):
        if totals[c] > totals[best] + tolerance:
            best = c
    return best


def paired_pick(values: list[list[float]], z: float, keep: float = 0.0) -> int:
    """The index of the candidate to play given each candidate's per-sample values (the
    same samples for all, candidate 0 the base policy's move): 0 unless an alternative's
    mean paired difference from candidate 0 is above ``keep`` and more than ``z``
    standard errors; the best such mean (ties to the earlier candidate). A search that
    departs on noise changes the rest of the game for nothing; this one needs evidence."""
    base = values[0]
    n = len(base)
    means = [0.0] * len(values)
    for c in range(1, len(values)):
        diffs = [a - b for a, b in zip(values[c], base, strict=True)]
        mean = total(diffs) / n
        if mean <= keep + 1e-9:
            continue
        var = total((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        if mean * mean * n <= z * z * var + 1e-12:
            continue
        means[c] = mean
    return first_best(means, 1e-9)


class PickRule(Protocol):
    """Chooses among candidates from their values by sample (candidate 0 first)."""

    def totals(self, values: list[list[float]]) -> list[float]:
        """What the search reports per candidate (``last_values``)."""
        ...

    def pick(self, values: list[list[float]]) -> int:
        """The index of the candidate to play."""
        ...


@dataclass(frozen=True)
class BestTotal:
    """The best summed value; ``keep`` per sample is added to candidate 0's sum, and a
    later candidate must beat the best so far by more than ``tolerance``."""

    keep: float = 0.0
    tolerance: float = 0.0

    def totals(self, values: list[list[float]]) -> list[float]:
        totals = [total(v) for v in values]
        totals[0] += self.keep * len(values[0])
        return totals

    def pick(self, values: list[list[float]]) -> int:
        return first_best(self.totals(values), self.tolerance)


@dataclass(frozen=True)
class PairedEvidence:
    """Candidate 0 unless an alternative's mean paired difference from it exceeds
    ``keep`` and ``z`` standard errors (:func:`paired_pick`); the sums are reported."""

    z: float
    keep: float = 0.0

    def totals(self, values: list[list[float]]) -> list[float]:
        return [total(v) for v in values]

    def pick(self, values: list[list[float]]) -> int:
        return paired_pick(values, self.z, self.keep)


class Comparison(NamedTuple):
    """The result of :func:`compare`: the candidates left (all, or candidate 0 and the
    finalists), their values by sample, the rule's totals and the index it picked."""

    moves: list[Move]
    values: list[list[float]]
    totals: list[float]
    index: int

    @property
    def move(self) -> Move:
        return self.moves[self.index]


def compare(
    moves: Sequence[Move],
    samples: Iterable[Sample],
    value: Value,
    rule: PickRule,
    *,
    finalists: int | None = None,
    more: Callable[[], Iterable[Sample]] | None = None,
) -> Comparison:
    """Value every candidate on every sample (:func:`sampled_values`) and let ``rule``
    pick one (candidate 0 is the base policy's move). With ``more``, candidate 0 and the
    ``finalists - 1`` others with the best sums (all of them when ``finalists`` is
    ``None`` or not smaller than their number) are valued again on the samples
    ``more()`` gives, and the others drop out."""
    moves = list(moves)
    values = sampled_values(moves, samples, value)
    if more is not None:
        kept = list(range(len(moves)))
        if finalists is not None and len(moves) > finalists:
            sums = [total(v) for v in values]
            ranked = sorted(range(1, len(moves)), key=lambda c: -sums[c])
            kept = [0, *sorted(ranked[: finalists - 1])]
        moves = [moves[c] for c in kept]
        again = sampled_values(moves, more(), value)
        values = [values[c] + again[i] for i, c in enumerate(kept)]
    return Comparison(moves, values, rule.totals(values), rule.pick(values))


class SampledSearch(Strategy):
    """The base of the searches that compare candidate moves on sampled deals.

    A subclass supplies, through public hooks, :meth:`candidate_moves` (candidate 0 is
    the move of the policy it improves on) and :meth:`value` (the value of a candidate's
    position on a sample, usually a continuation by that policy), and sets ``rule``,
    its pick rule. :meth:`compare` runs :func:`compare` and keeps the rule's totals in
    ``last_values`` (candidate key -> total, for tests and diagnostics)."""

    rule: PickRule = BestTotal()
    last_values: dict[Any, float]

    def candidate_moves(self, view: State, legal_moves: list[Move]) -> list[Move]:
        """The moves to compare, the base policy's first; a single move is played as it
        is (an immediate win, or nothing worth comparing)."""
        raise NotImplementedError

    def value(self, after: State, sample: Sample) -> float:
        """The value for this seat of ``after`` (a sample's state with one candidate
        played, the searcher's own copy)."""
        raise NotImplementedError

    def compare(
        self,
        moves: Sequence[Move],
        samples: Iterable[Sample],
        value: Value | None = None,
        *,
        finalists: int | None = None,
        more: Callable[[], Iterable[Sample]] | None = None,
    ) -> Move:
        """The move ``rule`` picks among ``moves`` valued on ``samples`` by ``value``
        (default: :meth:`value`); see :func:`compare`."""
        found = compare(
            moves, samples, value or self.value, self.rule, finalists=finalists, more=more
        )
        self.last_values = {move_key(m): t for m, t in zip(found.moves, found.totals, strict=True)}
        return found.move
