"""The Library game description: options, setup and the greedy evaluation."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from simcli import statefields
from simcli.game import Game, IllegalMoveError, Option, State
from simcli.games.compensation import drop_defaults
from simcli.games.library.board import CLOCKWISE, TURN_ORDERS
from simcli.games.library.routes import INF, nearest, push_distance
from simcli.games.library.state import (
    EXTRA_ACTIONS,
    PUSH_WALL,
    READING_DEFAULTS,
    SPHERE_PUSH,
    TOPPLE_CHAIN,
    TURN_ORDER,
    WALLS_PER_PLAYER,
    LibraryState,
)

WIN_VALUE = 1000.0
#: The rules' version. Version 2 made the clockwise turn order the default with four
#: players (option ``turn_order``); a 4-player setup says which version it was dealt
#: under (``{"version": 2}``), so that a record of version 1 (setup ``{}``) says so on
#: replay instead of failing on a move. 2-player games did not change: their setup
#: stays ``{}``.
VERSION = 2
LEGACY_ORDER = "d1_d7_g4_a4"


class Library(Game):
    id = "library"
    title = "Library (the sphere game)"
    description = (
        "Lay plates and walls on a 7x7 grid and roll the shared sphere from the fountain "
        "to your own entrance."
    )
    player_counts = (2, 4)
    version = str(VERSION)
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
        TURN_ORDER: Option(
            default=CLOCKWISE,
            choices=tuple(TURN_ORDERS),
            doc="4 players: the entrances of seats 0-3 (seats move in seat order): "
            "clockwise = d1, a4, d7, g4 (round the table, seen from above; default since "
            "version 2); d1_d7_g4_a4 = bottom, top, right, left (version 1)",
        ),
        PUSH_WALL: Option(
            default="along",
            choices=("along", "sideways", "both"),
            doc="Push Wall: along = the wall moves one gap along its own line with the "
            "run of walls in front of it; sideways = the connected straight line of walls "
            "through it moves one gap across its own length, as one; both = either",
        ),
        TOPPLE_CHAIN: Option(
            default="behind",
            choices=("behind", "line"),
            doc="Topple Wall's chain: behind = the parallel walls stacked behind it in "
            "the fall direction fall domino-fashion; line = the connected straight line "
            "of walls through it (the push rule's 'connected line of walls') falls as one",
        ),
        SPHERE_PUSH: Option(
            default="any",
            choices=("any", "toward_own"),
            doc="any = a sphere push may go any way; toward_own = it must leave the sphere "
            "closer (Manhattan distance) to the pusher's own entrance ('you only ever "
            "push it toward your own entrance')",
        ),
        WALLS_PER_PLAYER: Option(
            default=0,
            kind=int,
            minimum=0,
            doc="walls each player may lay in a game (a toppled wall is not returned); "
            "0 = no limit (the text gives no stock)",
        ),
    }

    perfect_information = True
    scalar_moves = True  # moves are strings

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """The options with defaults filled in; ``extra_actions`` and the options of the
        text's other readings at their defaults are left out (records of the rules as
        written stay as they were; see ``simcli/games/compensation.py``)."""
        names = (EXTRA_ACTIONS, *READING_DEFAULTS)
        return drop_defaults(self.options, super().resolve_options(given), names)

    def sample_setup(
        self, players: int, options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        """Library has no random setup: the board always starts empty. A 4-player setup
        names the rules' version (see :data:`VERSION`)."""
        return {} if players == 2 else {"version": VERSION}

    def new_state(
        self, players: int, options: Mapping[str, Any], setup: Mapping[str, Any]
    ) -> LibraryState:
        self.check_players(players)
        resolved = self.resolve_options(options)
        if not isinstance(setup, Mapping):
            raise IllegalMoveError("a Library setup is {} (2 players) or {'version': 2}")
        setup = dict(setup)
        if players == 4 and setup == {}:
            # a record of version 1: its turn order is the option d1_d7_g4_a4 now
            if resolved.get(TURN_ORDER, CLOCKWISE) != LEGACY_ORDER:
                raise IllegalMoveError(
                    "this 4-player game was set up under version 1 of the sphere game's "
                    "rules (setup {}), whose turns went d1, d7, g4, a4; version 2 seats "
                    "the players clockwise (d1, a4, d7, g4) by default. To replay it, "
                    f'add "{TURN_ORDER}": "{LEGACY_ORDER}" to its options'
                )
        elif setup != self.sample_setup(players, resolved, None):  # type: ignore[arg-type]
            raise IllegalMoveError(
                "a Library setup is {} with 2 players and {'version': 2} with 4 "
                f"(version {VERSION} of the rules); got {setup!r}"
            )
        return LibraryState(self, players, resolved)

    def state_from_snapshot(
        self, players: int, options: Mapping[str, Any], snapshot: Mapping[str, Any]
    ) -> LibraryState:
        """The position whose :meth:`LibraryState.snapshot` is ``snapshot`` (a view is
        the full state: nothing is hidden), checked as ``LibraryState.state_fields``
        declares."""
        self.check_players(players)
        return statefields.load(self, LibraryState, players, options, snapshot)  # type: ignore[return-value]

    def render_svg(self, state: State, seat: int | None = None) -> str:
        from simcli.games.library.svg import render_svg

        return render_svg(state)  # type: ignore[arg-type]

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
        target = state.entrances[seat]
        avoid = 0
        if not state._only_mover:
            for other in state.entrances:
                if other != target:
                    avoid |= 1 << other
        pushes, reached = push_distance(state, target, avoid)
        if pushes < INF:
            return -float(pushes)
        return -20.0 - nearest(reached, target)
