"""The rules a config plays: the :class:`~simcli.game.Game` of each variant and, for a
plug-in game, what its records say about where the rules came from. The config itself is
plain data (:mod:`simcli.config`); loading games is :mod:`simcli.games`."""

from __future__ import annotations

from typing import Any

from simcli.config import Config
from simcli.game import Game
from simcli.games import game_source, load_game


def game_for(config: Config, variant: str | None) -> Game:
    """The game that plays ``variant`` of ``config`` (or its base game)."""
    return load_game(config.game_use_for(variant), config.base_dir)


def game_source_for(config: Config, variant: str | None) -> dict[str, Any] | None:
    """What the records of ``variant`` say about a plug-in game's origin (None for a
    built-in game: its records stay as they were)."""
    source = game_source(config.game_use_for(variant), config.base_dir)
    return source.to_record() if source is not None else None
