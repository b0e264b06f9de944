"""The declared field of a game's chance streams (:class:`~simcli.games.chance.ChanceStreams`):
the key is hidden from every seat (a view keeps only the public event counts)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from simcli.games.chance import ChanceStreams
from simcli.statefields import Kind


@dataclass(frozen=True)
class Streams(Kind):
    """A :class:`ChanceStreams` value: ``{"key": KEY or null, "events": {KIND: COUNT}}``.
    ``kinds``: the game's event kinds (or a function that gives them); ``label`` starts
    the messages."""

    kinds: Collection[str] | Callable[[], Collection[str]] = ()
    label: str = "snapshot"
    scalar = False
    plain = False

    def copy(self, value: Any) -> Any:
        return value.copy()

    def encode(self, value: Any) -> Any:
        return value.snapshot()

    def mask(self, value: Any) -> Any:
        return value.hidden()

    def decode(self, raw: Any, limits: Mapping[str, int], masked: bool) -> Any:
        kinds = self.kinds() if callable(self.kinds) else self.kinds
        return ChanceStreams.from_snapshot(raw, kinds, self.label)
