"""What runs where games are played: build the game and strategy factories once, then play
ranges of the schedule. Records are serialised here, so the parent only writes lines."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterator
from functools import partial
from time import monotonic  # bound once: a strategy replacing time.monotonic changes nothing
from typing import Any, NamedTuple

from simcli.config import Config
from simcli.frozen import freeze
from simcli.records import Record, dumps, new_record
from simcli.seeding import BATCH_RNGS, chance_rng, derive_seed, many_game_rngs
from simcli.strategy import is_builtin, load_strategy_class
from simcli.tournament.clock import make_clock
from simcli.tournament.faults import safe_text
from simcli.tournament.interleave import WINDOW, Job, interleave
from simcli.tournament.play import GamePlay, StrategyFactory, drive, game_play
from simcli.tournament.remote import (
    RemoteSeatFactory,
    check_handshakes,
    parse_command,
    python_client_command,
)
from simcli.tournament.rules import game_for, game_source_for
from simcli.tournament.schedule import GameSpec, PairedSchedule, Schedule
from simcli.tournament.think import SeatClock

log = logging.getLogger("simcli.worker")


class GameResult(NamedTuple):
    """What the parent tallies of one game."""

    seats: list[str]
    winners: list[int]
    scores: list[float] | None
    termination: str
    #: Each seat's think times, packed (``simcli.tournament.think.SeatClock.packed``);
    #: empty: not timed.
    think: tuple = ()
    #: Why the game is void (its record as played did not replay: see ``ChunkPlayer``);
    #: empty for every other game.
    void: str = ""


#: ``detail.kind`` of a game made void because its record as played did not replay.
VOID = "unverified"


def outcome_of(record: Record | dict[str, Any], think: tuple = ()) -> GameResult:
    """What the parent tallies of a game record (a new one, or one read back to resume),
    with the seats' think times where the game was timed here."""
    detail = record.get("detail")
    void = detail.get("message", "") if type(detail) is dict and detail.get("kind") == VOID else ""
    # GameResult(...), without the Python-level __new__ every NamedTuple class has
    return tuple.__new__(
        GameResult,
        (record["seats"], record["winners"], record["scores"], record["termination"], think, void),
    )


class WorkerStatus:
    """What a pool worker and the parent share (a small shared-memory array, no lock:
    each field has one writer at a time): the game the worker is playing, when its current
    move started (0: no move under way), and the parent's request to stop."""

    __slots__ = ("_values",)
    _GAME, _MOVE_STARTED, _STOP = range(3)

    def __init__(self, ctx: Any):
        self._values = ctx.Array("d", [-1.0, 0.0, 0.0], lock=False)

    @property
    def game(self) -> int:
        return int(self._values[self._GAME])

    @game.setter
    def game(self, index: int) -> None:
        self._values[self._GAME] = float(index)

    @property
    def move_started(self) -> float:
        """``time.monotonic()`` when the current move started; 0.0 between moves."""
        return self._values[self._MOVE_STARTED]

    @move_started.setter
    def move_started(self, when: float) -> None:
        self._values[self._MOVE_STARTED] = when

    @property
    def stopping(self) -> bool:
        return self._values[self._STOP] != 0.0

    def request_stop(self) -> None:
        self._values[self._STOP] = 1.0


class Chunk(NamedTuple):
    """Played games ``start .. start + len(outcomes) - 1`` of the schedule: the record
    lines (joined, newline-terminated, in index order) and one :class:`GameResult` each."""

    start: int
    lines: str
    outcomes: list[GameResult]

    @property
    def stop(self) -> int:
        return self.start + len(self.outcomes)

    def __reduce__(self):
        # Sent from a worker to the parent: the results as plain tuples, which pickle in
        # half the time of named ones (the parent, less busy, names them again)
        return _chunk, (self.start, self.lines, [tuple(o) for o in self.outcomes])


def _chunk(start: int, lines: str, rows: list[tuple]) -> Chunk:
    """A :class:`Chunk` as :meth:`Chunk.__reduce__` sent it."""
    return Chunk(start, lines, list(map(GameResult._make, rows)))


class ChunkPlayer:
    """Plays index ranges of one config's schedule."""

    def __init__(
        self,
        config: Config,
        schedule: Schedule | PairedSchedule,
        status: WorkerStatus | None = None,
        *,
        ready: bool = True,
    ):
        """``ready=False``: everything but the move clock, which :meth:`ready` makes in
        the process that plays (a pool builds its player once, before it forks its
        workers: they start playing sooner)."""
        self.config = config
        self.schedule = schedule
        # Per variant: the rules (a variant may be a plug-in subclass), the game object
        # strategies are handed, and, for plug-in games only, where the rules came from
        # (added to the records; see add_game_source).
        variants = [None, *(v.name for v in config.variants)]
        self.games = {v: game_for(config, v) for v in variants}
        self.strategy_games = {
            v: strategy_game(g, config.options_for(v)) for v, g in self.games.items()
        }
        self.sources = {v: game_source_for(config, v) for v in variants}
        # read-only, so shared by every game of a variant (game_play freezes what it is
        # given: already frozen, once here instead of once per game)
        self.options = {v: freeze(config.options_for(v)) for v in variants}
        self.game = self.games[None]
        self.factories = strategy_factories(config)
        #: the in-process strategies that are not built in: their games are verified
        self.checked_names = unchecked_strategies(config)
        self.clocks: dict[int, list[SeatClock]] = {}  # per game in play: its seats' clocks
        #: the next games of a range: each one's spec and generators, the generators seeded
        #: together (:meth:`_seed_ahead`)
        self.ahead: dict[int, tuple[GameSpec, tuple[Any, list[Any]]]] = {}
        self.clock: Any = None
        self.status: WorkerStatus | None = None
        if ready:
            self.ready(status)

    def ready(self, status: WorkerStatus | None = None) -> ChunkPlayer:
        """Make the move clock, in the process that plays (a signal clock arms this
        process's alarm); with ``status``, publish the game in play and when each move
        started (a pool worker's shared status)."""
        clock = make_clock(self.config.move_time_limit)
        tracked = status is not None and self.config.move_time_limit  # the pool's hang watch
        self.clock = _TrackedClock(clock, status) if tracked else clock
        self.status = status
        return self

    def game_play(self, index: int) -> GamePlay:
        ahead = self.ahead.pop(index, None)
        spec, rngs = ahead if ahead is not None else (self.schedule.spec(index), None)
        self.clocks[index] = [SeatClock() for _ in spec.seats]
        return game_play(
            self.games[spec.variant],
            self.options[spec.variant],
            index,
            spec.seed,
            spec.seats,
            self.factories,
            variant=spec.variant,
            clock=self.clock,
            strategy_game=self.strategy_games[spec.variant],
            clocks=self.clocks[index],
            rngs=rngs,
        )

    def _seed_ahead(self, start: int, stop: int) -> None:
        """Seed the generators of games ``start ..`` (before ``stop``) together, as many
        games as :data:`~simcli.seeding.BATCH_RNGS` generators hold (at least one): the
        same generators, in a quarter of the time."""
        specs, count = [], 0
        for index in range(start, stop):
            spec = self.schedule.spec(index)
            count += 1 + len(spec.seats)
            if specs and count > BATCH_RNGS:
                break
            specs.append(spec)
        made = many_game_rngs([(spec.seed, len(spec.seats)) for spec in specs])
        self.ahead = {pair[0].index: pair for pair in zip(specs, made, strict=True)}

    def record(self, index: int) -> Record:
        """Play game ``index`` alone and return its record (checked: :meth:`checked`)."""
        return self.checked(self._played(index))

    def _played(self, index: int) -> Record:
        if self.status is not None:
            self.status.game = index
        play = self.game_play(index)
        return drive(play, self.clocks[index])

    def checked(self, record: Record) -> Record:
        """A played game's record as the log holds it: with its game's source, and, when
        an in-process strategy that is not built in played in it, verified
        (:meth:`verified`)."""
        add_game_source(record, self.sources[record.get("variant")])
        if self.checked_names and not self.checked_names.isdisjoint(record["seats"]):
            record = self.verified(record)
        return record

    def line(self, record: Record) -> tuple[str, GameResult]:
        """The line of a :meth:`checked` record (unchanged by timing) and its result
        with the seats' think times."""
        clocks = self.clocks.pop(record["index"], ())
        return dumps(record), outcome_of(record, tuple([c.packed() for c in clocks]))

    def verified(self, record: Record) -> Record:
        """``record``, if it replays; else the record of a void game (``error``, its
        setup, no moves, ``detail.kind`` :data:`VOID` naming the mismatch), and the
        record as played goes to the log. A strategy in this process can reach the
        referee's state (through ``gc`` or its callers' frames) and rewrite it: such a
        game ends normally with an outcome the rules do not give, and must not be
        counted, nor passed off as a game that replays."""
        from simcli.verify import replay

        try:
            problems = [str(problem) for problem in replay(record)]
        except Exception as exc:  # noqa: BLE001 - rules that fail on replay: no proof
            problems = [f"game {record['index']}: replay failed: {type(exc).__name__}: {exc}"]
        if not problems:
            return record
        names = ", ".join(sorted(self.checked_names.intersection(record["seats"])))
        message = safe_text(
            f"void: the game as played does not replay ({problems[0]}): the referee's state "
            f"was changed while it was played (in-process strategies not built in: {names})"
        )
        index = record["index"]
        log.error("game %d: %s; the record as played: %s", index, message, dumps(record))
        void = new_record(
            record["game"],
            record["options"],
            index,
            record["seed"],
            record["seats"],
            record.get("variant"),
        )
        void["setup"] = record["setup"]
        void["detail"] = {"kind": VOID, "message": message}
        add_game_source(void, self.sources[record.get("variant")])
        return void

    def play_one(self, index: int) -> tuple[str, GameResult]:
        return self.line(self.record(index))

    def play_range(self, start: int, stop: int) -> Iterator[tuple[str, GameResult]]:
        """Games ``start .. stop - 1`` in order: several at once when every strategy
        process can interleave games and no move time limit applies (see
        ``interleave.py``), else one at a time."""
        remote = [f for f in self.factories.values() if isinstance(f, RemoteSeatFactory)]
        if remote and start < stop:  # the first game's processes start side by side
            options = self.config.options_for(self.schedule.spec(start).variant)
            players = [player for player, _ in self._job(start).seeds]
            for player in players:
                player.launch(options)
            for player in players:
                player.ready()
        if not remote or self.config.move_time_limit or not all(f.interleaves for f in remote):
            # Seeded ahead only where every in-process strategy is built in: a game's
            # generators then never exist while a strategy that could reach them (through
            # gc) plays another game, unverified as the next game may be.
            ahead = not self.checked_names
            for index in range(start, stop):
                if ahead and index not in self.ahead:
                    self._seed_ahead(index, stop)
                yield self.play_one(index)
            return
        for _, record in interleave(
            (self._job(index) for index in range(start, stop)),
            WINDOW,
            self._played,
            self.close,
        ):
            yield self.line(self.checked(record))

    def _job(self, index: int) -> Job:
        spec = self.schedule.spec(index)
        seeds = [
            (factory.for_seat(seat, spec.variant), derive_seed(spec.seed, "seat", seat))
            for seat, name in enumerate(spec.seats)
            if isinstance(factory := self.factories[name], RemoteSeatFactory)
        ]
        return Job(index, partial(self.game_play, index), seeds)

    def close(self) -> None:
        """Stop the strategy processes this player started (all told to quit first, so
        that they exit side by side)."""
        remote = [f for f in self.factories.values() if isinstance(f, RemoteSeatFactory)]
        for factory in remote:
            factory.quit()
        for factory in remote:
            factory.close()


def strategy_game(game: Any, options: Any) -> Any:
    """The game object whose copies the strategies of a run are handed (one per seat and
    game, see ``play.py``): a fresh instance, never the referee's, with its caches (the
    components a game loads for its options) filled once here rather than in every
    copy."""
    mine = type(game)()
    try:
        mine.resolve_options(options)
    except Exception:  # noqa: BLE001 - the config was checked: a cache left cold is all
        pass
    return mine


def unchecked_strategies(config: Config) -> set[str]:
    """The names of the config's strategies that run in the worker and are not built in
    (:func:`~simcli.strategy.is_builtin`): the games they play are verified."""
    return {
        spec.name
        for spec in config.strategies
        if not spec.isolated and not is_builtin(load_strategy_class(spec.use, config.base_dir))
    }


def strategy_factories(config: Config) -> dict[str, StrategyFactory]:
    """What makes each configured strategy's players: its class (in this process) or a
    :class:`RemoteSeatFactory` (its own process)."""
    factories: dict[str, StrategyFactory] = {}
    for spec in config.strategies:
        if not spec.isolated:
            cls = load_strategy_class(spec.use, config.base_dir)
            factories[spec.name] = partial(cls, **spec.params)
            continue
        if spec.command is not None:
            command, cwd = parse_command(spec.command), _folder(config)
        else:
            command, cwd = python_client_command(spec.use, config.base_dir), None
        factories[spec.name] = RemoteSeatFactory(
            spec.name,
            command,
            game=(game_source_for(config, None) or {}).get("use", config.game),
            players=config.players,
            params=spec.params,
            move_seconds=config.move_time_limit,
            memory_limit=spec.memory_limit * 2**20 if spec.memory_limit else None,
            cwd=cwd,
            games=variant_games(config),
        )
    return factories


def variant_games(config: Config) -> dict[str, str]:
    """The game a strategy process loads for each variant that plays its own game class
    (where the records' ``game_source`` says it came from)."""
    return {
        v.name: (game_source_for(config, v.name) or {}).get("use", v.game)
        for v in config.variants
        if v.game is not None
    }


def _folder(config: Config) -> str:
    return str(config.base_dir.resolve()) if config.base_dir else "."


def check_strategy_processes(config: Config) -> None:
    """Start every out-of-process strategy once and complete its handshake (where a
    Python class is loaded, its games and params checked: never in this process);
    raises :class:`StrategyLoadError` naming the strategy and what went wrong."""
    from simcli.errors import StrategyLoadError

    remote = [f for f in strategy_factories(config).values() if isinstance(f, RemoteSeatFactory)]
    own = variant_games(config)
    games = [(use, config.options_for(name)) for name, use in own.items()]
    try:
        check_handshakes(remote, config.options, games)
    except ValueError as exc:
        raise StrategyLoadError(str(exc)) from None


def pack(start: int, lines: list[str], outcomes: list[GameResult]) -> Chunk:
    return Chunk(start, "".join(line + "\n" for line in lines), outcomes)


class _TrackedClock:
    """Wraps a clock and publishes when the current move started (shared memory read
    by the parent to stop a worker whose strategy never returns)."""

    def __init__(self, inner: Any, status: WorkerStatus):
        self.inner = inner
        self.status = status

    def move(self):
        return _TrackedMove(self)


class _TrackedMove:
    __slots__ = ("clock", "inner")

    def __init__(self, clock: _TrackedClock):
        self.clock = clock
        self.inner = clock.inner.move()

    def __enter__(self):
        self.clock.status.move_started = monotonic()
        return self.inner.__enter__()

    def __exit__(self, *exc) -> None:
        self.clock.status.move_started = 0.0
        self.inner.__exit__(*exc)


def lost_game_record(
    config: Config, schedule: Schedule | PairedSchedule, index: int, kind: str, message: str
) -> tuple[str, GameResult]:
    """The record of a game that could not be played (its worker died twice): setup
    sampled as usual, no moves, termination ``error``."""
    spec = schedule.spec(index)
    game = game_for(config, spec.variant)
    options = config.options_for(spec.variant)
    try:
        setup = game.sample_setup(len(spec.seats), options, chance_rng(spec.seed))
    except Exception:  # a game whose setup fails is reported by that message already
        setup = None
        message += "\n" + traceback.format_exc(limit=1)
    record = new_record(game.id, options, index, spec.seed, spec.seats, spec.variant)
    record["setup"] = setup
    record["detail"] = {"kind": kind, "message": message}
    add_game_source(record, game_source_for(config, spec.variant))
    return dumps(record), GameResult(list(spec.seats), [], None, "error")


def add_game_source(record: Record, source: dict[str, Any] | None) -> None:
    """A plug-in game's record ends with ``game_source`` (where the rules came from and
    their fingerprint); records of built-in games are left as they were."""
    if source is not None:
        record["game_source"] = source
