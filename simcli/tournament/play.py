"""Play one game between strategy instances and produce its record.

Failures are kept apart: a strategy that raises or returns an illegal move forfeits the
game; an exception inside the rules module ends the game as ``error`` (the traceback goes
to the log). Either way the tournament goes on.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from simcli.game import CHANCE, TERMINAL, Game, IllegalMoveError, State
from simcli.records import SCHEMA_VERSION
from simcli.seeding import chance_rng, seat_rng
from simcli.tournament.clock import MoveTimeout, NoClock, StopNow
from strategies.base import Strategy

log = logging.getLogger("simcli.play")

StrategyFactory = Callable[[], Strategy]


@dataclass
class Forfeit(Exception):
    seat: int
    kind: str
    message: str


class GameError(Exception):
    """The rules module raised: a bug in the game, not in a strategy."""


def play_game(
    game: Game,
    options: Mapping[str, Any],
    index: int,
    seed: int,
    seats: Sequence[str],
    factories: Mapping[str, StrategyFactory],
    variant: str | None = None,
    clock: Any = None,
) -> dict[str, Any]:
    """Play game ``index`` and return its record (a dict in the documented key order).
    ``clock`` (see ``clock.py``) enforces a per-move time limit."""
    players = len(seats)
    rng = chance_rng(seed)
    moves: list[Any] = []
    record: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "game": game.id,
        "options": dict(options),
    }
    if variant is not None:
        record["variant"] = variant
    record.update(index=index, seed=seed, seats=list(seats), setup=None, moves=moves)
    state: State | None = None
    try:
        try:
            setup = game.sample_setup(players, options, rng)
            record["setup"] = setup
            state = game.new_state(players, options, setup)
        except Exception as exc:
            raise GameError(f"setup failed: {type(exc).__name__}: {exc}") from exc
        strategies = _start_strategies(game, seed, seats, factories)
        _play_out(state, strategies, moves, rng, clock)
        try:
            outcome = state.outcome()
        except Exception as exc:
            raise GameError(f"outcome failed: {type(exc).__name__}: {exc}") from exc
        record.update(
            scores=list(outcome.scores),
            winners=list(outcome.winners),
            termination=outcome.termination,
        )
    except Forfeit as forfeit:
        record.update(
            scores=None,
            winners=[s for s in range(players) if s != forfeit.seat],
            termination="forfeit",
        )
        detail = {"seat": forfeit.seat, "kind": forfeit.kind, "message": forfeit.message}
        log.warning(
            "game %d: seat %d (%s) forfeits: %s: %s",
            index,
            forfeit.seat,
            seats[forfeit.seat],
            forfeit.kind,
            forfeit.message,
        )
        return _finish(record, state, detail)
    except GameError as exc:
        cause = exc.__cause__ or exc
        log.error(
            "game %d: error in the rules of '%s' after %d moves: %s\n%s",
            index,
            game.id,
            len(moves),
            exc,
            "".join(traceback.format_exception(cause)),
        )
        record.update(scores=None, winners=[], termination="error")
        return _finish(record, state, {"kind": "game_error", "message": str(exc)})
    return _finish(record, state, None)


def _finish(
    record: dict[str, Any], state: State | None, detail: dict[str, Any] | None
) -> dict[str, Any]:
    try:
        record["final_hash"] = state.final_hash() if state is not None else None
    except Exception:  # a broken state cannot be hashed; the record says error already
        record["final_hash"] = None
    if detail is not None:
        record["detail"] = detail
    return record


def _start_strategies(
    game: Game, seed: int, seats: Sequence[str], factories: Mapping[str, StrategyFactory]
) -> list[Strategy]:
    strategies = []
    for seat, name in enumerate(seats):
        try:
            strategy = factories[name]()
            strategy.start_game(game, seat, seat_rng(seed, seat))
        except StopNow:
            raise
        except BaseException as exc:  # SystemExit & co. from a strategy are its forfeit too
            raise Forfeit(seat, "exception", f"start_game: {type(exc).__name__}: {exc}") from exc
        strategies.append(strategy)
    return strategies


def _play_out(state: State, strategies: list[Strategy], moves: list[Any], rng, clock: Any) -> None:
    # The hot loop of every tournament: methods are bound once, and every call into the
    # rules is kept apart from calls into strategies to tell a rules bug from a forfeit.
    choosers = [s.choose for s in strategies]
    perfect = state.game.perfect_information
    live_ok = [perfect and not s.modifies_view for s in strategies]
    record_move = moves.append
    apply = state.apply
    legal_moves = state.legal_moves
    view = state.view
    timed = None if clock is None or isinstance(clock, NoClock) else clock.move
    while True:
        try:
            seat = state.current_player
            if seat == TERMINAL:
                return
            if seat == CHANCE:
                outcome = state.sample_chance(rng)
                apply(outcome)
                record_move({"chance": outcome})
                continue
            legal = legal_moves()
            seen = state if live_ok[seat] else view(seat)
        except Exception as exc:
            raise GameError(f"{type(exc).__name__}: {exc}") from exc
        if not legal:
            raise GameError(f"seat {seat} to move but no legal moves")
        try:
            if timed is None:
                move = choosers[seat](seen, legal.copy())
            else:
                with timed() as watch:
                    move = choosers[seat](seen, legal.copy())
                if watch.fired:  # the strategy swallowed the timeout, or returned late
                    raise MoveTimeout
        except MoveTimeout:
            raise Forfeit(seat, "timeout", "move time limit exceeded") from None
        except StopNow:
            raise
        except BaseException as exc:  # SystemExit, KeyboardInterrupt... raised by a strategy
            raise Forfeit(seat, "exception", f"{type(exc).__name__}: {exc}") from exc
        try:
            move = legal[legal.index(move)]  # the game's own (JSON-safe) equal value
        except Exception:  # not in the list, or a value whose comparison raises
            raise Forfeit(seat, "illegal_move", f"{_short(move)} is not a legal move") from None
        try:
            apply(move)
        except IllegalMoveError as exc:  # legal_moves offered it: the rules disagree
            raise GameError(f"legal_moves offered {move!r} but apply refused it: {exc}") from exc
        except Exception as exc:
            raise GameError(f"{type(exc).__name__}: {exc}") from exc
        record_move(move)


def _short(value: Any, limit: int = 80) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
