"""``random``: a uniformly random legal move."""

from __future__ import annotations

from random import Random

from simcli.game import Move, State
from simcli.strategy import Strategy


class RandomStrategy(Strategy):
    description = "uniformly random legal move"
    wants_view = False  # it never looks at the view

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        # self.rng.choice(legal_moves), drawn as Random.choice draws (Random._randbelow:
        # getrandbits of n's bit length until below n) without its two Python frames, a
        # third of a random game's referee time; any other generator draws its own way.
        rng = self.rng
        n = len(legal_moves)
        if type(rng) is not Random or not n:
            return rng.choice(legal_moves)
        getrandbits = rng.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return legal_moves[r]
