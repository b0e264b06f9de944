"""``library_heuristic``: races the sphere home and blocks the opponents' best routes.

For every legal move it looks one action ahead and scores the position after it:

* a move that wins at once is played; a move after which the next player can win at
  once (by a push or a pulling plate) is avoided unless nothing else is left;
* otherwise the score is ``defense * (cheapest opponent route) - (own route)`` plus
  ``threat_bonus`` per immediate winning threat (at most two), where a route is the
  relaxed number of actions that player would need to bring the sphere to its entrance
  if nobody interfered (:func:`simcli.games.library.routes.route_cost`). A wall that
  lengthens the opponent's cheapest route therefore scores like a plate that shortens
  one's own. An opponent's route counts only up to ``horizon`` actions (default: 8 with
  two players; 2 with four, where blocking everybody's distant routes would only hand
  the game to a third player).

Only promising moves get the full look (see :meth:`LibraryHeuristicStrategy.candidates`).
Ties are broken by the shorter own route, then by the strategy's seeded RNG.
"""

from __future__ import annotations

from simcli.game import Move, State
from simcli.games.library.board import PLATE_MOVES, STEP, WALL_MOVES
from simcli.games.library.routes import best_route, leg_footprint, route_avoid, winning_moves
from simcli.games.library.state import LibraryState
from simcli.strategy import Strategy

COST_CAP = 8  # an entrance further (or unreachable) counts as this many actions away
#: Default horizon per player count: an opponent's route counts up to this many actions.
AUTO_HORIZON = {2: COST_CAP, 4: 2}
LOSING = -1e6


class LibraryHeuristicStrategy(Strategy):
    description = "Library: one action of look-ahead, own route vs the opponents' best route"
    games = ("library",)

    def __init__(
        self, defense: float = 1.0, threat_bonus: float = 0.5, horizon: int | None = None
    ) -> None:
        if isinstance(defense, bool) or not isinstance(defense, int | float) or defense < 0:
            raise ValueError("defense must be a number >= 0")
        if isinstance(threat_bonus, bool) or not isinstance(threat_bonus, int | float):
            raise ValueError("threat_bonus must be a number")
        if horizon is not None and (
            isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 1
        ):
            raise ValueError("horizon must be a whole number >= 1 (or null: automatic)")
        self.defense = float(defense)
        self.threat_bonus = float(threat_bonus)
        self.horizon = horizon

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        if not isinstance(view, LibraryState):
            raise TypeError("library_heuristic only plays the game 'library'")
        me = self.seat
        legal = set(legal_moves)
        wins = [m for m in winning_moves(view) if m in legal]
        if wins:
            return self.rng.choice(wins)
        best_key: tuple[float, float] | None = None
        best: list[Move] = []
        for move in self.candidates(view, legal_moves):
            key = self.score(view, move, me)
            if best_key is None or key > best_key:
                best_key, best = key, [move]
            elif key == best_key:
                best.append(move)
        return self.rng.choice(best)

    def candidates(self, view: LibraryState, legal_moves: list[Move]) -> list[Move]:
        """The moves worth a full look: every sphere push, wall push and topple; plates on
        the own cheapest route and next to the sphere; walls across the opponents'
        cheapest routes, just beyond the legs of the own route and around the sphere;
        plus two other moves picked at random to stand for all quiet moves."""
        me = self.seat
        horizon = self.horizon or AUTO_HORIZON[view.players]
        plates: set[str] = set()
        walls: set[str] = set()
        _, legs = best_route(view, view.entrances[me], route_avoid(view, me), COST_CAP)
        crossed, _, beyond = leg_footprint(legs)
        plates.update(PLATE_MOVES[c] for c in crossed)
        walls.update(WALL_MOVES[g] for g in beyond)
        for seat in range(view.players):
            if seat != me:
                _, legs = best_route(view, view.entrances[seat], route_avoid(view, seat), horizon)
                walls.update(WALL_MOVES[g] for g in leg_footprint(legs)[1])
        for step in STEP[view.sphere]:
            if step is not None:
                plates.add(PLATE_MOVES[step[0]])
                walls.add(WALL_MOVES[step[1]])
        chosen = []
        quiet = []
        for move in legal_moves:
            kind = move[0]
            if kind == "P":
                (chosen if move in plates else quiet).append(move)
            elif kind == "W":
                (chosen if move in walls else quiet).append(move)
            else:
                chosen.append(move)
        if len(quiet) > 2:
            quiet = self.rng.sample(quiet, 2)
        return chosen + quiet

    def score(self, view: LibraryState, move: Move, me: int) -> tuple[float, float]:
        """(value, tie-break) of the position after ``move``; higher is better."""
        after = view.clone()
        after.apply(move)
        if after.is_terminal():
            if after.winner == me:
                return (-LOSING, 0.0)
            return (LOSING, 0.0) if after.winner >= 0 else (0.0, 0.0)
        mine = _cost(after, me, COST_CAP)
        if winning_moves(after):  # the next player wins at once
            return (LOSING, -mine)
        horizon = self.horizon or AUTO_HORIZON[after.players]
        theirs = min(_cost(after, seat, horizon) for seat in range(after.players) if seat != me)
        threats = min(2, len(winning_moves(after, me, as_mover=True)))
        value = self.defense * theirs - mine + self.threat_bonus * threats
        return (value, -mine)


def _cost(state: LibraryState, seat: int, cap: int) -> float:
    """The route cost of ``seat``, at most ``cap`` (the search stops there)."""
    cost = best_route(state, state.entrances[seat], route_avoid(state, seat), cap)[0]
    return float(min(cost, cap))
