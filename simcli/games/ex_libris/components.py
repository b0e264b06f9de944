"""Ex Libris components as data: categories, book cards, location tiles, libraries.

The built-in files live in ``simcli/games/data/ex_libris_*.yaml`` (reconstructed parts are
marked in their headers). :func:`load_components` reads and validates them; every error is
a :class:`GameOptionError` naming the file, the entry and what is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

from simcli.errors import GameOptionError
from simcli.frozen import FrozenDict
from simcli.games.datafile import read_data_file

#: Facts of the published game that the book file must meet.
BOOK_CARDS = 152
BOOK_TOTAL = 510
BOOKS_PER_CATEGORY = 85
CATEGORY_COUNT = 6
LOCATION_COUNT = 18
LIBRARY_COUNT = 12

DEFAULT_FILES = MappingProxyType(
    {
        "books_file": "ex_libris_books.yaml",
        "locations_file": "ex_libris_locations.yaml",
        "libraries_file": "ex_libris_libraries.yaml",
    }
)

#: Effect primitives: name -> kind of parameter ("count" = positive int, "pair" = [N, K]).
PRIMITIVES: MappingProxyType[str, str] = MappingProxyType(
    {
        "draw": "count",
        "draw_per_assistant": "count",
        "first_player": "count",
        "take": "count",
        "shelve": "count",
        "shelve_taken": "count",
        "swap": "count",
        "discard_draw": "count",
        "search_discard": "count",
        "draw_keep": "pair",
        "bid": "count",
        "pay_bid": "count",
    }
)
#: Primitives that need cards dealt to the tile's card area.
AREA_PRIMITIVES = ("take", "swap")

#: Special-assistant abilities the rules module implements.
ABILITIES = (
    "goblin_sneak",
    "automaton",
    "mummy",
    "gelatinous_cube",
    "sasquatch",
    "bookworm",
    "snowman",
    "ghost",
    "wisp",
    "imp",
    "dragon",
    "gargoyle",
)


@dataclass(frozen=True)
class Category:
    code: str
    name: str


@dataclass(frozen=True)
class Book:
    """One book card. ``books`` holds one category index per book icon."""

    letter: str
    number: int
    of: int
    books: tuple[int, ...]

    @property
    def name(self) -> str:
        return f"{self.letter}{self.number}"


@dataclass(frozen=True)
class Step:
    """One effect primitive with its parameter (``arg2`` only for ``draw_keep``)."""

    op: str
    n: int
    k: int = 0


@dataclass(frozen=True)
class Location:
    number: int
    name: str
    start: bool
    delayed: bool
    setup_fixed: int  # cards dealt at preparation = setup_fixed + setup_per_player * players
    setup_per_player: int
    spaces: tuple[int, ...]
    effect: tuple[Step, ...]

    def setup_cards(self, players: int) -> int:
        return self.setup_fixed + self.setup_per_player * players

    def open_spaces(self, players: int) -> int:
        """How many assistant spaces are open at this player count."""
        counts = self._open_counts
        if players < len(counts):
            return counts[players]
        return sum(1 for marker in self.spaces if marker <= players)

    @cached_property
    def _open_counts(self) -> tuple[int, ...]:
        """:meth:`open_spaces` for 0..4 players, counted once."""
        return tuple(sum(1 for marker in self.spaces if marker <= n) for n in range(5))

    @property
    def has_bid(self) -> bool:
        return any(step.op == "bid" for step in self.effect)


@dataclass(frozen=True)
class Library:
    name: str
    assistant: str
    ability: str
    reconstructed: bool | str  # true, false or "partly" (a known ability with our details)


@dataclass(frozen=True)
class Components:
    categories: tuple[Category, ...]
    books: tuple[Book, ...]  # sorted alphabetically: index order = (letter, number) order
    locations: tuple[Location, ...]  # sorted by number
    libraries: tuple[Library, ...]

    def __post_init__(self) -> None:
        # read-only lookups: every state, clone and view of a game shares the components
        books = FrozenDict({book.name: i for i, book in enumerate(self.books)})
        object.__setattr__(self, "_book_names", books)
        locations = FrozenDict({loc.number: i for i, loc in enumerate(self.locations)})
        object.__setattr__(self, "_location_numbers", locations)
        codes = FrozenDict({cat.code: i for i, cat in enumerate(self.categories)})
        object.__setattr__(self, "_category_codes", codes)

    def book_index(self, name: Any) -> int | None:
        return self._book_names.get(name) if isinstance(name, str) else None  # type: ignore[attr-defined]

    def location_index(self, number: Any) -> int | None:
        if not _is_int(number):
            return None
        return self._location_numbers.get(number)  # type: ignore[attr-defined]

    def category_index(self, code: Any) -> int | None:
        return self._category_codes.get(code) if isinstance(code, str) else None  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- loading


def _read_yaml(option: str, path: str | None) -> tuple[str, Any]:
    return read_data_file("ex_libris", DEFAULT_FILES[option], path, option)


def _section(label: str, data: Any, key: str) -> list[Any]:
    if not isinstance(data, dict) or key not in data:
        raise GameOptionError(f"ex_libris: {label}: expected a mapping with a '{key}' list")
    items = data[key]
    if not isinstance(items, list):
        raise GameOptionError(f"ex_libris: {label}: '{key}' must be a list")
    return items


def _fields(label: str, where: str, entry: Any, required: tuple[str, ...], optional=()) -> dict:
    if not isinstance(entry, dict):
        raise GameOptionError(f"ex_libris: {label}: {where}: expected a mapping, got {entry!r}")
    missing = [f for f in required if f not in entry]
    if missing:
        raise GameOptionError(f"ex_libris: {label}: {where}: missing field '{missing[0]}'")
    unknown = sorted(set(entry) - set(required) - set(optional))
    if unknown:
        raise GameOptionError(f"ex_libris: {label}: {where}: unknown field '{unknown[0]}'")
    return entry


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def load_books(path: str | None) -> tuple[tuple[Category, ...], tuple[Book, ...]]:
    label, data = _read_yaml("books_file", path)
    raw_cats = _section(label, data, "categories")
    categories: list[Category] = []
    for i, entry in enumerate(raw_cats):
        where = f"categories entry {i + 1}"
        e = _fields(label, where, entry, ("code", "name"))
        code, name = e["code"], e["name"]
        if not (isinstance(code, str) and re.fullmatch(r"[A-Z]", code)):
            raise GameOptionError(
                f"ex_libris: {label}: {where}: code must be one capital letter, got {code!r}"
            )
        if not isinstance(name, str) or not name:
            raise GameOptionError(f"ex_libris: {label}: {where}: name must be text")
        if any(c.code == code for c in categories):
            raise GameOptionError(f"ex_libris: {label}: {where}: duplicate category code {code}")
        categories.append(Category(code, name))
    if len(categories) != CATEGORY_COUNT:
        raise GameOptionError(
            f"ex_libris: {label}: expected {CATEGORY_COUNT} categories, found {len(categories)}"
        )
    codes = {c.code: i for i, c in enumerate(categories)}

    books: list[Book] = []
    seen: set[str] = set()
    for i, entry in enumerate(_section(label, data, "books")):
        where = f"books entry {i + 1}"
        e = _fields(label, where, entry, ("letter", "number", "of", "books"))
        letter, number, of, icons = e["letter"], e["number"], e["of"], e["books"]
        if not (isinstance(letter, str) and re.fullmatch(r"[A-Z]", letter)):
            raise GameOptionError(
                f"ex_libris: {label}: {where}: letter must be one capital letter, got {letter!r}"
            )
        where = f"books entry {i + 1} ({letter}{number})"
        if not (_is_int(of) and of >= 1):
            raise GameOptionError(f"ex_libris: {label}: {where}: 'of' must be a positive integer")
        if not (_is_int(number) and 1 <= number <= of):
            raise GameOptionError(
                f"ex_libris: {label}: {where}: number must be an integer from 1 to {of}"
            )
        if f"{letter}{number}" in seen:
            raise GameOptionError(f"ex_libris: {label}: {where}: duplicate card {letter}{number}")
        seen.add(f"{letter}{number}")
        if not isinstance(icons, list) or not 2 <= len(icons) <= 4:
            raise GameOptionError(
                f"ex_libris: {label}: {where}: books must list 2 to 4 category codes"
            )
        for icon in icons:
            if icon not in codes:
                raise GameOptionError(
                    f"ex_libris: {label}: {where}: unknown category code {icon!r} "
                    f"(known: {', '.join(codes)})"
                )
        books.append(Book(letter, number, of, tuple(codes[c] for c in icons)))

    by_letter: dict[str, list[Book]] = {}
    for book in books:
        by_letter.setdefault(book.letter, []).append(book)
    for letter, group in sorted(by_letter.items()):
        ofs = {b.of for b in group}
        if len(ofs) != 1 or ofs.pop() != len(group):
            raise GameOptionError(
                f"ex_libris: {label}: letter {letter}: {len(group)} cards, but their 'of' "
                f"fields say {sorted({b.of for b in group})}"
            )
    if len(books) != BOOK_CARDS:
        raise GameOptionError(
            f"ex_libris: {label}: expected {BOOK_CARDS} book cards, found {len(books)}"
        )
    total = sum(len(b.books) for b in books)
    if total != BOOK_TOTAL:
        raise GameOptionError(
            f"ex_libris: {label}: expected {BOOK_TOTAL} books on the cards, found {total}"
        )
    for ci, cat in enumerate(categories):
        n = sum(b.books.count(ci) for b in books)
        if n != BOOKS_PER_CATEGORY:
            raise GameOptionError(
                f"ex_libris: {label}: category {cat.code} ({cat.name}) appears {n} times; "
                f"every category must appear {BOOKS_PER_CATEGORY} times"
            )
    books.sort(key=lambda b: (b.letter, b.number))
    return tuple(categories), tuple(books)


def _parse_setup(label: str, where: str, value: Any) -> tuple[int, int]:
    if value is None:
        return 0, 0
    if _is_int(value) and value >= 0:
        return value, 0
    if isinstance(value, str):
        m = re.fullmatch(r"\s*players\s*(?:\+\s*(\d+))?\s*", value)
        if m:
            return int(m.group(1) or 0), 1
    raise GameOptionError(
        f"ex_libris: {label}: {where}: setup_cards must be an integer >= 0, 'players' or "
        f"'players+N'; got {value!r}"
    )


def _parse_step(label: str, where: str, raw: Any) -> Step:
    if not isinstance(raw, dict) or len(raw) != 1:
        raise GameOptionError(
            f"ex_libris: {label}: {where}: each effect step is a one-key mapping like "
            f"{{draw: 2}}; got {raw!r}"
        )
    ((op, arg),) = raw.items()
    if op not in PRIMITIVES:
        raise GameOptionError(
            f"ex_libris: {label}: {where}: unknown effect primitive '{op}' "
            f"(known: {', '.join(PRIMITIVES)})"
        )
    if PRIMITIVES[op] == "pair":
        if not (
            isinstance(arg, list)
            and len(arg) == 2
            and all(_is_int(a) for a in arg)
            and 1 <= arg[1] <= arg[0]
        ):
            raise GameOptionError(
                f"ex_libris: {label}: {where}: {op} needs [N, K] with 1 <= K <= N; got {arg!r}"
            )
        return Step(op, arg[0], arg[1])
    if not (_is_int(arg) and arg >= 1):
        raise GameOptionError(
            f"ex_libris: {label}: {where}: {op} needs a positive integer; got {arg!r}"
        )
    return Step(op, arg)


def load_locations(path: str | None) -> tuple[Location, ...]:
    label, data = _read_yaml("locations_file", path)
    tiles: list[Location] = []
    for i, entry in enumerate(_section(label, data, "tiles")):
        where = f"tiles entry {i + 1}"
        e = _fields(
            label,
            where,
            entry,
            ("number", "name", "timing", "spaces", "effect"),
            ("start", "setup_cards"),
        )
        number, name = e["number"], e["name"]
        if not (_is_int(number) and number >= 1):
            raise GameOptionError(f"ex_libris: {label}: {where}: number must be a positive integer")
        if not isinstance(name, str) or not name:
            raise GameOptionError(f"ex_libris: {label}: {where}: name must be text")
        where = f"tile {number} ({name})"
        if any(t.number == number for t in tiles):
            raise GameOptionError(f"ex_libris: {label}: {where}: duplicate tile number {number}")
        if any(t.name == name for t in tiles):
            raise GameOptionError(f"ex_libris: {label}: {where}: duplicate tile name")
        if e["timing"] not in ("instant", "delayed"):
            raise GameOptionError(
                f"ex_libris: {label}: {where}: timing must be instant or delayed, "
                f"got {e['timing']!r}"
            )
        spaces = e["spaces"]
        if (
            not isinstance(spaces, list)
            or not 1 <= len(spaces) <= 4
            or not all(_is_int(s) and 1 <= s <= 4 for s in spaces)
            or spaces != sorted(spaces)
            or spaces[0] != 1
        ):
            raise GameOptionError(
                f"ex_libris: {label}: {where}: spaces must list 1 to 4 player-count markers "
                f"(1-4, ascending, the first one 1); got {spaces!r}"
            )
        fixed, per_player = _parse_setup(label, where, e.get("setup_cards"))
        raw_effect = e["effect"]
        if not isinstance(raw_effect, list) or not raw_effect:
            raise GameOptionError(f"ex_libris: {label}: {where}: effect must be a non-empty list")
        effect = tuple(
            _parse_step(label, f"{where} effect step {j + 1}", s) for j, s in enumerate(raw_effect)
        )
        ops = [s.op for s in effect]
        if any(op in AREA_PRIMITIVES for op in ops) and fixed + per_player == 0:
            raise GameOptionError(
                f"ex_libris: {label}: {where}: take/swap need setup_cards for the card area"
            )
        if ("pay_bid" in ops) != ("bid" in ops) or ops.count("bid") > 1:
            raise GameOptionError(
                f"ex_libris: {label}: {where}: a tile with a bid needs exactly one bid step "
                f"and a pay_bid step"
            )
        if "bid" in ops and e["timing"] != "delayed":
            raise GameOptionError(f"ex_libris: {label}: {where}: bids need a delayed tile")
        start = e.get("start", False)
        if not isinstance(start, bool):
            raise GameOptionError(f"ex_libris: {label}: {where}: start must be true or false")
        tiles.append(
            Location(
                number=number,
                name=name,
                start=start,
                delayed=e["timing"] == "delayed",
                setup_fixed=fixed,
                setup_per_player=per_player,
                spaces=tuple(spaces),
                effect=effect,
            )
        )
    if len(tiles) != LOCATION_COUNT:
        raise GameOptionError(
            f"ex_libris: {label}: expected {LOCATION_COUNT} location tiles, found {len(tiles)}"
        )
    starts = [t for t in tiles if t.start]
    if len(starts) != 1:
        raise GameOptionError(
            f"ex_libris: {label}: exactly one tile must have start: true, found {len(starts)}"
        )
    tiles.sort(key=lambda t: t.number)
    if not tiles[0].start:
        raise GameOptionError(
            f"ex_libris: {label}: the start tile ({starts[0].name}) must have the lowest number"
        )
    return tuple(tiles)


def load_libraries(path: str | None) -> tuple[Library, ...]:
    label, data = _read_yaml("libraries_file", path)
    libraries: list[Library] = []
    for i, entry in enumerate(_section(label, data, "libraries")):
        where = f"libraries entry {i + 1}"
        e = _fields(label, where, entry, ("name", "assistant", "ability"), ("reconstructed",))
        name, assistant, ability = e["name"], e["assistant"], e["ability"]
        if not isinstance(name, str) or not name or not isinstance(assistant, str):
            raise GameOptionError(f"ex_libris: {label}: {where}: name and assistant must be text")
        where = f"library '{name}'"
        if any(lib.name == name for lib in libraries):
            raise GameOptionError(f"ex_libris: {label}: {where}: duplicate library name")
        if ability not in ABILITIES:
            raise GameOptionError(
                f"ex_libris: {label}: {where}: unknown ability {ability!r} "
                f"(known: {', '.join(ABILITIES)})"
            )
        rec = e.get("reconstructed", False)
        if not isinstance(rec, bool) and rec != "partly":
            raise GameOptionError(
                f"ex_libris: {label}: {where}: reconstructed must be true, false or partly; "
                f"got {rec!r}"
            )
        libraries.append(Library(name, assistant, ability, rec))
    if len(libraries) != LIBRARY_COUNT:
        raise GameOptionError(
            f"ex_libris: {label}: expected {LIBRARY_COUNT} libraries, found {len(libraries)}"
        )
    return tuple(libraries)


def load_components(
    books_file: str | None = None,
    locations_file: str | None = None,
    libraries_file: str | None = None,
) -> Components:
    """Read and validate the three data files (``None`` = the built-in file)."""
    categories, books = load_books(books_file)
    return Components(
        categories=categories,
        books=books,
        locations=load_locations(locations_file),
        libraries=load_libraries(libraries_file),
    )
