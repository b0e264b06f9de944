"""Bibliogamo components: plain data loaded from YAML and validated.

The packaged file is ``simcli/games/data/bibliogamo.yaml`` (mostly reconstructed, see its
header). A replacement file with the same shape can be named by the game option
``components``; reading it is the only I/O of the game. Every problem is reported as a
:class:`GameOptionError` naming the file, the entry and what is wrong.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from simcli.errors import GameOptionError
from simcli.frozen import FrozenDict
from simcli.games.datafile import read_data_file

#: The four artisan types, in the fixed order used by recipes and tower counts.
ARTISANS: tuple[str, ...] = ("researcher", "scribe", "illustrator", "binder")
#: One-letter abbreviations used by the render.
ARTISAN_LETTERS: tuple[str, ...] = ("R", "S", "I", "B")
#: Number of florin values printed on a card (positions 1..3).
FLORIN_POSITIONS = 3
#: "the 47 Artisan cards, the 7 Prestige Collection cards, 26 black eurocubes" (the text)
CARD_COUNT = 47
PRESTIGE_COUNT = 7
CUBES = 26  # the black cubes: a hard cap on artisans on the board

DEFAULT_FILE = "bibliogamo.yaml"


@dataclass(frozen=True)
class Tower:
    id: str
    name: str
    space: int
    recipe: tuple[int, int, int, int]  # artisans needed, in ARTISANS order

    @property
    def size(self) -> int:
        return sum(self.recipe)


@dataclass(frozen=True)
class Card:
    id: int
    librarian: int  # spaces the librarian icon moves the pawn (negative: counter-clockwise)
    blocked: int  # index into ARTISANS of the small (blocked) artisan icon
    artisans: tuple[int, ...]  # artisan type indices provided, in printed order
    florins: tuple[int, int, int]  # the florin values at positions 1..3
    florin_icon: int  # 0-based position this card selects as the first card of a sale

    def provides(self, artisan: int) -> bool:
        return artisan in self.artisans


@dataclass(frozen=True)
class PrestigeCard:
    id: int
    name: str
    books: tuple[int, ...]  # tower indices asked for (repeats allowed)
    points: tuple[int, ...]  # VP by number of books marked, len(books) + 1 entries

    def wanted(self, tower: int) -> int:
        """How many books of ``tower`` the collection asks for."""
        return self.books.count(tower)


@dataclass(frozen=True)
class Components:
    source: str  # where the data came from (for messages and render)
    digest: str  # hash of the parsed data: a setup records it so replays use the same data
    spaces: int
    librarian_start: int
    starting_florins: int
    towers: tuple[Tower, ...]
    cards: Mapping[int, Card]  # read-only (FrozenDict): states, clones and views share it
    prestige: Mapping[int, PrestigeCard]
    tower_at: tuple[int | None, ...]  # per track space: tower index or None
    tower_index: Mapping[str, int]

    @property
    def card_ids(self) -> list[int]:
        return sorted(self.cards)

    @cached_property
    def hire_moves(self) -> Mapping[tuple[int, int], tuple[str, ...]]:
        """(card, payment) -> the plain hire moves ``hire CARD PAYMENT TOWER``, one per
        tower in tower order: the notation built once instead of at every decision."""
        ids = self.card_ids
        return FrozenDict(
            ((a, b), tuple(f"hire {a} {b} {t.id}" for t in self.towers))
            for a in ids
            for b in ids
            if a != b
        )


def load_components(path: str | None) -> Components:
    """Load and validate the packaged data (``path=None``) or a replacement file."""
    source, raw = read_data_file("bibliogamo", DEFAULT_FILE, path, "components")
    return parse_components(raw, source)


def parse_components(raw: Any, source: str = "<data>") -> Components:
    """Validate parsed YAML/JSON data and build :class:`Components`."""
    return _Parser(source).parse(raw)


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, what: str) -> GameOptionError:
        return GameOptionError(f"bibliogamo components {self.source}: {where}: {what}")

    def mapping(self, value: Any, where: str, required: tuple[str, ...], optional=()) -> dict:
        if not isinstance(value, dict):
            raise self.fail(where, f"must be a mapping, got {_kind(value)}")
        missing = [k for k in required if k not in value]
        if missing:
            raise self.fail(where, f"missing key '{missing[0]}'")
        unknown = sorted(set(map(str, value)) - set(required) - set(optional))
        if unknown:
            raise self.fail(where, f"unknown key '{unknown[0]}'")
        return value

    def integer(self, value: Any, where: str, lo: int | None = None, hi: int | None = None):
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, f"must be an integer, got {value!r}")
        if lo is not None and value < lo:
            raise self.fail(where, f"must be at least {lo}, got {value}")
        if hi is not None and value > hi:
            raise self.fail(where, f"must be at most {hi}, got {value}")
        return value

    def listing(self, value: Any, where: str, min_len: int = 1) -> list:
        if not isinstance(value, list):
            raise self.fail(where, f"must be a list, got {_kind(value)}")
        if len(value) < min_len:
            raise self.fail(where, f"must have at least {min_len} entries, got {len(value)}")
        return value

    def text(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, f"must be a non-empty text, got {value!r}")
        return value

    def artisan(self, value: Any, where: str) -> int:
        if value not in ARTISANS:
            raise self.fail(where, f"unknown artisan {value!r}; artisans: {', '.join(ARTISANS)}")
        return ARTISANS.index(value)

    def parse(self, raw: Any) -> Components:
        top = self.mapping(
            raw, "top level", ("track", "starting_florins", "towers", "cards", "prestige")
        )
        track = self.mapping(top["track"], "track", ("spaces", "librarian_start"))
        spaces = self.integer(track["spaces"], "track.spaces", 2)
        start = self.integer(track["librarian_start"], "track.librarian_start", 0, spaces - 1)
        florins = self.integer(top["starting_florins"], "starting_florins", 0)

        towers: list[Tower] = []
        tower_at: list[int | None] = [None] * spaces
        tower_index: dict[str, int] = {}
        for i, entry in enumerate(self.listing(top["towers"], "towers")):
            where = f"towers[{i}]"
            entry = self.mapping(entry, where, ("id", "name", "space", "recipe"))
            tid = entry["id"]
            if not isinstance(tid, str) or not tid or " " in tid:
                raise self.fail(where, f"id must be a word without spaces, got {tid!r}")
            where = f"towers[{i}] (id {tid})"
            if tid in tower_index:
                raise self.fail(where, "duplicate tower id")
            self.text(entry["name"], f"{where}.name")
            space = self.integer(entry["space"], f"{where}.space", 0, spaces - 1)
            if tower_at[space] is not None:
                raise self.fail(where, f"space {space} already has a tower")
            recipe_raw = self.mapping(entry["recipe"], f"{where}.recipe", (), ARTISANS)
            recipe = [0, 0, 0, 0]
            for name, count in recipe_raw.items():
                recipe[ARTISANS.index(name)] = self.integer(count, f"{where}.recipe.{name}", 0)
            if sum(recipe) == 0:
                raise self.fail(where, "recipe needs at least one artisan")
            if sum(recipe) > CUBES:
                raise self.fail(
                    f"{where}.recipe",
                    f"needs {sum(recipe)} artisans; there are only {CUBES} cubes, so the book "
                    "could never be finished",
                )
            tower_at[space] = len(towers)
            tower_index[tid] = len(towers)
            towers.append(Tower(tid, str(entry["name"]), space, tuple(recipe)))  # type: ignore[arg-type]

        cards: dict[int, Card] = {}
        card_list = self.listing(top["cards"], "cards")
        if len(card_list) != CARD_COUNT:
            raise self.fail(
                "cards", f"the game has {CARD_COUNT} artisan cards, got {len(card_list)}"
            )
        for i, entry in enumerate(card_list):
            where = f"cards[{i}]"
            entry = self.mapping(
                entry, where, ("id", "librarian", "blocked", "artisans", "florins", "florin_icon")
            )
            cid = self.integer(entry["id"], f"{where}.id", 1)
            where = f"cards[{i}] (id {cid})"
            if cid in cards:
                raise self.fail(where, "duplicate card id")
            move = self.integer(entry["librarian"], f"{where}.librarian")
            blocked = self.artisan(entry["blocked"], f"{where}.blocked")
            arts = tuple(
                self.artisan(a, f"{where}.artisans[{k}]")
                for k, a in enumerate(self.listing(entry["artisans"], f"{where}.artisans"))
            )
            values = self.listing(entry["florins"], f"{where}.florins")
            if len(values) != FLORIN_POSITIONS:
                raise self.fail(
                    f"{where}.florins", f"must list {FLORIN_POSITIONS} values, got {len(values)}"
                )
            fl = tuple(self.integer(v, f"{where}.florins[{k}]", 0) for k, v in enumerate(values))
            icon = self.integer(entry["florin_icon"], f"{where}.florin_icon", 1, FLORIN_POSITIONS)
            cards[cid] = Card(cid, move, blocked, arts, fl, icon - 1)  # type: ignore[arg-type]

        for tower in towers:
            for art, need in enumerate(tower.recipe):
                if need and not any(card.provides(art) for card in cards.values()):
                    raise self.fail(
                        f"towers[{tower_index[tower.id]}] (id {tower.id}).recipe",
                        f"needs {ARTISANS[art]}s, which no card provides",
                    )

        prestige: dict[int, PrestigeCard] = {}
        prestige_list = self.listing(top["prestige"], "prestige")
        if len(prestige_list) != PRESTIGE_COUNT:
            raise self.fail(
                "prestige",
                f"the game has {PRESTIGE_COUNT} Prestige Collection cards, "
                f"got {len(prestige_list)}",
            )
        for i, entry in enumerate(prestige_list):
            where = f"prestige[{i}]"
            entry = self.mapping(entry, where, ("id", "name", "books", "points"))
            pid = self.integer(entry["id"], f"{where}.id", 1)
            where = f"prestige[{i}] (id {pid})"
            if pid in prestige:
                raise self.fail(where, "duplicate prestige card id")
            books = []
            for k, b in enumerate(self.listing(entry["books"], f"{where}.books")):
                if b not in tower_index:
                    raise self.fail(
                        f"{where}.books[{k}]",
                        f"unknown tower {b!r}; towers: {', '.join(tower_index)}",
                    )
                books.append(tower_index[b])
            points = self.listing(entry["points"], f"{where}.points")
            if len(points) != len(books) + 1:
                raise self.fail(
                    f"{where}.points",
                    f"needs {len(books) + 1} entries (VP for 0..{len(books)} books marked), "
                    f"got {len(points)}",
                )
            pts = tuple(self.integer(p, f"{where}.points[{k}]", 0) for k, p in enumerate(points))
            for k in range(1, len(pts)):
                if pts[k] < pts[k - 1]:
                    raise self.fail(
                        f"{where}.points[{k}]",
                        f"{pts[k]} VP for {k} books is less than {pts[k - 1]} for {k - 1}: "
                        "marking a book never costs points",
                    )
            name = self.text(entry["name"], f"{where}.name")
            prestige[pid] = PrestigeCard(pid, name, tuple(books), pts)

        canonical = json.dumps(raw, sort_keys=True, separators=(",", ":"), default=str)
        digest = hashlib.sha256(canonical.encode()).hexdigest()[:12]
        return Components(
            source=self.source,
            digest=digest,
            spaces=spaces,
            librarian_start=start,
            starting_florins=florins,
            towers=tuple(towers),
            cards=FrozenDict(sorted(cards.items())),
            prestige=FrozenDict(sorted(prestige.items())),
            tower_at=tuple(tower_at),
            tower_index=FrozenDict(tower_index),
        )


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__
