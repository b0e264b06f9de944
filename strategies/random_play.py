"""``random``: a uniformly random legal move."""

from __future__ import annotations

from random import Random
from typing import Any

from simcli.draws import randbelow_of
from simcli.game import Game, Move, State
from simcli.strategy import Strategy


class RandomStrategy(Strategy):
    description = "uniformly random legal move"
    wants_view = False  # it never looks at the view

    #: the generator ``_below`` draws from (``None``: draw through ``rng.choice``)
    _drawn_from: Random | None = None
    _below: Any = None

    def start_game(self, game: Game, seat: int, rng: Random) -> None:
        super().start_game(game, seat, rng)
        # rng.choice(moves) is moves[rng._randbelow(len(moves))] for a random.Random
        # (a subclass may draw its own way): drawn here through simcli.draws, which gives
        # the same numbers (at C speed where the compiled path is built)
        if type(rng) is Random:
            self._drawn_from, self._below = rng, randbelow_of(rng)

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        if self.rng is not self._drawn_from or not legal_moves:
            return self.rng.choice(legal_moves)
        return legal_moves[self._below(len(legal_moves))]
