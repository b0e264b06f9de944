"""simcli: headless tournaments and simulations for library-themed tabletop games.

The Python API (``docs/api.md``): :func:`run` a tournament, :func:`gate` a candidate
strategy, :func:`play` one game, :func:`balance` a game's seats up a ladder of skill, and
:func:`load_run` a run's table. Each is what the ``simcli`` command of that name does;
the commands only parse arguments and print."""

from __future__ import annotations

from os import PathLike
from typing import TYPE_CHECKING, Any

from simcli.native import select as _select_engines
from simcli.version import __version__

_select_engines()  # SIMCLI_PURE=1, or a source edited since the build: its .py

if TYPE_CHECKING:
    from simcli.app.balance import BalanceOutcome
    from simcli.app.gate import Verdict
    from simcli.app.play import SeatSpec
    from simcli.app.run import RunOutcome
    from simcli.config import Config
    from simcli.game import Game
    from simcli.records import Record


def run(config: Config | str | PathLike[str], **kwargs: Any) -> RunOutcome:
    """Play a tournament into a run folder and report it: see
    :func:`simcli.app.run.run` for the keyword arguments."""
    from simcli.app.run import run as _run

    return _run(config, **kwargs)


def gate(config: Config | str | PathLike[str], **kwargs: Any) -> Verdict:
    """Play a config's gate until its SPRT decides: see :func:`simcli.app.gate.gate`."""
    from simcli.app.gate import gate as _gate

    return _gate(config, **kwargs)


def play(
    game: Game | str,
    strategies: SeatSpec | list[SeatSpec],
    *,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seed: int,
    **kwargs: Any,
) -> Record:
    """Play one game and return its record: see :func:`simcli.app.play.play`."""
    from simcli.app.play import play as _play

    return _play(game, strategies, players=players, options=options, seed=seed, **kwargs)


def balance(config: Config | str | PathLike[str], **kwargs: Any) -> BalanceOutcome:
    """Measure seat balance up a ladder of skill and tune a compensation: see
    :func:`simcli.app.balance.balance`."""
    from simcli.app.balance import balance as _balance

    return _balance(config, **kwargs)


def load_run(path: str | PathLike[str], *, parts: bool = False) -> Any:
    """The run's table, one row per game and seat: a ``pandas.DataFrame`` when pandas is
    installed (``pip install 'simcli[analysis]'``), else a list of dicts. ``path`` is a
    run folder or a ``games.jsonl``; ``parts=True`` replays every game to add the game's
    own figures (rounds or turns, score parts). Columns: ``docs/analysis.md``."""
    from simcli.table import load_run as _load_run

    return _load_run(path, parts=parts)


__all__ = ["__version__", "balance", "gate", "load_run", "play", "run"]
