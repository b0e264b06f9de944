"""Tournament formats: their names and how many games of a round share a seed (a config
checks ``format:`` and ``games:`` with these; the schedule builds the games)."""

from __future__ import annotations

FORMATS = ("round_robin", "gauntlet", "self_play", "solo")


def rotations_for(fmt: str, players: int) -> int:
    """How many games of a round share one seed (and so how ``games`` must divide)."""
    if fmt in ("self_play", "solo"):
        return 1
    return players
