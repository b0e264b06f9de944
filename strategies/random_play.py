"""``random``: a uniformly random legal move."""

from __future__ import annotations

from simcli.game import Move, State
from simcli.strategy import Strategy


class RandomStrategy(Strategy):
    description = "uniformly random legal move"
    wants_view = False  # it never looks at the view

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        return self.rng.choice(legal_moves)
