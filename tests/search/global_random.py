"""RNG hygiene for the search tests: make the ``random`` module's global generator refuse
every call, so a strategy that draws from it (instead of its own seeded RNG) fails."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from simcli.game import CHANCE

GLOBAL_RANDOM = ("random", "randrange", "randint", "choice", "choices", "shuffle", "sample",
                 "uniform", "getrandbits", "gauss", "seed")  # fmt: skip


def refuse_global_random(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now until the test ends, every module-level function of ``random`` raises."""

    def refuse(*args, **kwargs):
        raise AssertionError("the global random generator was used")

    for name in GLOBAL_RANDOM:
        monkeypatch.setattr(random, name, refuse)


def play_checking_chance(
    state: Any, chance: random.Random, players: list[Any], snapshot: bool = False
) -> Iterator[int]:
    """Play ``players`` (one per seat) to the end of the game, chance events drawn from
    ``chance``; every decision must leave ``chance`` (and, with ``snapshot``, the state)
    as it was. Yields the seat that decided after each decision."""
    while not state.is_terminal():
        seat = state.current_player
        if seat == CHANCE:
            state.apply(state.sample_chance(chance))
            continue
        before = chance.getstate()
        kept = state.snapshot() if snapshot else None
        move = players[seat].choose(state.view(seat), state.legal_moves())
        assert chance.getstate() == before
        if snapshot:
            assert state.snapshot() == kept
        yield seat
        state.apply(move)
