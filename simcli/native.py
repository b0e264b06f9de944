"""Which path the engines run: compiled or pure Python.

``pip install -e .`` with a C compiler compiles the hot rules modules (the list
:data:`COMPILED` below) with Cython into extension modules beside their ``.py`` sources
(``libraria.cpython-311-x86_64-linux-gnu.so`` beside ``libraria.py``); Python's import
system then loads the extension first. The build also writes ``native_build.json``
(beside this file): the SHA-256 of every source it compiled.

:func:`select` (run once, when ``simcli`` is imported) loads a module from its ``.py``
instead when ``SIMCLI_PURE=1`` is set, or when its source no longer matches the build
(an edited rules file runs as edited, never as a stale extension). Both paths give the
same records: the extensions are compiled from the very same source.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import FunctionType, ModuleType

#: The referee's per-game and per-move path, compiled as plain Python: their type
#: annotations stay hints (``annotation_typing`` off), so they accept what the pure
#: modules accept; compiled, they take about an eighth off a worker's instructions per
#: game of random Libraria self-play. The referee's locals are then in no Python frame.
UNTYPED = (
    "simcli.tournament.play",
    "simcli.tournament.worker",
    "simcli.seeding",
    "simcli.frozen",
    "simcli.tournament.schedule",
    "simcli.game",
    "simcli_strategies.random_play",
    "simcli.draws",
    "simcli.tournament.think",
)

#: The modules the build compiles (setup.py reads this tuple): the rules and playouts of
#: the hot engines (C types from the ``.pxd`` beside some of them), the search tree, and
#: :data:`UNTYPED`.
COMPILED = (
    "simcli.games.libraria",
    "simcli.games.library.board",
    "simcli.games.library.routes",
    "simcli.games.library.playout",
    "simcli.games.library.state",
    "simcli.games.library.game",
    "simcli.games.adas_library.components",
    "simcli.games.adas_library.rows",
    "simcli.games.adas_library.playout",
    "simcli.games.adas_library.state",
    "simcli.games.adas_library.game",
    "simcli_strategies.search.tree",
    *UNTYPED,
)

#: Compiled helpers without a ``.py`` twin (their ``.pyx`` source is C-level code): each
#: is used by a Python module that falls back to the standard library's own functions
#: when the helper is not built, stale or forced off (``simcli/draws.py`` for ``_mt``,
#: ``simcli/seeding.py`` for ``_seedhash``, ``simcli/tournament/think.py`` for
#: ``_stopwatch``, ``simcli/game.py`` for ``_statehash``).
KERNELS = (
    "simcli._mt",
    "simcli._jsonline",
    "simcli._seedhash",
    "simcli._stopwatch",
    "simcli._statehash",
)

PURE_ENV = "SIMCLI_PURE"
BUILD_FILE = Path(__file__).with_name("native_build.json")
ROOT = Path(__file__).resolve().parent.parent


#: Import package -> folder of the checkout, where they differ (pyproject.toml).
PACKAGE_DIRS = {"simcli_strategies": "strategies"}


def source_path(module: str, root: Path = ROOT) -> Path:
    """The source of ``module`` (a name in :data:`COMPILED` or :data:`KERNELS`), relative
    to ``root``: its ``.py`` (``.pyx`` for a kernel)."""
    package, *rest = module.split(".")
    path = root.joinpath(PACKAGE_DIRS.get(package, package), *rest)
    return path.with_suffix(".pyx" if module in KERNELS else ".py")


def source_digest(module: str, root: Path = ROOT) -> str:
    """SHA-256 of the source of ``module`` (:func:`source_path`), and of the ``.pxd``
    beside it where there is one (its C types: part of what was compiled)."""
    path = source_path(module, root)
    digest = hashlib.sha256(path.read_bytes())
    types = path.with_suffix(".pxd")
    if types.is_file():
        digest.update(types.read_bytes())
    return digest.hexdigest()


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules as their ``.py`` files, passing over extensions."""

    def __init__(self, modules: set[str]):
        self.modules = modules

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules or not path:
            return None
        name = fullname.rpartition(".")[2] + ".py"
        for folder in path:
            source = Path(folder) / name
            if source.is_file():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


class Selection:
    """What :func:`select` decided: ``forced`` (SIMCLI_PURE=1), the extension modules
    present, those of them built from the current source of a module of
    :data:`COMPILED`, and the stale ones (source changed since the build)."""

    def __init__(self, forced: bool, present: set[str], digests: dict[str, str]):
        self.forced = forced
        self.present = present
        self.current = sorted(
            m for m in present & set(COMPILED + KERNELS) if m in digests and _matches(m, digests[m])
        )
        self.stale = sorted(present & set(COMPILED + KERNELS) - set(self.current))

    @property
    def pure_modules(self) -> set[str]:
        """The modules to load from their ``.py`` although an extension is present."""
        return set(self.present) if self.forced else self.present - set(self.current)


def _matches(module: str, digest: str) -> bool:
    try:
        return source_digest(module) == digest
    except OSError:
        return False


def _present() -> set[str]:
    """The modules of the simcli and simcli_strategies packages with an extension file."""
    out = set()
    for package in ("simcli", *PACKAGE_DIRS):
        folder = ROOT / PACKAGE_DIRS.get(package, package)
        for path in folder.rglob("*.so"):  # pyd: not built on Windows (docs)
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                if path.name.endswith(suffix):
                    name = path.name[: -len(suffix)]
                    out.add(".".join((package, *path.parent.relative_to(folder).parts, name)))
                    break
    return out


def _digests() -> dict[str, str]:
    """``native_build.json``: the source digest of every module the build compiled."""
    try:
        digests = json.loads(BUILD_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return digests if isinstance(digests, dict) else {}


_selection: Selection | None = None


def select() -> Selection:
    """Decide once per process; later calls return the same decision."""
    global _selection
    if _selection is None:
        forced = os.environ.get(PURE_ENV, "") not in ("", "0")
        _selection = Selection(forced, _present(), _digests())
        pure = _selection.pure_modules
        if pure:
            sys.meta_path.insert(0, _SourceFinder(pure))
    return _selection


def runs_compiled(function: object) -> bool:
    """Whether ``function`` (defined in a module of :data:`COMPILED`) runs compiled: a
    compiled module's functions are not Python function objects. A rules module asks
    this of its kernel to choose between the kernel and the contract's loop."""
    return not isinstance(function, FunctionType)


def load_kernel(name: str) -> ModuleType | None:
    """The helper ``name`` of :data:`KERNELS`, or ``None`` (its caller then uses the
    standard library): not built, stale, forced pure, or disagreeing with the standard
    library by its own check when loaded (its ``AGREES``)."""
    if not kernel_current(name):
        return None
    try:
        kernel = importlib.import_module(name)
    except ImportError:
        return None
    return kernel if kernel.AGREES else None


def kernel_current(name: str) -> bool:
    """Whether the helper ``name`` of :data:`KERNELS` may be used: built from its current
    source, and the engines not forced pure."""
    selection = select()
    return not selection.forced and name in selection.current


def in_use() -> dict[str, bool]:
    """Each module of :data:`COMPILED` and :data:`KERNELS`: whether it runs compiled
    (imports it; a helper of KERNELS counts when its Python module uses it)."""
    select()
    out = {}
    for name in COMPILED:
        module = importlib.import_module(name)
        loader = getattr(module, "__loader__", None)
        out[name] = isinstance(loader, importlib.machinery.ExtensionFileLoader)
    for name in KERNELS:  # used where built from its source and drawing as Python does
        out[name] = kernel_current(name) and importlib.import_module(name).AGREES
    return out


def active_path() -> str:
    """``"compiled"`` (every module of :data:`in_use` compiled), ``"pure"`` (none) or
    ``"partly compiled"``."""
    compiled = list(in_use().values())
    if all(compiled):
        return "compiled"
    return "partly compiled" if any(compiled) else "pure"


def notice() -> str | None:
    """One line saying the engines run (partly) pure Python and why; None when they run
    compiled."""
    path = active_path()
    if path == "compiled":
        return None
    selection = select()
    if selection.forced:
        why = f"{PURE_ENV}=1 is set"
    elif selection.stale:
        names = ", ".join(m.rpartition(".")[2] for m in selection.stale)
        why = f"the source of {names} changed since the build: run pip install -e . again"
    elif selection.current:
        why = "some compiled modules are missing: run pip install -e . again"
    else:
        why = "no compiled engines are built (pip install -e . with a C compiler builds them)"
    return f"note: the engines run {'partly ' if path != 'pure' else ''}pure Python ({why})"
