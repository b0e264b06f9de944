"""``simcli compare``: two runs side by side, with the differences tested.

For every strategy both runs played, its win rate in A and in B; for every seat, its share
of the decisive games. Each difference (B - A) gets a 95% interval (Newcombe's hybrid
score interval, the difference of two Wilson intervals) and Fisher's exact test, and the
p-values of the whole comparison are adjusted together (Benjamini-Hochberg), as the
report does within a run.

A difference only means what it seems to when the runs differ in nothing else, so the
fields of the two runs are checked first (:func:`mismatches`). Runs of different games or
of different numbers of seats are refused. Options that differ, strategies that only one
run has or defines differently (``run.json``), a strategy whose opponents differ, and
lineups that differ are named in a warning above the table. The rows they make
incomparable (a strategy whose opponents differ or changed, the seats when the lineups
or a strategy changed) are flagged ``!`` and left out of the tests; a strategy's own
row stays when only its definition changed (a new version against the same field is
what compare is for), and so do all rows when only the options differ (a rules
variant). ``--strict`` refuses runs that differ in anything at all.

The runs must be of one game, each run a clean log (the record module refuses a log
whose indexes do not rise, such as two logs concatenated by hand), and of one game id:
such logs, or a run of another game, are refused rather than pooled.
"""

from __future__ import annotations

import math
from collections import Counter
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
    #: per strategy, the strategies in the other seats of its games (seat occurrences)
    opponents: dict[str, Counter] = field(default_factory=dict)
    lineups: set[tuple[str, ...]] = field(default_factory=set)  # sorted strategies per game
    #: per strategy, its entry of run.json's config (use, params), when there is one
    definitions: dict[str, dict[str, Any]] = field(default_factory=dict)


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
    #: why the two figures are not comparable as they stand (the row is flagged and
    #: not tested); None when they are
    caveat: str | None = None


def read_run(path: str | Path) -> RunTallies:
    """Tally a run folder or log; :class:`RecordError` for a log that is not one run."""
    source = open_source(path)
    games: set[str] = set()
    options: list[dict[str, Any]] = []
    strategies: dict[str, Tally] = {}
    seats: dict[int, Tally] = {}
    count = 0
    players: list[int] = []
    opponents: dict[str, Counter] = {}
    lineups: set[tuple[str, ...]] = set()
    for record in read_records(source.log):
        games.add(record["game"])
        names = record["seats"]
        if len(names) not in players:
            players.append(len(names))
        lineups.add(tuple(sorted(names)))
        for seat, name in enumerate(names):
            faced = opponents.setdefault(name, Counter())
            faced.update(other for s, other in enumerate(names) if s != seat)
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
    return RunTallies(
        str(path),
        games.pop(),
        count,
        options,
        strategies,
        seats,
        players,
        opponents,
        lineups,
        _definitions(source.run_info),
    )


def _definitions(run_info: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Each strategy's ``use`` and ``params`` from ``run.json`` (empty without one)."""
    config = (run_info or {}).get("config") or {}
    out = {}
    for entry in config.get("strategies") or []:
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            out[entry["name"]] = {"use": entry.get("use"), "params": entry.get("params") or {}}
    return out


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


#: Largest difference in the share of a strategy's games against one opponent that
#: still counts as "the same opponents" (a schedule cut short shifts the shares a little).
OPPONENT_SHARE_TOLERANCE = 0.05


def _shares(counter: Counter) -> dict[str, float]:
    total = sum(counter.values())
    return {k: v / total for k, v in sorted(counter.items())} if total else {}


def _describe_opponents(counter: Counter) -> str:
    return ", ".join(f"{k} {100 * v:.0f}%" for k, v in _shares(counter).items()) or "none"


def opponents_differ(a: Counter, b: Counter) -> bool:
    """The strategy met other opponents, or the same in other proportions."""
    sa, sb = _shares(a), _shares(b)
    if set(sa) != set(sb):
        return True
    return any(abs(sa[k] - sb[k]) > OPPONENT_SHARE_TOLERANCE for k in sa)


def _options_text(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> list[str]:
    """``opening: two_counters (A) / one_counter (B)`` for every option whose values differ
    (a run with variants has several option sets: their values are listed)."""

    def values(sets: list[dict[str, Any]], key: str) -> list[str]:
        out: list[str] = []
        for opts in sets:
            text = json_text(opts.get(key))
            if text not in out:
                out.append(text)
        return out

    keys = list(dict.fromkeys(k for opts in a + b for k in opts))
    parts = []
    for key in keys:
        va, vb = values(a, key), values(b, key)
        if va != vb:
            parts.append(f"{key}: {' | '.join(va)} (A) / {' | '.join(vb)} (B)")
    return parts


def json_text(value: Any, limit: int = 40) -> str:
    import json

    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass
class Mismatch:
    """One field in which the runs differ: ``what`` (options, strategies, definition,
    opponents, lineups) and the sentence that says how."""

    what: str
    text: str
    strategy: str | None = None  # the strategy it concerns (definition, opponents)


def mismatches(a: RunTallies, b: RunTallies) -> list[Mismatch]:
    """Every field in which the runs differ, besides the figures compared. Different games
    or seat counts raise :class:`RecordError` (nothing can be compared)."""
    if a.game != b.game:
        raise RecordError(f"{a.path} is a run of {a.game}, {b.path} of {b.game}: not comparable")
    if sorted(a.players) != sorted(b.players):
        seats = "/".join(map(str, sorted(a.players))), "/".join(map(str, sorted(b.players)))
        raise RecordError(
            f"{a.path} has {seats[0]}-player games, {b.path} {seats[1]}-player games: "
            "not comparable"
        )
    out = []
    options = _options_text(a.options, b.options)
    if options:
        out.append(Mismatch("options", "the game options differ: " + "; ".join(options)))
    only_a = [n for n in a.strategies if n not in b.strategies]
    only_b = [n for n in b.strategies if n not in a.strategies]
    if only_a or only_b:
        parts = []
        if only_a:
            parts.append(f"only in A: {', '.join(only_a)}")
        if only_b:
            parts.append(f"only in B: {', '.join(only_b)}")
        out.append(Mismatch("strategies", "the strategies differ: " + "; ".join(parts)))
    for name in (n for n in a.strategies if n in b.strategies):
        da, db = a.definitions.get(name), b.definitions.get(name)
        if da is not None and db is not None and da != db:
            out.append(
                Mismatch(
                    "definition",
                    f"{name} is defined differently: A {json_text(da, 100)}, "
                    f"B {json_text(db, 100)}",
                    name,
                )
            )
        oa, ob = a.opponents.get(name, Counter()), b.opponents.get(name, Counter())
        if opponents_differ(oa, ob):
            out.append(
                Mismatch(
                    "opponents",
                    f"{name} met other opponents: A {_describe_opponents(oa)}; "
                    f"B {_describe_opponents(ob)}",
                    name,
                )
            )
    if a.lineups != b.lineups and max(a.players) > 1:
        out.append(
            Mismatch(
                "lineups",
                "the lineups differ, so the seats' shares mix seat and strategy strength",
            )
        )
    return out


@dataclass
class Comparison:
    a: RunTallies
    b: RunTallies
    differences: list[Difference]
    mismatches: list[Mismatch] = field(default_factory=list)

    @property
    def warnings(self) -> list[str]:
        return [m.text for m in self.mismatches]

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
            "warnings": [asdict(m) for m in self.mismatches],
            "method": "difference B - A; 95% Newcombe hybrid score interval; Fisher's exact "
            "test; p-values adjusted together (Benjamini-Hochberg); rows with a caveat "
            "(the runs differ in more than the figure) are not tested",
        }


def two_player(a: RunTallies, b: RunTallies) -> bool:
    """Both runs are of two-player games only: score Elo applies."""
    return a.players == [2] and b.players == [2]


def compare_runs(path_a: str | Path, path_b: str | Path, *, strict: bool = False) -> Comparison:
    """Compare two runs (see the module doc); ``strict`` refuses runs that differ in
    anything but the figures compared (:class:`RecordError`, exit code 2)."""
    a, b = read_run(path_a), read_run(path_b)
    found = mismatches(a, b)
    if strict and found:
        raise RecordError(
            f"{path_a} and {path_b} differ in more than the figures compared (--strict): "
            + "; ".join(m.text for m in found)
        )
    names = [n for n in a.strategies if n in b.strategies]
    if not names:
        raise RecordError(f"{path_a} and {path_b} have no strategy in common")
    # a strategy defined differently is what a "new version" comparison is about: its own
    # row stays, the rows of those who played it (their opponent changed) are flagged
    changed = {m.strategy for m in found if m.what == "definition"}
    moved = {m.strategy for m in found if m.what == "opponents"}
    differences = [_difference("strategy", n, a.strategies[n], b.strategies[n]) for n in names]
    for d in differences:
        reasons = ["its opponents differ"] if d.name in moved else []
        faced = sorted(o for o in a.opponents.get(d.name, {}) if o in changed and o != d.name)
        if faced:
            reasons.append(f"its opponent {', '.join(faced)} changed")
        d.caveat = "; ".join(reasons) or None
    seats = sorted(set(a.seats) | set(b.seats))
    if len(seats) == 2:  # seat 1's share is one minus seat 0's: one test, not two
        seats = seats[:1]
    seat_reasons = ["the lineups differ"] if any(m.what == "lineups" for m in found) else []
    if changed:
        seat_reasons.append(f"{', '.join(sorted(changed))} changed")
    for seat in seats:
        d = _difference("seat", str(seat), a.seats.get(seat, Tally()), b.seats.get(seat, Tally()))
        d.caveat = "; ".join(seat_reasons) or None
        differences.append(d)
    for d in differences:
        if d.caveat:
            d.p = None  # shown, not tested: the runs differ in more than this figure
    tested = [d for d in differences if d.p is not None]
    if tested:
        for d, adjusted in zip(tested, adjust_pvalues([d.p for d in tested]), strict=True):
            d.p_adjusted = float(adjusted)
    return Comparison(a, b, differences, found)


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def render_text(comparison: Comparison) -> str:
    a, b = comparison.a, comparison.b
    lines = [
        f"compare {a.game}: A = {a.path} ({a.games} games), B = {b.path} ({b.games} games)",
    ]
    for text in comparison.warnings:
        lines.append(f"WARNING: {text}")
    if comparison.warnings:
        lines.append(
            "WARNING: a difference below is B - A whatever else differs; rows marked ! are "
            "not comparable as they stand and are not tested (--strict refuses such runs)"
        )
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
        if d.caveat:
            tail = f"{'!':>8} {d.caveat}"
        else:
            flag = " *" if d.p_adjusted is not None and d.p_adjusted < 0.05 else ""
            tail = f"{d.p_adjusted:8.3g}{flag}"
        lines.append(
            f"{label:9} {name:16} {cell_a:>15} {cell_b:>15} {100 * d.difference:+7.1f} "
            f"{interval:>18} {tail}"
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
