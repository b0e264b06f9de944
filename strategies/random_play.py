"""``random``: a uniformly random legal move."""

from __future__ import annotations

from random import Random
from typing import Any

from simcli.draws import picker_of, randbelow_of
from simcli.game import Game, Move, State
from simcli.strategy import Strategy


class RandomStrategy(Strategy):
    """A uniformly random legal move, drawn as ``rng.choice`` draws it. A plain
    ``random.Random`` handed to :meth:`start_game` is drawn from for the rest of that game,
    whatever ``rng`` is set to afterwards; any other generator is ``rng`` as it is."""

    description = "uniformly random legal move"
    wants_view = False  # it never looks at the view

    #: ``rng._randbelow`` of the game's generator, where it is a ``random.Random``
    #: (``None``: draw through ``rng.choice``, a subclass may draw its own way)
    _below: Any = None
    #: the ``choose`` :meth:`start_game` set on this very instance, if it did
    _pick: Any = None

    def start_game(self, game: Game, seat: int, rng: Random) -> None:
        super().start_game(game, seat, rng)
        if self._pick is not None and self.__dict__.get("choose") is self._pick:
            del self.choose  # the earlier game's
        self._pick = self._below = None
        if type(rng) is not Random:
            return
        # rng.choice(moves) is moves[rng._randbelow(len(moves))] for a random.Random: drawn
        # through simcli.draws, which gives the same numbers (at C speed where compiled)
        pick = picker_of(rng) if type(self) is RandomStrategy else None
        if pick is not None:
            # choose itself is then that C function, for this game (a subclass keeps its
            # own choose, and the method below)
            self.choose = self._pick = pick  # type: ignore[method-assign]
        else:
            self._below = randbelow_of(rng)

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        if self._below is None or not legal_moves:
            return self.rng.choice(legal_moves)
        return legal_moves[self._below(len(legal_moves))]
