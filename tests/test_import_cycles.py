"""No import cycle between simcli's own modules (``simcli/`` and the built-in strategies).

The module graph is read from the source with :mod:`ast`, never by importing it. An edge
is every ``import`` and ``from ... import`` of one of our modules, at module level and
inside functions and classes alike (an import deferred into a function still ties the two
modules together); only ``if TYPE_CHECKING:`` blocks are left out (their ``else:`` counts).
Relative imports are resolved; ``from pkg import name`` is an edge to ``pkg.name`` when
that is a module, else to ``pkg`` (its ``__init__.py``). Implicit imports of parent
packages (``import a.b`` runs ``a/__init__.py`` first) are not edges: they would tie every
module to ``simcli/__init__.py`` and say nothing about the layering.

The layers, lowest first: records < games < tournament < stats < report < gate/balance <
the application layer < cli (``/work/shared/DESIGN.md`` of the project: *No import cycles*).
"""

from __future__ import annotations

import ast
import tomllib
from collections import deque
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
#: Import name -> folder (relative to the repository) of every package we check.
DEFAULT_PACKAGES = {"simcli": "simcli", "strategies": "strategies"}


def packages(repo: Path = REPO) -> dict[str, Path]:
    """Our packages by import name: the defaults, with setuptools' ``package-dir`` mapping
    of ``pyproject.toml`` applied (a folder installed under another import name)."""
    mapping = dict(DEFAULT_PACKAGES)
    pyproject = repo / "pyproject.toml"
    if pyproject.is_file():
        tool = tomllib.loads(pyproject.read_text()).get("tool", {})
        package_dir = tool.get("setuptools", {}).get("package-dir", {})
        for name, folder in package_dir.items():
            if name and "." not in name:
                mapping = {k: v for k, v in mapping.items() if v != folder}
                mapping[name] = folder
    return {name: repo / folder for name, folder in mapping.items() if (repo / folder).is_dir()}


def module_files(roots: Mapping[str, Path]) -> dict[str, Path]:
    """Every module under each root, by dotted name (a package is its ``__init__.py``)."""
    found: dict[str, Path] = {}
    for top, root in roots.items():
        for path in sorted(root.rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([top, *parts])] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
    """Every import statement in ``tree``, at any depth, outside ``if TYPE_CHECKING:``."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imported_modules(name: str, path: Path, known: Iterable[str]) -> dict[str, int]:
    """The modules of ``known`` that module ``name`` (file ``path``) imports, each with
    the line of its first import."""
    known = set(known)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    edges: dict[str, int] = {}

    def add(target: str, line: int) -> None:
        if target in known and target != name:
            edges[target] = min(line, edges.get(target, line))

    for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
            continue
        if node.level:
            base_parts = package.split(".")
            if node.level > 1:
                base_parts = base_parts[: -(node.level - 1)]
            base = ".".join([*base_parts, *([node.module] if node.module else [])])
        else:
            base = node.module or ""
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            add(sub if sub in known else base, node.lineno)
    return edges


def import_graph(roots: Mapping[str, Path]) -> dict[str, dict[str, int]]:
    """Module -> {imported module: line of the first import}."""
    files = module_files(roots)
    return {name: imported_modules(name, path, files) for name, path in files.items()}


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph`` that hold a cycle (two or more
    modules, or one that imports itself), each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    nodes = sorted(set(graph) | {t for targets in graph.values() for t in targets})

    for root in nodes:
        if root in index:
            continue
        # Iterative depth-first search: (node, iterator over its successors).
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(sorted(graph.get(root, ()))))]
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph.get(succ, ())))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph.get(node, ()):
                        found.append(sorted(component))
    return sorted(found)


def cycle_in(graph: Mapping[str, Iterable[str]], component: list[str]) -> list[str]:
    """A shortest cycle through the first module of ``component`` (a strongly connected
    component), as the path ``[a, b, ..., a]``."""
    members = set(component)
    start = component[0]
    previous: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for succ in sorted(graph.get(node, ())):
            if succ not in members:
                continue
            if succ == start:
                path = [node]
                while path[-1] != start:
                    path.append(previous[path[-1]])
                return [*reversed(path), start]
            if succ not in previous:
                previous[succ] = node
                queue.append(succ)
    raise AssertionError(f"no cycle through {start} in {component}")


def describe_cycles(graph: Mapping[str, Mapping[str, int]], files: Mapping[str, Path]) -> str:
    """One paragraph per import cycle: its modules, and one cycle path with the line of
    each import on it."""
    out = []
    for component in strongly_connected(graph):
        path = cycle_in(graph, component)
        steps = [
            f"    {a} -> {b}  ({files[a].relative_to(REPO)}:{graph[a][b]})"
            for a, b in zip(path, path[1:], strict=False)
        ]
        out.append(
            f"cycle among {len(component)} modules: {', '.join(component)}\n" + "\n".join(steps)
        )
    return "\n".join(out)


# ----------------------------------------------------------------------------- tests


@pytest.mark.slow
def test_no_import_cycles() -> None:
    roots = packages()
    assert "simcli" in roots
    files = module_files(roots)
    graph = import_graph(roots)
    assert len(graph) > 50 and sum(map(len, graph.values())) > 100  # the walk found the code
    report = describe_cycles(graph, files)
    assert not report, "import cycles between simcli modules:\n" + report


def _reachable(graph: Mapping[str, Iterable[str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = [start]
    while stack:
        for succ in graph.get(stack.pop(), ()):
            if succ not in seen:
                seen.add(succ)
                stack.append(succ)
    return seen


@pytest.mark.slow
def test_the_record_format_and_the_config_stay_at_the_bottom() -> None:
    """The record format reads no schedule, game or config; the config is plain data."""
    graph = import_graph(packages())
    assert _reachable(graph, "simcli.config") == set()
    above = ("simcli.config", "simcli.game", "simcli.verify", "simcli.tournament", "simcli.stats")
    reached = _reachable(graph, "simcli.records")
    assert not [m for m in reached if m.startswith(above)], sorted(reached)


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {
        "a": {"b"},
        "b": {"c"},
        "c": {"a", "d"},  # a -> b -> c -> a
        "d": {"e"},
        "e": {"d"},  # d <-> e, reached from the first cycle but not part of it
        "f": {"a", "f"},  # a self-import
        "g": set(),
    }
    assert strongly_connected(graph) == [["a", "b", "c"], ["d", "e"], ["f"]]
    assert cycle_in(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert cycle_in(graph, ["d", "e"]) == ["d", "e", "d"]
    assert cycle_in(graph, ["f"]) == ["f", "f"]
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a", "c"}}) == []


def test_the_graph_counts_deferred_and_relative_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("X = 1\n")
    (pkg / "sub" / "__init__.py").write_text("from .. import low\n")
    (pkg / "sub" / "mod.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from pkg import high\n"
        "else:\n"
        "    import json\n"
        "def f():\n"
        "    from ..high import Y\n"
        "    return Y\n"
    )
    (pkg / "high.py").write_text("import pkg.sub\nfrom pkg.sub import mod\nY = 2\n")
    graph = import_graph({"pkg": pkg})
    assert graph == {
        "pkg": {},
        "pkg.high": {"pkg.sub": 1, "pkg.sub.mod": 2},
        "pkg.low": {},
        "pkg.sub": {"pkg.low": 1},
        "pkg.sub.mod": {"pkg.high": 7},  # inside a function; the TYPE_CHECKING import is not
    }
    assert strongly_connected(graph) == [["pkg.high", "pkg.sub.mod"]]
