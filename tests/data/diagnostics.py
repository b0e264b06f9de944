"""Strategies for tests/test_think_time.py: one that takes a known least time per move,
one that draws from Python's global (unseeded) random module instead of its own RNG."""

from __future__ import annotations

import random
import time

from simcli.strategy import Strategy


class Sleepy(Strategy):
    """Sleeps 5 ms before every move (so each move takes at least that long), then plays
    its own seeded RNG's choice."""

    def choose(self, view, legal):
        time.sleep(0.005)
        return self.rng.choice(legal)


class GlobalRandom(Strategy):
    """The classic mistake: ``random.choice`` (the process's global generator) instead
    of ``self.rng``; a replay with a fresh instance plays other moves."""

    def choose(self, view, legal):
        return random.choice(legal)


class Stalls(Strategy):
    """Sleeps a minute on every move: a probe of it outlives a run killed meanwhile
    unless it dies with its parent."""

    def choose(self, view, legal):
        time.sleep(60)
        return legal[0]


class Exits(Strategy):
    """Ends its process on its first move (what a worker survives; so must the probe)."""

    def choose(self, view, legal):
        import os

        os._exit(3)
