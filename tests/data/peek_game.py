"""Peek: a scripted 2-player game of four plies for the tests of ``observe``.

1. chance deals seat 0 a card (1..3), seen by seat 0 alone;
2. seat 0 claims ``"low"`` or ``"high"`` (public);
3. chance flips a public coin (0 or 1);
4. seat 1 answers ``"call"`` or ``"fold"``.

Seat 0 scores its card plus the coin when called, 1 when seat 1 folds; seat 1 scores 2.
``Peek`` says through ``observed_move`` that the coin is public and the card is seen by
its holder only; ``PeekDefault`` has no such method (the referee's default: every
chance outcome hidden). ``Recorder`` is a strategy that writes what it is told to the
file named by its ``log`` param (one JSON line per call), and ``Meddler`` changes
everything it is handed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from simcli import statefields
from simcli.game import CHANCE, TERMINAL, Game, IllegalMoveError, Outcome, State
from simcli.statefields import OWNER, DeclaredState, Field, Int, Seq, StateFields
from simcli.strategy import Strategy

CLAIMS = ["low", "high"]
ANSWERS = ["call", "fold"]


class PeekState(DeclaredState):
    state_fields = StateFields(
        Field("cards", Seq(Int(0, 4), length="players"), hidden=OWNER),
        Field("coin", Int(-1, 2)),
        Field("claim", Int(-1, 2)),
        Field("answer", Int(-1, 2)),
        Field("ply", Int(0, 5)),
        label="peek snapshot",
    )

    def __init__(self, game: Game, options: Mapping[str, Any]):
        self.game, self.options, self.players = game, options, 2
        self.cards = [0, 0]  # 0: not dealt (and what a view shows for a hidden card: -1)
        self.coin = self.claim = self.answer = -1
        self.ply = 0

    @property
    def current_player(self) -> int:
        return [CHANCE, 0, CHANCE, 1, TERMINAL][self.ply]

    def legal_moves(self) -> list[str]:
        return {1: list(CLAIMS), 3: list(ANSWERS)}.get(self.ply, [])

    def sample_chance(self, rng: random.Random) -> int:
        if self.ply == 0:
            return rng.randint(1, 3)
        if self.ply == 2:
            return rng.randint(0, 1)
        raise IllegalMoveError("no chance event is pending")

    def apply(self, move: Any) -> None:
        ply = self.ply
        if ply == 0 and move in (1, 2, 3):
            self.cards[0] = move
        elif ply == 2 and move in (0, 1):
            self.coin = move
        elif ply == 1 and move in CLAIMS:
            self.claim = CLAIMS.index(move)
        elif ply == 3 and move in ANSWERS:
            self.answer = ANSWERS.index(move)
        else:
            raise IllegalMoveError(f"{move!r} is not a move at ply {ply}")
        self.ply += 1

    def outcome(self) -> Outcome:
        if self.ply < 4:
            raise IllegalMoveError("the game is not over")
        mine = self.cards[0] + self.coin if self.answer == 0 else 1
        scores = (float(mine), 2.0)
        best = max(scores)
        return Outcome(scores, tuple(s for s in (0, 1) if scores[s] == best))

    def render(self) -> str:
        return json.dumps(self.snapshot())


class PeekDefault(Game):
    id = "peek"
    title = "Peek"
    player_counts = (2,)
    perfect_information = False
    options: dict = {}

    def sample_setup(self, players: int, options: Mapping[str, Any], rng: Any) -> dict:
        return {}

    def new_state(self, players: int, options: Mapping[str, Any], setup: Any) -> PeekState:
        return PeekState(self, options)

    def state_from_snapshot(
        self, players: int, options: Mapping[str, Any], snapshot: Mapping[str, Any]
    ) -> State:
        return statefields.load(self, PeekState, players, options, snapshot)

    def determinize(self, view: State, rng: random.Random) -> State:
        state = view.clone()
        state.cards = [rng.randint(1, 3) if c == -1 else c for c in state.cards]
        return state


class Peek(PeekDefault):
    def observed_move(self, state: PeekState, actor: int, move: Any, seat: int) -> Any:
        """The card is its holder's alone; the coin and the claims are public."""
        if actor == CHANCE and state.ply == 0 and seat != 0:
            return None
        return move


class Recorder(Strategy):
    """Plays the first legal move and writes every call it gets to ``log``."""

    def __init__(self, log: str = "") -> None:
        self.log = log

    def _write(self, *entry: Any) -> None:
        if self.log:
            with open(self.log, "a", encoding="utf-8") as out:
                out.write(json.dumps([self.seat, *entry]) + "\n")

    def choose(self, view: State, legal_moves: list[Any]) -> Any:
        self._write("choose", view.snapshot())
        return legal_moves[0]

    def observe(self, seat: int, move: Any, view: State | None) -> None:
        self._write("observe", seat, move, None if view is None else view.snapshot())

    def end_game(self, outcome: Outcome, view: State | None) -> None:
        scores = None if outcome.scores is None else list(outcome.scores)
        self._write(
            "end", scores, list(outcome.winners), outcome.termination, view and view.snapshot()
        )


class Meddler(Recorder):
    """Rewrites what it is handed: the view it gets, the move it observes, its view at
    the end."""

    def observe(self, seat: int, move: Any, view: State | None) -> None:
        super().observe(seat, move, view)
        if isinstance(move, list):
            move.clear()
        if view is not None:
            view.cards[:] = [3, 3]
            view.coin = 1
            view.ply = 0

    def end_game(self, outcome: Outcome, view: State | None) -> None:
        if view is not None:
            view.cards[:] = [0, 0]
