"""Replay one record through the rules (``simcli.verify.replay``) and keep, for every ply,
what the viewer shows: the board of each observer (the referee, then each seat's view of a
hidden-information game), whose turn it is, the scores where the rules know them, and the
entry that led there. Pictures are kept once each (a board that repeats, or a seat's view
equal to another's, is stored once and referred to by number)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html import escape
from typing import Any

from simcli.errors import RecordError
from simcli.game import CHANCE, TERMINAL, Game, State


@dataclass
class Frame:
    """The position after ``ply`` entries of the record (0: the setup)."""

    ply: int
    boards: list[int]  # per observer (referee, seat 0, ...): a number in Replayed.boards
    turn: str
    scores: list[float] | None
    entry: str | None  # the entry that led here, in the game's notation
    chance: bool  # that entry was a chance event
    seat: int | None  # the seat that made it (None for the setup and chance events)


@dataclass
class Replayed:
    """A record replayed for the viewer. ``failure`` holds the verification's mismatch
    (``ply``: where the replay stopped, or ``None`` for a claim of the record at the end
    that the rules do not give)."""

    record: dict[str, Any]
    game: Game
    observers: list[str]
    boards: list[str] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    failure: dict[str, Any] | None = None
    _seen: dict[str, int] = field(default_factory=dict)

    def board(self, html: str) -> int:
        number = self._seen.get(html)
        if number is None:
            number = self._seen[html] = len(self.boards)
            self.boards.append(html)
        return number


def entry_text(entry: Any) -> str:
    """An entry of ``moves`` as ``simcli replay --show`` writes it: the move's JSON, or
    ``chance`` and the outcome's JSON."""
    if isinstance(entry, dict):
        return f"chance {json.dumps(entry.get('chance'))}"
    return json.dumps(entry)


def picture(game: Game, state: State, seat: int | None) -> str:
    """The board as HTML: the game's SVG, or its text picture in a ``<pre>``."""
    svg = game.render_svg(state, seat)
    if svg is None:
        return f'<pre class="text-board">{escape(state.render())}</pre>'
    return svg


def turn_text(state: State, seats: list[str]) -> str:
    seat = state.current_player
    if seat == TERMINAL:
        return "game over"
    if seat == CHANCE:
        return "chance event next"
    name = seats[seat] if 0 <= seat < len(seats) else "?"
    return f"seat {seat} ({name}) to move"


def scores_of(state: State) -> list[float] | None:
    """The outcome's scores of a finished game; before the end, the running scores of a
    state that keeps them (``scores()`` or, for one player, ``score()``), else None."""
    try:
        if state.is_terminal():
            return [float(s) for s in state.outcome().scores]
        running = getattr(state, "scores", None)
        if callable(running):
            values = list(running())
        elif callable(getattr(state, "score", None)) and state.players == 1:
            values = [state.score()]  # type: ignore[attr-defined]
        else:
            return None
        if len(values) == state.players and all(isinstance(v, int | float) for v in values):
            return [float(v) for v in values]
    except Exception:  # scores are an aside: a state that cannot give them shows none
        return None
    return None


def replay_for_view(record: dict[str, Any]) -> Replayed:
    """Every ply of ``record`` for the viewer. :class:`RecordError` for a record whose
    game cannot be loaded or whose setup cannot be rebuilt; a record that fails later
    is replayed up to the ply before the failure, which ``failure`` names."""
    from simcli.games import record_game
    from simcli.verify import replay

    index = record.get("index")
    try:
        game = record_game(record)[0]
    except Exception as exc:  # SimcliError, or a plug-in that fails to load
        raise RecordError(f"game {index}: {exc}") from None
    seats = [str(s) for s in record["seats"]]
    observers = ["referee (full state)"]
    if not game.perfect_information:
        observers += [f"seat {s} ({name})" for s, name in enumerate(seats)]
    done = Replayed(record, game, observers)

    def on_state(ply: int, entry: Any, state: State, seat: int | None) -> None:
        boards = [done.board(picture(game, state, None))]
        if not game.perfect_information:
            boards += [done.board(picture(game, state.view(s), s)) for s in range(len(seats))]
        done.frames.append(
            Frame(
                ply=ply,
                boards=boards,
                turn=turn_text(state, seats),
                scores=scores_of(state),
                entry=None if ply == 0 else entry_text(entry),
                chance=isinstance(entry, dict),
                seat=None if ply == 0 or isinstance(entry, dict) else seat,
            )
        )

    try:
        problems = replay(record, on_state=on_state)
    except RecordError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise RecordError(f"game {index} does not replay: {type(exc).__name__}: {exc}") from None
    if problems and not done.frames:
        raise RecordError(f"game {index} does not replay: {problems[0].message}")
    if problems:
        first = problems[0]
        done.failure = {"ply": first.ply, "message": "; ".join(p.message for p in problems)}
    return done
