"""Every Python recipe of docs/analysis.md runs on small runs of its own (the docs' run
paths replaced by them)."""

from __future__ import annotations

import contextlib
import io
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
