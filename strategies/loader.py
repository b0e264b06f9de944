"""Find strategy classes from a config's ``use:`` value and check their parameters."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

from simcli.errors import StrategyLoadError
from simcli.suggest import did_you_mean
from strategies import BUILTIN
from strategies.base import Strategy


def load_strategy_class(use: str, base_dir: Path | None = None) -> type[Strategy]:
    """The class named by ``use``: a built-in name, ``package.module:Class`` or
    ``path/to/file.py:Class`` (relative paths: the config's folder first, then the
    current directory)."""
    if not isinstance(use, str) or not use:
        raise StrategyLoadError(f"'use' must be a strategy name or 'module:Class', got {use!r}")
    if ":" not in use:
        if use not in BUILTIN:
            raise StrategyLoadError(
                f"unknown strategy '{use}'{did_you_mean(use, BUILTIN)}; built-in strategies: "
                f"{', '.join(sorted(BUILTIN))} (or give 'package.module:Class' or "
                f"'path/to/file.py:Class')"
            )
        use = BUILTIN[use]
    target, _, class_name = use.rpartition(":")
    if target.endswith(".py"):
        module = _import_file(target, base_dir)
    else:
        try:
            module = importlib.import_module(target)
        except Exception as exc:  # any import-time failure of user code
            raise StrategyLoadError(
                f"cannot import strategy module '{target}': {type(exc).__name__}: {exc}"
            ) from None
    cls = getattr(module, class_name, None)
    if cls is None:
        names = [n for n in vars(module) if not n.startswith("_")]
        raise StrategyLoadError(
            f"module '{target}' has no class '{class_name}'{did_you_mean(class_name, names)}"
        )
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise StrategyLoadError(
            f"'{use}' is not a Strategy subclass (derive it from strategies.base.Strategy)"
        )
    return cls


def _import_file(target: str, base_dir: Path | None) -> Any:
    path = Path(target).expanduser()
    candidates = [path] if path.is_absolute() else [p / path for p in (base_dir, Path.cwd()) if p]
    found = next((p for p in candidates if p.is_file()), None)
    if found is None:
        tried = ", ".join(str(p) for p in candidates)
        raise StrategyLoadError(f"strategy file '{target}' not found (looked at: {tried})")
    found = found.resolve()
    # A stable module name, so instances pickle the same way in every process.
    digest = hashlib.sha256(str(found).encode()).hexdigest()[:12]
    name = f"simcli_user_{found.stem}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, found)
    if spec is None or spec.loader is None:
        raise StrategyLoadError(f"cannot load strategy file '{found}'")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise StrategyLoadError(
            f"cannot import strategy file '{found}': {type(exc).__name__}: {exc}"
        ) from None
    return module


def check_params(label: str, cls: type[Strategy], params: dict[str, Any]) -> None:
    """Construct ``cls(**params)`` once so that bad parameters fail before any game."""
    try:
        cls(**params)
    except (TypeError, ValueError) as exc:
        raise StrategyLoadError(
            f"strategy '{label}': {cls.__name__} rejects params {params!r}: {exc}"
        ) from None
