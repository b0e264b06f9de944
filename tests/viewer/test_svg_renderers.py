"""Each game's SVG picture on hand-built positions: the pieces, counted in the SVG."""

from __future__ import annotations

import random
from xml.etree import ElementTree

from viewer_support import with_class

from simcli.games import get_game

# Five tiles of each value, row-major; -1 is a mouse.
TILES = [3, -1, 0, 3, 0, 2, 1, 0, 0, -1, 1, 2, 1, 2, 3, 3, 3, -1, 2, 0, 1, 1, 2, -1, -1]


def state_of(game_id: str, players: int, setup=None, seed: int = 1):
    game = get_game(game_id)
    options = game.resolve_options({})
    if setup is None:
        setup = game.sample_setup(players, options, random.Random(seed))
    return game, game.new_state(players, options, setup)


def test_libraria_three_counters_on_their_spots():
    game, state = state_of("libraria", 2, {"tiles": TILES})
    for spot in (0, 7, 14):  # seat 0 places one counter, then seat 1 places two
        state.apply(spot)
    svg = game.render_svg(state)
    counters = with_class(svg, "counter")
    assert [(c.get("data-spot"), c.get("data-seat")) for c in counters] == [
        ("0", "0"),
        ("7", "1"),
        ("14", "1"),
    ]
    assert len(with_class(svg, "spot")) == 33  # the empty corners
    tiles = with_class(svg, "tile")
    assert [int(t.get("data-value")) for t in tiles] == TILES
    assert len(with_class(svg, "mouse")) == 5


def test_libraria_scores_are_the_rules_scores():
    game, state = state_of("libraria", 2, {"tiles": TILES})
    for spot in (0, 1, 6, 7):  # seat 0 on spot 0, seat 1 on 1 and 6, seat 0 on 7
        state.apply(spot)
    texts = [t.text for t in ElementTree.fromstring(game.render_svg(state)).iter() if t.text]
    a, b = state.scores()
    assert f"seat 0: {a} points" in texts and f"seat 1: {b} points" in texts


def test_sphere_game_wall_plate_sphere_and_entrances():
    game, state = state_of("library", 2, {})
    state.apply("W a4-a5")  # seat 0 lays a wall
    state.apply("P d5")  # seat 1 lays a plate; the plate pulls the sphere onto it
    svg = game.render_svg(state)
    assert len(with_class(svg, "cell")) == 49
    walls = with_class(svg, "wall")
    assert [(w.get("data-gap"), w.get("data-seat")) for w in walls] == [("a4-a5", "0")]
    plates = with_class(svg, "plate")
    assert [(p.get("data-cell"), p.get("data-seat")) for p in plates] == [("d5", "1")]
    assert [s.get("data-cell") for s in with_class(svg, "sphere")] == ["d5"]
    assert len(with_class(svg, "fountain")) == 1
    assert sorted(e.get("data-seat") for e in with_class(svg, "entrance")) == ["0", "1"]


def test_sphere_game_four_entrances():
    game = get_game("library")
    state = game.new_state(4, game.resolve_options({}), {"version": 2})
    assert len(with_class(game.render_svg(state), "entrance")) == 4


def test_adas_library_rows_master_and_hands():
    game, state = state_of("adas_library", 2)
    snap = state.snapshot()
    svg = game.render_svg(state)
    assert [m.get("data-colour") for m in with_class(svg, "master-card")] == snap["master"]
    for seat in (0, 1):
        books = [b for b in with_class(svg, "book") if b.get("data-seat") == str(seat)]
        assert [b.get("data-colour") for b in books] == snap["rows"][seat]
        cards = [c for c in with_class(svg, "card") if c.get("data-seat") == str(seat)]
        assert [c.get("data-card") for c in cards] == snap["hands"][seat]
    assert not with_class(svg, "unknown")


def test_adas_library_seat_view_hides_the_other_hand():
    game, state = state_of("adas_library", 2)
    svg = game.render_svg(state.view(0), 0)
    unknown = with_class(svg, "unknown")
    assert len(unknown) == len(state.hands[1]) == 5
    assert {c.get("data-seat") for c in unknown} == {"1"}
    mine = [c.get("data-card") for c in with_class(svg, "card") if c.get("data-seat") == "0"]
    assert mine == state.hands[0]


def test_ex_libris_locations_hands_and_shelf():
    game, state = state_of("ex_libris", 2)
    card = state.hands[0][0]
    name = state.comps.books[card].name
    state.apply(["home", "shelve", name, 0, 0])  # seat 0 shelves a card at its home
    svg = game.render_svg(state)
    shelf = with_class(svg, "shelf-card")
    assert [(c.get("data-seat"), c.get("data-card"), c.get("data-row")) for c in shelf] == [
        ("0", name, "0")
    ]
    assert shelf[0].get("data-letter") == name[0]
    numbers = [int(loc.get("data-number")) for loc in with_class(svg, "location")]
    assert numbers == [state.comps.locations[t].number for t in state.face_up_tiles()]
    for seat in (0, 1):
        hand = [c for c in with_class(svg, "card") if c.get("data-seat") == str(seat)]
        assert len(hand) == len(state.hands[seat])


def test_ex_libris_assistants_on_locations():
    game, state = state_of("ex_libris", 2)
    move = next(m for m in state.legal_moves() if m[0] == "loc")
    state.apply(move)  # seat 0 places an assistant on a location
    svg = game.render_svg(state)
    assistants = with_class(svg, "assistant")
    assert [a.get("data-seat") for a in assistants] == ["0"]


def test_ex_libris_seat_view_hides_the_other_hand():
    game, state = state_of("ex_libris", 2)
    state.apply(next(m for m in state.legal_moves() if m[0] == "loc"))
    view = state.view(0)
    svg = game.render_svg(view, 0)
    theirs = [c for c in with_class(svg, "card") if c.get("data-seat") == "1"]
    assert theirs and all("unknown" in c.get("class") for c in theirs)
    mine = [c for c in with_class(svg, "card") if c.get("data-seat") == "0"]
    assert len(mine) == len(view.hands[0]) and not any("unknown" in c.get("class") for c in mine)


def test_bibliogamo_towers_librarian_and_artisans():
    game, state = state_of("bibliogamo", 1)
    state.towers[0] = [2, 1, 0, 0]  # two Researchers and a Scribe hired into History
    state.librarian = 5
    svg = game.render_svg(state)
    towers = with_class(svg, "tower")
    assert [t.get("data-tower") for t in towers] == [t.id for t in state.comp.towers]
    assert [e.get("data-space") for e in with_class(svg, "librarian")] == ["5"]
    cubes = with_class(svg, "cube")
    assert [(c.get("data-tower"), c.get("data-artisan")) for c in cubes] == [
        ("history", "R"),
        ("history", "R"),
        ("history", "S"),
    ]
    needed = sum(sum(t.recipe) for t in state.comp.towers)
    assert len(with_class(svg, "slot")) == needed - 3
    assert len(with_class(svg, "day")) == 40
    assert [c.get("data-card") for c in with_class(svg, "card")] == [str(c) for c in state.hand]
