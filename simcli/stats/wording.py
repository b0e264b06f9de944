"""Number formatting shared by the findings sentences and the report writers.

Everything returns text; an undefined value (``None``) becomes ``"n/a"``.
"""

from __future__ import annotations

import math
from typing import Protocol

NA = "n/a"


class Estimate(Protocol):
    """Anything with an estimate and interval bounds (e.g. :class:`Interval`)."""

    estimate: float | None
    low: float | None
    high: float | None


def defined(x) -> bool:
    return x is not None and not (isinstance(x, float) and not math.isfinite(x))


def pct(x: float | None, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%" if defined(x) else NA


def pct_ci(iv: Estimate | None, digits: int = 1) -> str:
    """``"53.1% [51.2%, 55.0%]"`` from an interval (estimate/low/high)."""
    if iv is None or not defined(iv.estimate):
        return NA
    if not defined(iv.low) or not defined(iv.high):
        return pct(iv.estimate, digits)
    return f"{pct(iv.estimate, digits)} [{pct(iv.low, digits)}, {pct(iv.high, digits)}]"


def num(x: float | None, digits: int = 2) -> str:
    if not defined(x):
        return NA
    if isinstance(x, int) or float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.{digits}f}"


def signed(x: float | None, digits: int = 0) -> str:
    if not defined(x):
        return NA
    return f"{x:+.{digits}f}"


def num_ci(iv: Estimate | None, digits: int = 2, *, sign: bool = False) -> str:
    """``"12.30 [11.90, 12.70]"`` from an interval."""
    if iv is None or not defined(iv.estimate):
        return NA
    f = (lambda v: signed(v, digits)) if sign else (lambda v: f"{v:.{digits}f}")
    if not defined(iv.low) or not defined(iv.high):
        return f(iv.estimate)
    return f"{f(iv.estimate)} [{f(iv.low)}, {f(iv.high)}]"


def pvalue(p: float | None) -> str:
    if not defined(p):
        return NA
    if p == 0:
        return "< 1e-300"
    if p >= 0.001:
        return f"{p:.4f}"
    return f"{p:.1e}"


def p_phrase(p: float | None) -> str:
    """``"p = 0.0012"`` / ``"p < 1e-300"``."""
    text = pvalue(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def seat_label(seat: int) -> str:
    """Seats are shown as in the records: seat 0 moves first."""
    return f"seat {seat}"


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def player_label(seat: int) -> str:
    """What designers call a seat: seat 0 moves first, so it is the first player."""
    return f"{ORDINALS[seat]} player" if seat < len(ORDINALS) else f"player {seat + 1}"


def plural(n: float, word: str, many: str | None = None) -> str:
    count = num(n, 1)
    return f"{count} {word if n == 1 else (many or word + 's')}"
