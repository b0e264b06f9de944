"""``simcli compare``: two runs side by side, with the differences tested.

For every strategy both runs played, its win rate in A and in B; for every seat, its share
of the decisive games. Each difference (B - A) gets a 95% interval (Newcombe's hybrid
score interval, the difference of two Wilson intervals) and Fisher's exact test, and the
p-values of the whole comparison are adjusted together (Benjamini-Hochberg), as the
report does within a run.

The runs must be of one game, each run a clean log (the record module refuses a log
whose indexes do not rise, such as two logs concatenated by hand), and of one game id:
such logs, or a run of another game, are refused rather than pooled.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from scipy.stats import fisher_exact

from simcli.errors import RecordError
from simcli.report.io import open_source
from simcli.stats.elo import plus_minus, score_elo
from simcli.stats.intervals import Interval, wilson_interval
from simcli.stats.records import is_draw
from simcli.stats.significance import adjust_pvalues
from simcli.tournament.gamelog import read_records


@dataclass
class Tally:
    """What one run says about one strategy or one seat: ``wins`` of ``games``; for a
    strategy also its ``draws`` and its two-player score Elo (draws half)."""

    wins: int = 0
    games: int = 0
    draws: int = 0

    @property
    def rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    def score_elo(self) -> Interval:
        """Score-based Elo against the run's opponents, as cutechess and the gate."""
        return score_elo(self.wins, self.draws, self.games - self.wins - self.draws)


@dataclass
class RunTallies:
    path: str
    game: str
    games: int
    options: list[dict[str, Any]]
    strategies: dict[str, Tally] = field(default_factory=dict)
    seats: dict[int, Tally] = field(default_factory=dict)  # decisive games only
    players: list[int] = field(default_factory=list)  # seats per game, as they occur


@dataclass
class Difference:
    what: str  # "strategy" or "seat"
    name: str
    a: Tally
    b: Tally
    difference: float | None
    low: float | None
    high: float | None
    p: float | None
    p_adjusted: float | None = None


def read_run(path: str | Path) -> RunTallies:
    """Tally a run folder or log; :class:`RecordError` for a log that is not one run."""
    source = open_source(path)
    games: set[str] = set()
    options: list[dict[str, Any]] = []
    strategies: dict[str, Tally] = {}
    seats: dict[int, Tally] = {}
    count = 0
    players: list[int] = []
    for record in read_records(source.log):
        games.add(record["game"])
        if len(record["seats"]) not in players:
            players.append(len(record["seats"]))
        if record["options"] not in options:
            options.append(record["options"])
        count += 1
        winners = record["winners"]
        sole = winners[0] if len(winners) == 1 else None
        drawn = record["termination"] != "error" and is_draw(len(record["seats"]), winners)
        for seat, name in enumerate(record["seats"]):
            tally = strategies.setdefault(name, Tally())
            tally.games += 1
            tally.wins += seat == sole
            tally.draws += drawn
        if sole is not None and len(record["seats"]) > 1:
            for seat in range(len(record["seats"])):
                tally = seats.setdefault(seat, Tally())
                tally.games += 1
                tally.wins += seat == sole
    if len(games) > 1:
        raise RecordError(f"{source.log}: holds games of {', '.join(sorted(games))}: not one run")
    if not count:
        raise RecordError(f"{source.log}: no games")
    return RunTallies(str(path), games.pop(), count, options, strategies, seats, players)


def newcombe_interval(
    k1: int, n1: int, k2: int, n2: int, confidence: float = 0.95
) -> tuple[float, float]:
    """Newcombe's hybrid score interval for ``k2/n2 - k1/n1`` (his method 10)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson_interval(k1, n1, confidence)
    l2, u2 = wilson_interval(k2, n2, confidence)
    d = p2 - p1
    return (
        d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2),
        d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2),
    )


def _difference(what: str, name: str, a: Tally, b: Tally) -> Difference:
    if not a.games or not b.games:
        return Difference(what, name, a, b, None, None, None, None)
    low, high = newcombe_interval(a.wins, a.games, b.wins, b.games)
    table = [[a.wins, a.games - a.wins], [b.wins, b.games - b.wins]]
    p = float(fisher_exact(table).pvalue)
    return Difference(what, name, a, b, b.rate - a.rate, low, high, p)


@dataclass
class Comparison:
    a: RunTallies
    b: RunTallies
    differences: list[Difference]

    def _side(self, d: Difference, tally: Tally) -> dict[str, Any]:
        out = {**asdict(tally), "rate": tally.rate}
        if d.what == "strategy" and two_player(self.a, self.b):
            out["score_elo"] = tally.score_elo().to_dict()
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "a": {"path": self.a.path, "games": self.a.games, "options": self.a.options},
            "b": {"path": self.b.path, "games": self.b.games, "options": self.b.options},
            "game": self.a.game,
            "differences": [
                {
                    **{k: v for k, v in asdict(d).items() if k not in ("a", "b")},
                    "a": self._side(d, d.a),
                    "b": self._side(d, d.b),
                }
                for d in self.differences
            ],
            "method": "difference B - A; 95% Newcombe hybrid score interval; Fisher's exact "
            "test; p-values adjusted together (Benjamini-Hochberg)",
        }


def two_player(a: RunTallies, b: RunTallies) -> bool:
    """Both runs are of two-player games only: score Elo applies."""
    return a.players == [2] and b.players == [2]


def compare_runs(path_a: str | Path, path_b: str | Path) -> Comparison:
    a, b = read_run(path_a), read_run(path_b)
    if a.game != b.game:
        raise RecordError(f"{path_a} is a run of {a.game}, {path_b} of {b.game}: not comparable")
    names = [n for n in a.strategies if n in b.strategies]
    if not names:
        raise RecordError(f"{path_a} and {path_b} have no strategy in common")
    differences = [_difference("strategy", n, a.strategies[n], b.strategies[n]) for n in names]
    seats = sorted(set(a.seats) | set(b.seats))
    if len(seats) == 2:  # seat 1's share is one minus seat 0's: one test, not two
        seats = seats[:1]
    for seat in seats:
        differences.append(
            _difference("seat", str(seat), a.seats.get(seat, Tally()), b.seats.get(seat, Tally()))
        )
    tested = [d for d in differences if d.p is not None]
    if tested:
        for d, adjusted in zip(tested, adjust_pvalues([d.p for d in tested]), strict=True):
            d.p_adjusted = float(adjusted)
    return Comparison(a, b, differences)


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def render_text(comparison: Comparison) -> str:
    a, b = comparison.a, comparison.b
    lines = [
        f"compare {a.game}: A = {a.path} ({a.games} games), B = {b.path} ({b.games} games)",
    ]
    if a.options != b.options:
        lines.append(f"  options A: {a.options}")
        lines.append(f"  options B: {b.options}")
    lines.append(
        f"{'':9} {'':16} {'A':>15} {'B':>15} {'B - A':>8} {'95% interval':>18} {'p adj.':>8}"
    )
    for d in comparison.differences:
        label = "strategy" if d.what == "strategy" else "seat"
        name = d.name if d.what == "strategy" else f"{d.name} (decisive)"
        cell_a = f"{_pct(d.a.rate)} of {d.a.games}"
        cell_b = f"{_pct(d.b.rate)} of {d.b.games}"
        if d.difference is None:
            lines.append(f"{label:9} {name:16} {cell_a:>15} {cell_b:>15} {'n/a':>8}")
            continue
        interval = f"[{100 * d.low:+.1f}, {100 * d.high:+.1f}]"
        flag = " *" if d.p_adjusted is not None and d.p_adjusted < 0.05 else ""
        lines.append(
            f"{label:9} {name:16} {cell_a:>15} {cell_b:>15} {100 * d.difference:+7.1f} "
            f"{interval:>18} {d.p_adjusted:8.3g}{flag}"
        )
    if two_player(a, b):
        lines.append(
            "score Elo against each run's own opponents (draws half, as cutechess, fastchess "
            "and simcli gate; the report's 'score Elo' column):"
        )
        for d in comparison.differences:
            if d.what == "strategy":
                lines.append(
                    f"  {d.name}: A {plus_minus(d.a.score_elo(), 0)}, "
                    f"B {plus_minus(d.b.score_elo(), 0)}"
                )
    lines.append(
        "Win rates: sole wins over games (a strategy) or over decisive games (a seat). "
        "Intervals: Newcombe hybrid score, in points; p: Fisher's exact test, adjusted "
        "together (Benjamini-Hochberg); * = adjusted p < 0.05."
    )
    return "\n".join(lines)
