"""Common random numbers: the same chance event of two games with the same seed draws the
same randomness, whatever happened before it (simcli/games/chance.py).

Two histories are played from one seed the way the tournament driver plays them (the
chance RNG draws the setup, then serves every chance event) but with different moves; the
cards the two piles of a reshuffle have in common must come out in the same relative
order, and so must the location tiles of Ex Libris.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from simcli.game import CHANCE
from simcli.games import get_game
from simcli.games.chance import ChanceStreams, copy_numbers, keyed_order, keyed_pick
from simcli.games.ex_libris.effects import ReshuffleDeck
from simcli.seeding import chance_rng


def common_order(a: list[Any], b: list[Any]) -> tuple[list[Any], list[Any]]:
    both = set(a) & set(b)
    return [x for x in a if x in both], [x for x in b if x in both]


def test_keyed_order_keeps_the_relative_order_of_common_cards() -> None:
    # Two piles from a universe of 10 cards, sharing cards 1, 4, 7, 8.
    first = keyed_order([1, 4, 7, 8, 2, 3], int, 10, random.Random(11))
    second = keyed_order([9, 8, 7, 4, 1, 0], int, 10, random.Random(11))
    assert sorted(first) == [1, 2, 3, 4, 7, 8] and sorted(second) == [0, 1, 4, 7, 8, 9]
    a, b = common_order(first, second)
    assert a == b and len(a) == 4
    # the pick is the first card of the order
    assert keyed_pick([1, 4, 7, 8, 2, 3], int, 10, random.Random(11)) == first[0]


def test_copy_numbers_number_identical_cards_by_copy() -> None:
    # universe: a a a b b c -> a = 0, 1, 2; b = 3, 4; c = 5
    universe = ["a", "a", "a", "b", "b", "c"]
    assert copy_numbers(["b", "a", "c", "a", "b"], universe) == [3, 0, 5, 1, 4]


def test_streams_take_the_key_once_and_count_events() -> None:
    driver = random.Random(3)
    streams = ChanceStreams()  # a state without a key (a view, a hand-made setup)
    first = streams.random(driver, "reshuffle").random()
    key = streams.key
    again = streams.random(random.Random(99), "reshuffle").random()  # key kept: same draw
    assert streams.key == key and again == first
    streams.happened("reshuffle")
    assert streams.random(driver, "reshuffle").random() != first  # the next occurrence
    assert streams.snapshot() == {"key": key, "events": {"reshuffle": 1}}
    assert streams.hidden().key is None and streams.hidden().counts == {"reshuffle": 1}


@pytest.mark.parametrize(
    ("game_id", "players"), [("adas_library", 2), ("bibliogamo", 1), ("ex_libris", 3)]
)
def test_the_key_is_the_setups_last_draw(game_id: str, players: int) -> None:
    # sample_setup draws the key last; the same seed gives the same key, another seed
    # another key. The state keeps it from the start (in its snapshot); a view shows null.
    game = get_game(game_id)
    options = game.resolve_options({})
    setup = game.sample_setup(players, options, chance_rng(12))
    assert game.sample_setup(players, options, chance_rng(12)) == setup
    assert (
        game.sample_setup(players, options, chance_rng(13))["chance_key"] != (setup["chance_key"])
    )
    assert type(setup["chance_key"]) is int and 0 <= setup["chance_key"] < 2**53
    without = {k: v for k, v in setup.items() if k != "chance_key"}
    state = game.new_state(players, options, setup)
    assert state.snapshot()["chance"] == {"key": setup["chance_key"], "events": {}}
    assert state.view(0).snapshot()["chance"] == {"key": None, "events": {}}
    # a hand-made setup without a key is accepted; the key then comes lazily
    keyless = game.new_state(players, options, without)
    assert keyless.snapshot()["chance"]["key"] is None


def play(game_id: str, players: int, seed: int, pick_seed: int, steps: int, **given):
    """Play ``steps`` moves like the driver: ``chance_rng(seed)`` draws the setup and
    serves the chance events; the moves are random from ``pick_seed``. Returns the chance
    events as (pile before, outcome) per kind, in order."""
    game = get_game(game_id)
    options = game.resolve_options(given)
    rng = chance_rng(seed)
    state = game.new_state(players, options, game.sample_setup(players, options, rng))
    pick = random.Random(pick_seed)
    events: dict[str, list[tuple[list[Any], Any]]] = {}
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            kind = _kind(state)
            outcome = state.sample_chance(rng)
            events.setdefault(kind, []).append(outcome)
            state.apply(outcome)
        else:
            state.apply(pick.choice(state.legal_moves()))
    return events


def _kind(state: Any) -> str:
    tasks = getattr(state, "tasks", None)
    return tasks[-1].name if tasks else "reshuffle"


def test_bibliogamo_reshuffles_agree_across_histories() -> None:
    # Two histories of seed 5 with different moves: by the first reshuffle the discard
    # piles differ (different cards in hand), yet every card both piles hold comes out
    # in the same relative order; so for every later reshuffle as well.
    a = play("bibliogamo", 1, 5, pick_seed=1, steps=5000)["reshuffle"]
    b = play("bibliogamo", 1, 5, pick_seed=2, steps=5000)["reshuffle"]
    assert len(a) >= 3 and len(b) >= 3
    assert any(sorted(x) != sorted(y) for x, y in zip(a, b, strict=False))  # different piles
    for x, y in zip(a, b, strict=False):
        common_x, common_y = common_order(x, y)
        assert common_x == common_y and len(common_x) >= 10


def test_bibliogamo_reshuffle_was_history_dependent_before() -> None:
    # The check above can fail: a plain rng.shuffle per event (the old draw) puts the
    # common cards of the same two piles in different orders.
    a = play("bibliogamo", 1, 5, pick_seed=1, steps=5000)["reshuffle"][0]
    b = play("bibliogamo", 1, 5, pick_seed=2, steps=5000)["reshuffle"][0]
    rng_a, rng_b = random.Random(1), random.Random(1)
    rng_b.random()  # another history has drawn once more before
    x, y = sorted(a), sorted(b)
    rng_a.shuffle(x)
    rng_b.shuffle(y)
    common_x, common_y = common_order(x, y)
    assert common_x != common_y


def test_ex_libris_deck_reshuffles_agree_across_histories() -> None:
    # Two 2-player games of seed 3 whose deck ran out with different discard piles (the
    # first 60 of the deck discarded in one, cards 30-89 in the other: 30 in common).
    # The driver's RNG is in the same state at the first chance event of both.
    game = get_game("ex_libris")
    options = game.resolve_options({})
    piles = []
    for lo, hi in ((0, 60), (30, 90)):
        rng = chance_rng(3)
        state = game.new_state(2, options, game.sample_setup(2, options, rng))
        pile = sorted(state.deck)[lo:hi]
        state.deck = [c for c in state.deck if c not in pile]
        state.discard, state.deck = pile, []
        state.tasks.append(ReshuffleDeck())
        assert state.current_player == CHANCE
        outcome = state.sample_chance(rng)
        state.apply(outcome)
        assert state.chance.counts == {"reshuffle_deck": 1}
        piles.append(outcome)
    common_a, common_b = common_order(*piles)
    assert common_a == common_b and len(common_a) == 30
    assert piles[0] != piles[1]


def test_ex_libris_location_reshuffles_agree_across_histories() -> None:
    for seed in (3, 4):
        a = play("ex_libris", 4, seed, pick_seed=10, steps=6000)["reshuffle_locs"]
        b = play("ex_libris", 4, seed, pick_seed=20, steps=6000)["reshuffle_locs"]
        assert a and len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            assert common_order(x, y)[0] == common_order(x, y)[1]


def test_adas_library_same_pile_same_reshuffle_in_any_discard_order() -> None:
    # Two histories that discarded the same cards in different orders get the same new
    # draw pile: identical cards are numbered by copy, and the order is by card keys.
    game = get_game("adas_library")
    options = game.resolve_options({})
    rng = chance_rng(8)
    state = game.new_state(2, options, game.sample_setup(2, options, rng))
    while state.current_player != CHANCE:
        state.apply(state.legal_moves()[-1])  # discards only
    other = state.clone()
    other.discard = list(reversed(other.discard))
    assert other.discard != state.discard and Counter(other.discard) == Counter(state.discard)
    key_rng, twin = random.Random(17), random.Random(17)  # the driver in both games
    assert state.sample_chance(key_rng) == other.sample_chance(twin)


def test_views_hold_no_key() -> None:
    # a strategy's view cannot foresee the real reshuffle: the key is not in it
    game = get_game("bibliogamo")
    options = game.resolve_options({})
    rng = chance_rng(5)
    state = game.new_state(1, options, game.sample_setup(1, options, rng))
    state.chance.random(rng, "reshuffle")
    assert state.chance.key is not None
    assert state.view(0).chance.key is None and state.clone().chance.key == state.chance.key


def test_streams_from_a_snapshot_keep_the_key_and_counts() -> None:
    from simcli.game import IllegalMoveError

    value = {"key": 77, "events": {"reshuffle": 2}}
    streams = ChanceStreams.from_snapshot(value, ("reshuffle",), "snapshot")
    assert streams.key == 77 and streams.counts == {"reshuffle": 2}
    assert streams.snapshot() == value
    view = ChanceStreams.from_snapshot({"key": None, "events": {}}, ("reshuffle",), "snapshot")
    assert view.key is None
    for bad in (
        {"key": 1, "events": {"reshuffle": -1}},
        {"key": 1, "events": {"shuffle": 1}},
        {"key": 1, "events": {"reshuffle": True}},
        {"key": -5, "events": {}},
        {"key": 1.5, "events": {}},
        {"events": {}},
        [1],
        None,
    ):
        with pytest.raises(IllegalMoveError, match="chance"):
            ChanceStreams.from_snapshot(bad, ("reshuffle",), "snapshot")
