"""``use:`` forms and per-seat strategy RNGs."""

from __future__ import annotations

import random

import pytest

import simcli
from simcli.errors import StrategyLoadError
from simcli.games import get_game
from simcli.strategy import load_strategy_class
from simcli_strategies.greedy import GreedyStrategy
from simcli_strategies.random_play import RandomStrategy


def test_builtin_dotted_and_file_forms(tmp_path) -> None:
    assert load_strategy_class("random") is RandomStrategy
    assert load_strategy_class("simcli_strategies.greedy:GreedyStrategy") is GreedyStrategy
    (tmp_path / "mine.py").write_text(
        "from simcli.strategy import Strategy\n"
        "class First(Strategy):\n"
        "    def choose(self, view, legal_moves):\n"
        "        return legal_moves[0]\n"
    )
    cls = load_strategy_class("mine.py:First", tmp_path)
    assert cls.__name__ == "First"
    assert load_strategy_class(f"{tmp_path}/mine.py:First") is cls  # same module, loaded once


def test_not_a_strategy_class(tmp_path) -> None:
    (tmp_path / "plain.py").write_text("class Thing:\n    pass\n")
    with pytest.raises(StrategyLoadError, match="not a Strategy subclass"):
        load_strategy_class("plain.py:Thing", tmp_path)


def test_strategy_rng_depends_on_seed_and_seat_only() -> None:
    a = simcli.play("libraria", "random", players=2, seed=11)
    b = simcli.play("libraria", "random", players=2, seed=11, index=5)
    c = simcli.play("libraria", "random", players=2, seed=12)
    assert a["moves"] == b["moves"]  # the index is not an input of the game
    assert a["moves"] != c["moves"]


def test_greedy_prefers_the_better_spot() -> None:
    game = get_game("libraria")
    tiles = [3, 2, 1, 0, -1, 0, 1, 2, 3, -1, -1, 0, 1, 2, 3, 3, -1, 0, 1, 2, 2, 3, -1, 0, 1]
    state = game.new_state(2, game.resolve_options({}), {"tiles": tiles})
    # A lone first counter has total control of the (up to) four tiles around it, so it
    # scores sum(books + 1, or -2 for a mouse). Spot 15 (row 2, col 3) touches tiles of
    # 2, 3, 1, 2 books: 3+4+2+3 = 12; spot 22 (row 3, col 4) touches 2, 3, 1, 2: 12.
    # Every other spot scores less (e.g. spot 9: 1, 0, 2, 3 -> 2+1+3+4 = 10; spot 0: 4).
    picks = set()
    for seed in range(20):
        g = GreedyStrategy()
        g.start_game(game, 0, random.Random(seed))
        picks.add(g.choose(state.view(0), state.legal_moves()))
    assert picks == {15, 22}  # both best spots, chosen by the seeded tie-break


def test_documented_example_strategy_plays() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    cls = load_strategy_class(f"{root}/strategies/corner_first.py:CornerFirst")
    assert (
        load_strategy_class("simcli_strategies.corner_first:CornerFirst").__name__ == "CornerFirst"
    )
    corner = {"name": "corner", "use": cls, "params": {"weight": 10}}
    record = simcli.play("libraria", [corner, "random"], seed=3)
    assert record["termination"] == "normal"
    assert record["moves"][0] in (0, 5, 30, 35)  # weight 10: touching 1 tile beats any score gain


def test_builtin_strategies_install_as_simcli_strategies(tmp_path) -> None:
    """The folder ``strategies/`` is the package ``simcli_strategies`` (``package-dir`` in
    pyproject.toml): every built-in name points into it, it imports from any directory,
    and neither a bare ``strategies`` nor the old shims resolve to it."""
    import subprocess
    import sys
    from importlib.util import find_spec
    from pathlib import Path

    from simcli.strategy import BUILTIN

    folder = Path(__file__).resolve().parent.parent / "strategies"
    assert all(target.startswith("simcli_strategies.") for target in BUILTIN.values())
    assert Path(find_spec("simcli_strategies").origin).parent == folder
    assert find_spec("simcli_strategies.base") is None
    assert find_spec("simcli_strategies.loader") is None
    probe = (
        "import importlib.util, simcli_strategies\n"
        "print(simcli_strategies.__file__)\n"
        "print(importlib.util.find_spec('strategies'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert Path(out[0]).parent == folder
    assert out[1] == "None"


def test_pyproject_lists_every_package() -> None:
    """``package-dir`` needs an explicit package list (discovery does not rename): it must
    name every folder of simcli and of the strategies that holds an ``__init__.py``."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    tool = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {"simcli": "simcli", **tool["package-dir"]}
    found = set()
    for name, folder in folders.items():
        for init in (root / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(root / folder).parts
            found.add(".".join((name, *parts)))
    assert sorted(found) == sorted(tool["packages"])


@pytest.mark.slow
def test_no_import_cycle_between_strategy_modules() -> None:
    """Each built-in strategy module imports only simcli and helper modules, never
    another strategy module that imports it back (read from the source, not run)."""
    import ast
    from pathlib import Path

    folder = Path(strategy_module_file()).parent
    imports: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "simcli_strategies."
            ):
                found.add(node.module.split(".")[1])
        imports[path.stem] = found

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in imports.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    assert imports["ismcts"] >= {"mcts"} and "search" in imports["mcts"]  # real imports
    cyclic = [name for name in imports if reaches(name, name, {name})]
    assert cyclic == []
    # the search core is below every strategy: it imports none of them
    for path in (folder / "search").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "simcli_strategies."
            ):
                assert node.module.startswith("simcli_strategies.search."), (path, node.module)


def strategy_module_file() -> str:
    import simcli_strategies.mcts

    return simcli_strategies.mcts.__file__
