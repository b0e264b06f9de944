"""The seat-bias tables of this study agree with their counts.

    python studies/seat-bias/check.py      (or: pytest studies/seat-bias/check.py)

Every row that gives seat 0 wins, seat 1 wins and a share of the decisive games is
recomputed here from the counts: the share, its 95% Wilson interval (closed form, written
out below rather than taken from simcli) and the exact two-sided binomial p against 1/2
(scipy). A typo in a count, a share or a p-value fails the test.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import pytest
from scipy.stats import binomtest

HERE = Path(__file__).resolve().parent
TABLES = [HERE / "README.md"]  # the product's README now quotes `simcli balance` instead
Z = 1.959963984540054  # the 97.5% point of the standard normal

PERCENT = r"(\d+(?:\.\d+)?)%"
SHARE = re.compile(rf"\**{PERCENT} \[{PERCENT}, {PERCENT}\]\**")


def wilson(k: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval: (p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)."""
    p = k / n
    centre = p + Z * Z / (2 * n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    scale = 1 + Z * Z / n
    return (centre - half) / scale, (centre + half) / scale


def table_rows(path: Path) -> list[tuple[str, int, int, str, str]]:
    """(row text, seat 0 wins, seat 1 wins, share cell, p cell) of every seat-bias row."""
    rows = []
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 6 or not SHARE.fullmatch(cells[-2]):
            continue
        # the counts are the three cells before the share: seat 0, seat 1, draws
        seat0, seat1 = int(cells[-5]), int(cells[-4])
        rows.append((line, seat0, seat1, cells[-2], cells[-1]))
    return rows


ROWS = [row for path in TABLES for row in table_rows(path)]


def test_the_study_has_its_seat_bias_tables() -> None:
    # Libraria's 4 rows at 6400 games, 10 by skill, the other games below them
    assert len(table_rows(TABLES[0])) >= 20


def decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


@pytest.mark.parametrize("row", ROWS, ids=[f"row{i}" for i in range(len(ROWS))])
def test_share_interval_and_p_follow_from_the_counts(row) -> None:
    line, seat0, seat1, share_cell, p_cell = row
    n = seat0 + seat1
    share, low, high = SHARE.fullmatch(share_cell).groups()
    lo, hi = wilson(seat1, n)
    for shown, exact in ((share, seat1 / n), (low, lo), (high, hi)):
        step = 10 ** -decimals(shown) / 100  # one unit of the last shown digit, as a fraction
        assert abs(float(shown) / 100 - exact) <= step / 2 + 1e-12, line
    p = binomtest(seat1, n, 0.5).pvalue
    if p_cell.startswith("<"):
        assert p < float(p_cell.lstrip("< ")), line
    else:
        # rounded to the significant digits shown (0.5, 0.19, 1.4e-10, 2.0e-10, 1e-168)
        mantissa = p_cell.split("e")[0].replace(".", "").lstrip("0")
        assert float(p_cell) == float(f"{p:.{len(mantissa)}g}"), line


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
