"""Assertions in a run config (``asserts:``), judged on intervals, not point estimates.

One small class per kind holds its keys, its parsing (with file/line errors), its
description and its judgement. Each assertion is checked in every group of the report
(one group per variant) and gives ``pass`` (the whole 95% interval satisfies it), ``fail``
(the whole interval violates it) or ``inconclusive`` (the interval straddles the
threshold: more games would tell). ``no_errors`` passes when no game ended in ``error``,
``no_forfeits`` when no strategy forfeited a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from simcli.stats import wording as W
from simcli.suggest import did_you_mean
from simcli.yamldoc import Doc, KeyPath, check_keys, kind_of, number_at

if TYPE_CHECKING:
    from simcli.stats.intervals import Interval
    from simcli.stats.summary import Group, Summary


@dataclass(frozen=True)
class Verdict:
    name: str
    status: str  # pass | fail | inconclusive
    detail: str

    def line(self) -> str:
        return f"{self.status.upper():<12} {self.name}: {self.detail}"


@dataclass(frozen=True)
class Assertion:
    """One assertion of a config. Subclasses set ``kind`` and ``keys`` (the arguments
    allowed), check their arguments in :meth:`check_args`, and judge one report group in
    :meth:`judge_group` (or the whole summary in :meth:`judge`)."""

    kind: ClassVar[str]
    keys: ClassVar[tuple[str, ...]] = ()
    args: dict[str, Any]

    @classmethod
    def parse(cls, doc: Doc, path: KeyPath, args: Any, names: list[str]) -> Assertion:
        """The assertion at ``path`` of ``doc`` (``args`` as written), or a ConfigError."""
        args = dict(check_keys(doc, path, args, cls.keys))
        for key, value in args.items():
            if key in ("strategy", "a", "b"):
                if value not in names:
                    close = did_you_mean(str(value), names)
                    raise doc.error((*path, key), f"no strategy named {value!r}{close}")
            else:
                number_at(doc, (*path, key), value)
        missing = cls.check_args(doc, path, args)
        if missing:
            raise doc.error(path, f"needs {', '.join(missing)}")
        return cls(args)

    @classmethod
    def check_args(cls, doc: Doc, path: KeyPath, args: dict[str, Any]) -> list[str]:
        """What is missing from ``args`` (raise for a wrong value)."""
        return []

    def stored(self) -> dict[str, Any]:
        """As ``run.json`` keeps it (:func:`from_stored` reads it back)."""
        return {self.kind: self.args}

    def describe(self) -> str:
        raise NotImplementedError

    def judge(self, summary: Summary) -> list[Verdict]:
        """One verdict per report group."""
        name = self.describe()
        groups = summary.groups
        return [
            self.judge_group(group, name if len(groups) == 1 else f"{name} [{group.label}]")
            for group in groups
        ]

    def judge_group(self, group: Group, label: str) -> Verdict:
        raise NotImplementedError


def _rate(doc: Doc, path: KeyPath, args: dict[str, Any], key: str) -> None:
    if key in args and not 0 <= args[key] <= 1:
        raise doc.error((*path, key), f"a rate between 0 and 1; got {args[key]}")


class WinRate(Assertion):
    """``win_rate: {strategy, at_least | at_most}``: a strategy's win rate interval."""

    kind = "win_rate"
    keys = ("strategy", "at_least", "at_most")

    @classmethod
    def check_args(cls, doc: Doc, path: KeyPath, args: dict[str, Any]) -> list[str]:
        for key in ("at_least", "at_most"):
            _rate(doc, path, args, key)
        missing = [] if "strategy" in args else ["strategy"]
        if ("at_least" in args) == ("at_most" in args):
            missing.append("exactly one of at_least / at_most")
        return missing

    def describe(self) -> str:
        a = self.args
        bound = f">= {a['at_least']:g}" if "at_least" in a else f"<= {a['at_most']:g}"
        return f"win_rate {a['strategy']} {bound}"

    def judge_group(self, group: Group, label: str) -> Verdict:
        a = self.args
        row = group.strategy(a["strategy"])
        if row is None or row.win_rate is None:
            return Verdict(label, "inconclusive", f"{a['strategy']} played no game here")
        iv = row.win_rate
        if "at_least" in a:
            status = _judge(iv.low, iv.high, a["at_least"], 1.0)
        else:
            status = _judge(iv.low, iv.high, 0.0, a["at_most"])
        return Verdict(label, status, f"win rate {_pct(iv)} over {iv.n} games")


class EloDiff(Assertion):
    """``elo_diff: {a, b, at_least}``: the rating difference a - b, in Elo."""

    kind = "elo_diff"
    keys = ("a", "b", "at_least")

    @classmethod
    def check_args(cls, doc: Doc, path: KeyPath, args: dict[str, Any]) -> list[str]:
        if args.get("a") is not None and args.get("a") == args.get("b"):
            raise doc.error(path, "a and b must be different strategies")
        return [k for k in cls.keys if k not in args]

    def describe(self) -> str:
        a = self.args
        return f"elo_diff {a['a']} - {a['b']} >= {a['at_least']:g}"

    def judge_group(self, group: Group, label: str) -> Verdict:
        a = self.args
        row = group.rated.difference(a["a"], a["b"]) if group.rated else None
        if row is None or row.estimate is None:
            return Verdict(label, "inconclusive", "no rating difference (not rated together)")
        status = _judge(row.low, row.high, a["at_least"], float("inf"))
        bounds = f"[{W.signed(row.low)}, {W.signed(row.high)}]"
        return Verdict(label, status, f"{W.signed(row.estimate)} {bounds} Elo")


class SeatBias(Assertion):
    """``seat_bias: {within}``: every seat's share of decisive games within fair ± x."""

    kind = "seat_bias"
    keys = ("within",)

    @classmethod
    def check_args(cls, doc: Doc, path: KeyPath, args: dict[str, Any]) -> list[str]:
        _rate(doc, path, args, "within")
        return [] if "within" in args else ["within"]

    def describe(self) -> str:
        return f"seat_bias within ±{self.args['within']:g}"

    def judge_group(self, group: Group, label: str) -> Verdict:
        seats = group.seat_bias.seats if group.seat_bias else []
        if not seats:
            return Verdict(label, "inconclusive", "no seat statistics in this group")
        fair = 1.0 / len(seats)
        within = self.args["within"]
        statuses, parts = [], []
        for seat in seats:
            iv = seat.decisive_rate
            statuses.append(_judge(iv.low, iv.high, fair - within, fair + within))
            if iv.estimate is not None:
                parts.append(f"{seat.label} {_pct(iv)}")
        if "fail" in statuses:
            status = "fail"
        elif all(s == "pass" for s in statuses):
            status = "pass"
        else:
            status = "inconclusive"
        detail = f"share of decisive games (fair {fair:.1%}): " + ", ".join(parts)
        return Verdict(label, status, detail)


class NoErrors(Assertion):
    """``no_errors`` (or ``no_errors: true``): no game ended in ``error``."""

    kind = "no_errors"

    def describe(self) -> str:
        return "no_errors"

    def judge(self, summary: Summary) -> list[Verdict]:
        errors = summary.totals.errors
        status = "pass" if errors == 0 else "fail"
        return [Verdict(self.describe(), status, f"{errors} game(s) ended in error")]


class NoForfeits(Assertion):
    """``no_forfeits`` (or ``no_forfeits: true``): no strategy forfeited a game (raised,
    timed out, answered an illegal move, crashed)."""

    kind = "no_forfeits"

    def describe(self) -> str:
        return "no_forfeits"

    def judge(self, summary: Summary) -> list[Verdict]:
        by_strategy = summary.forfeits
        total = sum(sum(kinds.values()) for kinds in by_strategy.values())
        detail = f"{total} game(s) forfeited"
        if total:
            detail += ": " + "; ".join(
                f"{strategy} {', '.join(f'{k} {v}' for k, v in kinds.items())}"
                for strategy, kinds in by_strategy.items()
            )
        return [Verdict(self.describe(), "pass" if total == 0 else "fail", detail)]


#: Every assertion kind, by its name in a config.
KINDS: dict[str, type[Assertion]] = {
    cls.kind: cls for cls in (WinRate, EloDiff, SeatBias, NoErrors, NoForfeits)
}


def parse_asserts(doc: Doc, value: Any, names: list[str]) -> tuple[Assertion, ...]:
    """The ``asserts:`` section (a list), checked against the strategy names."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise doc.error(("asserts",), f"expected a list of assertions; got {kind_of(value)}")
    out = [
        doc.attempt(_parse_one, doc, ("asserts", i), item, names) for i, item in enumerate(value)
    ]
    return tuple(a for a in out if a is not None)  # a bad one is noted in doc, the others go on


def _parse_one(doc: Doc, path: KeyPath, item: Any, names: list[str]) -> Assertion:
    plain = next((cls for cls in KINDS.values() if not cls.keys and item in _plain(cls)), None)
    if plain is not None:  # a kind without arguments: "- no_errors" or "- no_errors: true"
        return plain({})
    if isinstance(item, str) and item not in KINDS:
        raise doc.error(
            path,
            f"unknown assertion {item!r}{did_you_mean(item, list(KINDS))}; "
            f"assertions: {', '.join(KINDS)}",
        )
    if not isinstance(item, dict) or len(item) != 1:
        raise doc.error(
            path,
            f"expected one of {', '.join(KINDS)} with its arguments, "
            f"e.g. '- win_rate: {{strategy: NAME, at_least: 0.6}}'",
        )
    kind, args = next(iter(item.items()))
    if kind not in KINDS:
        raise doc.error(
            (*path, kind),
            f"unknown assertion{did_you_mean(str(kind), list(KINDS))}; "
            f"assertions: {', '.join(KINDS)}",
        )
    return KINDS[kind].parse(doc, (*path, kind), args, names)


def _plain(cls: type[Assertion]) -> tuple[Any, ...]:
    return cls.kind, {cls.kind: True}


def _judge(low: float | None, high: float | None, ok_low: float, ok_high: float) -> str:
    """Is [low, high] inside [ok_low, ok_high] (pass), outside it (fail), or across?"""
    if low is None or high is None:
        return "inconclusive"
    if ok_low <= low and high <= ok_high:
        return "pass"
    if high < ok_low or low > ok_high:
        return "fail"
    return "inconclusive"


def _pct(iv: Interval) -> str:
    return f"{iv.estimate:.1%} [{iv.low:.1%}, {iv.high:.1%}]"


def check(assertions: list[Assertion], summary: Summary) -> list[Verdict]:
    """Every assertion judged on ``summary`` (the report's summary, in memory)."""
    return [verdict for assertion in assertions for verdict in assertion.judge(summary)]


def from_stored(items: list[Any] | None) -> list[Assertion]:
    """Assertions as ``run.json`` stores them (``[{kind: args}]``, already validated)."""
    out = []
    for item in items or []:
        ((kind, args),) = item.items()
        out.append(KINDS[kind](dict(args)))
    return out


def report_assertions(
    assertions: list[Assertion], summary: Summary, junit: str | None, echo: Callable[[str], Any]
) -> bool:
    """Check, print one line each, write JUnit if asked; True if any assertion failed."""
    if not assertions:
        return False
    verdicts = check(assertions, summary)
    echo("Assertions")
    for verdict in verdicts:
        echo("  " + verdict.line())
    if junit:
        from pathlib import Path

        from simcli.gating.junit import Case, write_junit

        write_junit(
            Path(junit),
            "asserts",
            [
                Case(v.name, "skipped" if v.status == "inconclusive" else v.status, v.detail)
                for v in verdicts
            ],
        )
    return any(v.status == "fail" for v in verdicts)
