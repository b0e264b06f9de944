"""Number formatting shared by the findings sentences and the report writers.

Everything returns text; an undefined value (``None``) becomes ``"n/a"``.
"""

from __future__ import annotations

import math

NA = "n/a"


def defined(x) -> bool:
    return x is not None and not (isinstance(x, float) and not math.isfinite(x))


def pct(x: float | None, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%" if defined(x) else NA


def pct_ci(d: dict | None, digits: int = 1) -> str:
    """``"53.1% [51.2%, 55.0%]"`` from an interval dict (estimate/low/high)."""
    if not d or not defined(d.get("estimate")):
        return NA
    if not defined(d.get("low")) or not defined(d.get("high")):
        return pct(d["estimate"], digits)
    return f"{pct(d['estimate'], digits)} [{pct(d['low'], digits)}, {pct(d['high'], digits)}]"


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


def num_ci(d: dict | None, digits: int = 2, *, sign: bool = False) -> str:
    """``"12.30 [11.90, 12.70]"`` from an interval dict."""
    if not d or not defined(d.get("estimate")):
        return NA
    f = (lambda v: signed(v, digits)) if sign else (lambda v: f"{v:.{digits}f}")
    if not defined(d.get("low")) or not defined(d.get("high")):
        return f(d["estimate"])
    return f"{f(d['estimate'])} [{f(d['low'])}, {f(d['high'])}]"


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


def plural(n: float, word: str, many: str | None = None) -> str:
    count = num(n, 1)
    return f"{count} {word if n == 1 else (many or word + 's')}"
