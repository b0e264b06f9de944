"""Every game rebuilds a state, or a seat's view, from its JSON snapshot, and no copy a
strategy is handed (a clone or a view) shares a mutable object with the real state.

A strategy in its own process gets its view as JSON and plays on the rebuilt object, so
the rebuilt view must be indistinguishable from the original: same snapshot, seat to
move, legal moves in the same order, render, evaluation, determinization with an equally
seeded RNG, and the same positions after the same moves. Seeded random playouts check
every ply of a few games per game and player count.
"""

from __future__ import annotations

import dataclasses
import json
import random
import types
from collections.abc import Iterator
from typing import Any

import pytest
from slow_cases import slow_unless

from simcli.frozen import FrozenDict, FrozenList, freeze
from simcli.game import CHANCE, Game, IllegalMoveError, State
from simcli.games import get_game

#: (game, players, options): every player count, and the option values that change what
#: a state holds (Ex Libris' advanced mode has library offers and abilities, Bibliogamo
#: may start by choosing its prestige card). Turn limits and Ex Libris' final round
#: trigger are lowered so that whole random games stay short.
CASES = [
    ("libraria", 2, {}),
    ("libraria", 2, {"opening": "one_counter", "tiebreak": "first_player"}),
    ("library", 2, {"max_turns": 60}),
    ("library", 4, {"max_turns": 60, "no_push_back": "after_any_roll"}),
    ("ex_libris", 2, {}),
    ("ex_libris", 3, {"mode": "advanced", "final_round_trigger": 4}),
    ("ex_libris", 4, {"final_round_trigger": 3}),
    ("adas_library", 2, {"max_turns": 60}),
    ("adas_library", 4, {"max_turns": 60}),
    ("bibliogamo", 1, {}),
    ("bibliogamo", 1, {"prestige": "choose", "block_scope": "any"}),
]
#: The seat compensation options away from their default (the rules as written): slow
#: tests, the quick ones are in tests/games/test_*_komi.py and test_*_extra_*.py.
COMPENSATED = [
    ("libraria", 2, {"komi": -6.5, "tiebreak": "first_player"}),
    ("library", 2, {"max_turns": 60, "extra_actions": 1}),
    ("library", 4, {"max_turns": 60, "extra_actions": 2}),
    ("ex_libris", 4, {"final_round_trigger": 3, "komi": 2.5}),
    ("adas_library", 2, {"max_turns": 60, "extra_cards": 2}),
    ("adas_library", 4, {"max_turns": 60, "extra_cards": 1}),
]
CASES += COMPENSATED
IDS = [f"{g}-{p}p-{i}" for i, (g, p, _) in enumerate(CASES)]
PARAMS = [
    pytest.param(*case, id=name, marks=pytest.mark.slow if case in COMPENSATED else ())
    for case, name in zip(CASES, IDS, strict=True)
]
GAMES_PER_CASE = 2
#: A safety net: the games above end sooner.
MAX_PLIES = 400
#: Steps played on from each rebuilt view next to the original view.
CONTINUATION = 2


def options_for(game: Game, given: dict[str, Any]) -> Any:
    """Resolved options, read-only as the referee hands them to the rules."""
    return freeze(game.resolve_options(given))


def playout(game: Game, players: int, options: Any, seed: int) -> Iterator[State]:
    """Every position of one seeded random game (the same object, moved on in place)."""
    rng = random.Random(seed)
    state = game.new_state(players, options, game.sample_setup(players, options, rng))
    for _ in range(MAX_PLIES):
        yield state
        if state.is_terminal():
            return
        step(state, rng)
    yield state


def step(state: State, rng: random.Random) -> None:
    """One random move or chance outcome."""
    if state.current_player == CHANCE:
        state.apply(state.sample_chance(rng))
    else:
        state.apply(rng.choice(state.legal_moves()))


def via_json(snapshot: dict[str, Any]) -> Any:
    return json.loads(json.dumps(snapshot))


def assert_same(original: State, rebuilt: State, seat: int, deep: bool = True) -> None:
    """Equal snapshots, seat to move, legal moves and outcome; ``deep``: also renders and
    evaluations (the costly part, so checked for the views a strategy plays from)."""
    assert rebuilt.snapshot() == original.snapshot()
    assert rebuilt.current_player == original.current_player
    assert rebuilt.legal_moves() == original.legal_moves()
    if original.is_terminal():
        assert rebuilt.outcome() == original.outcome()
    if deep:
        assert rebuilt.render() == original.render()
        assert original.game.evaluate(rebuilt, seat) == original.game.evaluate(original, seat)


def outcome_of_step(state: State, rng: random.Random) -> str | None:
    """One random step; the error if it fails (a view played on past a hidden draw may:
    its unknown cards are not cards), which the rebuilt copy must repeat."""
    try:
        step(state, rng)
    except Exception as exc:  # noqa: BLE001 - compared, not hidden
        return repr(exc)
    return None


def structure(obj: Any) -> Any:
    """``obj`` as nested lists, in the order it iterates (dict items and set members in
    their iteration order), objects as their attributes; read-only data and the game as
    themselves (compared by value)."""
    if isinstance(obj, ATOMS) or isinstance(obj, Game | FrozenDict | FrozenList):
        return obj
    if is_frozen_record(obj):
        return obj
    if isinstance(obj, dict):
        return ["dict", [[structure(k), structure(v)] for k, v in obj.items()]]
    if isinstance(obj, list | tuple | set | frozenset):
        return [type(obj).__name__, [structure(v) for v in obj]]
    attrs = dict(getattr(obj, "__dict__", {}))
    for name in getattr(type(obj), "__slots__", ()):
        attrs[name] = getattr(obj, name)
    return [type(obj).__name__, sorted((k, structure(v)) for k, v in attrs.items())]


def assert_same_future(original: State, rebuilt: State, seed: int) -> None:
    """Both play on identically: the same seeded moves and chance outcomes give the same
    positions, or the same refusal (work on copies: the caller keeps its objects)."""
    a, b = original.clone(), rebuilt.clone()
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    for _ in range(CONTINUATION):
        if a.is_terminal():
            break
        error = outcome_of_step(a, rng_a)
        assert outcome_of_step(b, rng_b) == error
        if error is not None:
            break
        assert b.snapshot() == a.snapshot()
        assert b.legal_moves() == a.legal_moves()


@pytest.mark.parametrize(
    ("game_id", "players", "given"), slow_unless(PARAMS, lambda game_id, *_: game_id == "libraria")
)
def test_rebuilt_states_and_views_behave_like_the_originals(
    game_id: str, players: int, given: dict[str, Any]
) -> None:
    game = get_game(game_id)
    options = options_for(game, given)
    plies = 0
    for seed in range(GAMES_PER_CASE):
        for ply, state in enumerate(playout(game, players, options, seed)):
            plies += 1
            full = game.state_from_snapshot(players, options, via_json(state.snapshot()))
            assert_same(state, full, seat=0)
            assert_same_future(state, full, seed=ply)
            mover = state.current_player if state.current_player >= 0 else ply % players
            for seat in range(players):
                view = state.view(seat)
                rebuilt = game.state_from_snapshot(players, options, via_json(view.snapshot()))
                assert_same(view, rebuilt, seat, deep=seat == mover or view.is_terminal())
                # a strategy iterating any container of the view sees the same order
                assert structure(rebuilt) == structure(view)
                if seat == mover and not view.is_terminal():  # what a searching strategy does
                    a = game.determinize(view, random.Random(ply))
                    b = game.determinize(rebuilt, random.Random(ply))
                    assert b.snapshot() == a.snapshot()
                    assert_same_future(view, rebuilt, seed=ply)
            # the rebuilt objects were not changed by what was done with them
            assert full.snapshot() == state.snapshot()
    assert plies > 2 * GAMES_PER_CASE  # the playouts did run


# ---------------------------------------------------------------------- shared objects


def is_frozen_record(obj: Any) -> bool:
    return dataclasses.is_dataclass(obj) and obj.__dataclass_params__.frozen  # type: ignore[union-attr]


ATOMS = (str, int, float, complex, bool, bytes, type(None), range, type)
CALLABLES = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType)


#: Read-only objects already searched and found to hold nothing mutable (kept alive here
#: so that their ids stay theirs): component data is searched once, not once per copy.
PURE: dict[int, Any] = {}


def mutable_objects(root: Any) -> dict[int, str]:
    """id -> path of every mutable object reachable from ``root``: lists, dicts, sets,
    bytearrays and objects with attributes, except the :class:`Game` (the rules, shared
    on purpose) and read-only data (tuples, frozensets, FrozenDict, FrozenList, frozen
    dataclasses), whose contents are searched all the same."""
    found: dict[int, str] = {}
    walk(root, "state", found, {})
    return found


def walk(obj: Any, path: str, found: dict[int, str], seen: dict[int, bool]) -> bool:
    """Add the mutable objects under ``obj`` (itself included) to ``found``; True if
    there are any. ``seen``: what this search has visited, and that answer for it."""
    if isinstance(obj, ATOMS + CALLABLES) or isinstance(obj, Game) or id(obj) in PURE:
        return False
    if id(obj) in seen:
        return seen[id(obj)]
    seen[id(obj)] = False
    if isinstance(obj, FrozenDict | types.MappingProxyType | dict):
        children = [(v, f"{path}[{k!r}]") for k, v in obj.items()]
        children += [(k, f"{path} key {k!r}") for k in obj]
    elif isinstance(obj, tuple | frozenset | list | set | bytearray):
        children = [(v, f"{path}[{i}]") for i, v in enumerate(obj)]
    elif hasattr(obj, "__dict__") or hasattr(type(obj), "__slots__"):
        attrs = dict(getattr(obj, "__dict__", {}))
        for cls in type(obj).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if hasattr(obj, name):
                    attrs[name] = getattr(obj, name)
        children = [(v, f"{path}.{name}") for name, v in attrs.items()]
    else:
        raise AssertionError(f"{path}: unexpected object of type {type(obj).__name__}")
    read_only = isinstance(
        obj, FrozenDict | FrozenList | types.MappingProxyType | tuple | frozenset
    ) or (not isinstance(obj, dict | list | set | bytearray) and is_frozen_record(obj))
    if not read_only:
        found[id(obj)] = path
    below = False
    for child, child_path in children:
        below = walk(child, child_path, found, seen) or below
    if read_only and not below:
        PURE[id(obj)] = obj
    seen[id(obj)] = below or not read_only
    return seen[id(obj)]


def assert_nothing_shared(original: dict[int, str], copy: State, what: str) -> None:
    """``copy`` reaches none of the mutable objects ``original`` (from
    :func:`mutable_objects` of the state it was made from) reaches."""
    theirs = mutable_objects(copy)
    shared = sorted(theirs[i] for i in theirs.keys() & original.keys())
    assert not shared, f"{what} shares mutable objects with the state: {shared[:5]}"


@pytest.mark.parametrize(("game_id", "players", "given"), PARAMS)
def test_clones_and_views_share_no_mutable_object(
    game_id: str, players: int, given: dict[str, Any]
) -> None:
    game = get_game(game_id)
    options = options_for(game, given)
    checked = 0
    for ply, state in enumerate(playout(game, players, options, seed=7)):
        if ply % 10 and not state.is_terminal():
            continue
        checked += 1
        mine = mutable_objects(state)
        assert_nothing_shared(mine, state.clone(), "clone()")
        rebuilt = game.state_from_snapshot(players, options, via_json(state.snapshot()))
        assert_nothing_shared(mine, rebuilt, "state_from_snapshot")
        for seat in range(players):
            view = state.view(seat)
            assert_nothing_shared(mine, view, f"view({seat})")
            if not view.is_terminal():
                sample = game.determinize(view, random.Random(1))
                assert_nothing_shared(mutable_objects(view), sample, "determinize")
    assert checked >= 2


def test_the_walker_finds_a_shared_list() -> None:
    """The check above can fail: a copy that shares one nested list is caught."""
    game = get_game("ex_libris")
    options = options_for(game, {})
    state = game.new_state(2, options, game.sample_setup(2, options, random.Random(1)))
    copy = state.clone()
    copy.occupants = state.occupants  # type: ignore[attr-defined]
    mine = mutable_objects(state)
    with pytest.raises(AssertionError, match="occupants"):
        assert_nothing_shared(mine, copy, "clone()")
    copy = state.clone()
    copy.shelves[0] = state.shelves[0]  # type: ignore[attr-defined]
    with pytest.raises(AssertionError, match=r"shelves\[0\]"):
        assert_nothing_shared(mine, copy, "clone()")


# ---------------------------------------------------------------------- read-only data


def first_view(game_id: str, players: int, given: dict[str, Any] | None = None) -> State:
    game = get_game(game_id)
    options = options_for(game, given or {})
    state = game.new_state(players, options, game.sample_setup(players, options, random.Random(3)))
    return state.view(0)


def test_options_of_a_view_are_read_only() -> None:
    for game_id, players, given in CASES:
        view = first_view(game_id, players, given)
        name = next(iter(view.options))
        with pytest.raises(TypeError):
            view.options[name] = "changed"  # type: ignore[index]
        with pytest.raises(TypeError):
            view.options.clear()  # type: ignore[attr-defined]
        with pytest.raises(TypeError):  # nor the option specs of the game itself
            view.game.options[name] = view.game.options[name]  # type: ignore[index]


def test_component_data_cannot_be_changed_through_a_view() -> None:
    view: Any = first_view("bibliogamo", 1)
    card = next(iter(view.comp.cards))
    prestige = next(iter(view.comp.prestige))
    with pytest.raises(TypeError):
        view.comp.cards[card] = view.comp.cards[prestige]
    with pytest.raises(TypeError):
        view.comp.prestige.pop(prestige)
    with pytest.raises(TypeError):
        view.comp.tower_index["history"] = 0
    with pytest.raises(TypeError):
        view.comp.cards[card].artisans[0] = 1  # a tuple
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.comp.starting_florins = 99

    view = first_view("adas_library", 2)
    with pytest.raises(TypeError):
        view.comp.players[2] = (1, 1)
    with pytest.raises(TypeError):
        view.options["components"]["cards"]["move1"] = 0

    view = first_view("ex_libris", 2)
    with pytest.raises(TypeError):
        view.comps._book_names["A1"] = 5
    with pytest.raises(TypeError):
        view.comps.books[0].books[0] = 3  # a tuple
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.comps.locations[0].effect = ()

    view = first_view("library", 2)
    with pytest.raises(TypeError):
        view.entrance_of[0] = 1

    view = first_view("libraria", 2)
    with pytest.raises(TypeError):
        view.tiles[0] = 3


# ---------------------------------------------------------------------- bad snapshots


def sample_snapshot(game_id: str, players: int, plies: int = 30) -> dict[str, Any]:
    """The snapshot of a seeded random position a few plies in (lists filled)."""
    game = get_game(game_id)
    options = options_for(game, {})
    for ply, state in enumerate(playout(game, players, options, seed=5)):
        if ply == plies or state.is_terminal():
            return via_json(state.snapshot())
    raise AssertionError("unreachable")


SMALLEST = [(g, min(get_game(g).player_counts)) for g in sorted({c[0] for c in CASES})]


@pytest.mark.parametrize(("game_id", "players"), SMALLEST)
def test_snapshots_of_the_wrong_shape_are_refused(game_id: str, players: int) -> None:
    game = get_game(game_id)
    options = options_for(game, {})
    good = sample_snapshot(game_id, players)
    game.state_from_snapshot(players, options, good)  # the base case is accepted

    def refused(snapshot: Any) -> None:
        with pytest.raises(IllegalMoveError):
            game.state_from_snapshot(players, options, snapshot)

    refused([])
    refused("snapshot")
    refused({})
    for key, value in good.items():
        refused({k: v for k, v in good.items() if k != key})  # a key missing
        refused({**good, key: "bogus"})  # a value of the wrong type
        refused({**good, key: [[["deep"]]]})
        if isinstance(value, list) and value:
            refused({**good, key: ["bogus", *value[1:]]})  # a bad entry
    for other, other_players in SMALLEST:  # another game's snapshot
        if other != game_id:
            refused(sample_snapshot(other, other_players))


@pytest.mark.parametrize("game_id", ["ex_libris", "adas_library", "library"])
def test_a_snapshot_of_another_player_count_is_refused(game_id: str) -> None:
    game = get_game(game_id)
    options = options_for(game, {})
    counts = game.player_counts
    snapshot = sample_snapshot(game_id, counts[0])
    with pytest.raises(IllegalMoveError):
        game.state_from_snapshot(counts[-1], options, snapshot)


def test_a_hidden_card_in_a_full_state_is_refused() -> None:
    """``-1``/``"?"`` (unknown) is only allowed in a view."""
    game = get_game("ex_libris")
    options = options_for(game, {})
    snapshot = sample_snapshot("ex_libris", 2)
    with pytest.raises(IllegalMoveError, match="hands"):
        game.state_from_snapshot(2, options, {**snapshot, "hands": [[-1], snapshot["hands"][1]]})
    game = get_game("adas_library")
    options = options_for(game, {})
    snapshot = sample_snapshot("adas_library", 2)
    with pytest.raises(IllegalMoveError, match="'\\?'"):
        game.state_from_snapshot(2, options, {**snapshot, "draw": ["?"]})


def test_a_finished_ex_libris_view_carries_the_score_sheets() -> None:
    """The view of a scored game keeps the other focus cards hidden but holds the public
    score sheets, so the rebuilt view has the same outcome; a full state's snapshot does
    not hold them (records stay as they were) and recomputes them."""
    game = get_game("ex_libris")
    options = options_for(game, {"final_round_trigger": 3})
    rng = random.Random(11)
    state: Any = game.new_state(2, options, game.sample_setup(2, options, rng))
    while not state.is_terminal():
        step(state, rng)
    assert "inspection" not in state.snapshot()
    view = state.view(1)
    assert view.focus[0] == -1
    snapshot = via_json(view.snapshot())
    assert len(snapshot["inspection"]) == 2
    rebuilt = game.state_from_snapshot(2, options, snapshot)
    assert rebuilt.outcome() == state.outcome()
    assert rebuilt.sheets == state.sheets  # type: ignore[attr-defined]
    for bad in (None, [], [{"total": 3}] * 2, [{**snapshot["inspection"][0], "total": "3"}] * 2):
        with pytest.raises(IllegalMoveError, match="inspection"):
            game.state_from_snapshot(2, options, {**snapshot, "inspection": bad})
