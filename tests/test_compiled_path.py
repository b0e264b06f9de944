"""The compiled and the pure Python path of the engines (simcli/native.py, setup.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import simcli.games
from simcli import native

PURE_CHECK = (
    "import json, simcli.native as n, simcli.games.library.state as m; "
    "print(json.dumps([n.in_use(), n.active_path(), m.__file__]))"
)


def _pure_env() -> dict[str, str]:
    return dict(os.environ, SIMCLI_PURE="1")


@pytest.mark.slow
def test_simcli_pure_loads_every_module_from_its_source() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PURE_CHECK],
        env=_pure_env(),
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    in_use, path, source = json.loads(out)
    assert set(in_use) == set(native.COMPILED + native.KERNELS)
    assert not any(in_use.values())
    assert path == "pure"
    assert source.endswith(os.path.join("library", "state.py"))


@pytest.mark.slow
def test_simcli_list_says_when_the_engines_run_pure_python() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "simcli", "list", "games"],
        env=_pure_env(),
        check=True,
        capture_output=True,
        text=True,
    )
    assert result.stderr.strip() == ("note: the engines run pure Python (SIMCLI_PURE=1 is set)")
    assert result.stdout.startswith("games:\n")


def test_the_compiled_modules_are_the_ones_in_use_when_built() -> None:
    """Skipped where the engines are not built (or are out of date), unless
    SIMCLI_REQUIRE_COMPILED=1 (.ci/run) makes that a failure."""
    if native.select().forced:
        pytest.skip("SIMCLI_PURE=1 is set: the pure path is tested")
    stale = native.select().stale
    built = native.select().current
    why = None
    if not built:
        why = "no compiled engines built (pip install -e . with Cython and a C compiler)"
    elif stale:
        why = f"sources edited since the build ({', '.join(stale)}): pip install -e ."
    if why:
        if os.environ.get("SIMCLI_REQUIRE_COMPILED") == "1":
            pytest.fail(why)
        pytest.skip(why)
    in_use = native.in_use()
    assert in_use == {name: name in built for name in native.COMPILED + native.KERNELS}
    if len(built) == len(native.COMPILED + native.KERNELS):
        assert native.active_path() == "compiled" and native.notice() is None
    else:
        assert native.active_path() == "partly compiled"


def test_a_module_whose_source_changed_since_the_build_runs_from_its_source() -> None:
    name = "simcli.games.library.state"
    current = native.source_digest(name)
    other = "simcli.games.chance"  # an extension of a module the build does not list
    present = {name, other}
    selection = native.Selection(False, present, {name: "0" * 64, other: "0"})
    assert selection.stale == [name] and not selection.current
    assert selection.pure_modules == present
    fresh = native.Selection(False, present, {name: current})
    assert fresh.current == [name] and not fresh.stale
    assert fresh.pure_modules == {other}
    assert native.Selection(True, present, {name: current}).pure_modules == present


def test_the_source_finder_passes_over_an_extension() -> None:
    finder = native._SourceFinder({"simcli.games.libraria"})
    spec = finder.find_spec("simcli.games.libraria", simcli.games.__path__)
    assert spec is not None and spec.origin.endswith(os.path.join("games", "libraria.py"))
    assert finder.find_spec("simcli.games.chance", simcli.games.__path__) is None


def test_every_module_to_compile_has_its_source() -> None:
    for name in native.COMPILED:
        assert native.source_path(name).suffix == ".py" and native.source_path(name).is_file()
    for name in native.KERNELS:
        assert native.source_path(name).suffix == ".pyx" and native.source_path(name).is_file()
    tree = native.source_path("simcli_strategies.search.tree")
    assert tree == native.ROOT / "strategies" / "search" / "tree.py"


@pytest.mark.slow
def test_run_json_says_which_path_ran(tmp_path) -> None:
    from simcli.configfile import load_config
    from simcli.tournament.runner import run_tournament

    config = tmp_path / "c.yaml"
    config.write_text(
        "game: libraria\nstrategies: [random]\nformat: self_play\ngames: 2\nseed: 1\nworkers: 0\n"
    )
    run_tournament(load_config(config), tmp_path / "out", force=True, quiet=True)
    info = json.loads((tmp_path / "out" / "run.json").read_text())
    assert info["versions"]["engines"] == native.active_path()
    assert info["versions"]["engines"] in ("compiled", "pure", "partly compiled")
