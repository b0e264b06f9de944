"""The games simcli knows: the built-in registry (id -> "module:Class"), games installed
by packages through the ``simcli.games`` entry point group, and plug-in games named in a
config as ``path/to/rules.py:Class`` or ``package.module:Class``.

A plug-in game carries a :class:`GameSource` (where it came from and a fingerprint of its
rules) that goes into its game records, so that ``replay`` and ``--resume`` can load the
same rules again and notice when they changed.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from simcli.errors import GameLoadError, UnknownGameError
from simcli.game import Game
from simcli.plugins import (
    GAME_GROUP,
    SOURCE_KEYS,
    USER_MODULE_PREFIX,
    class_from,
    entry_points,
    fingerprint,
    import_target,
    is_file_target,
    load_entry_point,
    resolve_file,
)
from simcli.suggest import did_you_mean

GAMES: dict[str, str] = {
    "libraria": "simcli.games.libraria:Libraria",
    "ex_libris": "simcli.games.ex_libris:ExLibris",
    "bibliogamo": "simcli.games.bibliogamo:Bibliogamo",
    "adas_library": "simcli.games.adas_library:AdasLibrary",
    "library": "simcli.games.library:Library",
}


def game_ids() -> list[str]:
    return sorted(GAMES)


@cache
def get_game(game_id: str) -> Game:
    """The built-in game registered as ``game_id``; :class:`UnknownGameError` lists the
    known ones."""
    try:
        target = GAMES[game_id]
    except (KeyError, TypeError):
        raise UnknownGameError(
            f"unknown game '{game_id}'{did_you_mean(str(game_id), GAMES)}; "
            f"known games: {', '.join(game_ids())}"
        ) from None
    module_name, _, class_name = target.partition(":")
    return _make(import_target(module_name, None, "game", GameLoadError), class_name, target)


@dataclass(frozen=True)
class GameSource:
    """Where a plug-in game came from. ``use`` loads it again from anywhere on this
    machine: an absolute ``file.py:Class``, a ``module:Class`` or an entry point name."""

    kind: str  # "file", "module" or "entry_point"
    use: str
    fingerprint: str  # "sha256:..." over the rules' source files
    package: str | None = None  # "name version" of the distribution of an entry point
    version: str | None = None  # the game class's own ``version``, if it declares one

    def to_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "use": self.use}
        if self.package:
            out["package"] = self.package
        if self.version:
            out["version"] = self.version
        out["fingerprint"] = self.fingerprint
        return out


def load_game(use: str, base_dir: Path | None = None) -> Game:
    """The game named by ``use`` (a config's ``game:``): a built-in id, an installed
    entry point name, ``package.module:Class`` or ``path/to/rules.py:Class`` (relative
    to ``base_dir``, then the current directory)."""
    return _load(*_locate(use, base_dir))[0]


def game_source(use: str, base_dir: Path | None = None) -> GameSource | None:
    """The :class:`GameSource` of a plug-in game; ``None`` for a built-in game. The
    fingerprint is taken now, from the files as they are."""
    game, source = _load(*_locate(use, base_dir))
    if source is None:
        return None
    return replace(source, fingerprint=fingerprint(type(game)))


def instance_source(game: Game) -> GameSource | None:
    """The :class:`GameSource` of a game object (``simcli.play(game_object, ...)``): its
    records must say which rules made them, or a replay would take the built-in game of
    the same id. ``None`` for a built-in game's own class, and for a class that cannot be
    loaded again by name (defined inside a function, or in no file)."""
    cls = type(game)
    if game.id in GAMES and type(get_game(game.id)) is cls:
        return None
    if "<locals>" in cls.__qualname__:
        return None
    module = sys.modules.get(cls.__module__)
    file = getattr(module, "__file__", None)
    if cls.__module__ == "__main__" or cls.__module__.startswith(USER_MODULE_PREFIX):
        if not file:
            return None
        return _source("file", f"{Path(file).resolve()}:{cls.__qualname__}", game, None)
    return _source("module", f"{cls.__module__}:{cls.__qualname__}", game, None)


def installed_games() -> dict[str, Any]:
    """Entry points of the ``simcli.games`` group by name (see :mod:`simcli.plugins`)."""
    return entry_points(GAME_GROUP)


def _locate(use: str, base_dir: Path | None) -> tuple[str, str]:
    """(kind, locator) with files made absolute, so that the cache and the records name
    one file whatever the working directory."""
    if not isinstance(use, str) or not use.strip():
        raise UnknownGameError(f"a game is a name or 'path/to/rules.py:Class'; got {use!r}")
    if ":" in use:
        target, _, class_name = use.rpartition(":")
        if not target or not class_name:
            raise GameLoadError(f"'{use}' is not 'path/to/rules.py:Class' or 'module:Class'")
        if is_file_target(use):
            return "file", f"{resolve_file(target, base_dir, 'game', GameLoadError)}:{class_name}"
        return "module", use
    if use in GAMES:
        return "builtin", use
    installed = installed_games()
    if use in installed:
        return "entry_point", use
    known = sorted({*GAMES, *installed})
    raise UnknownGameError(
        f"unknown game '{use}'{did_you_mean(use, known)}; known games: {', '.join(known)} "
        f"(or give 'path/to/rules.py:Class')"
    )


def _load(kind: str, locator: str) -> tuple[Game, GameSource | None]:
    if kind == "builtin":
        return get_game(locator), None
    if kind == "entry_point":
        # Looked up again every time: a test (or the user) may change what is installed.
        info = installed_games()[locator]
        return _load_entry_point(locator, info.value, info.package)
    return _load_code(kind, locator)


@cache
def _load_code(kind: str, locator: str) -> tuple[Game, GameSource]:
    target, _, class_name = locator.rpartition(":")
    module = import_target(target, None, "game", GameLoadError)
    game = _make(module, class_name, locator)
    return game, _source(kind, locator, game, None)


@cache
def _load_entry_point(name: str, value: str, package: str | None) -> tuple[Game, GameSource]:
    cls = load_entry_point(GAME_GROUP, name, "game", GameLoadError)
    game = _instantiate(cls, f"entry point '{name}' = '{value}'")
    return game, _source("entry_point", name, game, package)


def _make(module: Any, class_name: str, label: str) -> Game:
    cls = class_from(module, label.rpartition(":")[0], class_name, GameLoadError)
    return _instantiate(cls, f"'{label}'")


def _instantiate(cls: Any, label: str) -> Game:
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise GameLoadError(f"{label} is not a Game subclass (derive it from simcli.game.Game)")
    missing = [a for a in ("id", "title", "player_counts") if not hasattr(cls, a)]
    if missing:
        raise GameLoadError(f"{label} does not set {', '.join(missing)} (see docs/new-game.md)")
    try:
        game = cls()
    except Exception as exc:
        raise GameLoadError(f"{label} cannot be created: {type(exc).__name__}: {exc}") from None
    if not isinstance(game.id, str) or not game.id:
        raise GameLoadError(f"{label}: id must be a non-empty text; got {game.id!r}")
    counts = game.player_counts
    if not counts or not all(isinstance(n, int) and n >= 1 for n in counts):
        raise GameLoadError(f"{label}: player_counts must list whole numbers >= 1; got {counts!r}")
    return game


def _source(kind: str, use: str, game: Game, package: str | None) -> GameSource:
    version = getattr(type(game), "version", None)
    return GameSource(
        kind=kind,
        use=use,
        fingerprint=fingerprint(type(game)),
        package=package,
        version=version if isinstance(version, str) else None,
    )


def check_setup(game: Game, players: int, options: dict[str, Any]) -> None:
    """Sample one setup and build its state, so that a plug-in game that cannot even be
    set up fails before a run starts (:class:`GameLoadError`, one line)."""
    try:
        setup = game.sample_setup(players, options, random.Random(0))
        game.new_state(players, options, setup)
    except Exception as exc:
        raise GameLoadError(
            f"game '{game.id}' fails to set up a {players}-player game: {type(exc).__name__}: {exc}"
        ) from None


def record_game(record: dict[str, Any]) -> tuple[Game, str | None]:
    """The game that replays ``record``, and a one-line warning when a plug-in game's
    rules changed since the record was written (``None`` when they did not). A game
    that cannot be loaded any more raises :class:`GameLoadError` saying where it was
    loaded from."""
    source = record.get("game_source")
    if source is None:
        return get_game(record["game"]), None
    if not isinstance(source, dict) or not all(isinstance(source.get(k), str) for k in SOURCE_KEYS):
        raise GameLoadError(f"game_source must be an object with {', '.join(SOURCE_KEYS)}")
    kind, use = source["kind"], source["use"]
    return _record_game(record["game"], kind, use, source["fingerprint"], _stamp(kind, use))


def _stamp(kind: str, use: str) -> tuple[int, int] | None:
    """When and how big a game file is now: a file edited or removed while this process
    runs is looked at again."""
    try:
        stat = Path(use.rpartition(":")[0]).stat() if kind == "file" else None
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size) if stat else None


@cache
def _record_game(
    game_id: str, kind: str, use: str, logged: str, stamp: tuple[int, int] | None
) -> tuple[Game, str | None]:
    where = f"game '{game_id}' of this log (loaded from {use})"
    try:
        if kind == "entry_point":
            game = load_game(use)
        elif kind in ("file", "module"):
            if kind == "file":
                resolve_file(use.rpartition(":")[0], None, "game", GameLoadError)
            game = _load_code(kind, use)[0]
        else:
            raise GameLoadError(f"unknown game_source kind {kind!r}")
    except (GameLoadError, UnknownGameError) as exc:
        raise GameLoadError(f"{where} cannot be loaded: {exc}") from None
    if game.id != game_id:
        raise GameLoadError(f"{where}: that code is now the game '{game.id}'")
    now = fingerprint(type(game))
    if now != logged:
        return game, (
            f"{where} has changed since the log was written (rules fingerprint {logged} "
            f"in the log, {now} now): games may not replay as they were played"
        )
    return game, None


def source_note(record: dict[str, Any]) -> str | None:
    """For a record of a plug-in game whose rules cannot be loaded or have changed: one
    line saying so (for commands that can go on without the rules, like ``report``)."""
    if record.get("game_source") is None:
        return None
    try:
        return record_game(record)[1]
    except (GameLoadError, UnknownGameError) as exc:
        return str(exc)
