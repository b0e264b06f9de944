"""Library (Simon Allmer): the sphere game for 2 or 4 players. See docs/games/library.md."""

from simcli.games.library.game import Library
from simcli.games.library.state import LibraryState

__all__ = ["Library", "LibraryState"]
