"""Assertions in a run config (``asserts:``), judged on intervals, not point estimates.

Each assertion is checked in every group of the report (one group per variant) and gives
``pass`` (the whole 95% interval satisfies it), ``fail`` (the whole interval violates it)
or ``inconclusive`` (the interval straddles the threshold: more games would tell).
``no_errors`` passes when no game ended in ``error``, ``no_forfeits`` when no strategy
forfeited a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

KINDS = ("win_rate", "elo_diff", "seat_bias", "no_errors", "no_forfeits")


@dataclass(frozen=True)
class Assertion:
    kind: str
    args: dict[str, Any]

    def describe(self) -> str:
        a = self.args
        if self.kind == "win_rate":
            bound = f">= {a['at_least']:g}" if "at_least" in a else f"<= {a['at_most']:g}"
            return f"win_rate {a['strategy']} {bound}"
        if self.kind == "elo_diff":
            return f"elo_diff {a['a']} - {a['b']} >= {a['at_least']:g}"
        if self.kind == "seat_bias":
            return f"seat_bias within ±{a['within']:g}"
        return self.kind  # no_errors, no_forfeits


@dataclass(frozen=True)
class Verdict:
    name: str
    status: str  # pass | fail | inconclusive
    detail: str

    def line(self) -> str:
        return f"{self.status.upper():<12} {self.name}: {self.detail}"


def _judge(low: float | None, high: float | None, ok_low: float, ok_high: float) -> str:
    """Is [low, high] inside [ok_low, ok_high] (pass), outside it (fail), or across?"""
    if low is None or high is None:
        return "inconclusive"
    if ok_low <= low and high <= ok_high:
        return "pass"
    if high < ok_low or low > ok_high:
        return "fail"
    return "inconclusive"


def _pct(iv: dict) -> str:
    return f"{iv['estimate']:.1%} [{iv['low']:.1%}, {iv['high']:.1%}]"


def check(assertions: list[Assertion], summary: dict) -> list[Verdict]:
    out: list[Verdict] = []
    groups = summary.get("groups", [])
    for assertion in assertions:
        name = assertion.describe()
        if assertion.kind == "no_errors":
            errors = summary.get("totals", {}).get("errors", 0)
            out.append(
                Verdict(name, "pass" if errors == 0 else "fail", f"{errors} game(s) ended in error")
            )
            continue
        if assertion.kind == "no_forfeits":
            out.append(_no_forfeits(name, summary))
            continue
        for group in groups:
            label = name if len(groups) == 1 else f"{name} [{group['label']}]"
            out.append(_check_group(assertion, group, label))
    return out


def _no_forfeits(name: str, summary: dict) -> Verdict:
    by_strategy = summary.get("forfeits") or {}
    total = sum(sum(kinds.values()) for kinds in by_strategy.values())
    detail = f"{total} game(s) forfeited"
    if total:
        detail += ": " + "; ".join(
            f"{strategy} {', '.join(f'{k} {v}' for k, v in kinds.items())}"
            for strategy, kinds in by_strategy.items()
        )
    return Verdict(name, "pass" if total == 0 else "fail", detail)


def _check_group(assertion: Assertion, group: dict, label: str) -> Verdict:
    a = assertion.args
    if assertion.kind == "win_rate":
        row = next((r for r in group.get("strategies", []) if r["name"] == a["strategy"]), None)
        if row is None or not row.get("win_rate"):
            return Verdict(label, "inconclusive", f"{a['strategy']} played no game here")
        iv = row["win_rate"]
        if "at_least" in a:
            status = _judge(iv["low"], iv["high"], a["at_least"], 1.0)
        else:
            status = _judge(iv["low"], iv["high"], 0.0, a["at_most"])
        return Verdict(label, status, f"win rate {_pct(iv)} over {iv['n']} games")
    if assertion.kind == "elo_diff":
        diffs = (group.get("ratings") or {}).get("differences", [])
        row = next((d for d in diffs if d["a"] == a["a"] and d["b"] == a["b"]), None)
        if row is None or row.get("estimate") is None:
            return Verdict(label, "inconclusive", "no rating difference (not rated together)")
        status = _judge(row["low"], row["high"], a["at_least"], float("inf"))
        return Verdict(
            label, status, f"{row['estimate']:+.0f} [{row['low']:+.0f}, {row['high']:+.0f}] Elo"
        )
    # seat_bias: every seat's share of decisive games within fair share ± x
    seats = (group.get("seat_bias") or {}).get("seats", [])
    if not seats:
        return Verdict(label, "inconclusive", "no seat statistics in this group")
    fair = 1.0 / len(seats)
    statuses, parts = [], []
    for seat in seats:
        iv = seat.get("decisive_rate") or {}
        statuses.append(
            _judge(iv.get("low"), iv.get("high"), fair - a["within"], fair + a["within"])
        )
        if iv.get("estimate") is not None:
            parts.append(f"{seat['label']} {_pct(iv)}")
    status = (
        "fail"
        if "fail" in statuses
        else "pass"
        if all(s == "pass" for s in statuses)
        else "inconclusive"
    )
    return Verdict(label, status, f"share of decisive games (fair {fair:.1%}): " + ", ".join(parts))


def from_stored(items: list[Any] | None) -> list[Assertion]:
    """Assertions as ``run.json`` stores them (``[{kind: args}]``, already validated)."""
    out = []
    for item in items or []:
        ((kind, args),) = item.items()
        out.append(Assertion(kind, dict(args)))
    return out


def report_assertions(assertions: list[Assertion], summary: dict, junit: str | None, echo) -> bool:
    """Check, print one line each, write JUnit if asked; True if any assertion failed."""
    if not assertions:
        return False
    verdicts = check(assertions, summary)
    echo("Assertions")
    for verdict in verdicts:
        echo("  " + verdict.line())
    if junit:
        from pathlib import Path

        from simcli.gate.junit import Case, write_junit

        write_junit(
            Path(junit),
            "asserts",
            [
                Case(v.name, "skipped" if v.status == "inconclusive" else v.status, v.detail)
                for v in verdicts
            ],
        )
    return any(v.status == "fail" for v in verdicts)
