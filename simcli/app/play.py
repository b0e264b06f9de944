"""``simcli.play``: one game between strategies, its record returned."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from simcli.errors import SimcliError
from simcli.game import Game
from simcli.games import game_source, instance_source, load_game
from simcli.records import Record
from simcli.strategy import Strategy, check_params, load_strategy_class
from simcli.tournament.clock import make_clock
from simcli.tournament.play import StrategyFactory, drive, game_play

#: What may sit in a seat: a ``use:`` name (``"greedy"``, ``"module:Class"``,
#: ``"file.py:Class"``), a mapping like a config's strategy entry (``use``, optional
#: ``params`` and ``name``; ``use`` may also be a class or factory, named by ``name``), a
#: :class:`Strategy` subclass, or any callable that returns a fresh strategy.
SeatSpec = str | Mapping[str, Any] | type[Strategy] | Callable[[], Strategy]


def play(
    game: Game | str,
    strategies: SeatSpec | Sequence[SeatSpec],
    *,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int,
    index: int = 0,
    move_time_limit: float | None = None,
) -> Record:
    """Play one game of ``game`` (a :class:`Game` or a game id / ``file.py:Class``) with
    one strategy per seat in seat order, or one strategy in every seat of a ``players``
    game, and return its record: the same record a run writes for a game of that seed
    (``index`` is the record's place in its schedule). The referee is the run's: a
    strategy that fails forfeits, a rules error ends the game as ``error``. A plug-in
    game (named by ``file.py:Class``, or a game object of a class other than a built-in
    game's own, such as a rules variant) gets the ``game_source`` a run's record has, so
    the record replays under those rules."""
    rules = load_game(game) if isinstance(game, str) else game
    source = game_source(game) if isinstance(game, str) else instance_source(game)
    seats = _seat_list(strategies, players)
    rules.check_players(len(seats))
    resolved = rules.resolve_options(options)
    names: list[str] = []
    factories: dict[str, StrategyFactory] = {}
    made: dict[str, Any] = {}  # name -> what made it, to tell two strategies of one name
    for seat, spec in enumerate(seats):
        name, factory, key = _factory(spec)
        if name in made and made[name] != key:
            name = f"{name}#{seat}"
        made.setdefault(name, key)
        factories.setdefault(name, factory)
        names.append(name)
    clock = make_clock(move_time_limit)
    record = drive(game_play(rules, resolved, index, seed, names, factories, clock=clock))
    if source is not None:  # a plug-in game named by its file: its records say so
        record["game_source"] = source.to_record()
    return record


def _seat_list(strategies: Any, players: int | None) -> list[SeatSpec]:
    single = isinstance(strategies, str | Mapping | type) or (
        callable(strategies) and not isinstance(strategies, Sequence)
    )
    if single:
        if players is None:
            raise SimcliError("play: one strategy for every seat needs players=N")
        return [strategies] * players
    seats = list(strategies)
    if not seats:
        raise SimcliError("play: no strategies given")
    if players is not None and players != len(seats):
        raise SimcliError(f"play: {len(seats)} strategies for {players} players")
    return seats


def _factory(spec: SeatSpec) -> tuple[str, StrategyFactory, Any]:
    """The record's name for a seat spec, what makes its strategy, and a key that is
    equal for two specs of the same strategy."""
    if isinstance(spec, str):
        spec = {"use": spec}
    if isinstance(spec, Mapping) and not isinstance(spec.get("use"), str):
        made = spec.get("use")  # a class or factory under a name of the caller's
        name, factory, key = _factory(made)
        params = dict(spec.get("params") or {})
        if params:  # a class (or factory) made with the params
            if isinstance(made, type) and issubclass(made, Strategy):
                check_params(name, made, params)
            factory = _Factory(made, params)
            key = (key, repr(sorted(params.items())))
        return str(spec.get("name") or name), factory, key
    if isinstance(spec, Mapping):
        use = spec.get("use")
        params = dict(spec.get("params") or {})
        cls = load_strategy_class(use)
        name = str(spec.get("name") or use)
        check_params(name, cls, params)
        return name, _Factory(cls, params), (use, repr(sorted(params.items())))
    if isinstance(spec, type) and issubclass(spec, Strategy):
        return spec.__name__, spec, id(spec)
    if callable(spec):
        return getattr(spec, "__name__", type(spec).__name__), spec, id(spec)
    raise SimcliError(f"play: cannot seat {spec!r} (a strategy name, class or factory)")


class _Factory:
    """A class with its params: a fresh instance per call."""

    def __init__(self, cls: Callable[..., Strategy], params: dict[str, Any]) -> None:
        self.cls, self.params = cls, params

    def __call__(self) -> Strategy:
        return self.cls(**self.params)
