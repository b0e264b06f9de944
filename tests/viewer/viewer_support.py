"""Helpers of the viewer tests: logs of games played in this process with seeded strategies,
and elements of an SVG picked by class."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import simcli
from simcli.records import dumps

SVG = "{http://www.w3.org/2000/svg}"


def write_log(folder: Path, records: list[dict]) -> Path:
    """``folder/games.jsonl`` holding ``records`` (indexes as given)."""
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "games.jsonl"
    log.write_text("".join(dumps(r) + "\n" for r in records), encoding="utf-8")
    return log


def played(game: str, strategies, seed: int, index: int = 0, players: int | None = None) -> dict:
    return simcli.play(game, strategies, players=players, seed=seed, index=index)


def with_class(svg: str, cls: str) -> list[ElementTree.Element]:
    """The elements of ``svg`` whose class list holds ``cls``."""
    root = ElementTree.fromstring(svg)
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]
