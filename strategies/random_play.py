"""``random``: a uniformly random legal move."""

from __future__ import annotations

from simcli.game import Move, State
from strategies.base import Strategy


class RandomStrategy(Strategy):
    name = "random"
    description = "uniformly random legal move"
    wants_view = False  # it never looks at the view

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        return self.rng.choice(legal_moves)
