"""A tournament config as plain data: what to play (game, options, strategies, format,
games, seed, variants) and how (workers, executor, time limits), plus the ``gate:`` and
``asserts:`` sections as the gate package parsed them.

Reading a YAML file into a :class:`Config` is :mod:`simcli.configfile`; the schedule of a
config is built by :func:`simcli.tournament.schedule.schedule_for`, and the games it
plays are loaded by :mod:`simcli.tournament.rules`. This module imports no other part of
simcli. See ``docs/config.md`` for the reference.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

EXECUTORS = ("local", "dask")
#: Keys that never change a run's records (free to differ on resume).
EXECUTION_KEYS = (
    "workers",
    "output",
    "executor",
    "scheduler",
    "name",
    "asserts",
    "gate",
    "balance",
)
#: Where a strategy runs: in the worker (trusted code, full speed) or its own process.
ISOLATIONS = ("inprocess", "process")
#: Strategy keys that never change a run's records (free to differ on resume).
STRATEGY_EXECUTION_KEYS = ("isolation", "memory_limit")
CMD_PREFIX = "cmd:"


@dataclass(frozen=True)
class StrategySpec:
    """One configured strategy. ``use`` names a Python class (built-in name,
    ``module:Class`` or ``file.py:Class``) or, as ``cmd:COMMAND``, a program speaking the
    strategy protocol; ``isolation`` says where a Python class runs; ``memory_limit``
    caps a strategy process's address space (MiB)."""

    name: str
    use: str
    params: dict[str, Any] = field(default_factory=dict)
    isolation: str = "inprocess"
    memory_limit: int | None = None

    @property
    def command(self) -> str | None:
        """The program of a ``cmd:`` strategy (None for a Python class)."""
        return self.use[len(CMD_PREFIX) :] if self.use.startswith(CMD_PREFIX) else None

    @property
    def isolated(self) -> bool:
        return self.isolation == "process" or self.command is not None


@dataclass(frozen=True)
class Variant:
    name: str
    options: dict[str, Any]
    game: str | None = None  # a plug-in rules variant ("path.py:Class"); None: the config's game


@dataclass(frozen=True)
class Config:
    name: str
    game: str
    options: dict[str, Any]
    players: int
    strategies: tuple[StrategySpec, ...]
    format: str
    candidate: str | None
    games: int
    seed: int
    workers: int
    output: str
    variants: tuple[Variant, ...] = ()
    move_time_limit: float | None = None
    executor: str = "local"
    scheduler: str | None = None
    gate: Any = None  # simcli.gating.spec.GateSpec (plain data) or None
    asserts: tuple[Any, ...] = ()  # simcli.gating.asserts.Assertion instances
    gating: bool = False  # True: play the gate's paired schedule instead of `format`
    balance: Any = None  # simcli.balancing.spec.BalanceSpec (plain data) or None
    source: str | None = None
    game_use: str | None = None  # the config's `game:` when it names a plug-in game

    @property
    def base_dir(self) -> Path | None:
        return Path(self.source).parent if self.source else None

    def game_use_for(self, variant: str | None) -> str:
        """How ``variant`` (or the base game) names its game: a built-in id, an entry
        point, ``module:Class`` or ``file.py:Class`` (relative to :attr:`base_dir`).
        Loading it is :mod:`simcli.tournament.rules`."""
        for v in self.variants:
            if v.name == variant and v.game is not None:
                return v.game
        return self.game_use or self.game

    def options_for(self, variant: str | None) -> dict[str, Any]:
        """The resolved game options of a variant (or the base options)."""
        for v in self.variants:
            if v.name == variant:
                return v.options
        return self.options

    def differences(self, other: dict[str, Any]) -> list[str]:
        """Keys (besides execution keys) whose values differ from a stored config dict."""
        mine = self.to_dict()
        keys = [k for k in mine if k not in EXECUTION_KEYS]

        def played(data: dict[str, Any]) -> Any:
            if not isinstance(data.get("strategies"), list):
                return data.get("strategies")
            return [
                {k: v for k, v in s.items() if k not in STRATEGY_EXECUTION_KEYS}
                if isinstance(s, dict)
                else s
                for s in data["strategies"]
            ]

        mine["strategies"], other = played(mine), {**other, "strategies": played(other)}
        return [k for k in keys if mine.get(k) != other.get(k)]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["strategies"] = [asdict(s) for s in self.strategies]
        data["variants"] = [
            {k: x for k, x in asdict(v).items() if k != "game" or x is not None}
            for v in self.variants
        ]
        data["gate"] = asdict(self.gate) if self.gate else None
        data["asserts"] = [a.stored() for a in self.asserts]
        data.pop("source")
        if data["game_use"] is None:  # built-in games: run.json as before plug-ins
            data.pop("game_use")
        return data
