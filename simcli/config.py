"""Tournament configs: YAML -> validated dataclasses.

Every error names the file, the line, the key and what was expected, with a close-match
suggestion for misspelt keys and names. See ``docs/config.md`` for the reference.
"""

from __future__ import annotations

import itertools
import math
import os
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from simcli.errors import ConfigError, SimcliError
from simcli.suggest import did_you_mean
from simcli.tournament.schedule import (
    FORMATS,
    PairedSchedule,
    Schedule,
    build_schedule,
    rotations_for,
)

TOP_KEYS = (
    "name",
    "game",
    "options",
    "players",
    "strategies",
    "format",
    "games",
    "seed",
    "workers",
    "output",
    "variants",
    "move_time_limit",
    "executor",
    "scheduler",
    "gate",
    "asserts",
    "isolation",
)
MAX_ELO = 2000  # beyond this an expected score is 0 or 1 in floating point
GATE_KEYS = (
    "candidate",
    "baseline",
    "elo0",
    "elo1",
    "alpha",
    "beta",
    "max_games",
    "batch",
    "draw_rate",
)
EXECUTORS = ("local", "dask")
#: Keys that never change a run's records (free to differ on resume).
EXECUTION_KEYS = ("workers", "output", "executor", "scheduler", "name", "asserts", "gate")
STRATEGY_KEYS = ("name", "use", "params", "isolation", "memory_limit", "command")
#: Where a strategy runs: in the worker (trusted code, full speed) or its own process.
ISOLATIONS = ("inprocess", "process")
#: Strategy keys that never change a run's records (free to differ on resume).
STRATEGY_EXECUTION_KEYS = ("isolation", "memory_limit")
CMD_PREFIX = "cmd:"
FORMAT_KEYS = ("type", "candidate")
VARIANT_KEYS = ("name", "options", "game")

KeyPath = tuple[Any, ...]


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
class GateSpec:
    """The ``gate:`` section: an SPRT of ``candidate`` against ``baseline``."""

    candidate: str
    baseline: str
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    max_games: int = 20000  # sized for the default bounds at 30% draws (docs/gating.md)
    batch: int = 50  # pairs between two looks at the test
    draw_rate: float = 0.3  # expected draws (equal results) per game, for sizing only


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
    gate: GateSpec | None = None
    asserts: tuple[Any, ...] = ()  # simcli.gate.asserts.Assertion
    gating: bool = False  # True: play the gate's paired schedule instead of `format`
    source: str | None = None
    game_use: str | None = None  # the config's `game:` when it names a plug-in game

    @property
    def base_dir(self) -> Path | None:
        return Path(self.source).parent if self.source else None

    def _game_use(self, variant: str | None) -> str:
        for v in self.variants:
            if v.name == variant and v.game is not None:
                return v.game
        return self.game_use or self.game

    def game_for(self, variant: str | None) -> Any:
        """The :class:`~simcli.game.Game` that plays ``variant`` (or the base game)."""
        from simcli.games import load_game

        return load_game(self._game_use(variant), self.base_dir)

    def game_source_for(self, variant: str | None) -> dict[str, Any] | None:
        """What the records of ``variant`` say about a plug-in game's origin (None for a
        built-in game: its records stay as they were)."""
        from simcli.games import game_source

        source = game_source(self._game_use(variant), self.base_dir)
        return source.to_record() if source is not None else None

    def schedule(self) -> Schedule | PairedSchedule:
        if self.gating and self.gate is not None:
            g = self.gate
            names = [s.name for s in self.strategies]
            field = tuple(n for n in names if n not in (g.candidate, g.baseline))
            return PairedSchedule(
                g.candidate,
                g.baseline,
                field or (g.baseline,),
                self.players,
                g.max_games // 2,
                self.seed,
            )
        return build_schedule(
            self.format,
            [s.name for s in self.strategies],
            self.players,
            self.games,
            self.seed,
            candidate=self.candidate,
            variants=tuple(v.name for v in self.variants) or (None,),
        )

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
        data["asserts"] = [{a.kind: a.args} for a in self.asserts]
        data.pop("source")
        if data["game_use"] is None:  # built-in games: run.json as before plug-ins
            data.pop("game_use")
        return data


# --------------------------------------------------------------------------- YAML


class _Doc:
    """A parsed YAML document with the line of every key, for error messages."""

    def __init__(self, path: Path, text: str):
        self.path = path
        self.marks: dict[KeyPath, int] = {}
        try:
            loader = yaml.SafeLoader(text)
            try:
                node = loader.get_single_node()
                self.data = loader.construct_document(node) if node is not None else None
            finally:
                loader.dispose()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
            problem = exc.problem or exc.context or "invalid YAML"
            raise ConfigError(f"{where}: YAML syntax error: {problem}") from None
        except yaml.YAMLError as exc:
            raise ConfigError(f"{path}: YAML error: {exc}") from None
        except RecursionError:
            raise ConfigError(f"{path}: YAML nests too deeply (a recursive alias?)") from None
        if node is not None:
            try:
                self._walk(node, ())
            except RecursionError:
                raise ConfigError(f"{path}: YAML nests too deeply (a recursive alias?)") from None

    def _walk(self, node: yaml.Node, path: KeyPath) -> None:
        self.marks.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, value_node in node.value:
                key = key_node.value
                if key in seen:
                    raise ConfigError(
                        f"{self.path}:{key_node.start_mark.line + 1}: key "
                        f"'{_dotted((*path, key))}' appears twice"
                    )
                seen.add(key)
                self.marks[(*path, key)] = key_node.start_mark.line + 1
                self._walk(value_node, (*path, key))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self._walk(item, (*path, i))

    def line(self, path: KeyPath) -> int | None:
        while path and path not in self.marks:
            path = path[:-1]
        return self.marks.get(path)

    def error(self, path: KeyPath, message: str) -> ConfigError:
        line = self.line(path)
        where = f"{self.path}:{line}" if line else str(self.path)
        key = f" key '{_dotted(path)}':" if path else ""
        return ConfigError(f"{where}:{key} {message}")


def _dotted(path: KeyPath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


# --------------------------------------------------------------------------- checks


def _check_keys(doc: _Doc, path: KeyPath, value: Any, allowed: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        raise doc.error(path, f"expected a mapping of {', '.join(allowed)}; got {_kind(value)}")
    for key in value:
        if key not in allowed:
            raise doc.error(
                (*path, key),
                f"unknown key{did_you_mean(str(key), allowed)}; allowed here: {', '.join(allowed)}",
            )
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "a mapping", list: "a list", str: f"the text {value!r}"}.get(
        type(value), f"{value!r}"
    )


def _int(doc: _Doc, path: KeyPath, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise doc.error(path, f"expected a whole number; got {_kind(value)}")
    if value < minimum:
        what = "positive" if minimum == 1 else f"at least {minimum}"
        raise doc.error(path, f"must be {what}; got {value}")
    return value


def _str(doc: _Doc, path: KeyPath, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise doc.error(path, f"expected a non-empty text; got {_kind(value)}")
    return value


def _choice(doc: _Doc, path: KeyPath, value: Any, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``; else an error naming the key's kind, the
    choices and a close match."""
    if value not in choices:
        what = str(path[-1])
        raise doc.error(
            path,
            f"unknown {what} {value!r}{did_you_mean(str(value), choices)}; "
            f"expected one of: {', '.join(choices)}",
        )
    return value


def _mapping(doc: _Doc, path: KeyPath, value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise doc.error(path, f"expected a mapping; got {_kind(value)}")
    return dict(value)


def load_config(path: str | os.PathLike[str], overrides: dict[str, Any] | None = None) -> Config:
    """Read and validate a config file. ``overrides`` (from command-line flags) replace
    top-level keys after parsing: ``seed``, ``games``, ``workers``, ``output``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a folder, not a config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read config: {exc}") from None
    doc = _Doc(path, text)
    raw = doc.data
    if raw is None:
        raise ConfigError(f"{path}: the config is empty")
    _check_keys(doc, (), raw, TOP_KEYS)
    raw = dict(raw)
    for key, value in (overrides or {}).items():
        if value is not None:
            raw[key] = value
    return _build(doc, raw)


def _build(doc: _Doc, raw: dict[str, Any]) -> Config:
    for key in ("game", "strategies"):
        if key not in raw:
            raise doc.error((), f"missing required key '{key}'")
    game_use = _str(doc, ("game",), raw["game"])
    game, plugin = _game(doc, ("game",), game_use)
    game_id = game.id

    name = _str(doc, ("name",), raw.get("name", doc.path.stem))
    players = _int(doc, ("players",), raw.get("players", min(game.player_counts)), 1)
    try:
        game.check_players(players)
    except SimcliError as exc:
        raise doc.error(("players",), str(exc)) from None
    base_options = _mapping(doc, ("options",), raw.get("options"))
    try:
        options = game.resolve_options(base_options)
    except SimcliError as exc:
        raise doc.error(("options",), str(exc)) from None
    if plugin:
        _check_setup(doc, ("game",), game, players, options)
    variants = _variants(doc, raw.get("variants"), game, base_options, players)

    isolation = _choice(doc, ("isolation",), raw.get("isolation", "inprocess"), ISOLATIONS)
    strategies = _strategies(doc, raw["strategies"], game_id, isolation)
    fmt, candidate = _format(doc, raw.get("format", "round_robin"), strategies, players)

    step = rotations_for(fmt, players)
    games = _int(doc, ("games",), raw.get("games", -(-100 // step) * step), 1)
    if games % step:
        seated = "seat-swapped pairs" if step == 2 else f"sets of {step} seat rotations"
        raise doc.error(
            ("games",),
            f"must be a multiple of {step}: in format {fmt} with {players} players games "
            f"come in {seated} that share a seed; got {games} (try {games + step - games % step})",
        )
    seed = _int(doc, ("seed",), raw.get("seed", 1), 0)
    workers = _int(doc, ("workers",), raw.get("workers", os.cpu_count() or 1), 0)
    output = _str(doc, ("output",), raw.get("output", str(Path("results") / name)))
    limit = raw.get("move_time_limit")
    if limit is not None and (
        isinstance(limit, bool)
        or not isinstance(limit, int | float)
        or not math.isfinite(limit)
        or limit <= 0
    ):
        raise doc.error(("move_time_limit",), f"expected seconds > 0; got {_kind(limit)}")
    executor = _choice(doc, ("executor",), raw.get("executor", "local"), EXECUTORS)
    scheduler = raw.get("scheduler")
    if scheduler is not None:
        scheduler = _str(doc, ("scheduler",), scheduler)
    if executor == "dask" and scheduler is None:
        raise doc.error(
            ("executor",), "the dask executor needs 'scheduler: HOST:PORT' (or --scheduler)"
        )
    return Config(
        name=name,
        game=game_id,
        options=options,
        players=players,
        strategies=tuple(strategies),
        format=fmt,
        candidate=candidate,
        games=games,
        seed=seed,
        workers=workers,
        output=output,
        variants=variants,
        move_time_limit=float(limit) if limit is not None else None,
        executor=executor,
        scheduler=scheduler,
        gate=_gate(doc, raw.get("gate"), [s.name for s in strategies], players),
        asserts=_asserts(doc, raw.get("asserts"), [s.name for s in strategies]),
        source=str(doc.path),
        game_use=game_use if plugin else None,
    )


def _strategies(
    doc: _Doc, value: Any, game_id: str, isolation: str = "inprocess"
) -> list[StrategySpec]:
    from simcli.strategy import check_params, load_strategy_class

    if not isinstance(value, list) or not value:
        raise doc.error(("strategies",), f"expected a non-empty list; got {_kind(value)}")
    specs: list[StrategySpec] = []
    for i, item in enumerate(value):
        path: KeyPath = ("strategies", i)
        if isinstance(item, str):  # shorthand: "- greedy"
            item = {"use": item}
        item = _check_keys(doc, path, item, STRATEGY_KEYS)
        if "use" in item and "command" in item:
            raise doc.error((*path, "command"), "give either 'use' or 'command', not both")
        if "command" in item:
            item = {**item, "use": CMD_PREFIX + _str(doc, (*path, "command"), item["command"])}
            del item["command"]
        if "use" not in item:
            raise doc.error(path, "missing required key 'use' (or 'command')")
        use = _str(doc, (*path, "use"), item["use"])
        params = _mapping(doc, (*path, "params"), item.get("params"))
        where = _choice(doc, (*path, "isolation"), item.get("isolation", isolation), ISOLATIONS)
        memory = item.get("memory_limit")
        if memory is not None:
            memory = _int(doc, (*path, "memory_limit"), memory, 16)
        if use.startswith(CMD_PREFIX):
            argv = _command(doc, (*path, "use"), use[len(CMD_PREFIX) :])
            name = _str(doc, (*path, "name"), item.get("name", Path(argv[0]).name))
            if any(s.name == name for s in specs):
                raise doc.error((*path, "name"), f"strategy name '{name}' is used twice")
            specs.append(StrategySpec(name, use, params, "process", memory))
            continue
        if memory is not None and where != "process":
            raise doc.error(
                (*path, "memory_limit"), "memory_limit needs 'isolation: process' (or a command)"
            )
        name = _str(doc, (*path, "name"), item.get("name", use))
        if any(s.name == name for s in specs):
            raise doc.error((*path, "name"), f"strategy name '{name}' is used twice")
        try:
            cls = load_strategy_class(use, doc.path.parent)
            if cls.games is not None and game_id not in cls.games:
                raise doc.error(
                    (*path, "use"),
                    f"strategy '{use}' plays {', '.join(cls.games)}, not {game_id}",
                )
            check_params(name, cls, params)
        except ConfigError:
            raise
        except SimcliError as exc:
            raise doc.error((*path, "use"), str(exc)) from None
        specs.append(StrategySpec(name, use, params, where, memory))
    return specs


def _command(doc: _Doc, path: KeyPath, text: str) -> list[str]:
    """The argument list of a ``cmd:`` strategy, its program found (relative paths: the
    config's folder, where the program runs)."""
    import shlex
    import shutil

    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise doc.error(path, f"cannot split the command {text!r}: {exc}") from None
    if not argv:
        raise doc.error(path, "the command is empty: give a program after 'cmd:'")
    program = argv[0]
    if "/" in program:
        found = doc.path.parent / program
        if not found.is_file():
            raise doc.error(path, f"program '{program}' not found (looked at {found})")
        if not os.access(found, os.X_OK):
            raise doc.error(path, f"program '{found}' is not executable (chmod +x it)")
    elif shutil.which(program) is None:
        raise doc.error(path, f"program '{program}' not found on PATH")
    return argv


def _format(
    doc: _Doc, value: Any, strategies: list[StrategySpec], players: int
) -> tuple[str, str | None]:
    names = [s.name for s in strategies]
    if isinstance(value, str):
        value = {"type": value}
    value = _check_keys(doc, ("format",), value, FORMAT_KEYS)
    fmt = value.get("type")
    path: KeyPath = ("format", "type") if "type" in value else ("format",)
    if fmt not in FORMATS:
        raise doc.error(
            path,
            f"unknown format {fmt!r}{did_you_mean(str(fmt), FORMATS)}; formats: "
            f"{', '.join(FORMATS)}",
        )
    candidate = value.get("candidate")
    if fmt == "gauntlet":
        if candidate is None:
            raise doc.error(("format",), "gauntlet needs 'candidate: <strategy name>'")
        if candidate not in names:
            raise doc.error(
                ("format", "candidate"),
                f"no strategy named '{candidate}'{did_you_mean(str(candidate), names)}; "
                f"strategies: {', '.join(names)}",
            )
        if len(names) < players:
            raise doc.error(
                ("strategies",),
                f"a {players}-player gauntlet needs the candidate and at least "
                f"{players - 1} other strategies",
            )
    elif candidate is not None:
        raise doc.error(("format", "candidate"), "only the gauntlet format takes a candidate")
    if fmt == "round_robin" and len(names) < players:
        raise doc.error(
            ("strategies",),
            f"a {players}-player round robin needs at least {players} strategies; "
            f"got {len(names)} (for one strategy in every seat use format self_play)",
        )
    if fmt == "solo" and players != 1:
        raise doc.error(("format",), f"format solo is for one-player games; players is {players}")
    if fmt != "solo" and players == 1:
        raise doc.error(("format",), "a one-player game needs format solo")
    return fmt, candidate


def _game(doc: _Doc, path: KeyPath, use: str) -> tuple[Any, bool]:
    """The game named at ``path`` and whether it is a plug-in (not built in)."""
    from simcli.games import game_source, load_game

    try:
        return load_game(use, doc.path.parent), game_source(use, doc.path.parent) is not None
    except SimcliError as exc:
        raise doc.error(path, str(exc)) from None


def _check_setup(doc: _Doc, path: KeyPath, game, players: int, options: dict[str, Any]) -> None:
    from simcli.games import check_setup

    try:
        check_setup(game, players, options)
    except SimcliError as exc:
        raise doc.error(path, str(exc)) from None


def _variants(
    doc: _Doc, value: Any, game, base: dict[str, Any], players: int
) -> tuple[Variant, ...]:
    if value is None:
        return ()
    sets: list[tuple[KeyPath, str, dict[str, Any], str | None]] = []
    if isinstance(value, dict):
        _check_keys(doc, ("variants",), value, ("grid",))
        grid = _mapping(doc, ("variants", "grid"), value.get("grid"))
        if not grid:
            raise doc.error(("variants", "grid"), "expected option names with lists of values")
        for key, values in grid.items():
            if not isinstance(values, list) or not values:
                raise doc.error(("variants", "grid", key), "expected a non-empty list of values")
        keys = list(grid)
        for combo in itertools.product(*(grid[k] for k in keys)):
            opts = dict(zip(keys, combo, strict=True))
            label = ",".join(f"{k}={v}" for k, v in opts.items())
            sets.append((("variants", "grid"), label, opts, None))
    elif isinstance(value, list) and value:
        for i, item in enumerate(value):
            path: KeyPath = ("variants", i)
            item = _check_keys(doc, path, item, VARIANT_KEYS)
            if "name" not in item:
                raise doc.error(path, "missing required key 'name'")
            sets.append(
                (
                    path,
                    _str(doc, (*path, "name"), item["name"]),
                    _mapping(doc, (*path, "options"), item.get("options")),
                    _str(doc, (*path, "game"), item["game"]) if "game" in item else None,
                )
            )
    else:
        raise doc.error(("variants",), "expected a list of {name, options} or {grid: {...}}")
    variants = []
    for path, label, opts, use in sets:
        if any(v.name == label for v in variants):
            raise doc.error(path, f"variant name '{label}' is used twice")
        rules, plugin = (game, False) if use is None else _game(doc, (*path, "game"), use)
        if rules.id != game.id:
            raise doc.error(
                (*path, "game"),
                f"a variant keeps the id of the config's game '{game.id}' (one game per "
                f"report); '{use}' is the game '{rules.id}'",
            )
        try:
            rules.check_players(players)
            resolved = rules.resolve_options({**base, **opts})
        except SimcliError as exc:
            raise doc.error(path, str(exc)) from None
        if plugin:
            _check_setup(doc, (*path, "game"), rules, players, resolved)
        variants.append(Variant(name=label, options=resolved, game=use))
    return tuple(variants)


def _gate(doc: _Doc, value: Any, names: list[str], players: int) -> GateSpec | None:
    if value is None:
        return None
    value = _check_keys(doc, ("gate",), value, GATE_KEYS)
    for key in ("candidate", "baseline"):
        if key not in value:
            raise doc.error(("gate",), f"missing required key '{key}'")
        if value[key] not in names:
            raise doc.error(
                ("gate", key),
                f"no strategy named {value[key]!r}{did_you_mean(str(value[key]), names)}; "
                f"strategies: {', '.join(names)}",
            )
    if value["candidate"] == value["baseline"]:
        raise doc.error(("gate", "baseline"), "candidate and baseline must differ")
    numbers: dict[str, float] = {}
    for key in ("elo0", "elo1", "alpha", "beta", "draw_rate"):
        if key in value:
            v = value[key]
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise doc.error(("gate", key), f"expected a finite number; got {_kind(v)}")
            if key.startswith("elo") and abs(v) >= MAX_ELO:
                raise doc.error(("gate", key), f"must be between -{MAX_ELO} and {MAX_ELO} Elo")
            numbers[key] = float(v)
    spec = GateSpec(value["candidate"], value["baseline"], **numbers)
    if spec.elo0 >= spec.elo1:
        raise doc.error(("gate", "elo1"), f"elo1 must be above elo0 ({spec.elo0:g})")
    for key in ("alpha", "beta"):
        if not 0 < getattr(spec, key) < 0.5:
            raise doc.error(("gate", key), "must be between 0 and 0.5")
    if not 0 <= spec.draw_rate < 1:
        raise doc.error(("gate", "draw_rate"), "a rate from 0 up to (not including) 1")
    max_games = _int(doc, ("gate", "max_games"), value.get("max_games", spec.max_games), 2)
    if max_games % 2:
        raise doc.error(
            ("gate", "max_games"), f"games come in pairs: must be even; got {max_games}"
        )
    batch = _int(doc, ("gate", "batch"), value.get("batch", spec.batch), 1)
    if players > 2 and len(names) < 3:
        raise doc.error(
            ("strategies",),
            f"a {players}-player gate needs a field: at least "
            f"one strategy besides the candidate and the baseline",
        )
    return replace(spec, max_games=max_games, batch=batch)


ASSERT_KEYS = {
    "win_rate": ("strategy", "at_least", "at_most"),
    "elo_diff": ("a", "b", "at_least"),
    "seat_bias": ("within",),
}


def _asserts(doc: _Doc, value: Any, names: list[str]) -> tuple[Any, ...]:
    from simcli.gate.asserts import KINDS, Assertion

    if value is None:
        return ()
    if not isinstance(value, list):
        raise doc.error(("asserts",), f"expected a list of assertions; got {_kind(value)}")
    out = []
    for i, item in enumerate(value):
        path: KeyPath = ("asserts", i)
        if item == "no_errors" or item == {"no_errors": True}:
            out.append(Assertion("no_errors", {}))
            continue
        if not isinstance(item, dict) or len(item) != 1:
            raise doc.error(
                path,
                f"expected one of {', '.join(KINDS)} with its arguments, "
                f"e.g. '- win_rate: {{strategy: NAME, at_least: 0.6}}'",
            )
        kind, args = next(iter(item.items()))
        if kind not in ASSERT_KEYS:
            raise doc.error(
                (*path, kind),
                f"unknown assertion{did_you_mean(str(kind), KINDS)}; "
                f"assertions: {', '.join(KINDS)}",
            )
        args = dict(_check_keys(doc, (*path, kind), args, ASSERT_KEYS[kind]))
        for key, val in args.items():
            if key in ("strategy", "a", "b"):
                if val not in names:
                    raise doc.error(
                        (*path, kind, key),
                        f"no strategy named {val!r}{did_you_mean(str(val), names)}",
                    )
            elif (
                isinstance(val, bool) or not isinstance(val, int | float) or not math.isfinite(val)
            ):
                raise doc.error((*path, kind, key), f"expected a finite number; got {_kind(val)}")
            elif kind in ("win_rate", "seat_bias") and not 0 <= val <= 1:
                raise doc.error((*path, kind, key), f"a rate between 0 and 1; got {val}")
        need = {
            "win_rate": ("strategy",),
            "elo_diff": ("a", "b", "at_least"),
            "seat_bias": ("within",),
        }[kind]
        missing = [k for k in need if k not in args]
        if kind == "elo_diff" and args.get("a") is not None and args.get("a") == args.get("b"):
            raise doc.error((*path, kind), "a and b must be different strategies")
        if kind == "win_rate" and ("at_least" in args) == ("at_most" in args):
            missing.append("exactly one of at_least / at_most")
        if missing:
            raise doc.error((*path, kind), f"needs {', '.join(missing)}")
        out.append(Assertion(kind, args))
    return tuple(out)
