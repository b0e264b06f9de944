"""Every Python recipe of docs/analysis.md runs on small runs of its own (the docs' run
paths replaced by them)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "analysis.md"

LIBRARIA = """\
name: lib
game: libraria
strategies:
  - {name: random, use: random}
  - {name: greedy, use: greedy}
variants:
  grid:
    opening: [two_counters, one_counter]
format: round_robin
games: 4
seed: 11
"""

EX_LIBRIS = """\
name: exl
game: ex_libris
strategies: [{name: heuristic, use: ex_libris_heuristic}, {name: random, use: random}]
format: round_robin
games: 2
seed: 5
"""


@pytest.mark.slow
def test_every_recipe_runs(tmp_path, monkeypatch, play_config) -> None:
    pytest.importorskip("pandas")
    libraria = play_config(tmp_path / "lib", LIBRARIA)
    ex_libris = play_config(tmp_path / "exl", EX_LIBRIS)
    paths = {
        "results/quickstart": libraria,
        "results/libraria-seat-bias": libraria,
        "results/ex-libris-2p": ex_libris,
    }
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(blocks) >= 5
    for block in blocks:
        for name, path in paths.items():
            block = block.replace(f'"{name}"', repr(str(path)))
        assert "results/" not in block.split("#")[0]
        without_pandas = "when pandas is missing" in block
        with monkeypatch.context() as patch:
            if without_pandas:
                patch.setitem(sys.modules, "pandas", None)
            with contextlib.redirect_stdout(io.StringIO()) as printed:
                scope: dict = {}
                exec(compile(block, "docs/analysis.md recipe", "exec"), scope)
        assert printed.getvalue() or without_pandas
        if without_pandas:
            assert scope["wins"] > 0


ROUND_ROBIN = """\
name: rr
game: libraria
strategies:
  - {name: random, use: random}
  - {name: greedy, use: greedy}
  - {name: noisy, use: greedy, params: {epsilon: 0.5}}
format: round_robin
games: 8
seed: 3
"""


@pytest.mark.slow
def test_the_recipe_gives_the_reports_tables(tmp_path, play_config) -> None:
    """The first recipe recomputes the report's Strategies and Seat bias tables from
    ``simcli.load_run``: every figure equals the one in ``summary.json``."""
    pytest.importorskip("pandas")
    run = play_config(tmp_path / "rr", ROUND_ROBIN)
    block = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)[0]
    assert "strategies = played.groupby" in block
    scope: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(
            compile(block.replace('"results/quickstart"', repr(str(run))), "recipe", "exec"), scope
        )
    summary = json.loads((run / "summary.json").read_text())
    (group,) = summary["groups"]
    assert group["seat_bias"]["draws"] > 0  # draws are where win share and score differ
    strategies = scope["strategies"]
    for row in group["strategies"]:
        got = strategies.loc[row["name"]]
        assert got["games"] == row["games"]
        assert got["wins"] == pytest.approx(row["wins"])
        assert got["draws"] == row["draws"]
        assert got["win_rate"] == pytest.approx(row["win_rate"]["estimate"])
        assert got["score_rate"] == pytest.approx(row["score_rate"]["estimate"])
        assert got["mean_points"] == pytest.approx(row["points"]["mean"])
    seats = scope["seats"]
    for seat in group["seat_bias"]["seats"]:
        got = seats.loc[seat["seat"]]
        assert got["win_share"] == pytest.approx(seat["win_rate"]["estimate"])
        assert got["decisive_wins"] == seat["decisive_wins"]
        assert got["share_of_decisive_games"] == pytest.approx(seat["decisive_rate"]["estimate"])
        assert got["mean_points"] == pytest.approx(seat["points"]["mean"])


def test_the_column_table_lists_every_column() -> None:
    """docs/analysis.md names every fixed column of the table, and no column named
    ``index`` (a DataFrame's own)."""
    from simcli.table import COLUMNS

    text = DOC.read_text()
    documented = set(re.findall(r"^\| `([a-z_]+)`", text, flags=re.M))
    documented |= {
        n
        for row in re.findall(r"^\| (`[a-z_]+`(?:, `[a-z_]+`)+) \|", text, flags=re.M)
        for n in re.findall(r"`([a-z_]+)`", row)
    }
    assert set(COLUMNS) <= documented, set(COLUMNS) - documented
    assert "index" not in COLUMNS
