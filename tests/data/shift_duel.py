"""Shift Duel: a test game whose fair compensation is known exactly.

Each of two seats is dealt a number from 0 to 99 (uniform, independent). Seat 0 then
picks one of three moves and seat 1 has one move; the moves change nothing. Seat 0
scores its number; seat 1 scores its number + ``shift`` + ``komi``. The higher score wins
(equal: a draw). The difference of the two numbers is symmetric around 0, so seat 0
wins exactly half of the decisive games when ``komi = -shift``: that is the fair value.
Every game has 2 decisions with 3 and 1 legal moves (branching 2, decision share 1/2).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from simcli.game import TERMINAL, Game, IllegalMoveError, Option, Outcome, State

MOVES = (["a", "b", "c"], ["x"])


class DuelState(State):
    def __init__(self, game: ShiftDuel, options: Mapping[str, Any], values: list[int]):
        self.game = game
        self.options = options
        self.players = 2
        self.values = list(values)
        self.moved = 0

    @property
    def current_player(self) -> int:
        return TERMINAL if self.moved == 2 else self.moved

    def legal_moves(self) -> list[Any]:
        return [] if self.moved == 2 else list(MOVES[self.moved])

    def apply(self, move: Any) -> None:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move!r} is not legal")
        self.moved += 1

    def scores(self) -> tuple[float, float]:
        second = self.values[1] + self.options["shift"] + self.options["komi"]
        return float(self.values[0]), float(second)

    def outcome(self) -> Outcome:
        a, b = self.scores()
        winners = () if a == b else ((0,) if a > b else (1,))
        return Outcome(scores=(a, b), winners=winners)

    def snapshot(self) -> dict[str, Any]:
        return {"values": self.values, "moved": self.moved}

    def render(self) -> str:
        return f"values {self.values}, {self.moved} moved"

    def clone(self) -> DuelState:
        new = DuelState(self.game, self.options, self.values)
        new.moved = self.moved
        return new


class ShiftDuel(Game):
    id = "shift_duel"
    title = "Shift Duel"
    description = "Two dealt numbers; the second seat's is shifted (a test game)."
    player_counts = (2,)
    scalar_moves = True
    options = {
        "shift": Option(default=10, doc="points added to seat 1's number", kind=int),
        "komi": Option(default=0.0, doc="points added to seat 1's score", kind=float, step=0.5),
    }

    def sample_setup(self, players: int, options: Mapping[str, Any], rng: random.Random):
        return {"values": [rng.randrange(100), rng.randrange(100)]}

    def new_state(self, players: int, options: Mapping[str, Any], setup: Mapping[str, Any]):
        return DuelState(self, options, list(setup["values"]))

    def evaluate(self, state: State, seat: int) -> float:
        return state.scores()[seat]
