"""Ex Libris component data: totals of the built-in files and loader errors."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from simcli.errors import GameOptionError
from simcli.games import get_game
from simcli.games.ex_libris.components import (
    DEFAULT_FILES,
    load_books,
    load_components,
    load_libraries,
    load_locations,
)

DATA = Path(__file__).resolve().parents[2] / "simcli" / "games" / "data"


def test_book_totals() -> None:
    comps = load_components()
    assert len(comps.categories) == 6
    assert [c.name for c in comps.categories] == [
        "Corrupted Codices",
        "Fantastical Fiction",
        "Historic Volumes",
        "Monster Manuals",
        "Reference Texts",
        "Spells and Potions",
    ]
    assert len(comps.books) == 152
    assert sum(len(b.books) for b in comps.books) == 510
    per_cat = Counter(cat for b in comps.books for cat in b.books)
    assert sorted(per_cat.values()) == [85] * 6
    assert all(2 <= len(b.books) <= 4 for b in comps.books)
    # the index order is the alphabetical order
    keys = [(b.letter, b.number) for b in comps.books]
    assert keys == sorted(keys)
    # each letter: numbers 1..of, and 'of' = cards with that letter
    by_letter = Counter(b.letter for b in comps.books)
    for b in comps.books:
        assert b.of == by_letter[b.letter] and 1 <= b.number <= b.of


@pytest.mark.slow
def test_location_and_library_totals() -> None:
    comps = load_components()
    assert len(comps.locations) == 18
    numbers = [loc.number for loc in comps.locations]
    assert numbers == sorted(set(numbers))
    start = [loc for loc in comps.locations if loc.start]
    assert [s.name for s in start] == ["Diviner's Hut"] and comps.locations[0].start
    assert all(1 <= len(loc.spaces) <= 4 for loc in comps.locations)
    assert any(loc.delayed for loc in comps.locations)
    names = {loc.name for loc in comps.locations}
    assert {"Ye Olde Book Swap", "Auction House", "Garbage Dump", "Shelfmasons Guild"} <= names
    assert len(comps.libraries) == 12
    assert len({lib.ability for lib in comps.libraries}) == 12


def _write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return str(path)


def _builtin(option: str) -> dict:
    return yaml.safe_load((DATA / DEFAULT_FILES[option]).read_text())


@pytest.mark.slow
def test_book_loader_errors_name_file_entry_and_problem(tmp_path: Path) -> None:
    data = _builtin("books_file")
    data["books"][0]["books"] = ["C", "Q"]
    path = _write(tmp_path, "books.yaml", data)
    with pytest.raises(
        GameOptionError, match=r"books\.yaml: books entry 1 \(A1\): unknown category"
    ):
        load_books(path)

    data = _builtin("books_file")
    data["books"][5]["books"] = data["books"][5]["books"][:2] + ["C", "C"]  # wrong totals
    path = _write(tmp_path, "books2.yaml", data)
    with pytest.raises(GameOptionError, match="books2.yaml: expected 510 books"):
        load_books(path)

    data = _builtin("books_file")
    icons = data["books"][0]["books"]
    other = next(c for c in "CFHMRS" if c not in icons)
    data["books"][0]["books"] = [other, *icons[1:]]  # 510 books kept, one category off
    path = _write(tmp_path, "books3.yaml", data)
    with pytest.raises(GameOptionError, match="appears 8[46] times; every category must appear 85"):
        load_books(path)

    data = _builtin("books_file")
    del data["books"][-1]
    path = _write(tmp_path, "books4.yaml", data)
    with pytest.raises(GameOptionError, match="letter Z: 1 cards, but their 'of' fields say"):
        load_books(path)

    data = _builtin("books_file")
    data["books"][0]["books"] = ["C"]
    path = _write(tmp_path, "books5.yaml", data)
    with pytest.raises(GameOptionError, match="books entry 1 .*2 to 4"):
        load_books(path)


@pytest.mark.slow
def test_location_loader_errors(tmp_path: Path) -> None:
    data = _builtin("locations_file")
    data["tiles"][3]["effect"] = [{"teleport": 1}]
    path = _write(tmp_path, "locs.yaml", data)
    with pytest.raises(
        GameOptionError,
        match=r"locs\.yaml: tile 4 \(Garbage Dump\) effect step 1: "
        "unknown effect primitive 'teleport'",
    ):
        load_locations(path)

    data = _builtin("locations_file")
    data["tiles"][1]["spaces"] = [1, 5]
    path = _write(tmp_path, "locs2.yaml", data)
    with pytest.raises(GameOptionError, match="tile 2 .*spaces must list"):
        load_locations(path)

    data = _builtin("locations_file")
    data["tiles"][0]["start"] = False
    path = _write(tmp_path, "locs3.yaml", data)
    with pytest.raises(GameOptionError, match="exactly one tile must have start: true"):
        load_locations(path)

    data = _builtin("locations_file")
    data["tiles"][7]["setup_cards"] = 0  # Market Stall takes from its area
    path = _write(tmp_path, "locs4.yaml", data)
    with pytest.raises(GameOptionError, match="Market Stall.*take/swap need setup_cards"):
        load_locations(path)

    data = _builtin("locations_file")
    del data["tiles"][-1]
    path = _write(tmp_path, "locs5.yaml", data)
    with pytest.raises(GameOptionError, match="expected 18 location tiles, found 17"):
        load_locations(path)


def test_library_loader_errors(tmp_path: Path) -> None:
    data = _builtin("libraries_file")
    data["libraries"][2]["ability"] = "flying"
    path = _write(tmp_path, "libs.yaml", data)
    with pytest.raises(GameOptionError, match="library 'The Crypt Reading Room': unknown ability"):
        load_libraries(path)


def test_library_reconstruction_flags(tmp_path: Path) -> None:
    # Known abilities with details of our own (Sasquatch blocking joiners, the Ghost
    # ignoring space limits) say "partly"; the last four assistants are wholly ours.
    libs = {lib.ability: lib.reconstructed for lib in load_libraries(None)}
    assert libs["sasquatch"] == "partly" and libs["ghost"] == "partly"
    assert [libs[a] for a in ("wisp", "imp", "dragon", "gargoyle")] == [True] * 4
    assert libs["bookworm"] is False and libs["automaton"] is False
    data = _builtin("libraries_file")
    data["libraries"][0]["reconstructed"] = "maybe"
    path = _write(tmp_path, "libs2.yaml", data)
    with pytest.raises(GameOptionError, match="reconstructed must be true, false or partly"):
        load_libraries(path)


@pytest.mark.slow
def test_replacement_file_through_option(tmp_path: Path) -> None:
    game = get_game("ex_libris")
    data = _builtin("locations_file")
    data["tiles"][5]["effect"] = [{"draw": 3}]  # Scriptorium draws 3 instead of 2
    path = _write(tmp_path, "my_locations.yaml", data)
    options = game.resolve_options({"locations_file": path})
    comps = game.components(options)
    assert comps.locations[5].effect[0].n == 3
    with pytest.raises(GameOptionError, match="cannot read"):
        game.resolve_options({"books_file": str(tmp_path / "missing.yaml")})
    (tmp_path / "bad.yaml").write_text("books: [")
    with pytest.raises(GameOptionError, match="bad.yaml: not valid YAML"):
        game.resolve_options({"books_file": str(tmp_path / "bad.yaml")})


def test_option_checks() -> None:
    game = get_game("ex_libris")
    assert game.resolve_options({})["final_round_trigger"] == "auto"
    assert game.resolve_options({"final_round_trigger": {3: 10}})["final_round_trigger"] == {
        "2": 13,
        "3": 10,
        "4": 11,
    }
    with pytest.raises(GameOptionError, match="final_round_trigger"):
        game.resolve_options({"final_round_trigger": "soon"})
    with pytest.raises(GameOptionError, match="max_rounds"):
        game.resolve_options({"max_rounds": 0})
    with pytest.raises(GameOptionError, match="mode"):
        game.resolve_options({"mode": "expert"})
