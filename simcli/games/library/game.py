"""The Library game description: options, setup and the greedy evaluation."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from simcli.game import Game, IllegalMoveError, Option, State
from simcli.games.compensation import drop_defaults
from simcli.games.library.board import entrances
from simcli.games.library.routes import INF, nearest, push_distance
from simcli.games.library.state import EXTRA_ACTIONS, LibraryState

WIN_VALUE = 1000.0


class Library(Game):
    id = "library"
    title = "Library (the sphere game)"
    description = (
        "Lay plates and walls on a 7x7 grid and roll the shared sphere from the fountain "
        "to your own entrance."
    )
    player_counts = (2, 4)
    options = {
        "plate_pulls_sphere": Option(
            default=True,
            choices=(True, False),
            doc="a plate laid next to the sphere pulls it on and it keeps rolling (rule text)",
        ),
        "only_mover_wins": Option(
            default=False,
            choices=(False, True),
            doc="the sphere on an entrance wins only for the player who moved it "
            "(default: for the entrance's owner, whoever moved it)",
        ),
        "no_push_back": Option(
            default="after_push",
            choices=("after_push", "after_any_roll"),
            doc="which sphere moves forbid the next player to push it back to where it was: "
            "only Push Sphere, or also a pulling plate and a crush",
        ),
        "max_turns": Option(
            default=300,
            kind=int,
            minimum=1,
            doc="actions in total (all players) before the game ends in a draw",
        ),
        EXTRA_ACTIONS: Option(
            default=0,
            kind=int,
            minimum=0,
            maximum=3,
            doc="seat compensation: on its first turn seat s takes s x extra_actions "
            "actions more than one (2 players: the second player's first turn has "
            "1 + extra_actions actions, as Libraria's two-counter opening); "
            "0 = the rules as written",
        ),
    }

    perfect_information = True
    scalar_moves = True  # moves are strings

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """The options with defaults filled in; ``extra_actions`` at its default 0 is
        left out (records of the rules as written stay as they were; see
        ``simcli/games/compensation.py``)."""
        return drop_defaults(self.options, super().resolve_options(given), (EXTRA_ACTIONS,))

    def sample_setup(
        self, players: int, options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        """Library has no random setup: the board always starts empty."""
        return {}

    def new_state(
        self, players: int, options: Mapping[str, Any], setup: Mapping[str, Any]
    ) -> LibraryState:
        self.check_players(players)
        if not isinstance(setup, Mapping) or dict(setup):
            raise IllegalMoveError("a Library setup is the empty object {}")
        return LibraryState(self, players, self.resolve_options(options))

    def state_from_snapshot(
        self, players: int, options: Mapping[str, Any], snapshot: Mapping[str, Any]
    ) -> LibraryState:
        """The position whose :meth:`LibraryState.snapshot` is ``snapshot`` (a view is
        the full state: nothing is hidden)."""
        self.check_players(players)
        return LibraryState.rebuild(self, players, options, snapshot)

    def evaluate(self, state: State, seat: int) -> float:
        """Minus the number of sphere pushes that bring the sphere to ``seat``'s entrance
        on the board as it is (a search over pushes). If no push route exists: below any
        route, by how close the sphere can be pushed to the entrance. Terminal: +-1000,
        a draw scores as badly as the worst open position."""
        if not isinstance(state, LibraryState):
            raise TypeError("Library.evaluate needs a Library state")
        if state.is_terminal():
            if state.winner == seat:
                return WIN_VALUE
            return -WIN_VALUE if state.winner >= 0 else -100.0
        target = entrances(state.players)[seat]
        avoid = 0
        if not state._only_mover:
            for other in entrances(state.players):
                if other != target:
                    avoid |= 1 << other
        pushes, reached = push_distance(state, target, avoid)
        if pushes < INF:
            return -float(pushes)
        return -20.0 - nearest(reached, target)
