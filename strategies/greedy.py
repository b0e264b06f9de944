"""``greedy``: one ply of look-ahead with the game's own evaluation."""

from __future__ import annotations

from simcli.game import Move, State
from simcli.strategy import Strategy


class GreedyStrategy(Strategy):
    description = (
        "one ply: the move with the best immediate evaluation for its seat (seeded ties); "
        "params: epsilon (chance of a random move instead, default 0)"
    )

    def __init__(self, epsilon: float = 0.0):
        if not 0.0 <= float(epsilon) <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, got {epsilon!r}")
        self.epsilon = float(epsilon)

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        if self.epsilon and self.rng.random() < self.epsilon:
            return self.rng.choice(legal_moves)
        game = self.game
        # Hidden-information games: evaluate on a state consistent with the view.
        base = view if game.perfect_information else game.determinize(view, self.rng)
        best_value = float("-inf")
        best: list[Move] = []
        for move in legal_moves:
            after = base.clone()
            after.apply(move)
            value = game.evaluate(after, self.seat)
            if value > best_value:
                best_value, best = value, [move]
            elif value == best_value:
                best.append(move)
        return self.rng.choice(best)
