"""An example strategy for Libraria: prefer spots that touch few tiles (corners, edges),
otherwise play like greedy. Use it with `use: simcli_strategies.corner_first:CornerFirst`."""

from simcli.strategy import Strategy


class CornerFirst(Strategy):
    description = "Libraria: take the spot touching the fewest tiles, then the best score"
    games = ("libraria",)

    def __init__(self, weight: float = 1.0):
        self.weight = float(weight)

    def choose(self, view, legal_moves):
        def value(spot):
            row, col = divmod(spot, 6)
            touching = (1 + (0 < row < 5)) * (1 + (0 < col < 5))  # 1, 2 or 4 tiles
            after = view.clone()
            after.apply(spot)
            return self.game.evaluate(after, self.seat) - self.weight * touching

        best = max(value(spot) for spot in legal_moves)
        return self.rng.choice([s for s in legal_moves if value(s) == best])
