"""Ada's Library: sort a row of book tiles into the master order (2 or 4 players).

Modules: ``components`` (the data file: card split, tiles), ``rows`` (pure row
functions), ``state`` (the position and the move notation), ``game`` (setup, options,
evaluation, determinization).
"""

from simcli.games.adas_library.game import AdasLibrary
from simcli.games.adas_library.state import AdasState, partner_of

__all__ = ["AdasLibrary", "AdasState", "partner_of"]
