"""Verify a game record by replaying it through the rules: every move's legality, then
the scores, winners, termination and final hash it claims."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simcli.errors import RecordError, SimcliError


@dataclass
class Mismatch:
    index: Any
    ply: int | None
    message: str

    def __str__(self) -> str:
        where = f"game {self.index}" + (f", ply {self.ply}" if self.ply is not None else "")
        return f"{where}: {self.message}"


def replay(record: dict[str, Any], on_state=None) -> list[Mismatch]:
    """Re-apply setup and moves through the rules; check every move's legality and the
    scores, winners, termination and final hash. ``on_state(ply, entry, state, seat)``
    is called after the setup (ply 0, entry None) and after every entry (``seat`` is the
    seat that moved, or ``CHANCE``)."""
    from simcli.games import record_game

    index = record.get("index")
    try:
        game = record_game(record)[0]
    except SimcliError as exc:
        raise RecordError(f"game {index}: {exc}") from None
    try:
        options = game.resolve_options(record["options"])
        players = len(record["seats"])
        game.check_players(players)
        state = game.new_state(players, options, record["setup"])
    except (SimcliError, ValueError, TypeError, KeyError) as exc:
        return [Mismatch(index, 0, f"setup cannot be rebuilt: {exc}")]
    stopped = _replay_moves(record, state, on_state)
    if stopped is not None:
        return [stopped]
    termination = record["termination"]
    ending = _ENDINGS.get(termination)
    if ending is None:
        problems = [Mismatch(index, None, f"unknown termination {termination!r}")]
    else:
        problems = ending(record, state)
    return problems + _hash_problems(record, state)


def _replay_moves(record: dict[str, Any], state: Any, on_state) -> Mismatch | None:
    """Apply the record's moves to ``state``; the first move that does not fit, or None."""
    from simcli.game import CHANCE

    index = record.get("index")
    if on_state:
        on_state(0, None, state, None)
    for ply, entry in enumerate(record["moves"], start=1):
        if state.is_terminal():
            return Mismatch(index, ply, "move after the end of the game")
        seat = state.current_player
        try:
            if isinstance(entry, dict):
                if seat != CHANCE or set(entry) != {"chance"}:
                    who = "a chance event" if seat == CHANCE else f"seat {seat}"
                    return Mismatch(index, ply, f"expected {who}, found {entry!r}")
                state.apply(entry["chance"])
            else:
                if seat == CHANCE:
                    return Mismatch(index, ply, f"expected a chance event, found {entry!r}")
                if entry not in state.legal_moves():
                    return Mismatch(index, ply, f"move {entry!r} of seat {seat} is not legal")
                state.apply(entry)
        except ValueError as exc:
            return Mismatch(index, ply, f"{entry!r} refused: {exc}")
        if on_state:
            on_state(ply, entry, state, seat)
    return None


def _finished(record: dict[str, Any], state: Any) -> list[Mismatch]:
    """A game that ended by the rules (``normal`` or ``move_limit``): the outcome."""
    index = record.get("index")
    if not state.is_terminal():
        return [Mismatch(index, None, "the moves do not end the game")]
    outcome = state.outcome()
    expected = {
        "scores": list(outcome.scores),
        "winners": list(outcome.winners),
        "termination": outcome.termination,
    }
    return [
        Mismatch(index, None, f"{key}: record has {record[key]!r}, rules give {value!r}")
        for key, value in expected.items()
        if record[key] != value
    ]


def _forfeited(record: dict[str, Any], state: Any) -> list[Mismatch]:
    index = record.get("index")
    problems = []
    detail = record.get("detail") or {}
    if record["scores"] is not None:
        problems.append(Mismatch(index, None, "a forfeit has no scores (null)"))
    seat = detail.get("seat")
    if state.is_terminal() or state.current_player != seat:
        problems.append(
            Mismatch(index, None, f"forfeit by seat {seat!r}, but it was not that seat's turn")
        )
    others = [s for s in range(len(record["seats"])) if s != seat]
    if record["winners"] != others:
        problems.append(
            Mismatch(
                index,
                None,
                f"winners: record has {record['winners']!r}, a forfeit gives {others!r}",
            )
        )
    return problems


def _errored(record: dict[str, Any], state: Any) -> list[Mismatch]:
    index = record.get("index")
    problems = []
    if record["scores"] is not None or record["winners"]:
        problems.append(Mismatch(index, None, "an error record has no scores and no winners"))
    if state.is_terminal() and _outcome_or_none(state) is not None:
        problems.append(
            Mismatch(index, None, "termination 'error', but the rules end the game normally")
        )
    kind = (record.get("detail") or {}).get("kind")
    if kind in ("worker_died", "worker_stopped") and record["moves"]:
        problems.append(Mismatch(index, None, f"a game lost ({kind}) has no moves"))
    elif kind == "game_error" and not state.is_terminal() and _rules_run_cleanly(state):
        problems.append(
            Mismatch(
                index,
                None,
                "termination 'error', but the rules run cleanly at its last position "
                "(every legal move applies): a game cut short?",
            )
        )
    return problems


#: What a record's termination must agree with at the replayed final position.
_ENDINGS = {
    "normal": _finished,
    "move_limit": _finished,
    "forfeit": _forfeited,
    "error": _errored,
}


def _hash_problems(record: dict[str, Any], state: Any) -> list[Mismatch]:
    index = record.get("index")
    actual = state.final_hash()
    if record["final_hash"] is None and record["termination"] != "error":
        return [Mismatch(index, None, "final_hash is missing")]
    if record["final_hash"] is not None and record["final_hash"] != actual:
        return [
            Mismatch(
                index, None, f"final_hash: record has {record['final_hash']}, replay gives {actual}"
            )
        ]
    return []


def _rules_run_cleanly(state) -> bool:
    """Whether every step the referee takes from ``state`` works: the views, and either
    a chance event or every legal move of the seat to move (each on a copy)."""
    import random

    from simcli.game import CHANCE

    try:
        for seat in range(state.players):
            state.view(seat)
        if state.current_player == CHANCE:
            state.clone().apply(state.sample_chance(random.Random(0)))
            return True
        moves = state.legal_moves()
        for move in moves:
            state.clone().apply(move)
        return bool(moves)
    except Exception:  # the rules fail here: the error is plausible
        return False


def _outcome_or_none(state):
    try:
        return state.outcome()
    except Exception:  # the rules failed here when the game was played, too
        return None
