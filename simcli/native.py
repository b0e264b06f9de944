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
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The modules the build compiles (setup.py reads this tuple).
COMPILED = (
    "simcli.games.libraria",
    "simcli.games.library.board",
    "simcli.games.library.routes",
    "simcli.games.library.state",
    "simcli.games.library.game",
    "simcli.games.adas_library.components",
    "simcli.games.adas_library.rows",
    "simcli.games.adas_library.state",
    "simcli.games.adas_library.game",
)

PURE_ENV = "SIMCLI_PURE"
BUILD_FILE = Path(__file__).with_name("native_build.json")
ROOT = Path(__file__).resolve().parent.parent


def source_digest(module: str) -> str:
    """SHA-256 of the ``.py`` source of ``module`` (a name in :data:`COMPILED`)."""
    path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
    return hashlib.sha256(path.read_bytes()).hexdigest()


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
    """What :func:`select` decided: ``forced`` (SIMCLI_PURE=1), the modules built and
    current, and those whose source changed since the build."""

    def __init__(self, forced: bool, built: dict[str, str]):
        self.forced = forced
        self.current = [m for m, digest in built.items() if _matches(m, digest)]
        self.stale = [m for m in built if m not in self.current]

    @property
    def pure_modules(self) -> set[str]:
        return set(COMPILED) if self.forced else set(COMPILED) - set(self.current)


def _matches(module: str, digest: str) -> bool:
    try:
        return source_digest(module) == digest
    except OSError:
        return False


def _built() -> dict[str, str]:
    """``native_build.json``'s source digests of the modules whose extension is present."""
    try:
        digests = json.loads(BUILD_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    out = {}
    for module, digest in digests.items():
        stem = ROOT.joinpath(*module.split("."))
        if module in COMPILED and any(stem.with_name(stem.name + s).is_file() for s in suffixes):
            out[module] = digest
    return out


_selection: Selection | None = None


def select() -> Selection:
    """Decide once per process; later calls return the same decision."""
    global _selection
    if _selection is None:
        _selection = Selection(os.environ.get(PURE_ENV, "") not in ("", "0"), _built())
        pure = _selection.pure_modules
        if pure:
            sys.meta_path.insert(0, _SourceFinder(pure))
    return _selection


def in_use() -> dict[str, bool]:
    """Each module of :data:`COMPILED`: whether it runs compiled (imports it)."""
    select()
    out = {}
    for name in COMPILED:
        module = importlib.import_module(name)
        loader = getattr(module, "__loader__", None)
        out[name] = isinstance(loader, importlib.machinery.ExtensionFileLoader)
    return out


def active_path() -> str:
    """``"compiled"`` (every module of :data:`COMPILED` compiled), ``"pure"`` (none) or
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
