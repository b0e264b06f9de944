"""Reading a config file: YAML -> a validated :class:`~simcli.config.Config`.

Every error names the file, the line, the key and what was expected, with a close-match
suggestion for misspelt keys and names. See ``docs/config.md`` for the reference. The
``gate:`` and ``asserts:`` sections are parsed by the gate package (``simcli/gate/``).
"""

from __future__ import annotations

import itertools
import math
import os
import re
from pathlib import Path
from typing import Any

from simcli.config import (
    CMD_PREFIX,
    EXECUTORS,
    ISOLATIONS,
    Config,
    StrategySpec,
    Variant,
)
from simcli.errors import ConfigError, SimcliError
from simcli.formats import FORMATS, rotations_for
from simcli.gate.asserts import parse_asserts
from simcli.gate.spec import parse_gate
from simcli.suggest import did_you_mean
from simcli.yamldoc import (
    Doc,
    KeyPath,
    check_keys,
    choice_at,
    int_at,
    kind_of,
    mapping_at,
    str_at,
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
STRATEGY_KEYS = ("name", "use", "params", "isolation", "memory_limit", "command")
FORMAT_KEYS = ("type", "candidate")
VARIANT_KEYS = ("name", "options", "game")


#: A Dask scheduler address: [tcp|tls|inproc|ucx://]HOST:PORT (HOST a name, IPv4 or [IPv6]).
SCHEDULER_RE = re.compile(
    r"(?:(?:tcp|tls|ucx|ws|wss)://)?(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):[0-9]{1,5}"
)
#: The largest memory_limit (MiB) a strategy process can be given.
MAX_MEMORY_MIB = 1 << 20

#: The most games per table (a billion Libraria games is a day on 100 cores).
MAX_GAMES = 1_000_000_000


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
    doc = Doc(path, text)
    raw = doc.data
    if raw is None:
        raise ConfigError(f"{path}: the config is empty")
    check_keys(doc, (), raw, TOP_KEYS)
    raw = dict(raw)
    for key, value in (overrides or {}).items():
        if value is not None:
            raw[key] = value
    return _build(doc, raw)


def _build(doc: Doc, raw: dict[str, Any]) -> Config:
    for key in ("game", "strategies"):
        if key not in raw:
            raise doc.error((), f"missing required key '{key}'")
    game_use = str_at(doc, ("game",), raw["game"])
    game, plugin = _game(doc, ("game",), game_use)
    game_id = game.id

    name = str_at(doc, ("name",), raw.get("name", doc.path.stem))
    if not name.strip() or name in (".", "..") or any(c in name for c in "/\\\0"):
        raise doc.error(
            ("name",),
            f"a run name names the default folder results/NAME, so it cannot hold '/', "
            f"'\\' or be '..'; got {name!r}",
        )
    players = int_at(doc, ("players",), raw.get("players", min(game.player_counts)), 1)
    try:
        game.check_players(players)
    except SimcliError as exc:
        raise doc.error(("players",), str(exc)) from None
    base_options = mapping_at(doc, ("options",), raw.get("options"))
    try:
        options = game.resolve_options(base_options)
    except SimcliError as exc:
        raise doc.error(("options",), str(exc)) from None
    if plugin:
        _check_setup(doc, ("game",), game, players, options)
    variants = _variants(doc, raw.get("variants"), game, base_options, players)

    isolation = choice_at(doc, ("isolation",), raw.get("isolation", "inprocess"), ISOLATIONS)
    strategies = _strategies(doc, raw["strategies"], game_id, isolation)
    _check_isolation(doc, game, strategies, variants)
    fmt, candidate = _format(doc, raw.get("format", "round_robin"), strategies, players)

    step = rotations_for(fmt, players)
    games = int_at(doc, ("games",), raw.get("games", -(-100 // step) * step), 1)
    if games > MAX_GAMES:
        raise doc.error(("games",), f"at most {MAX_GAMES} games per table; got {games}")
    if games % step:
        seated = "seat-swapped pairs" if step == 2 else f"sets of {step} seat rotations"
        raise doc.error(
            ("games",),
            f"must be a multiple of {step}: in format {fmt} with {players} players games "
            f"come in {seated} that share a seed; got {games} (try {games + step - games % step})",
        )
    seed = int_at(doc, ("seed",), raw.get("seed", 1), 0)
    workers = int_at(doc, ("workers",), raw.get("workers", os.cpu_count() or 1), 0)
    output = str_at(doc, ("output",), raw.get("output", str(Path("results") / name)))
    if "\0" in output or not output.strip():
        raise doc.error(("output",), f"not a usable folder path: {output!r}")
    limit = raw.get("move_time_limit")
    if limit is not None and (
        isinstance(limit, bool)
        or not isinstance(limit, int | float)
        or not math.isfinite(limit)
        or limit <= 0
    ):
        raise doc.error(("move_time_limit",), f"expected seconds > 0; got {kind_of(limit)}")
    executor = choice_at(doc, ("executor",), raw.get("executor", "local"), EXECUTORS)
    scheduler = raw.get("scheduler")
    if scheduler is not None:
        scheduler = str_at(doc, ("scheduler",), scheduler)
        if not SCHEDULER_RE.fullmatch(scheduler):
            raise doc.error(
                ("scheduler",),
                f"expected a Dask scheduler address such as tcp://10.0.0.5:8786 or "
                f"HOST:PORT; got {scheduler!r}",
            )
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
        gate=parse_gate(doc, raw.get("gate"), [s.name for s in strategies], players),
        asserts=parse_asserts(doc, raw.get("asserts"), [s.name for s in strategies]),
        source=str(doc.path),
        game_use=game_use if plugin else None,
    )


def _strategies(
    doc: Doc, value: Any, game_id: str, isolation: str = "inprocess"
) -> list[StrategySpec]:
    from simcli.strategy import check_params, load_strategy_class

    if not isinstance(value, list) or not value:
        raise doc.error(("strategies",), f"expected a non-empty list; got {kind_of(value)}")
    specs: list[StrategySpec] = []
    for i, item in enumerate(value):
        path: KeyPath = ("strategies", i)
        if isinstance(item, str):  # shorthand: "- greedy"
            item = {"use": item}
        item = check_keys(doc, path, item, STRATEGY_KEYS)
        if "use" in item and "command" in item:
            raise doc.error((*path, "command"), "give either 'use' or 'command', not both")
        if "command" in item:
            item = {**item, "use": CMD_PREFIX + str_at(doc, (*path, "command"), item["command"])}
            del item["command"]
        if "use" not in item:
            raise doc.error(path, "missing required key 'use' (or 'command')")
        use = str_at(doc, (*path, "use"), item["use"])
        params = mapping_at(doc, (*path, "params"), item.get("params"))
        where = choice_at(doc, (*path, "isolation"), item.get("isolation", isolation), ISOLATIONS)
        memory = item.get("memory_limit")
        if memory is not None:
            memory = int_at(doc, (*path, "memory_limit"), memory, 16)
            if memory > MAX_MEMORY_MIB:
                raise doc.error(
                    (*path, "memory_limit"), f"at most {MAX_MEMORY_MIB} MiB; got {memory}"
                )
        if use.startswith(CMD_PREFIX):
            argv = _command(doc, (*path, "use"), use[len(CMD_PREFIX) :])
            name = str_at(doc, (*path, "name"), item.get("name", Path(argv[0]).name))
            if any(s.name == name for s in specs):
                raise doc.error((*path, "name"), f"strategy name '{name}' is used twice")
            specs.append(StrategySpec(name, use, params, "process", memory))
            continue
        if memory is not None and where != "process":
            raise doc.error(
                (*path, "memory_limit"), "memory_limit needs 'isolation: process' (or a command)"
            )
        name = str_at(doc, (*path, "name"), item.get("name", use))
        if any(s.name == name for s in specs):
            raise doc.error((*path, "name"), f"strategy name '{name}' is used twice")
        if where == "process":
            # Its code must never run here, in the referee's process: the strategy process
            # checks the class, its games and its params in the handshake, which
            # `validate` and `run` complete before any game (exit 2 on failure).
            specs.append(StrategySpec(name, use, params, where, memory))
            continue
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


def _check_isolation(doc: Doc, game: Any, strategies: list[StrategySpec], variants: Any) -> None:
    """Strategies in their own processes receive views as JSON: the game must rebuild
    them, and every game of the run must be the one the processes load."""
    from simcli.game import Game

    isolated = [i for i, s in enumerate(strategies) if s.isolated]
    if not isolated:
        return
    path = ("strategies", isolated[0])
    if type(game).state_from_snapshot is Game.state_from_snapshot:
        raise doc.error(
            path,
            f"game '{game.id}' has no state_from_snapshot, so a strategy in its own process "
            "cannot receive its view; run the strategies in-process (isolation: inprocess) "
            "or give the game state_from_snapshot (docs/new-game.md)",
        )
    own = [v.name for v in variants if v.game]
    if own:
        raise doc.error(
            path,
            f"variant '{own[0]}' plays its own game class, which strategies in their own "
            "processes cannot load per game yet; run them in-process for this sweep",
        )


def _command(doc: Doc, path: KeyPath, text: str) -> list[str]:
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
    doc: Doc, value: Any, strategies: list[StrategySpec], players: int
) -> tuple[str, str | None]:
    names = [s.name for s in strategies]
    if isinstance(value, str):
        value = {"type": value}
    value = check_keys(doc, ("format",), value, FORMAT_KEYS)
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


def _game(doc: Doc, path: KeyPath, use: str) -> tuple[Any, bool]:
    """The game named at ``path`` and whether it is a plug-in (not built in)."""
    from simcli.games import game_source, load_game

    try:
        return load_game(use, doc.path.parent), game_source(use, doc.path.parent) is not None
    except SimcliError as exc:
        raise doc.error(path, str(exc)) from None


def _check_setup(doc: Doc, path: KeyPath, game, players: int, options: dict[str, Any]) -> None:
    from simcli.games import check_setup

    try:
        check_setup(game, players, options)
    except SimcliError as exc:
        raise doc.error(path, str(exc)) from None


def _variants(
    doc: Doc, value: Any, game, base: dict[str, Any], players: int
) -> tuple[Variant, ...]:
    if value is None:
        return ()
    sets: list[tuple[KeyPath, str, dict[str, Any], str | None]] = []
    if isinstance(value, dict):
        check_keys(doc, ("variants",), value, ("grid",))
        grid = mapping_at(doc, ("variants", "grid"), value.get("grid"))
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
            item = check_keys(doc, path, item, VARIANT_KEYS)
            if "name" not in item:
                raise doc.error(path, "missing required key 'name'")
            sets.append(
                (
                    path,
                    str_at(doc, (*path, "name"), item["name"]),
                    mapping_at(doc, (*path, "options"), item.get("options")),
                    str_at(doc, (*path, "game"), item["game"]) if "game" in item else None,
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
