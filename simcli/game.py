"""The game contract every rules module implements.

A *game* (one :class:`Game` subclass per rules module) describes the rules: id, player
counts, options, how a setup is sampled and how a state is built from it. A *state*
(:class:`State`) is one position: whose turn it is, the legal moves, applying a move.

Randomness is explicit. The setup (a shuffled board, a deal) is a JSON value sampled by
:meth:`Game.sample_setup` from an RNG the driver owns; every later chance event is a
turn of the pseudo-player :data:`CHANCE` whose outcome comes from
:meth:`State.sample_chance` and is applied with :meth:`State.apply` like any move. Both
go into the game record, so a record replays without any random generator.

Moves and chance outcomes are small JSON values (numbers, strings, lists; never objects,
which the record format reserves for chance events) in a notation each game documents.

Rules modules are pure: no I/O, no printing, no module-level mutable state.
"""

from __future__ import annotations

import json
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from simcli import native
from simcli.errors import GameOptionError
from simcli.frozen import FrozenDict
from simcli.jsonline import one_shot, one_shot_bytes

#: ``State.current_player`` when the next step is a chance event.
CHANCE = -1
#: ``State.current_player`` when the game is over.
TERMINAL = -2

Move = Any  # a JSON value in the game's notation (int, str or list; never a dict)


class IllegalMoveError(ValueError):
    """A move, chance outcome or setup that the rules do not allow in this state."""


@dataclass(frozen=True)
class Option:
    """One game option: its default, the accepted values and a one-line doc.

    ``choices`` lists the accepted values. Without it, ``kind`` (if set) is the type of a
    free value. A *numeric* option (``kind`` ``int`` or ``float``, no ``choices``) may
    also set ``minimum``, ``maximum`` and ``step``, the grid of allowed values: the
    values ``base + k * step`` for whole ``k``, where ``base`` is ``minimum`` if set, else
    0. An ``int`` option's step is 1 unless set; a ``float`` option without a step takes
    any finite number in range. A ``float`` option accepts ints and floats (never
    booleans) and keeps the value as given. Grid and bounds are compared as the decimals
    the values are written as (0.3 is 3 x 0.1), so no rounding error makes a value
    off-grid. :meth:`nearest` gives the allowed value nearest to any number (a tuner's
    way from a real number to a value the option takes).
    """

    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    kind: type | None = None  # for free-valued options: int or float (numeric), or another type
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None  # the grid of a numeric option (int options: 1 unless set)

    def __post_init__(self) -> None:
        # Mistakes in a declaration fail when the game's module is imported.
        for name in ("minimum", "maximum", "step"):
            value = getattr(self, name)
            if value is not None and not _is_finite_number(value):
                raise ValueError(f"Option {name} must be a finite number; got {value!r}")
        if not self.numeric and (self.maximum is not None or self.step is not None):
            raise ValueError("Option maximum and step need kind int or float and no choices")
        if self.step is not None:
            if self.step <= 0:
                raise ValueError(f"Option step must be positive; got {self.step!r}")
            if self.kind is int and not _is_int(self.step):
                raise ValueError(f"Option step of an int option must be whole; got {self.step!r}")
        if self.kind is int and self.minimum is not None and not _is_int(self.minimum):
            raise ValueError(f"Option minimum of an int option must be whole; got {self.minimum!r}")
        if (
            self.minimum is not None
            and self.maximum is not None
            and _exact(self.minimum) > _exact(self.maximum)
        ):
            raise ValueError(
                f"Option minimum {self.minimum!r} is greater than its maximum {self.maximum!r}"
            )

    @property
    def numeric(self) -> bool:
        """True for a number option (``kind`` int or float, without ``choices``)."""
        return self.choices is None and self.kind in (int, float)

    @property
    def grid_step(self) -> float | None:
        """The step between allowed values: ``step``, else 1 for an int option, else
        ``None`` (a float option without a step: any number in range)."""
        if self.step is not None:
            return self.step
        return 1 if self.kind is int else None

    def nearest(self, value: float) -> int | float:
        """The allowed value nearest to ``value``: rounded to the grid (a value halfway
        between two grid values goes up), then clamped to ``minimum`` and to the largest
        grid value not above ``maximum``. An int for an int option, a float for a float
        option. ``ValueError`` for an option that is not numeric or a value that is not a
        finite number."""
        if not self.numeric:
            raise ValueError("nearest() needs a numeric option (kind int or float, no choices)")
        if not _is_finite_number(value):
            raise ValueError(f"nearest() needs a finite number; got {value!r}")
        x = _exact(value)
        step = self.grid_step
        base = _exact(self.minimum) if self.minimum is not None else Fraction(0)
        if step is not None:
            step_x = _exact(step)
            x = base + math.floor((x - base) / step_x + Fraction(1, 2)) * step_x
        if self.minimum is not None:
            x = max(x, base)
        if self.maximum is not None:
            top = _exact(self.maximum)
            if step is not None:
                top = base + math.floor((top - base) / step_x) * step_x
            x = min(x, top)
        return int(x) if self.kind is int else float(x)

    def check(self, game_id: str, name: str, value: Any) -> Any:
        if self.choices is not None:
            if value not in self.choices:
                raise GameOptionError(
                    f"game '{game_id}': option '{name}' must be one of "
                    f"{', '.join(map(str, self.choices))}; got {value!r}"
                )
            return value
        if self.kind is not None:
            if self.kind is int and not _is_int(value):
                raise GameOptionError(
                    f"game '{game_id}': option '{name}' must be an integer; got {value!r}"
                )
            if self.kind is float and not _is_finite_number(value):
                what = "a finite number" if _is_number(value) else "a number"
                raise GameOptionError(
                    f"game '{game_id}': option '{name}' must be {what}; got {value!r}"
                )
            if not self.numeric:
                return value
            if self.minimum is not None and _exact(value) < _exact(self.minimum):
                raise GameOptionError(
                    f"game '{game_id}': option '{name}' must be at least "
                    f"{_show(self.minimum)}; got {value!r}"
                )
            if self.maximum is not None and _exact(value) > _exact(self.maximum):
                raise GameOptionError(
                    f"game '{game_id}': option '{name}' must be at most "
                    f"{_show(self.maximum)}; got {value!r}"
                )
            step = self.grid_step
            if step is not None:
                base = _exact(self.minimum) if self.minimum is not None else Fraction(0)
                if ((_exact(value) - base) / _exact(step)).denominator != 1:
                    grid = f"a multiple of {_show(step)}"
                    if (base / _exact(step)).denominator != 1:  # a grid off the multiples
                        grid = f"{_show(self.minimum)} plus {grid}"
                    raise GameOptionError(
                        f"game '{game_id}': option '{name}' must be {grid}; got {value!r} "
                        f"(the nearest allowed value is {_show(self.nearest(value))})"
                    )
        return value


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _is_finite_number(x: Any) -> bool:
    return _is_number(x) and math.isfinite(x)


def _exact(x: float) -> Fraction:
    """``x`` as the exact decimal it is written as (``0.1`` is 1/10, not the float's
    binary value), so that grid and bound checks have no rounding error."""
    return Fraction(x) if isinstance(x, int) else Fraction(repr(float(x)))


def _show(x: float) -> str:
    """A number for a message: whole numbers without a decimal point."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: points per seat, winning seats, and why it ended.

    ``winners`` lists every seat that shares first place (empty for a draw in which
    nobody wins). ``termination`` is ``"normal"`` or ``"move_limit"``.
    """

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    termination: str = "normal"


@dataclass(frozen=True)
class Facts:
    """Game-specific figures of a played game for the one-row-per-seat table
    (``simcli export --parts``): ``game`` holds figures of the whole game in its natural
    unit (e.g. ``{"rounds": 9}``), ``seats`` one mapping of score parts per seat (e.g.
    ``{"stability": 4, "variety": 3}``). Plain numbers only."""

    game: Mapping[str, float] = field(default_factory=dict)
    seats: tuple[Mapping[str, float], ...] = ()


class State(ABC):
    """One position of a game. Mutable: :meth:`apply` changes it in place.

    Subclasses set ``game`` (the :class:`Game`), ``players`` and ``options``. A subclass
    may list its attributes in ``__slots__`` (smaller, faster states: this base has no
    instance ``__dict__`` of its own); one without ``__slots__`` works as usual.
    """

    __slots__ = ()

    game: Game
    players: int
    options: Mapping[str, Any]

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to move (0-based), :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move, in a fixed order; ``[]`` when terminal."""

    @abstractmethod
    def apply(self, move: Move) -> None:
        """Play ``move`` (or a chance outcome). Raises :class:`IllegalMoveError`."""

    def apply_trusted(self, move: Move) -> None:
        """Play ``move`` without validating it: the fast path of search and rollouts.

        Only for a move taken from this very position's :meth:`legal_moves` (or a chance
        outcome from its :meth:`sample_chance`); anything else may corrupt the state
        silently. The result must equal :meth:`apply`'s (same snapshot). The referee never
        uses it: moves from strategies always go through :meth:`apply`. The default is
        :meth:`apply`; games override it where skipping the checks pays."""
        self.apply(move)

    def random_legal_move(self, randbelow: Callable[[int], int]) -> Move:
        """``legal_moves()[randbelow(len(legal_moves()))]``: the move a random rollout
        plays, for the same draw (``randbelow(n)`` called once, with the number of legal
        moves). Games override it where they can count their moves and build only the
        one drawn; the result must equal the default's for every draw."""
        moves = self.legal_moves()
        return moves[randbelow(len(moves))]

    def playout(self, rng: random.Random, randbelow: Callable[[int], int]) -> None:
        """Play uniformly random moves to the end of the game, in place: the random
        rollout of search. Exactly this loop: a chance turn plays
        ``apply_trusted(sample_chance(rng))``, a decision plays
        ``apply_trusted(random_legal_move(randbelow))``. ``randbelow`` draws from ``rng``
        (``rng._randbelow`` or ``simcli.draws.randbelow_of(rng)``). Games override it with
        a tighter loop (compiled with the engine where the compiled path is built); the
        result must equal this one's for the same generator."""
        apply, sample, pick = self.apply_trusted, self.sample_chance, self.random_legal_move
        while True:
            seat = self.current_player
            if seat == TERMINAL:
                return
            apply(sample(rng) if seat == CHANCE else pick(randbelow))

    def sample_chance(self, rng: random.Random) -> Move:
        """Draw the outcome of the pending chance event. Games with common random numbers
        (``simcli.games.chance``) draw it from a stream of their own keyed by the event
        (the setup carries the key) and use ``rng`` only where no key is known yet (a
        view, a determinized state); others draw from ``rng``, the driver's RNG."""
        raise IllegalMoveError("this game has no chance events after the setup")

    def chance_outcomes(self) -> list[tuple[Move, float]] | None:
        """Every outcome of the pending chance event with its probability (positive,
        summing to 1), as OpenSpiel's ``ChanceOutcomes``: what an exact expectimax needs.
        Optional: ``None`` (the default) where the game does not list them (a shuffle of
        many cards). :meth:`sample_chance` draws only listed outcomes; ``simcli
        check-game`` checks both."""
        return None

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    @abstractmethod
    def outcome(self) -> Outcome:
        """The result of a terminal state."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The complete state as a JSON value; two states are equal iff snapshots are."""

    @abstractmethod
    def render(self) -> str:
        """A human-readable text picture of the position."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    def view(self, seat: int) -> State:
        """What ``seat`` may know. Perfect-information games return a full copy;
        hidden-information games override this to remove what the seat cannot see."""
        return self.clone()

    def final_hash(self) -> str:
        """A stable hash of the state (game id + snapshot), used by records."""
        return state_hash(self.game.id, self.snapshot())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.game.id == other.game.id and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]  # mutable


try:  # CPython's own SHA-256: the same digest, without OpenSSL's per-call look-up of the
    # algorithm, which costs a referee a few microseconds a game (docs/running.md)
    from _sha256 import sha256 as _sha256  # Python 3.11
except ImportError:  # pragma: no cover - newer Pythons, or a build without it
    try:
        from _sha2 import sha256 as _sha256  # Python 3.12+
    except ImportError:
        from hashlib import sha256 as _sha256

_HASH_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), check_circular=False)
_hash_text = one_shot(_HASH_ENCODER)  # _HASH_ENCODER.encode, its C encoder built once
_hash_bytes = one_shot_bytes(_HASH_ENCODER)  # the same text, UTF-8 encoded

#: ``hashlib.sha256(data).hexdigest()[:16]`` in C (``simcli/_statehash.pyx``), or
#: ``None`` where that kernel is not in use (see ``native.py``).
_KERNEL = native.load_kernel("simcli._statehash")
_hash16 = _KERNEL.hash16 if _KERNEL is not None else None


def state_hash(game_id: str, snapshot: Mapping[str, Any]) -> str:
    """16 hex digits of SHA-256 over the canonical JSON of ``[game_id, snapshot]``."""
    if _hash16 is not None:
        return _hash16(_hash_bytes([game_id, snapshot]))
    return _sha256(_hash_text([game_id, snapshot]).encode()).hexdigest()[:16]


class Game(ABC):
    """The description of one game's rules. Subclasses set the class attributes."""

    id: ClassVar[str]
    title: ClassVar[str]
    description: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    options: ClassVar[Mapping[str, Option]] = {}
    perfect_information: ClassVar[bool] = True
    #: ``True`` when every move is an ``int`` or ``str`` (never a list): the referee then
    #: hands strategies a flat copy of the legal moves instead of a deep one.
    scalar_moves: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The option declarations are shared by every instance, the strategies' too.
        cls.options = FrozenDict(cls.options)

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Check ``given`` against :attr:`options` and fill in defaults."""
        given = dict(given or {})
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            from simcli.suggest import did_you_mean

            name = unknown[0]
            known = ", ".join(sorted(self.options)) or "(none)"
            raise GameOptionError(
                f"game '{self.id}' has no option '{name}'{did_you_mean(name, self.options)}; "
                f"its options are: {known}"
            )
        resolved = {}
        for name, spec in self.options.items():
            resolved[name] = spec.check(self.id, name, given.get(name, spec.default))
        return resolved

    def check_players(self, players: int) -> None:
        if players not in self.player_counts:
            counts = " or ".join(map(str, self.player_counts))
            raise GameOptionError(f"game '{self.id}' is played by {counts} players, not {players}")

    @abstractmethod
    def sample_setup(
        self, players: int, options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        """Sample the random setup (a JSON object) from the driver's RNG."""

    @abstractmethod
    def new_state(
        self, players: int, options: Mapping[str, Any], setup: Mapping[str, Any]
    ) -> State:
        """Build the initial state from a setup. Raises :class:`IllegalMoveError` for a
        setup the rules cannot produce."""

    def max_length(self, players: int, options: Mapping[str, Any]) -> int | None:
        """The most plies (moves and chance events) a game can last, if the rules bound
        it; ``simcli check-game`` checks that every playout ends within it."""
        return None

    def evaluate(self, state: State, seat: int) -> float:
        """A quick heuristic value of ``state`` for ``seat`` (higher is better). Used by
        the built-in ``greedy`` strategy; games override it."""
        if state.is_terminal():
            outcome = state.outcome()
            if seat in outcome.winners:
                return 1.0 / len(outcome.winners)
        return 0.0

    def facts(self, state: State) -> Facts:
        """Figures of ``state`` (a replayed game, usually finished; a forfeited game
        stops early) beyond its scores: its length in the game's natural unit and score
        parts per seat. Used by ``simcli export --parts``; games override it."""
        return Facts()

    def state_from_snapshot(
        self, players: int, options: Mapping[str, Any], snapshot: Mapping[str, Any]
    ) -> State:
        """Rebuild the state (or the view: hidden parts stay hidden) whose
        :meth:`State.snapshot` is ``snapshot``. A strategy running in its own process
        receives its view this way. Raises :class:`IllegalMoveError` for a snapshot that
        does not fit this game."""
        raise NotImplementedError(f"game '{self.id}' cannot rebuild a state from a snapshot")

    def determinize(self, view: State, rng: random.Random) -> State:
        """A full state consistent with ``view`` (hidden parts sampled from ``rng``).
        Perfect-information games return a copy of the view."""
        return view.clone()

    def render_svg(self, state: State, seat: int | None = None) -> str | None:
        """An SVG picture (one ``<svg>`` element as a string) of ``state`` for the board
        viewer (``simcli view``); ``seat`` is the seat whose view ``state`` is, or ``None``
        for the referee's full state. ``None`` (the default): the viewer shows
        :meth:`State.render` as text. Pure: builds a string, no I/O."""
        return None
