"""The game contract, checked by seeded random playouts (``simcli check-game``).

Every playout has its own seed ``S`` (the ``--seed`` plus its number): the game's RNG, the
random move choices and the RNGs handed to ``determinize`` all derive from ``S``, so
``simcli check-game GAME --players N --games 1 --seed S`` replays exactly the playout that
failed. Each check reports its first failure: the seed, the player count and the ply
(number of moves and chance events applied since the setup).

The checks (one line each in the output, in this order):

* ``same_seed``: the same seed gives the same game (setup, moves, final state).
* ``independent``: clones and views are independent of the state: they share no mutable
  object with it (lists, dicts, sets, objects with settable attributes; the game, its
  options and data that every state shares, such as component tables, excepted), and
  playing a move on them changes nothing in the state.
* ``hidden``: a game with hidden information hides something from some seat at some
  point; the view of a view is the view; a perfect-information game hides nothing.
* ``determinize``: ``determinize(view)`` leaves the view alone, gives a new state whose
  view for that seat is the view it came from, with the same seat to move and the same
  legal moves, and the same state again for the same RNG.
* ``snapshot``: snapshots are JSON (text keys, finite numbers), round-trip through JSON,
  equal for equal states, and rebuild the state with ``state_from_snapshot`` when the
  game has it.
* ``legal_moves``: legal moves and chance outcomes are JSON values (never objects),
  distinct, in the same order on every call and on a clone; none when the game is over;
  every offered move is accepted.
* ``illegal_moves``: a move that is not legal (stale moves from earlier plies, values of
  the wrong kind) raises :class:`~simcli.game.IllegalMoveError` and leaves the state
  unchanged.
* ``replay``: all randomness goes through the setup and chance events: rebuilding the game
  from its setup and recorded moves gives the same state at every ply.
* ``outcome``: a finished game has a well-formed outcome: one finite number per seat,
  distinct winning seats, a known termination; the same on every call.
* ``max_length``: every playout ends within ``Game.max_length`` plies (or
  :data:`FALLBACK_MAX_LENGTH` when the game declares none).
* ``fields``: a state that declares its fields (``state_fields``, see
  :mod:`simcli.statefields`) has the snapshot, clone and views the declaration gives,
  hand-written or not, and every such snapshot loads through the declared checks into
  the same position.
* ``chances``: where a game lists a chance event's outcomes, they are distinct,
  legal, with positive probabilities summing to 1, and ``sample_chance`` draws only
  listed ones.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from typing import Any

from simcli import statefields
from simcli.game import CHANCE, TERMINAL, Game, IllegalMoveError, Outcome, State

#: The bound on a playout when the game declares no ``max_length``.
FALLBACK_MAX_LENGTH = 100_000

CHECKS: dict[str, str] = {
    "same_seed": "the same seed gives the same game",
    "independent": "clones and views are independent of the state",
    "hidden": "views hide what a seat cannot see",
    "determinize": "determinize gives states consistent with the view",
    "snapshot": "snapshots are JSON and round-trip (state_from_snapshot too, for views)",
    "legal_moves": "legal moves are JSON values in a stable order",
    "illegal_moves": "illegal moves raise and leave the state unchanged",
    "replay": "all randomness goes through the setup and chance events",
    "outcome": "outcomes are well-formed",
    "max_length": "games end within the declared maximum length",
    "fields": "snapshot, clone and views equal those the declared fields give",
    "chances": "listed chance outcomes are legal and their probabilities sum to 1",
}
#: Draws of ``sample_chance`` compared with the listed outcomes per chance event.
CHANCE_DRAWS = 8

#: Moves no game uses, tried as illegal moves besides the stale moves of earlier plies.
ODD_MOVES: tuple[Any, ...] = ("__not_a_move__", 987_654_321, [987_654_321, -1])
STALE_MOVES = 3  # earlier moves tried per ply


@dataclass(frozen=True)
class Failure:
    seed: int
    players: int
    ply: int | None
    message: str


@dataclass
class CheckResult:
    name: str
    doc: str
    failure: Failure | None = None


@dataclass
class CheckReport:
    """The result of every check for one game."""

    game_id: str
    players: tuple[int, ...]
    games: int
    seed: int
    results: dict[str, CheckResult] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(r.failure is None for r in self.results.values())

    def failed(self) -> list[str]:
        return [name for name, r in self.results.items() if r.failure is not None]

    def lines(self, use: str) -> list[str]:
        """One line per check; a failure names seed, players, ply and the command that
        reproduces it."""
        out = []
        for name, result in self.results.items():
            f = result.failure
            if f is None:
                out.append(f"ok    {name:<14} {result.doc}")
                continue
            where = f"seed {f.seed}, {f.players} players" + (
                f", ply {f.ply}" if f.ply is not None else ""
            )
            command = f"simcli check-game {use} --players {f.players} --games 1 --seed {f.seed}"
            out.append(f"FAIL  {name:<14} {where}: {f.message} (reproduce: {command})")
        return out


class _Stop(Exception):
    """Ends a playout that cannot go on (the failure is recorded already)."""


def check_game(
    game: Game,
    *,
    players: Sequence[int] | None = None,
    games: int = 10,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    every: int = 1,
) -> CheckReport:
    """Run every check on ``games`` playouts per player count (seeds ``seed``,
    ``seed + 1``, ...). ``every`` > 1 runs the checks of a position (independence,
    views, determinize, snapshots, illegal moves) only at every ``every``-th ply and the
    last: quicker for long games, for test suites."""
    counts = tuple(players) if players else tuple(game.player_counts)
    resolved = game.resolve_options(options)
    report = CheckReport(game.id, counts, games, seed)
    report.results = {name: CheckResult(name, doc) for name, doc in CHECKS.items()}
    for n in counts:
        game.check_players(n)
        hid = _HiddenTally()
        for k in range(games):
            _Playout(game, n, resolved, seed + k, report, hid, every).run()
        hid.finish(game, n, seed, report)
    return report


@dataclass
class _HiddenTally:
    first_seed: int | None = None
    hid_something: bool = False

    def finish(self, game: Game, players: int, seed: int, report: CheckReport) -> None:
        if not game.perfect_information and not self.hid_something and self.first_seed is not None:
            _fail(
                report,
                "hidden",
                Failure(
                    seed,
                    players,
                    None,
                    "the game declares hidden information (perfect_information = False) "
                    "but no view hid anything in any playout",
                ),
            )


def _fail(report: CheckReport, check: str, failure: Failure) -> None:
    result = report.results[check]
    if result.failure is None:
        result.failure = failure


_CANONICAL = json.JSONEncoder(sort_keys=True, check_circular=False, default=repr)


def _plain(value: Any) -> Any:
    """Tuples as lists: both are JSON arrays."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _json_problem(value: Any, what: str) -> str | None:
    """Why ``value`` is not a JSON value that round-trips, or None."""
    try:
        text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return f"{what} is not JSON: {exc}"
    if json.loads(text) != _plain(value):
        return f"{what} does not round-trip through JSON (keys that are not text?)"
    return None


class _Playout:
    def __init__(
        self,
        game: Game,
        players: int,
        options: Mapping[str, Any],
        seed: int,
        report: CheckReport,
        hid: _HiddenTally,
        every: int = 1,
    ):
        self.every = every
        self.game = game
        self.players = players
        self.options = options
        self.seed = seed
        self.report = report
        self.hid = hid
        self.ply = 0
        self.moves: list[Any] = []
        self.setup: Any = None
        self.hashes: list[str] = []  # canonical snapshot text after each ply
        self._shared: set[int] | None = None
        self._keep: State | None = None

    def fail(self, check: str, message: str, ply: int | None = -1) -> None:
        _fail(
            self.report,
            check,
            Failure(self.seed, self.players, self.ply if ply == -1 else ply, message),
        )

    def guarded(self, check: str, func: Callable[[], None]) -> None:
        """Run one check; an exception from the rules is that check's failure."""
        try:
            func()
        except _Stop:
            raise
        except Exception as exc:
            self.fail(check, f"raised {type(exc).__name__}: {exc}")

    def rngs(self) -> tuple[random.Random, random.Random]:
        return random.Random(f"check-game/{self.seed}/game"), random.Random(
            f"check-game/{self.seed}/moves"
        )

    # ------------------------------------------------------------------ the playout

    def run(self) -> None:
        self.hid.first_seed = self.hid.first_seed if self.hid.first_seed is not None else self.seed
        try:
            self._run()
        except _Stop:
            return

    def _run(self) -> None:
        game, n = self.game, self.players
        rng, pick = self.rngs()
        try:
            setup = game.sample_setup(n, self.options, rng)
            problem = _json_problem(setup, "the setup")
            if problem or not isinstance(setup, dict):
                self.fail("replay", problem or "the setup is not a JSON object", 0)
            self.setup = json.loads(json.dumps(setup))
            state = game.new_state(n, self.options, setup)
        except Exception as exc:
            self.fail("replay", f"setup failed: {type(exc).__name__}: {exc}", 0)
            raise _Stop from None
        limit = game.max_length(n, self.options) or FALLBACK_MAX_LENGTH
        while True:
            self.hashes.append(self._canonical(state))
            if self.ply % self.every == 0 or state.is_terminal():
                self.check_state(state)
            else:
                self.guarded("legal_moves", partial(self.check_legal_moves, state))
            if state.is_terminal():
                break
            if self.ply >= limit:
                self.fail("max_length", f"not over after {limit} plies")
                raise _Stop
            move = self.next_move(state, rng, pick)
            try:
                state.apply(move)
            except Exception as exc:
                self.fail("legal_moves", f"{move!r} was offered but apply raised {exc!r}")
                raise _Stop from None
            self.moves.append(move)
            self.ply += 1
            if self.report.results["independent"].failure is not None:
                state = self.rebuild()  # a clone or view may have changed the state
        self.check_outcome(state)
        self.check_same_seed(state)
        self.check_replay()

    def next_move(self, state: State, rng: random.Random, pick: random.Random) -> Any:
        seat = state.current_player
        try:
            if seat == CHANCE:
                move = state.sample_chance(rng)
                what = "a chance outcome"
            else:
                move = pick.choice(state.legal_moves())
                what = "a move"
        except Exception as exc:
            self.fail("legal_moves", f"no move to play: {type(exc).__name__}: {exc}")
            raise _Stop from None
        problem = _json_problem(move, f"{what} ({move!r})")
        if problem is None and isinstance(move, dict):
            problem = f"{what} is a JSON object ({move!r}); records reserve objects"
        if problem:
            self.fail("legal_moves", problem)
        return move

    def rebuild(self) -> State:
        state = self.game.new_state(self.players, self.options, self.setup)
        for move in self.moves:
            state.apply(move)
        return state

    def _canonical(self, state: State) -> str:
        try:
            return _CANONICAL.encode(state.snapshot())
        except Exception as exc:
            return f"<snapshot raised {exc!r}>"

    # ------------------------------------------------------------------ per state

    def check_state(self, state: State) -> None:
        self.guarded("snapshot", lambda: self.check_snapshot(state))
        self.guarded("legal_moves", lambda: self.check_legal_moves(state))
        self.guarded("independent", lambda: self.check_independent(state))
        self.guarded("fields", lambda: self.check_fields(state))
        if state.is_terminal():
            return
        if state.current_player == CHANCE:
            self.guarded("chances", lambda: self.check_chance_outcomes(state))
        self.guarded("hidden", lambda: self.check_hidden(state))
        self.guarded("determinize", lambda: self.check_determinize(state))
        if state.current_player >= 0:
            self.guarded("illegal_moves", lambda: self.check_illegal(state))

    def check_snapshot(self, state: State) -> None:
        snap = state.snapshot()
        problem = _json_problem(snap, "the snapshot")
        if problem:
            return self.fail("snapshot", problem)
        if not isinstance(snap, dict):
            return self.fail("snapshot", "the snapshot is not a JSON object")
        if _plain(state.snapshot()) != _plain(snap):
            return self.fail("snapshot", "two snapshots of one state differ")
        # A strategy in its own process gets its view as JSON and rebuilt from it: the
        # state and every seat's view must come back with the same snapshot and moves.
        rebuild = self.game.state_from_snapshot
        for label, original in [("the state", state)] + [
            (f"view({seat})", state.view(seat)) for seat in range(self.players)
        ]:
            text = json.dumps(original.snapshot())
            try:
                again = rebuild(self.players, self.options, json.loads(text))
            except NotImplementedError:
                return None
            if json.dumps(again.snapshot()) != text:
                return self.fail("snapshot", f"state_from_snapshot of {label} differs from it")
            if again.current_player != original.current_player or (
                original.current_player >= 0 and again.legal_moves() != original.legal_moves()
            ):
                return self.fail(
                    "snapshot", f"state_from_snapshot of {label} has other moves to play"
                )
        return None

    def check_fields(self, state: State) -> None:
        problem = fields_problem(self.game, self.players, self.options, state)
        if problem:
            self.fail("fields", problem)

    def check_chance_outcomes(self, state: State) -> None:
        rng = random.Random(f"check-game/{self.seed}/chance/{self.ply}")
        problem = chance_problem(state, rng)
        if problem:
            self.fail("chances", problem)

    def check_legal_moves(self, state: State) -> None:
        seat = state.current_player
        if state.is_terminal() != (seat == TERMINAL):
            return self.fail("legal_moves", "is_terminal() disagrees with current_player")
        if seat == TERMINAL:
            if state.legal_moves():
                self.fail("legal_moves", "the game is over but legal_moves() is not empty")
            return None
        if seat == CHANCE:
            return None
        if not (isinstance(seat, int) and 0 <= seat < self.players):
            return self.fail("legal_moves", f"current_player {seat!r} is not a seat")
        moves = state.legal_moves()
        if not moves:
            return self.fail("legal_moves", f"seat {seat} is to move but has no legal move")
        # One JSON round trip for the whole list; move by move only to name a culprit.
        whole = _json_problem(moves, "legal moves")
        for move in moves if whole or any(isinstance(m, dict) for m in moves) else ():
            problem = _json_problem(move, f"legal move {move!r}")
            if problem is None and isinstance(move, dict):
                problem = f"legal move {move!r} is a JSON object; records reserve objects"
            if problem:
                return self.fail("legal_moves", problem)
        texts = [json.dumps(m, sort_keys=True) for m in moves]
        if len(set(texts)) != len(texts):
            return self.fail("legal_moves", "legal_moves() lists a move twice")
        if state.legal_moves() != moves or state.clone().legal_moves() != moves:
            return self.fail("legal_moves", "legal_moves() changes order between calls")
        return None

    def check_independent(self, state: State) -> None:
        before = self._canonical(state)
        copy = state.clone()
        if copy is state or self._canonical(copy) != before:
            return self.fail("independent", "clone() is not an equal, separate state")
        if not state.is_terminal():
            _advance(copy, random.Random(f"check-game/{self.seed}/{self.ply}/clone"))
            if self._canonical(state) != before:
                return self.fail("independent", "playing a move on a clone changed the state")
        others = [("clone()", state.clone())]
        others += [(f"view({seat})", state.view(seat)) for seat in range(self.players)]
        for label, other in others:
            if other is state:
                return self.fail("independent", f"{label} is the state itself")
            containers = [
                (obj, where)
                for obj, where in _mutables(other, label, self.shared())
                if isinstance(obj, list | dict | set | bytearray)
            ]
            if self._changes(state, before, [c for c, _ in containers]):
                culprit = next(
                    (where for c, where in containers if self._changes(state, before, [c])),
                    "its lists/dicts/sets",
                )
                return self.fail(
                    "independent", f"changing {culprit} changes the state: they share it"
                )
        for seat in range(self.players):
            view = state.view(seat)
            if view.current_player == seat:
                try:
                    _advance(view, None)
                except Exception:  # a view need not be playable; it must not leak
                    pass
                if self._canonical(state) != before:
                    return self.fail("independent", f"playing on view({seat}) changed the state")
        return None

    def _changes(self, state: State, before: str, containers: list[Any]) -> bool:
        """Whether adding an item to each of ``containers`` changes ``state`` (the
        items are taken out again whatever happens)."""
        undo = [_poke(c) for c in containers]
        try:
            return self._canonical(state) != before
        finally:
            for step in reversed(undo):
                step()

    def shared(self) -> set[int]:
        """Mutable objects that a state of another setup reaches as well: the game's own
        data (component tables), not part of any one state."""
        if self._shared is None:
            other = self.game.sample_setup(
                self.players, self.options, random.Random(f"check-game/{self.seed}/other")
            )
            fresh = self.game.new_state(self.players, self.options, other)
            self._shared = set()
            _mutables(fresh, "other", seen=self._shared)
            self._keep = fresh  # keeps the ids valid
        return self._shared

    def check_hidden(self, state: State) -> None:
        full = self._canonical(state)
        for seat in range(self.players):
            view = state.view(seat)
            seen = self._canonical(view)
            if self.game.perfect_information and seen != full:
                return self.fail(
                    "hidden",
                    f"perfect information, but view({seat}) differs from the state "
                    "(set perfect_information = False)",
                )
            if seen != full:
                self.hid.hid_something = True
            if self._canonical(view.view(seat)) != seen:
                return self.fail("hidden", f"view({seat}).view({seat}) differs from view({seat})")
        return None

    def check_determinize(self, state: State) -> None:
        seat = state.current_player
        seats = [seat] if seat >= 0 else list(range(self.players))
        for s in seats:
            view = state.view(s)
            seen = self._canonical(view)
            rng_text = f"check-game/{self.seed}/{self.ply}/determinize/{s}"
            full = self.game.determinize(view, random.Random(rng_text))
            if self._canonical(view) != seen:
                return self.fail("determinize", f"determinize changed the view of seat {s}")
            if full is view or full is state:
                return self.fail("determinize", "determinize returned its argument or the state")
            if self._canonical(full.view(s)) != seen:
                return self.fail(
                    "determinize",
                    f"determinize(view({s})) is not consistent with that view: its own "
                    f"view({s}) differs",
                )
            if full.current_player != state.current_player:
                return self.fail("determinize", "determinize changed the seat to move")
            if seat >= 0 and full.legal_moves() != state.legal_moves():
                return self.fail("determinize", "determinize changed the legal moves")
            again = self.game.determinize(view, random.Random(rng_text))
            if self._canonical(again) != self._canonical(full):
                return self.fail(
                    "determinize", "determinize differs for the same RNG seed (other randomness?)"
                )
        return None

    def check_illegal(self, state: State) -> None:
        legal = state.legal_moves()
        tried: list[Any] = []
        for move in [*reversed(self.moves[-40:]), *ODD_MOVES]:
            if len(tried) >= STALE_MOVES + len(ODD_MOVES):
                break
            if isinstance(move, dict) or move in legal or move in tried:
                continue
            tried.append(move)
            copy = state.clone()
            before = self._canonical(copy)
            try:
                copy.apply(move)
            except IllegalMoveError:
                pass
            except Exception as exc:
                return self.fail(
                    "illegal_moves",
                    f"illegal move {move!r} raised {type(exc).__name__} instead of "
                    f"IllegalMoveError: {exc}",
                )
            else:
                return self.fail("illegal_moves", f"apply accepted the illegal move {move!r}")
            if self._canonical(copy) != before:
                return self.fail(
                    "illegal_moves", f"apply refused {move!r} but changed the state first"
                )
        return None

    # ------------------------------------------------------------------ per game

    def check_outcome(self, state: State) -> None:
        def check() -> None:
            outcome = state.outcome()
            if not isinstance(outcome, Outcome):
                return self.fail("outcome", f"outcome() is a {type(outcome).__name__}")
            scores, winners = outcome.scores, outcome.winners
            if len(scores) != self.players or not all(
                isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
                for x in scores
            ):
                return self.fail("outcome", f"scores {scores!r}: not {self.players} numbers")
            if len(set(winners)) != len(winners) or not all(
                isinstance(w, int) and 0 <= w < self.players for w in winners
            ):
                return self.fail("outcome", f"winners {winners!r}: not distinct seats")
            if outcome.termination not in ("normal", "move_limit"):
                return self.fail("outcome", f"termination {outcome.termination!r} is unknown")
            if state.outcome() != outcome:
                return self.fail("outcome", "outcome() differs between calls")
            return None

        self.guarded("outcome", check)

    def check_same_seed(self, state: State) -> None:
        def check() -> None:
            rng, pick = self.rngs()
            setup = self.game.sample_setup(self.players, self.options, rng)
            if _plain(setup) != self.setup:
                return self.fail("same_seed", "the same seed gave another setup", 0)
            again = self.game.new_state(self.players, self.options, setup)
            for ply, move in enumerate(self.moves):
                if again.current_player == CHANCE:
                    other = again.sample_chance(rng)
                else:
                    other = pick.choice(again.legal_moves())
                if other != move:
                    return self.fail(
                        "same_seed", f"the same seed gave {other!r}, not {move!r}", ply
                    )
                again.apply(other)
            if self._canonical(again) != self._canonical(state):
                return self.fail("same_seed", "the same seed gave another final state", None)
            return None

        self.guarded("same_seed", check)

    def check_replay(self) -> None:
        def check() -> None:
            # A setup sampled in between: rules that keep what they sampled on the side
            # (instead of in the setup) are caught here.
            decoy = random.Random(f"check-game/{self.seed}/decoy")
            self.game.sample_setup(self.players, self.options, decoy)
            state = self.game.new_state(self.players, self.options, self.setup)
            for ply, move in enumerate(self.moves):
                if self._canonical(state) != self.hashes[ply]:
                    return self.fail("replay", "setup + recorded moves give another state", ply)
                state.apply(move)
            if self._canonical(state) != self.hashes[-1]:
                return self.fail(
                    "replay", "setup + recorded moves give another final state", len(self.moves)
                )
            return None

        self.guarded("replay", check)


def _differs(label: str, got: Mapping[str, Any], want: Mapping[str, Any]) -> str | None:
    """How snapshot ``got`` differs from the declared ``want`` (key order counts: records
    hash the snapshot as written), or None."""
    if list(got) != list(want):
        return f"{label} has the keys {list(got)}, the declaration gives {list(want)}"
    for key in want:
        if _plain(got[key]) != _plain(want[key]):
            return f"{label}: '{key}' is {got[key]!r}, the declaration gives {want[key]!r}"
    return None


def fields_problem(
    game: Game, players: int, options: Mapping[str, Any], state: State
) -> str | None:
    """Why ``state``'s snapshot, clone, views or snapshot loading differ from the ones its
    declared fields give (None when they agree, or when it declares none)."""
    if getattr(type(state), "state_fields", None) is None:
        return None
    snap = state.snapshot()
    if _json_problem(snap, "the snapshot"):
        return None  # the snapshot check's failure
    problem = _differs("snapshot()", snap, statefields.snapshot(state))
    problem = problem or _differs("clone().snapshot()", state.clone().snapshot(), snap)
    problem = problem or _differs("the derived clone", statefields.clone(state).snapshot(), snap)
    if problem:
        return problem
    snaps = [("the state", snap)]
    for seat in range(players):
        seen = state.view(seat).snapshot()
        derived = statefields.view(state, seat).snapshot()
        problem = _differs(f"view({seat}).snapshot()", seen, derived)
        if problem:
            return problem
        snaps.append((f"view({seat})", seen))
    for label, original in snaps:
        raw = json.loads(json.dumps(original))
        try:
            loaded = statefields.load(game, type(state), players, options, raw)
        except IllegalMoveError as exc:
            return f"the declared checks refuse the snapshot of {label}: {exc}"
        problem = _differs(
            f"the snapshot of {label} loaded by the declaration", loaded.snapshot(), original
        )
        if problem:
            return problem
    return None


def chance_problem(state: State, rng: random.Random) -> str | None:
    """Why the listed outcomes of ``state``'s pending chance event are wrong (None when
    they are right, or when the game does not list them)."""
    listed = state.chance_outcomes()
    if listed is None:
        return None
    problem = _listing_problem(listed)
    if problem:
        return problem
    for outcome, _ in listed:
        try:
            state.clone().apply(outcome)
        except IllegalMoveError as exc:
            return f"the listed outcome {outcome!r} is refused by apply: {exc}"
    texts = {json.dumps(outcome, sort_keys=True) for outcome, _ in listed}
    for _ in range(CHANCE_DRAWS):
        drawn = state.clone().sample_chance(random.Random(rng.random()))
        if json.dumps(drawn, sort_keys=True) not in texts:
            return f"sample_chance drew {drawn!r}, which chance_outcomes() does not list"
    return None


def _listing_problem(listed: list[tuple[Any, float]]) -> str | None:
    """Why a list of (outcome, probability) is not a distribution over distinct outcomes."""
    if not listed:
        return "chance_outcomes() lists no outcome"
    texts = [json.dumps(outcome, sort_keys=True) for outcome, _ in listed]
    if len(set(texts)) != len(texts):
        return "chance_outcomes() lists an outcome twice"
    probabilities = [p for _, p in listed]
    if not all(isinstance(p, int | float) and math.isfinite(p) and p > 0 for p in probabilities):
        return f"chance_outcomes() has a probability that is not positive: {probabilities}"
    total = math.fsum(probabilities)
    if abs(total - 1.0) > 1e-9:
        return f"the probabilities of chance_outcomes() sum to {total!r}, not 1"
    return None


def _advance(state: State, rng: random.Random | None) -> None:
    """Apply some legal move (or, with ``rng``, a chance outcome) to ``state``."""
    seat = state.current_player
    if seat == CHANCE:
        if rng is not None:
            state.apply(state.sample_chance(rng))
    elif seat >= 0:
        moves = state.legal_moves()
        if moves:
            state.apply(moves[-1])


def _mutables(
    obj: Any, path: str, skip: set[int] | None = None, seen: set[int] | None = None
) -> list[tuple[Any, str]]:
    """Every mutable object reachable from ``obj`` (lists, dicts, sets, bytearrays and
    objects whose attributes can be set) with the attribute path to it. The game and its
    options are not followed: they are shared on purpose; nor are the ids in ``skip``
    (data every state of the game shares, such as component tables). ``seen`` collects
    the ids of every object walked."""
    found: list[tuple[Any, str]] = []
    skip = skip or set()
    seen = set() if seen is None else seen
    stack: list[tuple[Any, str, int]] = [(obj, path, 0)]
    mutable = _MUTABLE
    while stack:
        item, where, depth = stack.pop()
        key = id(item)
        if depth > 8 or key in seen or key in skip or isinstance(item, _IMMUTABLE):
            continue
        seen.add(key)
        if isinstance(item, mutable):
            found.append((item, where))
        # Plain values are left out before a path is made for them: most items are.
        if isinstance(item, list | tuple):
            stack.extend(
                (x, f"{where}[{i}]", depth + 1)
                for i, x in enumerate(item)
                if not isinstance(x, _IMMUTABLE)
            )
        elif isinstance(item, dict):
            stack.extend(
                (x, f"{where}[{k!r}]", depth + 1)
                for k, x in item.items()
                if not isinstance(x, _IMMUTABLE)
            )
        elif not isinstance(item, set | frozenset | bytearray | Game | type | Enum):
            params = getattr(item, "__dataclass_params__", None)
            if depth > 0 and not (params is not None and params.frozen):
                found.append((item, where))
            for name in _attribute_names(item):
                if name not in ("game", "options"):
                    stack.append((getattr(item, name, None), f"{where}.{name}", depth + 1))
    return found


def _poke(container: Any) -> Callable[[], None]:
    """Add a fresh item to a list, dict, set or bytearray; returns what takes it out. A
    read-only container (one that raises when changed) is left as it is."""
    marker = _Marker()
    try:
        if isinstance(container, list):
            container.append(marker)
            return container.pop
        if isinstance(container, dict):
            container[marker] = marker
            return lambda: container.pop(marker, None)
        if isinstance(container, set):
            container.add(marker)
            return lambda: container.discard(marker)
        container.append(0)
        return container.pop
    except (TypeError, AttributeError, ValueError):  # read-only: nobody can change it
        return _nothing


def _nothing() -> None:
    return None


class _Marker:
    """What :func:`_poke` adds (equal to nothing else)."""


_IMMUTABLE = (str, bytes, int, float, complex, bool, type(None), range)
_MUTABLE = (list, dict, set, bytearray)


def _attribute_names(obj: Any) -> list[str]:
    names = list(getattr(obj, "__dict__", {}))
    for klass in type(obj).__mro__:
        slots = getattr(klass, "__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    return names
