"""Selecting and ordering game records: the ``--where``/``--sort`` of ``simcli replay``.

A filter is a list of ``KEY=VALUE`` terms. Game keys (``variant``, ``termination``,
``game``) test the record; seat keys (``strategy``, ``seat``, ``result``) must all hold
for one and the same seat, so ``strategy=greedy seat=0`` selects the games in which
``greedy`` sat in seat 0, and ``strategy=greedy result=forfeit`` the games ``greedy``
forfeited. Several values of one key are alternatives (``termination=forfeit
termination=error``); different keys must all hold.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from simcli.errors import SimcliError
from simcli.records import TERMINATIONS
from simcli.stats import records as R
from simcli.suggest import did_you_mean

GAME_KEYS = ("variant", "termination", "game")
SEAT_KEYS = ("strategy", "seat", "result")
RESULTS = ("win", "loss", "draw", "forfeit")
SORT_KEYS = ("margin", "length")


class QueryError(SimcliError):
    """A ``--where`` or ``--sort`` that cannot be understood."""


@dataclass
class Where:
    """Parsed ``KEY=VALUE`` terms: for each key, the accepted values."""

    terms: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def parse(cls, items: Iterable[str]) -> Where:
        terms: dict[str, set[str]] = {}
        for item in items:
            key, sep, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if not sep or not key or not value:
                raise QueryError(f"--where {item!r}: expected KEY=VALUE, e.g. strategy=greedy")
            known = GAME_KEYS + SEAT_KEYS
            if key not in known:
                raise QueryError(
                    f"--where {item!r}: unknown key '{key}'{did_you_mean(key, known)}; "
                    f"keys: {', '.join(known)}"
                )
            if key == "seat" and not value.isdigit():
                raise QueryError(f"--where {item!r}: a seat is a number (0 = first seat)")
            if key == "result" and value not in RESULTS:
                raise QueryError(
                    f"--where {item!r}: result must be one of {', '.join(RESULTS)}"
                    f"{did_you_mean(value, RESULTS)}"
                )
            if key == "termination" and value not in TERMINATIONS:
                raise QueryError(
                    f"--where {item!r}: termination must be one of {', '.join(TERMINATIONS)}"
                    f"{did_you_mean(value, TERMINATIONS)}"
                )
            terms.setdefault(key, set()).add(value)
        return cls(terms)

    def matches(self, record: dict[str, Any]) -> bool:
        for key in GAME_KEYS:
            if key in self.terms and str(record.get(key)) not in self.terms[key]:
                return False
        if not any(key in self.terms for key in SEAT_KEYS):
            return True
        return any(self._seat_matches(record, seat) for seat in range(len(record["seats"])))

    def _seat_matches(self, record: dict[str, Any], seat: int) -> bool:
        checks = {
            "seat": lambda: str(seat),
            "strategy": lambda: record["seats"][seat],
            "result": lambda: seat_result(record, seat),
        }
        return all(checks[key]() in self.terms[key] for key in SEAT_KEYS if key in self.terms)


def seat_result(record: dict[str, Any], seat: int) -> str:
    """``win``, ``loss``, ``draw`` or ``forfeit`` (this seat forfeited) for one seat;
    a game that ended in an error is a draw of nobody: ``loss`` for every seat."""
    if record["termination"] == "forfeit" and R.forfeit_seat(record) == seat:
        return "forfeit"
    winners = record["winners"]
    n = len(record["seats"])
    if record["termination"] != "error" and R.is_draw(n, winners):
        return "draw"
    return "win" if seat in winners else "loss"


def sort_key(record: dict[str, Any], key: str) -> float | None:
    """The value ``--sort KEY`` orders by (``None`` when the game has none: a forfeit
    has no margin)."""
    if key == "margin":
        return R.margin(record["scores"])
    if key == "length":
        return R.game_length(record["moves"])
    raise QueryError(f"--sort {key!r}: expected one of {', '.join(SORT_KEYS)}")


def forfeit_text(record: dict[str, Any]) -> str | None:
    """``seat 1 (bad-bot) forfeited: exception: ZeroDivisionError: ...`` for a forfeit,
    ``error: game_error: ...`` for a rules error, else ``None``."""
    message = R.detail_message(record)
    reason = R.forfeit_kind(record) + (f": {message}" if message else "")
    if record["termination"] == "forfeit":
        seat = R.forfeit_seat(record)
        who = "a seat" if seat is None else f"seat {seat} ({record['seats'][seat]})"
        return f"{who} forfeited: {reason}"
    if record["termination"] == "error":
        return f"error: {reason}"
    return None
