"""The strategy contract: the :class:`Strategy` base class, the registry of built-in
strategies and the loader that turns a config's ``use:`` into a class.

A strategy is a small class: constructor parameters come from the config's ``params:``,
and :meth:`Strategy.choose` picks a move from what its seat may see. The runner creates a
fresh instance for every game and seat, then calls :meth:`Strategy.start_game` with the
game, the seat and the instance's own RNG (derived from the game seed and the seat), so
results never depend on which worker played which game.

The built-in strategies themselves live in the folder ``strategies/``, installed as the
package ``simcli_strategies``; they are named here by ``module:Class`` and imported only
when used.
"""

from __future__ import annotations

import random
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from simcli.errors import StrategyLoadError
from simcli.game import Game, Move, Outcome, State
from simcli.plugins import STRATEGY_GROUP, class_from, entry_points, import_target, load_entry_point
from simcli.suggest import did_you_mean

#: Built-in strategies: the name a config's ``use:`` gives -> "module:Class".
BUILTIN: dict[str, str] = {
    "random": "simcli_strategies.random_play:RandomStrategy",
    "greedy": "simcli_strategies.greedy:GreedyStrategy",
    "mcts": "simcli_strategies.mcts:MCTSStrategy",
    "ismcts": "simcli_strategies.ismcts:ISMCTSStrategy",
    "libraria_solver": "simcli_strategies.libraria_solver:LibrariaSolver",
    "ex_libris_heuristic": "simcli_strategies.ex_libris_heuristic:ExLibrisHeuristic",
    "bibliogamo_planner": "simcli_strategies.bibliogamo_planner:BibliogamoPlanner",
    "adas_heuristic": "simcli_strategies.adas_heuristic:AdasHeuristic",
    "library_heuristic": "simcli_strategies.library_heuristic:LibraryHeuristicStrategy",
    "rollout_search": "simcli_strategies.rollout_search:RolloutSearch",
    "ex_libris_endgame": "simcli_strategies.ex_libris_endgame:ExLibrisEndgame",
    "bibliogamo_search": "simcli_strategies.bibliogamo_search:BibliogamoSearch",
    "bibliogamo_endgame": "simcli_strategies.bibliogamo_endgame:BibliogamoEndgame",
    "adas_race": "simcli_strategies.adas_race:AdasRace",
    "adas_reply": "simcli_strategies.adas_reply:AdasReply",
}


def is_builtin(cls: type) -> bool:
    """Whether ``cls`` is one of simcli's own strategies (its module is in the package of
    :data:`BUILTIN`'s classes), however the config named it."""
    module = getattr(cls, "__module__", None) or ""
    return module.partition(".")[0] in _BUILTIN_PACKAGES


_BUILTIN_PACKAGES = frozenset(target.partition(".")[0] for target in BUILTIN.values())


class Strategy:
    """Base class: subclasses implement :meth:`choose` and may set ``description``,
    ``games`` and ``wants_view``. Constructor parameters are the config's ``params:``."""

    #: One line for ``simcli list strategies``.
    description: ClassVar[str] = ""
    #: Game ids this strategy supports; ``None`` means every game.
    games: ClassVar[tuple[str, ...] | None] = None
    #: Set to ``False`` when :meth:`choose` never looks at its ``view``: the referee then
    #: passes ``None`` instead of building a view for every move (less work, same games).
    wants_view: ClassVar[bool] = True

    game: Game
    seat: int
    rng: random.Random

    def start_game(self, game: Game, seat: int, rng: random.Random) -> None:
        """Called once before the game's first move. Override to reset per-game state
        (call ``super().start_game(...)``)."""
        self.game = game
        self.seat = seat
        self.rng = rng

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        """Return one of ``legal_moves`` (a plain JSON value: ``int``, ``str`` or ``list``;
        anything else forfeits). ``view`` is what this seat may know, a copy that shares
        nothing with the real game; ``legal_moves`` is a copy too."""
        raise NotImplementedError

    def observe(self, seat: int, move: Move | None, view: State | None) -> None:
        """Optional: called after every move of the game, this seat's own included.
        ``seat`` is the seat that moved, or :data:`~simcli.game.CHANCE` for a chance
        event; ``move`` is the move as this seat may see it (``None``, or a move with
        ``None`` in it, where the game hides it, e.g. a shuffled pile's order); ``view``
        is this seat's view after the move (``None`` when ``wants_view`` is false). All
        are copies. What it raises is the seat's forfeit at its next turn. A strategy
        that does not override it costs the referee nothing."""

    def end_game(self, outcome: Outcome, view: State | None) -> None:
        """Optional: called once when the game is over, with its outcome (``scores`` is
        ``None`` after a forfeit or an error, ``termination`` as the record has it) and
        this seat's final view (``None`` when ``wants_view`` is false or the state is
        broken). Nothing it does changes the record."""


@lru_cache(maxsize=1024)
def hooks_of(cls: type) -> tuple[bool, bool]:
    """Whether a strategy class overrides :meth:`Strategy.observe` and
    :meth:`Strategy.end_game` (looked up once per class)."""
    observe = getattr(cls, "observe", None)
    end = getattr(cls, "end_game", None)
    return (
        observe is not None and observe is not Strategy.observe,
        end is not None and end is not Strategy.end_game,
    )


def load_strategy_class(use: str, base_dir: Path | None = None) -> type[Strategy]:
    """The class named by ``use``: a built-in name, the name of an installed
    ``simcli.strategies`` entry point, ``package.module:Class`` or
    ``path/to/file.py:Class`` (relative paths: the config's folder first, then the
    current directory)."""
    if not isinstance(use, str) or not use:
        raise StrategyLoadError(f"'use' must be a strategy name or 'module:Class', got {use!r}")
    loaded = set(sys.modules)
    try:
        with strategy_code(f"strategy '{use}' fails to load"):
            return _load(use, base_dir)
    except StrategyLoadError:
        # a file whose import raised SystemExit & co. must not stay half-imported
        for name in set(sys.modules) - loaded:
            if name.startswith("simcli_user_"):
                del sys.modules[name]
        raise


def _load(use: str, base_dir: Path | None) -> type[Strategy]:
    if ":" not in use:
        if use in BUILTIN:
            use = BUILTIN[use]
        else:
            installed = entry_points(STRATEGY_GROUP)
            if use not in installed:
                known = sorted({*BUILTIN, *installed})
                raise StrategyLoadError(
                    f"unknown strategy '{use}'{did_you_mean(use, known)}; strategies: "
                    f"{', '.join(known)} (or give 'package.module:Class' or "
                    f"'path/to/file.py:Class')"
                )
            cls = load_entry_point(STRATEGY_GROUP, use, "strategy", StrategyLoadError)
            return _check_class(cls, f"entry point '{use}'")
    target, _, class_name = use.rpartition(":")
    module = import_target(target, base_dir, "strategy", StrategyLoadError)
    return _check_class(class_from(module, target, class_name, StrategyLoadError), f"'{use}'")


def _check_class(cls: Any, label: str) -> type[Strategy]:
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise StrategyLoadError(
            f"{label} is not a Strategy subclass (derive it from simcli.strategy.Strategy)"
        )
    return cls


def check_params(label: str, cls: type[Strategy], params: dict[str, Any]) -> None:
    """Construct ``cls(**params)`` once so that bad parameters fail before any game.
    Anything else it raises (``SystemExit`` and ``KeyboardInterrupt`` included) is bad
    input too: :class:`StrategyLoadError` naming the strategy."""
    with strategy_code(f"strategy '{label}': {cls.__name__}({_args(params)}) fails"):
        try:
            cls(**params)
        except (TypeError, ValueError) as exc:
            raise StrategyLoadError(
                f"strategy '{label}': {cls.__name__} rejects params {params!r}: {exc}"
            ) from None


def _args(params: dict[str, Any]) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in params.items())


@contextmanager
def strategy_code(what: str) -> Iterator[None]:
    """Run a strategy's code while it is loaded or built (its module, its constructor):
    whatever it raises, ``SystemExit``, ``KeyboardInterrupt`` and any other
    ``BaseException`` included, becomes :class:`StrategyLoadError` (``what``: the
    exception), bad input. Only a Ctrl-C the user pressed meanwhile passes on as
    ``KeyboardInterrupt``: in the main thread, SIGINT is watched while the code runs."""
    from simcli.tournament.faults import describe

    pressed: list[int] = []
    previous: Any = None
    if threading.current_thread() is threading.main_thread():
        current = signal.getsignal(signal.SIGINT)
        if current is signal.default_int_handler:

            def interrupted(signum: int, frame: Any) -> None:
                pressed.append(signum)
                raise KeyboardInterrupt

            previous = current
            signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    except StrategyLoadError:
        raise
    except BaseException as exc:  # noqa: BLE001 - a strategy may raise anything here
        if pressed and isinstance(exc, KeyboardInterrupt):
            raise  # the user's own Ctrl-C
        raise StrategyLoadError(f"{what}: {describe(exc).removesuffix(': ')}") from None
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
