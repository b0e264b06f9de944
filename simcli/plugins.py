"""Loading user code: ``path/to/file.py:Class``, ``package.module:Class`` and Python entry
points, shared by games (``simcli.games``) and strategies (``simcli.strategies``).

Also the *fingerprint* of a plug-in's source, so that a game log can tell when the rules
that wrote it have changed.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from simcli.suggest import did_you_mean

#: Entry point groups a pip-installed package can fill.
GAME_GROUP = "simcli.games"
STRATEGY_GROUP = "simcli.strategies"
#: Required keys of ``game_source``, the origin of a plug-in game in its records (absent
#: for built-in games).
SOURCE_KEYS = ("kind", "use", "fingerprint")


@dataclass(frozen=True)
class EntryPointInfo:
    """One installed entry point: its name, ``module:Class`` and the package that ships it."""

    name: str
    value: str
    package: str | None


#: The start of the module name a ``file.py`` target is imported under.
USER_MODULE_PREFIX = "simcli_user_"


def entry_points(group: str) -> dict[str, EntryPointInfo]:
    """The entry points of ``group`` by name (looked up afresh: a test may add a package)."""
    found: dict[str, EntryPointInfo] = {}
    for ep in importlib.metadata.entry_points(group=group):
        if ep.name in found:
            continue  # the first on sys.path wins, as for imports
        dist = getattr(ep, "dist", None)
        package = f"{dist.metadata['Name']} {dist.version}" if dist is not None else None
        found[ep.name] = EntryPointInfo(ep.name, ep.value, package)
    return found


def is_file_target(use: str) -> bool:
    return use.rpartition(":")[0].endswith(".py")


def import_target(target: str, base_dir: Path | None, what: str, error: type[Exception]):
    """The module named by ``target``: a ``.py`` path (relative: the config's folder
    first, then the current directory) or a dotted module name. Any failure becomes
    ``error`` with a one-line message."""
    if target.endswith(".py"):
        return _import_file(target, base_dir, what, error)
    try:
        return importlib.import_module(target)
    except Exception as exc:  # any import-time failure of user code
        raise error(
            f"cannot import {what} module '{target}': {type(exc).__name__}: {exc}"
        ) from None


def resolve_file(target: str, base_dir: Path | None, what: str, error: type[Exception]) -> Path:
    path = Path(target).expanduser()
    candidates = [path] if path.is_absolute() else [p / path for p in (base_dir, Path.cwd()) if p]
    found = next((p for p in candidates if p.is_file()), None)
    if found is None:
        tried = ", ".join(str(p) for p in candidates)
        raise error(f"{what} file '{target}' not found (looked at: {tried})")
    return found.resolve()


def _import_file(target: str, base_dir: Path | None, what: str, error: type[Exception]) -> Any:
    found = resolve_file(target, base_dir, what, error)
    # A stable module name, so instances pickle the same way in every process.
    digest = hashlib.sha256(str(found).encode()).hexdigest()[:12]
    name = f"{USER_MODULE_PREFIX}{found.stem}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, found)
    if spec is None or spec.loader is None:
        raise error(f"cannot load {what} file '{found}'")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise error(f"cannot import {what} file '{found}': {type(exc).__name__}: {exc}") from None
    return module


def class_from(module: ModuleType, target: str, class_name: str, error: type[Exception]) -> Any:
    cls = getattr(module, class_name, None)
    if cls is None:
        names = [n for n in vars(module) if not n.startswith("_")]
        raise error(
            f"module '{target}' has no class '{class_name}'{did_you_mean(class_name, names)}"
        )
    return cls


def load_entry_point(group: str, name: str, what: str, error: type[Exception]) -> Any:
    """The object an installed entry point names; a failing import is ``error``."""
    info = entry_points(group)[name]
    module_name, _, attr = info.value.partition(":")
    try:
        obj = importlib.import_module(module_name)
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
    except Exception as exc:
        source = f" (package {info.package})" if info.package else ""
        raise error(
            f"{what} entry point '{name}' = '{info.value}'{source} fails to load: "
            f"{type(exc).__name__}: {exc}"
        ) from None
    return obj


# --------------------------------------------------------------------------- fingerprints


def source_files(cls: type) -> list[tuple[str, Path]]:
    """The source files a plug-in class comes from, as (stable name, path): the file of
    every user module in its class hierarchy, or every ``.py`` file of its top-level
    package. simcli's own modules are covered by the simcli version instead."""
    files: dict[str, Path] = {}
    for klass in cls.__mro__:
        module = sys.modules.get(klass.__module__)
        top = klass.__module__.partition(".")[0]
        if module is None or top in ("simcli", "simcli_strategies", "builtins", "abc", "typing"):
            continue
        file = getattr(module, "__file__", None)
        if not file:
            continue
        if "." in klass.__module__ or getattr(module, "__path__", None):
            root = Path(sys.modules[top].__file__ or file).parent
            for path in sorted(root.rglob("*.py")):
                files[f"{top}/{path.relative_to(root).as_posix()}"] = path
        else:
            files[Path(file).name] = Path(file)
    return sorted(files.items())


def fingerprint(cls: type) -> str:
    """``sha256:`` + 16 hex digits over the names and bytes of :func:`source_files`."""
    digest = hashlib.sha256()
    for name, path in source_files(cls):
        digest.update(name.encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"<unreadable>")
        digest.update(b"\0")
    return "sha256:" + digest.hexdigest()[:16]
