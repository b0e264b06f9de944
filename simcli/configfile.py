"""Reading a config file: YAML -> a validated :class:`~simcli.config.Config`.

Every error names the file, the line, the key and what was expected, with a close-match
suggestion for misspelt keys and names. See ``docs/config.md`` for the reference. The
``gate:`` and ``asserts:`` sections are parsed by the gate package (``simcli/gating/``).
"""

from __future__ import annotations

import itertools
import math
import os
import re
from pathlib import Path
from typing import Any

from simcli.balancing.ladders import default_ladder
from simcli.balancing.spec import ladder_entries, parse_balance
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
from simcli.gating.asserts import parse_asserts
from simcli.gating.spec import parse_gate
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
    "balance",
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

#: The most worker processes a config (or ``--workers``) may ask for.
MAX_WORKERS = 1024


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
    return doc.gathering(lambda: _parse(doc, raw, overrides or {}))


def _parse(doc: Doc, raw: Any, overrides: dict[str, Any]) -> Config:
    _check_text(doc, (), raw)
    check_keys(doc, (), raw, TOP_KEYS)
    raw = {k: v for k, v in raw.items() if k in TOP_KEYS}
    for key, value in overrides.items():
        if value is not None:
            raw[key] = value
    return _build(doc, raw)


def _check_text(doc: Doc, path: KeyPath, value: Any) -> None:
    """Refuse text that cannot be written as UTF-8: a double-quoted YAML string may
    hold a lone surrogate (``"\\ud800"``), which would end the run when a record, the
    log or a strategy's handshake is written. Checked first, so that no other message
    quotes it."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            bad = value[exc.start : exc.end].encode("utf-8", "backslashreplace").decode()
            raise doc.error(
                path, f"holds {bad}, a lone surrogate: not a character, cannot be written"
            ) from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(doc, path, key)
            _check_text(doc, (*path, key), item)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_text(doc, (*path, i), item)


FAILED: Any = object()  # what a check that failed (and was noted) leaves behind


def _build(doc: Doc, raw: dict[str, Any]) -> Config:
    """Every check that does not depend on a failed one runs, so that one pass reports
    all the mistakes of the file (``Doc.attempt`` notes an error and goes on)."""
    for key in ("game", "strategies"):
        if key == "strategies" and "balance" in raw:
            continue  # the ladder's rungs, once the game is known
        if key not in raw:
            doc.add(doc.error((), f"missing required key '{key}'"))
    game_use = doc.attempt(str_at, doc, ("game",), raw.get("game"), default=FAILED)
    game, plugin = FAILED, False
    if "game" in raw and game_use is not FAILED:
        game, plugin = doc.attempt(_game, doc, ("game",), game_use, default=(FAILED, False))
    name = doc.attempt(_name, doc, raw, default=FAILED)
    players = options = variants = FAILED
    base_options: dict[str, Any] = {}
    if game is not FAILED:
        players = doc.attempt(_players, doc, raw, game, default=FAILED)
        base_options = doc.attempt(mapping_at, doc, ("options",), raw.get("options"), default={})
        options = doc.attempt(_options, doc, game, base_options, default=FAILED)
        if plugin and players is not FAILED and options is not FAILED:
            doc.attempt(_check_setup, doc, ("game",), game, players, options)
        if players is not FAILED:
            variants = doc.attempt(
                _variants, doc, raw.get("variants"), game, base_options, players, default=FAILED
            )
    if "balance" in raw:
        raw = doc.attempt(_balance_rungs, doc, raw, game, default=raw)
    strategies, fmt, candidate, games = _lineup(doc, raw, game, players, variants)
    seed = doc.attempt(int_at, doc, ("seed",), raw.get("seed", 1), 0, default=FAILED)
    workers = doc.attempt(_workers, doc, raw, default=FAILED)
    output = FAILED
    if name is not FAILED:
        output = doc.attempt(_output, doc, raw, name, default=FAILED)
    limit = doc.attempt(_time_limit, doc, raw.get("move_time_limit"), default=FAILED)
    executor, scheduler = doc.attempt(_executor, doc, raw, default=(FAILED, FAILED))
    gate, asserts, balance = _sections(doc, raw, game, players, options, variants)
    if doc.errors:
        raise doc.errors.pop()  # gathered with the others by Doc.gathering
    return Config(
        name=name,
        game=game.id,
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
        gate=gate,
        asserts=asserts,
        balance=balance,
        source=str(doc.path),
        game_use=game_use if plugin else None,
    )


def _lineup(doc: Doc, raw: dict[str, Any], game: Any, players: Any, variants: Any) -> tuple:
    """The strategies (checked entry by entry), the format, its candidate and the games:
    each FAILED where its check failed."""
    isolation = doc.attempt(
        choice_at,
        doc,
        ("isolation",),
        raw.get("isolation", "inprocess"),
        ISOLATIONS,
        default="inprocess",
    )
    strategies = FAILED
    if "strategies" in raw:
        game_id = game.id if game is not FAILED else None
        errors = len(doc.errors)
        root = ("balance", "ladder") if "balance" in raw else ("strategies",)
        strategies = doc.attempt(
            _strategies, doc, raw["strategies"], game_id, isolation, root, default=FAILED
        )
        if strategies is not FAILED and len(doc.errors) > errors:
            strategies = FAILED  # some entries failed: checks of the list would mislead
    if strategies is not FAILED and game is not FAILED and variants is not FAILED:
        doc.attempt(_check_isolation, doc, game, strategies, variants)
    fmt = candidate = games = FAILED
    fmt_value = raw.get("format", "round_robin")
    if strategies is not FAILED and players is not FAILED:
        fmt, candidate = doc.attempt(
            _format, doc, fmt_value, strategies, players, default=(FAILED, FAILED)
        )
    elif strategies is FAILED:  # the format's own checks, without the strategies'
        fmt = doc.attempt(lambda: _format_type(doc, fmt_value)[1], default=FAILED)
    if fmt is not FAILED and players is not FAILED:
        games = doc.attempt(_games, doc, raw, fmt, players, default=FAILED)
    return strategies, fmt, candidate, games


def _sections(
    doc: Doc, raw: dict[str, Any], game: Any, players: Any, options: Any, variants: Any
) -> tuple:
    """The ``gate:``, ``asserts:`` and ``balance:`` sections, checked against the
    strategy names (and the game, for a balance)."""
    names = _strategy_names(raw.get("strategies"))
    gate = (
        doc.attempt(parse_gate, doc, raw.get("gate"), names, players, default=FAILED)
        if (players is not FAILED)
        else FAILED
    )
    asserts = doc.attempt(parse_asserts, doc, raw.get("asserts"), names, default=FAILED)
    balance = None
    if raw.get("balance") is not None and FAILED not in (game, players, options, variants):
        balance = doc.attempt(
            parse_balance,
            doc,
            raw["balance"],
            names,
            game,
            players,
            options,
            variants,
            default=FAILED,
        )
    return gate, asserts, balance


def _balance_rungs(doc: Doc, raw: dict[str, Any], game: Any) -> dict[str, Any]:
    """A balance config's strategies are its ladder's rungs (``balance.ladder``, else the
    game's default ladder), played in self-play."""
    if "strategies" in raw:
        raise doc.error(
            ("strategies",),
            "a balance config names its strategies once, as rungs in balance.ladder "
            "(weakest first); remove 'strategies:'",
        )
    if game is FAILED:
        return raw
    ladder = ladder_entries(doc, raw["balance"], default_ladder(game))
    return {**raw, "strategies": ladder, "format": raw.get("format", "self_play")}


def _workers(doc: Doc, raw: dict[str, Any]) -> int:
    """``workers`` (or ``--workers``): at most :data:`MAX_WORKERS`. Below that, a run
    caps its pool at what it can use (see ``tournament/executor.py``)."""
    workers = int_at(doc, ("workers",), raw.get("workers", os.cpu_count() or 1), 0)
    if workers > MAX_WORKERS:
        raise doc.error(
            ("workers",),
            f"at most {MAX_WORKERS} worker processes; got {workers} (a run uses at most "
            "one per game to play and a few per CPU)",
        )
    return workers


def _strategy_names(value: Any) -> list[str]:
    """The names the strategies entries give (as ``_strategies`` names them), read
    without checking them: for the checks of ``gate:`` and ``asserts:``."""
    names = []
    for item in value if isinstance(value, list) else []:
        if isinstance(item, str):
            names.append(item)
        elif isinstance(item, dict):
            use = item.get("use") or (CMD_PREFIX + str(item.get("command", "")))
            if isinstance(use, str) and use.startswith(CMD_PREFIX):
                parts = use[len(CMD_PREFIX) :].split()
                use = Path(parts[0]).name if parts else use
            names.append(str(item.get("name", use)))
    return names


def _name(doc: Doc, raw: dict[str, Any]) -> str:
    name = str_at(doc, ("name",), raw.get("name", doc.path.stem))
    if not name.strip() or name in (".", "..") or any(c in name for c in "/\\\0"):
        raise doc.error(
            ("name",),
            f"a run name names the default folder results/NAME, so it cannot hold '/', "
            f"'\\' or be '..'; got {name!r}",
        )
    return name


def _players(doc: Doc, raw: dict[str, Any], game: Any) -> int:
    players = int_at(doc, ("players",), raw.get("players", min(game.player_counts)), 1)
    try:
        game.check_players(players)
    except SimcliError as exc:
        raise doc.error(("players",), str(exc)) from None
    return players


def _options(doc: Doc, game: Any, base_options: dict[str, Any]) -> dict[str, Any]:
    try:
        return game.resolve_options(base_options)
    except SimcliError as exc:
        raise doc.error(("options",), str(exc)) from None


def _games(doc: Doc, raw: dict[str, Any], fmt: str, players: int) -> int:
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
    return games


def _output(doc: Doc, raw: dict[str, Any], name: str) -> str:
    output = str_at(doc, ("output",), raw.get("output", str(Path("results") / name)))
    if "\0" in output or not output.strip():
        raise doc.error(("output",), f"not a usable folder path: {output!r}")
    return output


def _time_limit(doc: Doc, limit: Any) -> Any:
    if limit is not None and (
        isinstance(limit, bool)
        or not isinstance(limit, int | float)
        or not math.isfinite(limit)
        or limit <= 0
    ):
        raise doc.error(("move_time_limit",), f"expected seconds > 0; got {kind_of(limit)}")
    return limit


def _executor(doc: Doc, raw: dict[str, Any]) -> tuple[str, str | None]:
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
    return executor, scheduler


def _strategies(
    doc: Doc,
    value: Any,
    game_id: str | None,
    isolation: str = "inprocess",
    root: KeyPath = ("strategies",),
) -> list[StrategySpec]:
    """The strategy entries at ``root``; each bad entry is noted in ``doc`` and the others
    checked (``game_id`` None: the game failed, its restriction is not checked)."""
    if not isinstance(value, list) or not value:
        raise doc.error(root, f"expected a non-empty list; got {kind_of(value)}")
    specs: list[StrategySpec] = []
    for i, item in enumerate(value):
        spec = doc.attempt(_strategy, doc, (*root, i), item, game_id, isolation, specs)
        if spec is not None:
            specs.append(spec)
    return specs


def _strategy(
    doc: Doc,
    path: KeyPath,
    item: Any,
    game_id: str | None,
    isolation: str,
    specs: list[StrategySpec],
) -> StrategySpec:
    from simcli.strategy import load_strategy_class

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
            raise doc.error((*path, "memory_limit"), f"at most {MAX_MEMORY_MIB} MiB; got {memory}")
    if use.startswith(CMD_PREFIX):
        argv = _command(doc, (*path, "use"), use[len(CMD_PREFIX) :])
        name = str_at(doc, (*path, "name"), item.get("name", Path(argv[0]).name))
        _unique(doc, path, name, specs)
        return StrategySpec(name, use, params, "process", memory)
    if memory is not None and where != "process":
        raise doc.error(
            (*path, "memory_limit"), "memory_limit needs 'isolation: process' (or a command)"
        )
    name = str_at(doc, (*path, "name"), item.get("name", use))
    _unique(doc, path, name, specs)
    if where == "process":
        # Its code must never run here, in the referee's process: the strategy process
        # checks the class, its games and its params in the handshake, which
        # `validate` and `run` complete before any game (exit 2 on failure).
        return StrategySpec(name, use, params, where, memory)
    try:
        cls = load_strategy_class(use, doc.path.parent)
    except SimcliError as exc:
        raise doc.error((*path, "use"), str(exc)) from None
    if game_id is not None and cls.games is not None and game_id not in cls.games:
        raise doc.error(
            (*path, "use"), f"strategy '{use}' plays {', '.join(cls.games)}, not {game_id}"
        )
    _check_params(doc, path, name, cls, params)
    return StrategySpec(name, use, params, where, memory)


def _unique(doc: Doc, path: KeyPath, name: str, specs: list[StrategySpec]) -> None:
    if any(s.name == name for s in specs):
        raise doc.error((*path, "name"), f"strategy name '{name}' is used twice")


def _check_params(doc: Doc, path: KeyPath, name: str, cls: Any, params: dict[str, Any]) -> None:
    """Params the class does not take are named at their own key, with a close match
    among the ones it does take; then the class is built once with them."""
    import inspect

    from simcli.strategy import check_params

    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        signature = None
    if signature is not None and not any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values()
    ):
        taken = [
            p.name
            for p in signature.parameters.values()
            if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        ]
        unknown = [k for k in params if k not in taken]
        for key in unknown:
            doc.add(
                doc.error(
                    (*path, "params", key),
                    f"strategy '{name}' ({cls.__name__}) takes no param '{key}'"
                    f"{did_you_mean(str(key), taken)}; its params: {', '.join(taken) or 'none'}",
                )
            )
        if unknown:
            return
    try:
        check_params(name, cls, params)
    except SimcliError as exc:
        raise doc.error((*path, "params"), str(exc)) from None


def _check_isolation(doc: Doc, game: Any, strategies: list[StrategySpec], variants: Any) -> None:
    """Strategies in their own processes receive views as JSON: every game of the run
    (a variant's own game class too, which the processes load) must rebuild them."""
    from simcli.game import Game
    from simcli.games import load_game

    isolated = [i for i, s in enumerate(strategies) if s.isolated]
    if not isolated:
        return
    path = ("strategies", isolated[0])
    games = [game, *(load_game(v.game, doc.path.parent) for v in variants if v.game)]
    for rules in games:
        if type(rules).state_from_snapshot is Game.state_from_snapshot:
            raise doc.error(
                path,
                f"game '{rules.id}' ({type(rules).__name__}) has no state_from_snapshot, so a "
                "strategy in its own process cannot receive its view; run the strategies "
                "in-process (isolation: inprocess) or give the game state_from_snapshot "
                "(docs/new-game.md)",
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
    value, fmt = _format_type(doc, value)
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


def _format_type(doc: Doc, value: Any) -> tuple[dict[str, Any], str]:
    """The ``format:`` mapping and its type, checked."""
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
    return value, fmt


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
