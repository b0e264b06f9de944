"""The explicit registry of games: id -> "module:Class". Add a game here to make it known."""

from __future__ import annotations

import importlib
from functools import cache

from simcli.errors import UnknownGameError
from simcli.game import Game
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
    """The game registered as ``game_id``; :class:`UnknownGameError` lists the known ones."""
    try:
        target = GAMES[game_id]
    except (KeyError, TypeError):
        raise UnknownGameError(
            f"unknown game '{game_id}'{did_you_mean(str(game_id), GAMES)}; "
            f"known games: {', '.join(game_ids())}"
        ) from None
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls()
