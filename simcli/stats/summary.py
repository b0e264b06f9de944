"""The report summary as typed data: what :func:`simcli.stats.analysis.summarize` returns
and what the report writers, the plots and the assertions read (by attribute).

Every class is a plain dataclass; :meth:`Node.to_dict` turns one into the JSON-ready
dict of ``summary.json`` (keys in field order; the fields named in ``_optional`` are left
out while they are ``None``). docs/statistics.md describes every field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

import numpy as np

from simcli.stats.intervals import Interval

SUMMARY_SCHEMA = 1


def plain(value: Any) -> Any:
    """``value`` with every :class:`Node` and :class:`Interval` turned into a dict."""
    if isinstance(value, Node):
        return value.to_dict()
    if isinstance(value, Interval):
        return value.to_dict()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def sanitize(obj: Any) -> Any:
    """Replace NaN/inf by None and numpy scalars by Python numbers (JSON-safe)."""
    if isinstance(obj, dict):
        return {str(k): sanitize(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [sanitize(v) for v in obj]
    if isinstance(obj, (np.floating, float)):
        x = float(obj)
        return x if math.isfinite(x) else None
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    return obj


def _clean(value: Any) -> Any:
    """A numpy scalar as a Python number; NaN and infinities as ``None``."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


class Node:
    """Base of the summary dataclasses: :meth:`to_dict` in field order. Every number
    set on a field is a Python number and never NaN or infinite (``None`` instead),
    so the writers read the same values ``summary.json`` holds."""

    _optional: ClassVar[tuple[str, ...]] = ()

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, _clean(value))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):  # type: ignore[arg-type]
            if f.metadata.get("internal"):
                continue
            value = getattr(self, f.name)
            if value is None and f.name in self._optional:
                continue
            out[f.name] = plain(value)
        return out


def internal(default: Any = None, factory: Any = None) -> Any:
    """A field kept in memory only (not written to ``summary.json``)."""
    if factory is not None:
        return field(default_factory=factory, metadata={"internal": True}, repr=False)
    return field(default=default, metadata={"internal": True}, repr=False)


# ----------------------------------------------------------------------------- leaves


@dataclass
class Dist(Node):
    """A distribution's moments and quartiles (``None`` where undefined)."""

    n: int
    mean: float | None
    sd: float | None
    min: float | None
    q1: float | None
    median: float | None
    q3: float | None
    max: float | None
    exact: bool  # False: the quartiles come from a reservoir sample

    @classmethod
    def of(cls, d: dict) -> Dist:
        return cls(**d)


@dataclass
class Histogram(Node):
    """Exact values and counts, or equal-width bins (``values`` = left edges)."""

    values: list[float]
    counts: list[int]
    width: float | None
    binned: bool


@dataclass
class Points(Dist):
    """Points per game: the distribution, a t interval of the mean and a histogram."""

    low: float | None = None
    high: float | None = None
    histogram: Histogram | None = None
    note: str | None = None

    _optional: ClassVar[tuple[str, ...]] = ("note",)

    @property
    def interval(self) -> Interval:
        return Interval(self.mean, self.low, self.high, self.n, "t", note=self.note)


@dataclass
class TestEntry(Node):
    """One hypothesis test of the report (``tests[]``); the same object is referenced
    wherever the report shows it (headline, pairs, model, ...)."""

    __test__ = False  # not a pytest test class

    id: str
    kind: str
    group: str
    test: str
    statistic: float | None
    p_value: float | None
    n: float
    df: float | None
    note: str | None
    in_family: bool
    p_adjusted: float | None
    significant: bool | None
    text: str
    sentence: str | None = None
    descriptive: str | None = None  # why it stays out of the correction family

    _optional: ClassVar[tuple[str, ...]] = ("df", "note", "descriptive")


# ----------------------------------------------------------------------------- strategies


@dataclass
class GroupTerminations(Node):
    normal: int
    move_limit: int
    forfeit: dict[str, int]  # by kind
    error: int

    @property
    def forfeits(self) -> int:
        return sum(self.forfeit.values())


@dataclass
class StrategyTerminations(Node):
    normal: int
    move_limit: int
    forfeit_own: dict[str, int]  # by kind
    forfeit_opponent: int
    error: int


@dataclass
class StrategyRow(Node):
    """One strategy in one group. Two or more seats: wins/draws/losses/score and their
    rates; solitaire: ``successes`` and ``success_rate`` instead."""

    name: str
    games: int
    wins: float | None = None
    draws: int | None = None
    losses: float | None = None
    score: float | None = None
    win_rate: Interval | None = None
    score_rate: Interval | None = None
    successes: int | None = None
    success_rate: Interval | None = None
    points: Points | None = None
    length: Dist | None = None
    terminations: StrategyTerminations | None = None
    #: two seats: the score-based Elo of ``score_rate`` against the strategy's opponents
    #: (draws half, as cutechess and the gate), :mod:`simcli.stats.elo`
    score_elo: Interval | None = None

    _optional: ClassVar[tuple[str, ...]] = (
        "wins",
        "draws",
        "losses",
        "score",
        "win_rate",
        "score_rate",
        "successes",
        "success_rate",
        "score_elo",
    )


@dataclass
class PairCell(Node):
    row: str
    col: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    rate: Interval


@dataclass
class Pairwise(Node):
    kind: str  # "score" (two seats) or "finishing order"
    names: list[str]
    cells: list[PairCell]
    note: str | None = None

    _optional: ClassVar[tuple[str, ...]] = ("note",)

    def cell(self, row: str, col: str) -> PairCell | None:
        return next((c for c in self.cells if c.row == row and c.col == col), None)


# ----------------------------------------------------------------------------- ratings


@dataclass
class RatingRow(Node):
    name: str
    elo: float | None
    se: float | None
    low: float | None
    high: float | None
    note: str | None = None

    _optional: ClassVar[tuple[str, ...]] = ("note",)


@dataclass
class SeatEffect(Node):
    seat: int
    elo: float | None
    se: float | None
    low: float | None
    high: float | None


@dataclass
class TieParameter(Node):
    size: int
    delta: float | None
    log_delta: float | None
    log_delta_se: float | None
    low: float | None
    high: float | None


@dataclass
class RatingDifference(Node):
    a: str
    b: str
    estimate: float | None
    low: float | None
    high: float | None
    n: float
    method: str
    confidence: float
    note: str | None = None

    _optional: ClassVar[tuple[str, ...]] = ("note",)


@dataclass
class Ratings(Node):
    model: str
    scale: str
    anchors: list[str]
    ratings: list[RatingRow]
    seat_effects: list[SeatEffect] | None
    loglik: float | None
    converged: bool
    games: float
    prior_games: float
    ties: list[TieParameter]
    tie_model: str
    notes: list[str]
    differences: list[RatingDifference] = field(default_factory=list)
    seat_test: TestEntry | None = None

    @property
    def rated(self) -> list[RatingRow]:
        return [r for r in self.ratings if r.elo is not None]

    def row(self, name: str) -> RatingRow | None:
        return next((r for r in self.ratings if r.name == name), None)

    def difference(self, a: str, b: str) -> RatingDifference | None:
        return next((d for d in self.differences if d.a == a and d.b == b), None)


@dataclass
class HeadToHead(Node):
    """Two strategies at a two-seat game: ``a``'s wins, losses and draws against ``b``
    (both seatings), the score-based Elo (draws half, as cutechess, fastchess and the
    gate) and the rating model's Elo difference (decisive games, seats controlled)."""

    a: str
    b: str
    games: int
    wins: int
    losses: int
    draws: int
    score: float  # a's score rate
    score_elo: Interval
    model_elo: Interval | None
    model: str | None
    line: str  # "Score of a vs b: W - L - D [0.590] N"
    sentence: str


@dataclass
class NoRatings(Node):
    """Why a group has no ratings."""

    note: str


# ----------------------------------------------------------------------------- seats


@dataclass
class SeatRow(Node):
    seat: int
    label: str
    games: int
    win_share: float
    win_rate: Interval
    decisive_wins: int
    decisive_rate: Interval
    points: Points | None = None  # points scored from this seat, over every game


@dataclass
class Stratified(Node):
    observed: list[float]
    expected: list[float]
    lineups: int
    test: TestEntry


@dataclass
class SeatPairs(Node):
    """Seat-swapped pairs (same seed, seats exchanged or rotated)."""

    complete: int
    invalid: int
    unpaired_games: int
    games_without_seed: int
    outcomes: dict[str, int]
    note: str | None = None
    seat0_better: int | None = None  # two seats
    seat1_better: int | None = None
    even: int | None = None
    best_seat: list[int] | None = None  # three or more seats
    test: TestEntry | None = None

    _optional: ClassVar[tuple[str, ...]] = (
        "note",
        "seat0_better",
        "seat1_better",
        "even",
        "best_seat",
        "test",
    )


@dataclass
class DetectableSign(Node):
    """Smallest seat effect the headline sign test detects (80% power)."""

    power: float
    alpha: float
    test: str
    pairs: int
    seat0_better: float  # share of the non-even pairs
    sentence: str = ""


@dataclass
class DetectableStratified(Node):
    """Smallest seat effect the headline stratified test detects (80% power)."""

    power: float
    alpha: float
    test: str
    seat0_extra_wins: float
    seat0_extra_share: float
    seat0_share: float
    elo: float | None
    sentence: str = ""


@dataclass
class PowerCheck(Node):
    """A seat result that is not significant, set against the games it rests on: the
    power of the exact binomial test of seat 0's share of the decisive games to find
    seat 0 winning ``share`` (its ``fair`` share plus ``effect``)."""

    effect: float
    fair: float
    share: float
    decisive: int
    power: float
    games_needed: int  # decisive games for 80% power
    sentence: str = ""


@dataclass
class SeatModel(Node):
    """The rating model's seat parameters and their likelihood-ratio test."""

    seat_effects: list[SeatEffect] | None
    test: TestEntry
    first_seat_advantage: Interval | None = None  # two seats only
    first_seat_expected_score: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.first_seat_advantage is None:
            del out["first_seat_advantage"], out["first_seat_expected_score"]
        return out


@dataclass
class StrategySeat(Node):
    seat: int
    wins: int
    decisive: int
    rate: Interval
    games: int | None = None  # against other strategies only
    draws: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat}
        if self.games is not None:
            out["games"] = self.games
        out.update(wins=self.wins, decisive=self.decisive)
        if self.draws is not None:
            out["draws"] = self.draws
        out["rate"] = self.rate.to_dict()
        return out


@dataclass
class SeatByStrategy(Node):
    strategy: str
    source: str  # "self-play" or "mixed"
    rating: float | None
    games: int
    decisive: int
    draws: int
    seats: list[StrategySeat]
    test: TestEntry


@dataclass
class SeatAnswer(Node):
    """The report's opening answer to "is a seat favoured, and by how much": the most
    favoured seat's share of the decisive games in plain words, one effect size (the
    rating model's, between equal strategies, seats controlled), and what the headline
    test says of it."""

    seat: int  # the seat with the largest share of the decisive games
    player: str  # "second player"
    share: Interval  # its share of the decisive games
    fair: float  # 1 / seats
    decisive: int
    draws: int
    sentence: str
    effect: Interval | None = None  # two seats: its share between equal strategies (model)
    effect_elo: Interval | None = None  # two seats: model Elo the seat is worth
    effect_sentence: str | None = None
    evidence: str | None = None  # the headline test, in one sentence

    _optional: ClassVar[tuple[str, ...]] = ("effect", "effect_elo", "effect_sentence", "evidence")


@dataclass
class SeatBias(Node):
    seats: list[SeatRow]
    games: int
    decisive: int
    draws: int
    shared_first: int
    stratified: Stratified | None = None
    test: TestEntry | None = None
    pairs: SeatPairs | None = None
    headline: TestEntry | None = None
    detectable: DetectableSign | DetectableStratified | None = None
    model: SeatModel | None = None
    by_strategy: list[SeatByStrategy] = field(default_factory=list)
    power: PowerCheck | None = None  # set when the headline test is not significant
    answer: SeatAnswer | None = None  # the report's opening (decisive games only)

    _optional: ClassVar[tuple[str, ...]] = ("power", "answer")


# ----------------------------------------------------------------------------- solitaire


@dataclass
class SoloStrategy(Node):
    name: str
    games: int
    mean_score: Points
    success_rate: Interval


@dataclass
class SoloComparison(Node):
    a: str
    b: str
    pairs: int
    a_better: int
    b_better: int
    ties: int
    mean_difference: Interval
    difference: Dist
    test: TestEntry


@dataclass
class Solo(Node):
    strategies: list[SoloStrategy]
    comparisons: list[SoloComparison]
    duplicates: int
    disk_store: bool
    games_without_seed: int
    note: str | None = None

    _optional: ClassVar[tuple[str, ...]] = ("note",)


# ----------------------------------------------------------------------------- groups


@dataclass
class NaturalLength(Node):
    """Game length in the game's natural unit, from replaying ``sampled`` of the
    ``games`` that ended normally (the first ones of each lineup)."""

    unit: str  # "rounds", "turns"
    sampled: int
    games: int
    length: Dist


@dataclass
class Group(Node):
    """One group of the report: one variant (or all games) and one number of seats."""

    id: str
    variant: str | None
    label: str
    players: int
    options: dict[str, Any]
    records: int
    games: int
    errors: int
    self_play_games: int
    mixed_games: int
    terminations: GroupTerminations
    notes: list[str]
    length: Dist | None = None
    strategies: list[StrategyRow] = field(default_factory=list)
    margin: Dist | None = None
    pairwise: Pairwise | None = None
    ratings: Ratings | NoRatings | None = None
    seat_bias: SeatBias | None = None
    solo: Solo | None = None
    natural_length: NaturalLength | None = None
    head_to_head: HeadToHead | None = None  # two seats, exactly two strategies that met
    descriptive: list[str] = internal(factory=list)  # sentences for the findings

    _optional: ClassVar[tuple[str, ...]] = ("natural_length", "head_to_head")

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.players == 1:  # solitaire groups list their sections in this order
            for key in ("solo", "seat_bias", "ratings", "pairwise", "margin"):
                out[key] = out.pop(key)
        else:
            del out["solo"]
        return out

    def strategy(self, name: str) -> StrategyRow | None:
        return next((r for r in self.strategies if r.name == name), None)

    @property
    def rated(self) -> Ratings | None:
        """The ratings, when the group has them."""
        return self.ratings if isinstance(self.ratings, Ratings) else None


@dataclass
class VariantRate(Node):
    variant: str
    rate: Interval


@dataclass
class VariantComparison(Node):
    players: int
    variants: list[str]
    table: list[list[int]]  # decisive wins per variant and seat
    seat0_rates: list[VariantRate]
    test: TestEntry


# ----------------------------------------------------------------------------- summary


@dataclass
class RunSection(Node):
    status: str | None
    config: dict[str, Any]
    strategies: list[str | None]
    versions: dict[str, Any] | None
    timings: dict[str, Any] | None


@dataclass
class Settings(Node):
    ci_method: str
    ci_method_name: str
    confidence: float
    alpha: float
    correction: str
    correction_name: str
    seat_numbering: str


@dataclass
class Totals(Node):
    records: int
    games: int
    errors: int
    forfeits: int
    groups: int
    strategies: int


@dataclass
class Correction(Node):
    method: str
    name: str
    tests: int
    alpha: float
    undefined_tests: int
    descriptive_tests: int


@dataclass
class PlotFile(Node):
    file: str  # relative to the report folder
    title: str


@dataclass
class ThinkTime(Node):
    """One strategy's seconds per move as the referee timed them (``None``: not timed)."""

    strategy: str
    moves: int
    mean: float | None
    p95: float | None  # read from a histogram: at most 12% above the true value
    max: float | None


@dataclass
class Summary(Node):
    """The whole report (``summary.json`` is :meth:`to_dict`)."""

    summary_schema: int
    generated_by: str
    source: str | None
    game: str | list[str] | None
    run: RunSection | None
    settings: Settings
    totals: Totals
    forfeits: dict[str, dict[str, int]]  # strategy -> kind -> forfeited games
    groups: list[Group]
    variant_comparison: list[VariantComparison]
    correction: Correction
    tests: list[TestEntry]
    findings: list[str]
    notes: list[str]
    plots: list[PlotFile] | None = None  # set when the report is written
    think_time: list[ThinkTime] | None = None  # set from a run's timing.json

    _optional: ClassVar[tuple[str, ...]] = ("plots", "think_time")

    def to_dict(self) -> dict[str, Any]:
        return sanitize(super().to_dict())

    @property
    def run_name(self) -> str | None:
        return self.run.config.get("name") if self.run else None
