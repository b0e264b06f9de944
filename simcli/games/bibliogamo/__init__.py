"""Bibliogamo (2011 solitaire print-and-play): build books in six towers, sell them to
the Chief Librarian. Rules in :mod:`.state`, components in :mod:`.components`."""

from simcli.games.bibliogamo.components import ARTISANS, Components, load_components
from simcli.games.bibliogamo.game import Bibliogamo
from simcli.games.bibliogamo.state import BibliogamoState, describe_card

__all__ = [
    "ARTISANS",
    "Bibliogamo",
    "BibliogamoState",
    "Components",
    "describe_card",
    "load_components",
]
