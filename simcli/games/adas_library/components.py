"""Ada's Library component data: the card split, tile counts and colours.

The data lives in ``simcli/games/data/adas_library.yaml`` (the card split there is
reconstructed). A user may replace it with the game option ``data_file``. This module
loads and validates such a file and turns it into a plain JSON object (stored in the
resolved option ``components``, so a game record replays without the file) and into a
:class:`Components` value for the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from simcli.errors import GameOptionError
from simcli.frozen import FrozenDict
from simcli.games.chance import first_copies
from simcli.games.datafile import read_data_file
from simcli.suggest import did_you_mean

#: Every card type the rules know, in the fixed order used for legal moves and renders.
CARD_TYPES: tuple[str, ...] = (
    "move1",
    "move2",
    "move3",
    "move4",
    "move_end",
    "switch1",
    "switch2",
    "switch3",
    "switch4",
    "reverse",
    "master1",
    "master2",
    "exchange",
)
#: The player counts the rules support (one entry each in the data file's ``players``).
PLAYER_COUNTS: tuple[int, ...] = (2, 4)
#: The hidden-card token used in views.
UNKNOWN = "?"

BUILTIN_NAME = "adas_library.yaml"
TOP_KEYS = ("colours", "hand_size", "deck_size", "cards", "players")
PLAYER_KEYS = ("tiles", "books_each")


@dataclass(frozen=True)
class Components:
    """Validated component data (see the data file for the meaning of each field)."""

    colours: tuple[str, ...]
    hand_size: int
    deck_size: int
    cards: tuple[tuple[str, int], ...]  # (card type, count) in CARD_TYPES order
    players: Mapping[int, tuple[int, int]]  # players -> (tiles, books_each), read-only

    def deck(self) -> list[str]:
        """Every card once, in CARD_TYPES order (unshuffled)."""
        return [card for card, count in self.cards for _ in range(count)]

    @cached_property
    def universe(self) -> tuple[tuple[str, ...], Mapping[str, int]]:
        """(:meth:`deck` as a tuple, card -> the index of its first copy there): what a
        reshuffle numbers the cards by (``chance.copy_numbers``), built once."""
        deck = tuple(self.deck())
        return deck, FrozenDict(first_copies(deck))

    @cached_property
    def deck_counts(self) -> Mapping[str, int]:
        """How many copies of each card :meth:`deck` holds (built once, read-only)."""
        return FrozenDict(Counter(self.deck()))

    @cached_property
    def bag_counts(self) -> Mapping[int, Mapping[int, int]]:
        """players -> how many tiles of each colour :meth:`bag` holds (built once)."""
        return FrozenDict((n, FrozenDict(Counter(self.bag(n)))) for n in self.players)

    def bag(self, players: int) -> list[int]:
        """Every book tile (colour index) for ``players`` players, unshuffled."""
        tiles, _ = self.players[players]
        per_colour = tiles // len(self.colours)
        return [c for c in range(len(self.colours)) for _ in range(per_colour)]

    def books_each(self, players: int) -> int:
        return self.players[players][1]

    def to_json(self) -> dict[str, Any]:
        return {
            "colours": list(self.colours),
            "hand_size": self.hand_size,
            "deck_size": self.deck_size,
            "cards": dict(self.cards),
            "players": {
                str(n): {"tiles": t, "books_each": b} for n, (t, b) in self.players.items()
            },
        }


def load_file(path: str) -> Components:
    """Read and validate a data file (YAML or JSON); ``""`` means the built-in file."""
    label, raw = read_data_file("adas_library", BUILTIN_NAME, path, "data_file")
    return parse(raw, label)


def parse(raw: Any, label: str) -> Components:
    """Validate component data ``raw`` (from a file or the ``components`` option)."""

    def fail(entry: str, problem: str) -> GameOptionError:
        where = f" entry '{entry}'" if entry else ""
        return GameOptionError(f"game 'adas_library': {label}{where}: {problem}")

    def count(value: Any, entry: str, minimum: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(entry, f"must be a whole number, got {value!r}")
        if value < minimum:
            raise fail(entry, f"must be at least {minimum}, got {value}")
        return value

    if not isinstance(raw, Mapping):
        raise fail("", "must be a mapping with the keys " + ", ".join(TOP_KEYS))
    for key in raw:
        if key not in TOP_KEYS:
            raise fail(
                str(key),
                f"unknown key{did_you_mean(str(key), TOP_KEYS)}; "
                f"the keys are {', '.join(TOP_KEYS)}",
            )
    missing = [key for key in TOP_KEYS if key not in raw]
    if missing:
        raise fail(missing[0], "is missing")

    colours = raw["colours"]
    if not isinstance(colours, list) or len(colours) < 2:
        raise fail("colours", "must be a list of at least 2 colour names")
    for i, colour in enumerate(colours):
        if not isinstance(colour, str) or not colour or colour == UNKNOWN:
            raise fail(f"colours[{i}]", f"must be a non-empty name other than '?', got {colour!r}")
    if len(set(colours)) != len(colours):
        dup = next(c for c in colours if colours.count(c) > 1)
        raise fail("colours", f"names colour '{dup}' twice")

    hand_size = count(raw["hand_size"], "hand_size", 1)
    deck_size = count(raw["deck_size"], "deck_size", 1)

    cards = raw["cards"]
    if not isinstance(cards, Mapping):
        raise fail("cards", "must map card types to counts")
    for card in cards:
        if card not in CARD_TYPES:
            raise fail(
                f"cards.{card}",
                f"unknown card type{did_you_mean(str(card), CARD_TYPES)}; "
                f"the card types are {', '.join(CARD_TYPES)}",
            )
    counts = tuple((card, count(cards.get(card, 0), f"cards.{card}", 0)) for card in CARD_TYPES)
    total = sum(n for _, n in counts)
    if total != deck_size:
        raise fail("cards", f"the card counts add up to {total}, but deck_size is {deck_size}")

    players_raw = raw["players"]
    if not isinstance(players_raw, Mapping):
        raise fail("players", "must map player counts (2, 4) to {tiles, books_each}")
    players: dict[int, tuple[int, int]] = {}
    for key, entry in players_raw.items():
        try:
            n = int(key)
        except (TypeError, ValueError):
            n = -1
        if n not in PLAYER_COUNTS or isinstance(key, bool):
            raise fail(f"players.{key}", "the game is played by 2 or 4 players only")
        if n in players:
            raise fail(f"players.{key}", "is given twice")
        name = f"players.{n}"
        if not isinstance(entry, Mapping) or set(entry) != set(PLAYER_KEYS):
            raise fail(name, "must have exactly the keys tiles and books_each")
        tiles = count(entry["tiles"], f"{name}.tiles", 1)
        books = count(entry["books_each"], f"{name}.books_each", 2)
        if tiles % len(colours):
            raise fail(
                f"{name}.tiles",
                f"{tiles} tiles do not split evenly among the {len(colours)} colours",
            )
        if books * n > tiles:
            raise fail(
                name,
                f"{n} players drawing {books} books each need {books * n} tiles, "
                f"but the bag holds {tiles}",
            )
        if hand_size * n > deck_size:
            raise fail(
                "deck_size",
                f"{deck_size} cards cannot deal hands of {hand_size} to {n} players",
            )
        players[n] = (tiles, books)
    for n in PLAYER_COUNTS:
        if n not in players:
            raise fail(f"players.{n}", "is missing")
    return Components(
        colours=tuple(colours),
        hand_size=hand_size,
        deck_size=deck_size,
        cards=counts,
        players=FrozenDict(sorted(players.items())),
    )
