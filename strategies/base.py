"""The strategy base class.

A strategy is a small class: constructor parameters come from the config's ``params:``,
and :meth:`Strategy.choose` picks a move from what its seat may see. The runner creates a
fresh instance for every game and seat, then calls :meth:`Strategy.start_game` with the
game, the seat and the instance's own RNG (derived from the game seed and the seat), so
results never depend on which worker played which game.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from simcli.game import Game, Move, State


class Strategy:
    """Base class: subclasses set ``name``/``description`` and implement :meth:`choose`."""

    #: Registry name (``use: NAME`` in configs).
    name: ClassVar[str] = "strategy"
    #: One line for ``simcli list strategies``.
    description: ClassVar[str] = ""
    #: Game ids this strategy supports; ``None`` means every game.
    games: ClassVar[tuple[str, ...] | None] = None
    #: Set to ``False`` when :meth:`choose` never looks at its ``view``: the referee then
    #: passes ``None`` instead of building a view for every move (less work, same games).
    wants_view: ClassVar[bool] = True

    game: Game
    seat: int
    rng: random.Random

    def start_game(self, game: Game, seat: int, rng: random.Random) -> None:
        """Called once before the game's first move. Override to reset per-game state
        (call ``super().start_game(...)``)."""
        self.game = game
        self.seat = seat
        self.rng = rng

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        """Return one of ``legal_moves`` (a plain JSON value: ``int``, ``str`` or ``list``;
        anything else forfeits). ``view`` is what this seat may know, a copy that shares
        nothing with the real game; ``legal_moves`` is a copy too."""
        raise NotImplementedError

    def params(self) -> dict[str, Any]:
        """The constructor parameters, for ``simcli list`` and records."""
        return {}
