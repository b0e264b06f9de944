"""Component data files: the packaged ones in ``simcli/games/data/`` or a user's
replacement named by a game option. Reading the file is the only I/O a game does, at
option-resolution time; every error names the game, the option and the file."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from simcli.errors import GameOptionError


def read_data_file(game_id: str, packaged: str, path: str | None, option: str) -> tuple[str, Any]:
    """``(label, parsed content)`` of the packaged file ``packaged`` (``path`` None or
    empty) or of the user's file ``path`` (YAML, or JSON for ``.json``)."""
    if not path:
        label = f"built-in {packaged}"
        try:
            text = (
                resources.files("simcli.games")
                .joinpath("data", packaged)
                .read_text(encoding="utf-8")
            )
        except OSError as exc:  # a broken installation
            raise GameOptionError(f"{game_id}: cannot read {label}: {exc}") from None
    else:
        if not isinstance(path, str):
            raise GameOptionError(f"{game_id}: option '{option}' must be a file path; got {path!r}")
        label = str(path)
        try:
            text = Path(path).expanduser().read_text(encoding="utf-8")
        except OSError as exc:
            raise GameOptionError(
                f"{game_id}: option '{option}': cannot read '{path}': {exc.strerror or exc}"
            ) from None
    try:
        data = json.loads(text) if label.endswith(".json") else yaml.safe_load(text)
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        kind = "JSON" if label.endswith(".json") else "YAML"
        raise GameOptionError(f"{game_id}: {label}: not valid {kind}: {exc}") from None
    return label, data
