"""Ex Libris (Adam P. McIver, Renegade Game Studios 2017) for 2-4 players.

See ``docs/games/ex_libris.md`` for the rules as implemented, the notation and the data.
"""

from simcli.games.ex_libris.game import ExLibris
from simcli.games.ex_libris.state import ExLibrisState

__all__ = ["ExLibris", "ExLibrisState"]
