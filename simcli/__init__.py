"""simcli: headless tournaments and simulations for library-themed tabletop games."""

from os import PathLike
from typing import Any

__version__ = "0.1.0"


def load_run(path: str | PathLike[str], *, parts: bool = False) -> Any:
    """The run's table, one row per game and seat: a ``pandas.DataFrame`` when pandas is
    installed (``pip install 'simcli[analysis]'``), else a list of dicts. ``path`` is a
    run folder or a ``games.jsonl``; ``parts=True`` replays every game to add the game's
    own figures (rounds or turns, score parts). Columns: ``docs/analysis.md``."""
    from simcli.table import load_run as _load_run

    return _load_run(path, parts=parts)


__all__ = ["__version__", "load_run"]
