"""``random``: a uniformly random legal move."""

from __future__ import annotations

from random import Random
from typing import Any

from simcli.draws import picker_of, randbelow_of
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
        self.__dict__.pop("choose", None)  # an earlier game's generator
        # rng.choice(moves) is moves[rng._randbelow(len(moves))] for a random.Random
        # (a subclass may draw its own way): drawn here through simcli.draws, which gives
        # the same numbers (at C speed where the compiled path is built)
        if type(rng) is not Random:
            return
        pick = picker_of(rng) if type(self) is RandomStrategy else None
        if pick is not None:
            # this very instance, for this game: choose is rng.choice, one C call (a
            # subclass keeps its own choose, and the method below)
            self.choose = pick  # type: ignore[method-assign]
        else:
            self._drawn_from, self._below = rng, randbelow_of(rng)

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        if self.rng is not self._drawn_from or not legal_moves:
            return self.rng.choice(legal_moves)
        return legal_moves[self._below(len(legal_moves))]
