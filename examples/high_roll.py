"""High Roll: a small push-your-luck dice game, the worked example of docs/new-game.md.

Rules. 2-4 players. Each player starts with a secret die (1-6) that only they see. In
turn order, each player still in the game either ``"hold"``s (stops for good) or
``"roll"``s: a public die is rolled and added to their public total. A public total above
``bust`` (option, default 12) busts the player: they score 0 and stop. When everybody
has stopped, a player scores secret + public total; the highest score wins (ties share
the win; if everybody bust, nobody wins).

What it shows: declared state fields (``HighRollState.state_fields``: the snapshot, copies,
views and snapshot checks follow from them), hidden information (the secret dice: a view
hides the other players' secrets, :meth:`HighRoll.determinize` samples them again) and a
chance event (each roll is a turn of ``CHANCE``, sampled by
:meth:`HighRollState.sample_chance`, its six faces listed by
:meth:`HighRollState.chance_outcomes`).
The rules are pure: no I/O, no printing, no module-level mutable state.

Run ``simcli check-game examples/high_roll.py:HighRoll`` to check it against the game
contract.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from simcli import statefields
from simcli.game import CHANCE, TERMINAL, Game, IllegalMoveError, Option, Outcome, State
from simcli.statefields import OWNER, Bool, DeclaredState, Field, Int, Seq, StateFields

MOVES = ["hold", "roll"]  # the legal moves of a player still in, in this fixed order
FACES = range(1, 7)


class HighRollState(DeclaredState):
    # The fields, in snapshot order. Each seat sees only its own secret die (a view shows
    # None for the others'); snapshot(), clone(), view(seat) and the game's
    # state_from_snapshot (with its checks) follow from this list.
    state_fields = StateFields(
        Field("secret", Seq(Int(1, 7, unknown=None), length="players"), hidden=OWNER),
        Field("public", Seq(Int(0), length="players")),
        Field("stopped", Seq(Bool(), length="players")),
        Field("seat", Int(0, "players")),
        Field("rolling", Bool()),
        label="high_roll snapshot",
    )

    def __init__(self, game: HighRoll, options: Mapping[str, Any], secret: list[int | None]):
        self.game = game
        self.options = options
        self.players = len(secret)
        self.secret = secret  # None where this copy is a view that hides the die
        self.public = [0] * self.players
        self.stopped = [False] * self.players
        self.seat = 0  # the seat to move (or whose roll is pending)
        self.rolling = False  # True: a chance event (the roll) comes next

    # -- whose turn, legal moves, applying them ---------------------------------------
    @property
    def current_player(self) -> int:
        if all(self.stopped):
            return TERMINAL
        return CHANCE if self.rolling else self.seat

    def legal_moves(self) -> list[str]:
        seat = self.current_player
        return list(MOVES) if seat >= 0 else []

    def sample_chance(self, rng: random.Random) -> int:
        if not self.rolling:
            raise IllegalMoveError("no roll is pending")
        return rng.randint(1, 6)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The six faces of the die, each with probability 1/6 (for exact expectimax)."""
        if not self.rolling:
            raise IllegalMoveError("no roll is pending")
        return [(face, 1 / 6) for face in FACES]

    def apply(self, move: Any) -> None:
        # Check everything first: a refused move leaves the state unchanged.
        seat = self.current_player
        if seat == TERMINAL:
            raise IllegalMoveError("the game is over")
        if seat == CHANCE:
            if isinstance(move, bool) or move not in FACES:
                raise IllegalMoveError(f"a roll is a die face 1..6, not {move!r}")
            self.public[self.seat] += move
            if self.public[self.seat] > self.options["bust"]:
                self.stopped[self.seat] = True
            self.rolling = False
            self._next_seat()
        elif move == "roll" and isinstance(move, str):
            self.rolling = True
        elif move == "hold" and isinstance(move, str):
            self.stopped[seat] = True
            self._next_seat()
        else:
            raise IllegalMoveError(f"a High Roll move is 'hold' or 'roll', not {move!r}")

    def _next_seat(self) -> None:
        for step in range(1, self.players + 1):
            seat = (self.seat + step) % self.players
            if not self.stopped[seat]:
                self.seat = seat
                return

    # -- the end ------------------------------------------------------------------------
    def scores(self) -> list[int]:
        bust = self.options["bust"]
        return [
            0 if p > bust else (s or 0) + p for s, p in zip(self.secret, self.public, strict=True)
        ]

    def outcome(self) -> Outcome:
        if not self.is_terminal():
            raise IllegalMoveError("the game is not over")
        scores = self.scores()
        best = max(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == best and best > 0)
        return Outcome(scores=tuple(float(s) for s in scores), winners=winners)

    # -- pictures (snapshot, clone and view come from state_fields) ------------------------
    def render(self) -> str:
        lines = []
        for i in range(self.players):
            secret = "?" if self.secret[i] is None else self.secret[i]
            status = "bust" if self.public[i] > self.options["bust"] else "in"
            if self.stopped[i] and status == "in":
                status = "holds"
            lines.append(f"seat {i}: secret {secret}, public {self.public[i]} ({status})")
        seat = self.current_player
        turn = {TERMINAL: "game over", CHANCE: f"seat {self.seat} rolls"}.get(
            seat, f"seat {seat} to move"
        )
        return "\n".join([*lines, turn])


class HighRoll(Game):
    id = "high_roll"
    title = "High Roll"
    description = "Push your luck with one secret die and public rolls (example game)."
    player_counts = (2, 3, 4)
    perfect_information = False
    version = "1"
    options = {
        "bust": Option(default=12, doc="a public total above this busts", kind=int, minimum=6),
    }

    def sample_setup(
        self, players: int, options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        return {"secret": [rng.randint(1, 6) for _ in range(players)]}

    def new_state(
        self, players: int, options: Mapping[str, Any], setup: Mapping[str, Any]
    ) -> HighRollState:
        self.check_players(players)
        secret = setup.get("secret") if isinstance(setup, Mapping) else None
        if (
            not isinstance(secret, list)
            or len(secret) != players
            or any(isinstance(d, bool) or d not in FACES for d in secret)
        ):
            raise IllegalMoveError(f"setup.secret must list {players} die faces 1..6")
        return HighRollState(self, options, list(secret))

    def state_from_snapshot(
        self, players: int, options: Mapping[str, Any], snapshot: Mapping[str, Any]
    ) -> State:
        """The state or view whose snapshot is ``snapshot``, checked as declared."""
        self.check_players(players)
        return statefields.load(self, HighRollState, players, options, snapshot)

    def max_length(self, players: int, options: Mapping[str, Any]) -> int:
        # A player rolls at most bust + 1 times (each roll adds 1 or more; above bust they
        # stop), each roll is two plies (the decision and the die), and holds once.
        return players * (2 * (options["bust"] + 1) + 1)

    def determinize(self, view: State, rng: random.Random) -> HighRollState:
        """A full state consistent with ``view``: the hidden secret dice drawn again.
        Nothing public depends on a secret die, so every face stays equally likely."""
        state = view.clone()
        if not isinstance(state, HighRollState):
            raise IllegalMoveError("determinize takes a High Roll view")
        state.secret = [rng.randint(1, 6) if s is None else s for s in state.secret]
        return state

    def observed_move(self, state: State, actor: int, move: Any, seat: int) -> Any:
        """What ``seat`` is told of ``move`` (``Strategy.observe``): every roll is a
        public die, so every move is shown as made. (Without this method a game with
        hidden information has its chance outcomes hidden; the secret dice are dealt in
        the setup, not rolled as moves.)"""
        return move

    def evaluate(self, state: State, seat: int) -> float:
        """The seat's score if the game ended now (a hidden die counts 3.5)."""
        secret = state.secret[seat]  # type: ignore[attr-defined]
        public = state.public[seat]  # type: ignore[attr-defined]
        if public > state.options["bust"]:
            return 0.0
        return (3.5 if secret is None else secret) + public
