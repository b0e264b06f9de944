"""Find strategy classes from a config's ``use:`` value and check their parameters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simcli.errors import StrategyLoadError
from simcli.plugins import STRATEGY_GROUP, class_from, entry_points, import_target, load_entry_point
from simcli.suggest import did_you_mean
from strategies import BUILTIN
from strategies.base import Strategy


def load_strategy_class(use: str, base_dir: Path | None = None) -> type[Strategy]:
    """The class named by ``use``: a built-in name, the name of an installed
    ``simcli.strategies`` entry point, ``package.module:Class`` or
    ``path/to/file.py:Class`` (relative paths: the config's folder first, then the
    current directory)."""
    if not isinstance(use, str) or not use:
        raise StrategyLoadError(f"'use' must be a strategy name or 'module:Class', got {use!r}")
    if ":" not in use:
        if use in BUILTIN:
            use = BUILTIN[use]
        else:
            installed = entry_points(STRATEGY_GROUP)
            if use not in installed:
                known = sorted({*BUILTIN, *installed})
                raise StrategyLoadError(
                    f"unknown strategy '{use}'{did_you_mean(use, known)}; strategies: "
                    f"{', '.join(known)} (or give 'package.module:Class' or "
                    f"'path/to/file.py:Class')"
                )
            cls = load_entry_point(STRATEGY_GROUP, use, "strategy", StrategyLoadError)
            return _check_class(cls, f"entry point '{use}'")
    target, _, class_name = use.rpartition(":")
    module = import_target(target, base_dir, "strategy", StrategyLoadError)
    return _check_class(class_from(module, target, class_name, StrategyLoadError), f"'{use}'")


def _check_class(cls: Any, label: str) -> type[Strategy]:
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise StrategyLoadError(
            f"{label} is not a Strategy subclass (derive it from strategies.base.Strategy)"
        )
    return cls


def check_params(label: str, cls: type[Strategy], params: dict[str, Any]) -> None:
    """Construct ``cls(**params)`` once so that bad parameters fail before any game."""
    try:
        cls(**params)
    except (TypeError, ValueError) as exc:
        raise StrategyLoadError(
            f"strategy '{label}': {cls.__name__} rejects params {params!r}: {exc}"
        ) from None
