"""Play one game between strategies and produce its record: the referee.

The referee alone holds the true state. A strategy is handed its seat's view (a copy that
shares no mutable object with the state), a copy of the legal moves (a built-in strategy,
which changes nothing it is handed, gets the referee's list itself) and a separate game
object; the game's options are read-only. Its answer is checked without running any of
its code (moves are plain JSON values, compared by value) inside the timed region.

Failures are kept apart: anything a strategy does wrong (any exception, ``SystemExit`` and
``KeyboardInterrupt`` included, an illegal or malformed move, a timeout, a crash of its
process) is that seat's forfeit; an exception inside the rules module ends the game as
``error`` (the traceback goes to the log). Either way the tournament goes on.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable, Generator, Mapping, Sequence
from functools import lru_cache
from time import perf_counter
from typing import Any, NamedTuple

from simcli.frozen import freeze, private_copy, thaw
from simcli.game import CHANCE, TERMINAL, Game, IllegalMoveError, Outcome, State
from simcli.moves import IllegalAnswer, copy_move, find_move
from simcli.records import Record, new_record
from simcli.seeding import derive_seed, game_rngs
from simcli.strategy import Strategy, hooks_of, is_builtin
from simcli.tournament.clock import MoveTimeout, NoClock, is_stop_request
from simcli.tournament.faults import Forfeit, GameError, describe, safe_text, trace_of
from simcli.tournament.observe import reading_of
from simcli.tournament.remote import RemoteSeat, RemoteSeatFactory

log = logging.getLogger("simcli.play")

#: Makes the player of a seat: a :class:`Strategy` class (or any callable returning a
#: fresh instance) runs in this process; a :class:`RemoteSeatFactory` gives the seat's
#: :class:`RemoteSeat`, a strategy process speaking the protocol.
StrategyFactory = Callable[[], Strategy] | RemoteSeatFactory

__all__ = ["Ask", "Forfeit", "GameError", "StrategyFactory", "drive", "game_play"]


class Ask(NamedTuple):
    """A decision the game waits for from a strategy process: what :func:`game_play`
    yields. The driver answers with the checked move, or throws the seat's
    :class:`Forfeit` into the game."""

    player: RemoteSeat
    index: int
    seat: int
    view: dict[str, Any] | None
    legal: list[Any]


GamePlay = Generator[Ask, Any, Record]


def drive(play: GamePlay, clocks: Sequence[Any] | None = None) -> Record:
    """Run one game to its end, asking each strategy process in turn and waiting; with
    ``clocks`` (one :class:`~simcli.tournament.think.SeatClock` per seat), timing each
    answer of a strategy process (the game's own in-process moves are timed by
    :func:`game_play`)."""
    try:
        ask = next(play)
        while True:
            try:
                started = perf_counter()
                move = ask.player.choose(ask.index, ask.seat, ask.view, ask.legal)
                if clocks is not None:
                    clocks[ask.seat].add(perf_counter() - started)
            except Forfeit as forfeit:
                ask = play.throw(forfeit)
            else:
                ask = play.send(move)
    except StopIteration as stop:
        return stop.value


def game_play(
    game: Game,
    options: Mapping[str, Any],
    index: int,
    seed: int,
    seats: Sequence[str],
    factories: Mapping[str, StrategyFactory],
    variant: str | None = None,
    clock: Any = None,
    strategy_game: Game | None = None,
    clocks: Sequence[Any] | None = None,
    rngs: tuple[Any, list[Any]] | None = None,
) -> GamePlay:
    """Play game ``index`` as a generator that yields an :class:`Ask` whenever a strategy
    process must decide, so that a driver can interleave several games (see
    ``interleave.py``); its value is the record. ``clock`` (see ``clock.py``) enforces a
    per-move time limit; ``strategy_game`` is the game object whose copies strategies
    are handed, one per seat and game (default: a fresh instance of the game's class,
    never the referee's); ``clocks`` (optional, one per seat) receive the seconds of every move of
    an in-process strategy (nothing of it goes into the record); ``rngs``, the game's
    ``game_rngs(seed, len(seats))`` made beforehand (``seeding.many_game_rngs``), fresh."""
    players = len(seats)
    # chance_rng(seed), seat_rng(seed, s) each
    rng, seat_rngs = rngs if rngs is not None else game_rngs(seed, players)
    # The record's options are a plain copy; the state gets a read-only one. Neither is
    # the caller's object, so no game can change what a later game is played with.
    rules_options = freeze(options)
    record = new_record(game.id, thaw(rules_options), index, seed, seats, variant)
    moves = record["moves"]
    state: State | None = None
    players_: list[Any] = []
    try:
        try:
            setup = game.sample_setup(players, rules_options, rng)
            record["setup"] = setup
            state = game.new_state(players, rules_options, setup)
        except Exception as exc:
            raise GameError(f"setup failed: {type(exc).__name__}: {exc}") from exc
        timed = None if clock is None or isinstance(clock, NoClock) else clock.move
        if strategy_game is None:
            strategy_game = type(game)()
        _start(
            players_,
            strategy_game,
            index,
            seed,
            seats,
            factories,
            timed,
            rules_options,
            variant,
            seat_rngs,
        )
        if timed is None and _all_plain_local(players_):
            _play_local(state, players_, moves, rng, clocks)
        else:
            yield from _play_out(state, players_, moves, rng, timed, index, clocks)
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
            "game %d: seat %d (%s) forfeits: %s: %s%s",
            index,
            forfeit.seat,
            seats[forfeit.seat],
            forfeit.kind,
            forfeit.message,
            "\n" + forfeit.trace.rstrip("\n") if forfeit.trace else "",
            extra={"forfeit": (seats[forfeit.seat], forfeit.kind, forfeit.message)},
        )
        return _finish(record, state, detail, players_, timed)
    except GameError as exc:
        cause = exc.__cause__ or exc
        message = safe_text(str(exc))  # a rules module's message may quote anything
        log.error(
            "game %d: error in the rules of '%s' after %d moves: %s\n%s",
            index,
            game.id,
            len(moves),
            message,
            safe_text("".join(traceback.format_exception(cause))),
        )
        record.update(scores=None, winners=[], termination="error")
        detail = {"kind": "game_error", "message": message}
        return _finish(record, state, detail, players_, timed)
    return _finish(record, state, None, players_, timed)


def _finish(
    record: Record,
    state: State | None,
    detail: dict[str, Any] | None,
    players: list[Any],
    timed: Any = None,
) -> Record:
    try:
        record["final_hash"] = state.final_hash() if state is not None else None
    except Exception:  # a broken state cannot be hashed; the record says error already
        record["final_hash"] = None
    if detail is not None:
        record["detail"] = detail
    for seat, player in enumerate(players):
        if type(player) is RemoteSeat:
            view = _final_view(state, seat) if player.observes and player.wants_view else None
            player.end_game(record["index"], seat, record, view and view.snapshot())
        elif type(player) is _Local and player.end is not None:
            view = _final_view(state, seat) if player.wants_view else None
            _tell_end(record, seat, player, view, timed)
    return record


def _final_view(state: State | None, seat: int) -> State | None:
    """The seat's view of the final position; ``None`` when the state cannot give it (a
    game that ended in a rules error)."""
    try:
        return state.view(seat) if state is not None else None
    except Exception:  # noqa: BLE001 - the record says error already
        return None


def _tell_end(record: Record, seat: int, player: _Local, view: State | None, timed: Any) -> None:
    """Call an in-process strategy's ``end_game``; what it raises is logged, and changes
    nothing (the record is written)."""
    scores = record.get("scores")
    outcome = Outcome(
        tuple(scores) if scores is not None else None,  # type: ignore[arg-type]
        tuple(record.get("winners") or ()),
        record.get("termination") or "error",
    )
    try:
        _guarded(seat, timed, player.end, outcome, _owned(view, player.game))
    except Forfeit as failure:
        log.warning(
            "game %d: seat %d's end_game failed: %s: %s",
            record["index"],
            seat,
            failure.kind,
            failure.message,
        )


def _start(
    started: list[Any],
    game: Game,
    index: int,
    seed: int,
    seats: Sequence[str],
    factories: Mapping[str, StrategyFactory],
    timed: Any,
    options: Mapping[str, Any],
    variant: str | None,
    rngs: Sequence[Any],
) -> None:
    """Make and start the player of every seat into ``started`` (an in-process strategy
    gets its seat's generator of ``rngs``). Each in-process
    strategy gets a game object of its own for this game (:func:`private_copy` of
    ``game``), which its views refer to as well. A seat whose strategy fails to be made
    or started forfeits at its first turn, as a strategy in its own process does (it
    hears of the game with its first request): the record holds the moves up to that
    turn, replays, and is the same in-process and isolated."""
    for seat, name in enumerate(seats):
        factory = factories[name]
        try:
            if isinstance(factory, RemoteSeatFactory):
                player = factory.for_seat(seat, variant)
                player.start_game(index, seat, derive_seed(seed, "seat", seat), options)
            else:
                mine = private_copy(game)
                player = _guarded(seat, timed, _make, factory, mine, seat, rngs[seat])
        except Forfeit as forfeit:
            player = _Failed(forfeit)
        started.append(player)


class _Local(NamedTuple):
    """A started in-process strategy: its bound ``choose`` and whether it wants views,
    both read once under the clock (a property or a ``__bool__`` is strategy code too),
    its own game object (what its views refer to), and its bound ``observe`` and
    ``end_game`` where its class overrides them (else ``None``: nothing to call)."""

    choose: Callable[..., Any]
    wants_view: bool
    game: Game
    observe: Callable[..., Any] | None = None
    end: Callable[..., Any] | None = None
    #: a built-in strategy (:func:`~simcli.strategy.is_builtin`): known to leave the legal
    #: moves it is handed as they are, it gets the referee's list rather than a copy
    trusted: bool = False


class _Failed(NamedTuple):
    """A seat whose strategy failed before the game's first move: its forfeit, thrown
    when it is to move."""

    forfeit: Forfeit
    wants_view: bool = False


def _make(factory: StrategyFactory, game: Game, seat: int, rng: Any) -> _Local:
    strategy = factory()
    strategy.start_game(game, seat, rng)
    wants = getattr(strategy, "wants_view", True)
    observes, ends, builtin = _traits(type(strategy))
    # _Local(...), without the Python-level __new__ every NamedTuple class has
    return tuple.__new__(
        _Local,
        (
            strategy.choose,
            wants is not False,
            game,
            strategy.observe if observes else None,
            strategy.end_game if ends else None,
            builtin,
        ),
    )


@lru_cache(maxsize=256)
def _traits(cls: type) -> tuple[bool, bool, bool]:
    """Whether a strategy class overrides ``observe`` and ``end_game``, and whether it is
    built in: looked up once per class, not per seat and game."""
    return (*hooks_of(cls), is_builtin(cls))


def _answer(legal: list[Any], choose: Callable[..., Any], view: Any, offered: list[Any]) -> Any:
    return find_move(legal, choose(view, offered))


def _guarded(seat: int, timed: Any, call: Callable[..., Any], *args: Any) -> Any:
    """Run strategy code under the move clock; whatever it raises is the seat's forfeit
    (only the user's second Ctrl-C passes through)."""
    failure = None
    try:
        if timed is None:
            try:
                return call(*args)
            except BaseException as exc:  # SystemExit & co. from a strategy: its forfeit
                if is_stop_request(exc):
                    raise
                failure = _failure(exc)
        else:
            with timed() as watch:
                try:
                    result = call(*args)
                except BaseException as exc:
                    if is_stop_request(exc) or isinstance(exc, MoveTimeout):
                        raise
                    failure = _failure(exc)
            if watch.fired:  # the strategy swallowed the timeout, or returned late
                raise MoveTimeout
            if failure is None:
                return result
    except MoveTimeout:
        raise Forfeit(seat, "timeout", "move time limit exceeded") from None
    raise Forfeit(seat, *failure)


def _failure(exc: BaseException) -> tuple[str, ...]:
    if isinstance(exc, IllegalAnswer):
        return "illegal_move", str(exc)
    if isinstance(exc, MoveTimeout):
        return "timeout", "move time limit exceeded"
    return "exception", describe(exc), trace_of(exc)


def _offered(legal: list[Any], scalar: bool, trusted: bool) -> list[Any]:
    """The legal moves as a strategy is handed them: the referee's own list for a built-in
    strategy, else a copy that shares no list with the game's."""
    if trusted:
        return legal
    return legal.copy() if scalar else list(map(copy_move, legal))


def _own_game(seen: State, game: Any) -> None:
    """Point a seat's view at the seat's own game object, not the referee's."""
    try:
        seen.game = game
    except AttributeError:  # a state whose game cannot be set
        pass


def _all_plain_local(players: list[Any]) -> bool:
    """Whether every seat is an in-process strategy that started and observes nothing:
    the games :func:`_play_local` plays."""
    for p in players:  # a loop, not all(...): no generator to make, once per game
        if type(p) is not _Local or p.observe is not None:
            return False
    return True


def _play_local(
    state: State,
    players: list[_Local],
    moves: list[Any],
    rng: Any,
    clocks: Sequence[Any] | None,
) -> None:
    """:func:`_play_out` for the usual game of a tournament (every seat an in-process
    strategy, no move time limit, no observer): the same moves, checks, forfeits and think
    times, in fewer steps per move."""
    record_move = moves.append
    apply = state.apply
    legal_moves = state.legal_moves
    view = state.view
    scalar = state.game.scalar_moves
    timers = [(c.start, c.stop) for c in clocks] if clocks is not None else None
    turns = [
        (p.choose, p.wants_view, p.game, p.trusted, *(timers[s] if timers else (None, None)))
        for s, p in enumerate(players)
    ]
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
            choose, wants, game, trusted, start, stop = turns[seat]
            seen = view(seat) if wants else None
        except Exception as exc:
            raise GameError(f"{type(exc).__name__}: {exc}") from exc
        if not legal:
            raise GameError(f"seat {seat} to move but no legal moves")
        if seen is not None:
            _own_game(seen, game)
        # _offered and find_move, inline: one call each per decision is a tenth of the loop
        if trusted:
            offered = legal
        else:
            offered = legal.copy() if scalar else list(map(copy_move, legal))
        answer = _UNANSWERED
        if start is not None:
            start()
        try:
            answer = choose(seen, offered)
            if type(answer) is int:  # plain by its type: find_move's short way
                for move in legal:  # most answers are the very object handed out
                    if move is answer:
                        break
                else:
                    move = legal[legal.index(answer)]
            else:
                move = find_move(legal, answer)
        except BaseException as exc:  # SystemExit, KeyboardInterrupt...: a forfeit
            if is_stop_request(exc):
                raise
            raise Forfeit(seat, *_failure(_refused(exc, legal, answer))) from None
        if stop is not None:
            stop()
        try:
            apply(move)
        except IllegalMoveError as exc:  # legal_moves offered it: the rules disagree
            raise GameError(f"legal_moves offered {move!r} but apply refused it: {exc}") from exc
        except Exception as exc:
            raise GameError(f"{type(exc).__name__}: {exc}") from exc
        record_move(move)


#: What ``answer`` holds until ``choose`` returns (see :func:`_refused`).
_UNANSWERED = object()


def _refused(exc: BaseException, legal: list[Any], answer: Any) -> BaseException:
    """What :func:`find_move` raises for ``answer`` when ``exc`` is the ``ValueError`` of
    the inline look-up of an int answer (not one of ``choose``'s own); else ``exc``."""
    if type(exc) is ValueError and type(answer) is int:
        try:
            find_move(legal, answer)
        except IllegalAnswer as refusal:
            return refusal
    return exc


def _play_out(
    state: State,
    players: list[Any],
    moves: list[Any],
    rng: Any,
    timed: Any,
    index: int,
    clocks: Sequence[Any] | None = None,
) -> Generator[Ask, Any, None]:
    # The hot loop of every tournament: methods are bound once, and every call into the
    # rules is kept apart from calls into strategies to tell a rules bug from a forfeit.
    record_move = moves.append
    apply = state.apply
    legal_moves = state.legal_moves
    view = state.view
    scalar = state.game.scalar_moves
    local = [type(p) is _Local for p in players]
    choosers = [p.choose if ok else None for p, ok in zip(players, local, strict=True)]
    games = [p.game if ok else None for p, ok in zip(players, local, strict=True)]
    wants_view = [p.wants_view for p in players]  # a _Local's bool or a RemoteSeat's
    watch = _Watch.of(state, players, local, index, timed)
    while True:
        try:
            seat = state.current_player
            if seat == TERMINAL:
                return
            if seat == CHANCE:
                outcome = state.sample_chance(rng)
                if watch is None:
                    apply(outcome)
                    record_move({"chance": outcome})
                    continue
                shown = watch.shown(state, CHANCE, outcome)
                apply(outcome)
                record_move({"chance": outcome})
                views = watch.views(state)
            else:
                legal = legal_moves()
                seen = view(seat) if wants_view[seat] else None
        except Exception as exc:
            raise GameError(f"{type(exc).__name__}: {exc}") from exc
        if seat == CHANCE:  # only with observers: the others went on above
            watch.tell(CHANCE, outcome, shown, views)
            continue
        if not legal:
            raise GameError(f"seat {seat} to move but no legal moves")
        if local[seat]:
            if seen is not None:
                _own_game(seen, games[seat])
            offered = _offered(legal, scalar, players[seat].trusted)
            choose = choosers[seat]
            if clocks is not None:
                clocks[seat].start()
            if timed is None:
                try:
                    move = find_move(legal, choose(seen, offered))
                except BaseException as exc:  # SystemExit, KeyboardInterrupt...: a forfeit
                    if is_stop_request(exc):
                        raise
                    raise Forfeit(seat, *_failure(exc)) from None
            else:
                move = _guarded(seat, timed, _answer, legal, choose, seen, offered)
            if clocks is not None:
                clocks[seat].stop()
        else:
            if type(players[seat]) is _Failed:
                raise players[seat].forfeit
            try:
                snapshot = seen.snapshot() if seen is not None else None
            except Exception as exc:
                raise GameError(f"{type(exc).__name__}: {exc}") from exc
            move = yield Ask(players[seat], index, seat, snapshot, legal)
        try:
            shown = None if watch is None else watch.shown(state, seat, move)
            apply(move)
        except IllegalMoveError as exc:  # legal_moves offered it: the rules disagree
            raise GameError(f"legal_moves offered {move!r} but apply refused it: {exc}") from exc
        except Exception as exc:
            raise GameError(f"{type(exc).__name__}: {exc}") from exc
        record_move(move)
        if watch is not None:
            try:
                views = watch.views(state)
            except Exception as exc:
                raise GameError(f"{type(exc).__name__}: {exc}") from exc
            watch.tell(seat, move, shown, views)


class _Watch:
    """The seats told of every move: in-process strategies that override ``observe``
    and strategy processes that took the ``observe`` extension (``moved`` messages).
    Each is told the move as it may see it (see ``observe.py``) with its view after it;
    a strategy whose ``observe`` fails forfeits at its next turn, as a strategy process
    does (it can only say so when next asked)."""

    def __init__(
        self, state: State, players: list[Any], local: list[bool], index: int, timed: Any
    ) -> None:
        self.reading = reading_of(state.game)
        self.players, self.local, self.index, self.timed = players, local, index, timed
        self.seats = [s for s, p in enumerate(players) if _observes(p)]

    @classmethod
    def of(
        cls, state: State, players: list[Any], local: list[bool], index: int, timed: Any
    ) -> _Watch | None:
        """The watch of a game, or ``None`` when no seat observes (the usual case)."""
        if not any(_observes(p) for p in players):
            return None
        return cls(state, players, local, index, timed)

    def shown(self, state: State, actor: int, move: Any) -> list[Any] | None:
        """What each observing seat sees of ``move``, from the position before it
        (``None``: the move itself, for every seat)."""
        reading = self.reading
        if reading is None:
            return None
        return [reading(state, actor, move, s) for s in self.seats]

    def views(self, state: State) -> list[Any]:
        """Each observing seat's view after the move (a snapshot for a process)."""
        out: list[Any] = []
        for s in self.seats:
            player = self.players[s]
            if type(player) is _Failed or not player.wants_view:
                out.append(None)
            elif type(player) is _Local:
                out.append(state.view(s))
            else:
                out.append(state.view(s).snapshot())
        return out

    def tell(self, actor: int, move: Any, shown: list[Any] | None, views: list[Any]) -> None:
        for k, s in enumerate(self.seats):
            player = self.players[s]
            seen = move if shown is None else shown[k]
            if type(player) is RemoteSeat:
                player.observe(self.index, s, actor, seen, views[k])
            elif type(player) is _Local:
                view = _owned(views[k], player.game)
                try:
                    _guarded(s, self.timed, player.observe, actor, copy_move(seen), view)
                except Forfeit as forfeit:  # at its next turn (see the class doc)
                    self.players[s] = _Failed(forfeit)
                    self.local[s] = False


def _owned(view: State | None, game: Game) -> State | None:
    """``view``, referring to the strategy's own game object (as the views ``choose``
    gets do)."""
    if view is not None:
        try:
            view.game = game
        except AttributeError:  # a state whose game cannot be set
            pass
    return view


def _observes(player: Any) -> bool:
    if type(player) is _Local:
        return player.observe is not None
    return type(player) is RemoteSeat and player.observes
