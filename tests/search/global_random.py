"""RNG hygiene for the search tests: make the ``random`` module's global generator refuse
every call, so a strategy that draws from it (instead of its own seeded RNG) fails."""

from __future__ import annotations

import random

import pytest

GLOBAL_RANDOM = ("random", "randrange", "randint", "choice", "choices", "shuffle", "sample",
                 "uniform", "getrandbits", "gauss", "seed")  # fmt: skip


def refuse_global_random(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now until the test ends, every module-level function of ``random`` raises."""

    def refuse(*args, **kwargs):
        raise AssertionError("the global random generator was used")

    for name in GLOBAL_RANDOM:
        monkeypatch.setattr(random, name, refuse)
