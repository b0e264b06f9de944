"""Every location effect of the built-in tiles, on 2-player states with known cards.

Setup as in test_ex_libris_rules: seat 0 holds A1-A6, seat 1 A7-A10 B1 B2; the deck is
the rest in alphabetical order (B3 on top). The tile under test is the first one revealed,
so it is face up next to Diviner's Hut; its setup cards come off the top of the deck.
"""

from __future__ import annotations

import random

import pytest

from simcli.game import CHANCE
from simcli.games import get_game
from simcli.games.ex_libris.state import ExLibrisState

GAME = get_game("ex_libris")
NAMES = [b.name for b in GAME.components(GAME.resolve_options({})).books]


def new(tile: int, players: int = 2, **options) -> ExLibrisState:
    libs = GAME.components(GAME.resolve_options({})).libraries
    setup = {
        "start": 1,
        "locations": [tile] + [n for n in range(2, 19) if n != tile],
        "libraries": [[libs[i].name] for i in range(players)],
        "prominent": "C",
        "banned": "S",
        "focus": ["F", "H", "M", "R"][:players],
        "hands": [NAMES[6 * i : 6 * i + 6] for i in range(players)],
        "deck": NAMES[6 * players :],
    }
    return GAME.new_state(players, GAME.resolve_options(options), setup)


def hand(state: ExLibrisState, seat: int) -> list[str]:
    return [state.card_name(c) for c in state.hands[seat]]


def area(state: ExLibrisState, number: int) -> list[str]:
    return [state.card_name(c) for c in state.area[state.comps.location_index(number)]]


def shelf(state: ExLibrisState, seat: int) -> dict[tuple[int, int], str]:
    return {pos: state.card_name(c) for pos, c in state.shelves[seat].items()}


def top(state: ExLibrisState) -> str:
    return state.tasks[-1].name if state.tasks else "end"


def home_draws_until_resolution(state: ExLibrisState) -> None:
    """Every remaining assistant of this round draws at home."""
    start = state.round
    while top(state) == "place" and state.round == start:
        state.apply(["home", "draw"])


A = ["A1", "A2", "A3", "A4", "A5", "A6"]


def test_diviners_hut_draws_per_assistant_and_takes_first_player() -> None:
    state = new(6)
    state.apply(["home", "draw"])  # seat 0 draws B3
    state.apply(["loc", 1])  # seat 1: one assistant out -> draws B4, takes the token
    assert hand(state, 1)[-1] == "B4" and len(hand(state, 1)) == 7 and state.first == 1
    state.apply(["loc", 1])  # seat 0: two out -> draws B5 B6, takes the token
    assert hand(state, 0) == A + ["B3", "B5", "B6"] and state.first == 0


def test_first_player_token_stays_until_taken_at_the_hut() -> None:
    # The token does not pass clockwise: it moves only to a seat that visits Diviner's
    # Hut, and the last seat to visit it in a round keeps it.
    state = new(6, players=3)
    home_draws_until_resolution(state)  # round 1: nobody visits the Hut
    assert state.round == 2 and state.first == 0 and state.current_player == 0
    state.apply(["home", "draw"])  # seat 0
    state.apply(["loc", 1])  # seat 1 takes the token
    home_draws_until_resolution(state)
    assert state.round == 3 and state.first == 1 and state.current_player == 1
    home_draws_until_resolution(state)  # round 3: nobody visits the Hut
    assert state.round == 4 and state.first == 1 and state.current_player == 1


def test_book_swap_swaps_then_may_shelve_the_new_card() -> None:
    state = new(2)
    assert area(state, 2) == ["B3", "B4", "B5"]
    state.apply(["loc", 2])
    moves = state.legal_moves()
    assert ["swap", "A1", "B4"] in moves and moves[-1] == "pass"
    state.apply(["swap", "A1", "B4"])
    assert "B4" in hand(state, 0) and "A1" not in hand(state, 0)
    assert sorted(area(state, 2)) == ["A1", "B3", "B5"]
    # then only the card just taken may be shelved
    moves = state.legal_moves()
    assert moves == [["shelve", "B4", 0, 0], "pass"]
    state.apply(["shelve", "B4", 0, 0])
    assert shelf(state, 0) == {(0, 0): "B4"} and state.current_player == 1


def test_shelfmasons_guild_shelves_up_to_two() -> None:
    state = new(3)
    state.apply(["loc", 3])
    state.apply(["shelve", "A2", 0, 0])
    assert state.current_player == 0 and "pass" in state.legal_moves()
    state.apply(["shelve", "A4", 0, 1])
    assert shelf(state, 0) == {(0, 0): "A2", (0, 1): "A4"} and state.current_player == 1
    # passing stops early
    state = new(3)
    state.apply(["loc", 3])
    state.apply("pass")
    assert state.shelves[0] == {} and state.current_player == 1


def test_garbage_dump_searches_the_top_five_discards() -> None:
    state = new(4)
    moved = [state.deck.pop() for _ in range(7)]  # B3..C1 to the discard, C1 on top
    state.discard = moved
    state.apply(["loc", 4])
    names = [state.card_name(c) for c in moved]
    assert state.legal_moves() == [["take", n] for n in sorted(names[-5:], key=NAMES.index)]
    state.apply(["take", names[-3]])
    assert names[-3] in hand(state, 0) and len(state.discard) == 6


def test_gambling_den_discards_up_to_three_then_draws_that_many_plus_one() -> None:
    state = new(5)
    state.apply(["loc", 5])
    state.apply(["discard", "A1"])
    state.apply(["discard", "A2"])
    assert state.legal_moves()[-1] == "done"
    state.apply("done")  # 2 discarded -> draw 2 + 1
    assert hand(state, 0) == ["A3", "A4", "A5", "A6", "B3", "B4", "B5"]
    assert [state.card_name(c) for c in state.discard] == ["A1", "A2"]


def test_gambling_den_stops_after_three_discards() -> None:
    state = new(5)
    state.apply(["loc", 5])
    for card in ("A1", "A2", "A3"):
        state.apply(["discard", card])
    # the third discard ends the choice: 3 + 1 cards drawn, seat 1 to play
    assert state.current_player == 1 and len(hand(state, 0)) == 3 + 4


def test_scriptorium_draws_two() -> None:
    state = new(6)
    state.apply(["loc", 6])
    assert hand(state, 0) == A + ["B3", "B4"]


def test_town_archive_draws_four_and_discards_two() -> None:
    state = new(7)
    state.apply(["loc", 7])
    assert hand(state, 0) == A + ["B3", "B4", "B5", "B6"]
    assert ["discard", "A1"] in state.legal_moves() and "done" not in state.legal_moves()
    state.apply(["discard", "B3"])
    state.apply(["discard", "A1"])
    assert hand(state, 0) == ["A2", "A3", "A4", "A5", "A6", "B4", "B5", "B6"]
    assert state.current_player == 1


def test_market_stall_takes_one_card() -> None:
    state = new(8)
    assert area(state, 8) == ["B3", "B4", "B5"]
    state.apply(["loc", 8])
    assert state.legal_moves() == [["take", "B3"], ["take", "B4"], ["take", "B5"]]
    state.apply(["take", "B5"])
    assert hand(state, 0)[-1] == "B5" and area(state, 8) == ["B3", "B4"]


def test_bibliophiles_salon_takes_then_shelves() -> None:
    state = new(9)
    state.apply(["loc", 9])
    state.apply(["take", "B4"])
    # any hand card may be shelved (not only the taken one)
    assert ["shelve", "A1", 0, 0] in state.legal_moves()
    state.apply(["shelve", "B4", 0, 0])
    assert shelf(state, 0) == {(0, 0): "B4"}


def test_carpenters_workshop_shelves_then_draws() -> None:
    state = new(10)
    state.apply(["loc", 10])
    state.apply(["shelve", "A6", 0, 0])
    assert hand(state, 0) == ["A1", "A2", "A3", "A4", "A5", "B3"]


def test_scroll_merchant_draws_then_shelves() -> None:
    state = new(11)
    state.apply(["loc", 11])
    assert "B3" in hand(state, 0)
    state.apply(["shelve", "B3", 0, 0])
    assert shelf(state, 0) == {(0, 0): "B3"} and hand(state, 0) == A


def test_auction_house_bids_resolve_highest_first_and_pay() -> None:
    state = new(12)  # 2 players: players+1 = 3 cards
    assert area(state, 12) == ["B3", "B4", "B5"]
    state.apply(["loc", 12])
    assert state.legal_moves() == [["bid", 0], ["bid", 1], ["bid", 2], ["bid", 3]]
    state.apply(["bid", 1])
    state.apply(["loc", 12])  # seat 1 outbids
    state.apply(["bid", 2])
    home_draws_until_resolution(state)
    # resolution: seat 1 (bid 2) pays 2 cards, then takes a card; then seat 0 (bid 1)
    assert state.current_player == 1 and state.legal_moves()[0][0] == "discard"
    state.apply(["discard", "A7"])
    state.apply(["discard", "A8"])
    state.apply(["take", "B4"])
    assert state.current_player == 0
    state.apply(["discard", "A1"])
    assert state.legal_moves() == [["take", "B3"], ["take", "B5"]]
    state.apply(["take", "B3"])
    # the card left over is discarded when the tile is cleared
    assert "B5" in [state.card_name(c) for c in state.discard]
    assert "B4" in hand(state, 1) and "B3" in hand(state, 0)


def test_bookbinder_delayed_take_in_space_order() -> None:
    state = new(13)
    state.apply(["loc", 13])
    assert hand(state, 0) == A  # delayed: nothing yet
    state.apply(["loc", 13])
    home_draws_until_resolution(state)
    assert state.current_player == 0 and top(state) == "take"
    state.apply(["take", "B4"])
    assert state.legal_moves() == [["take", "B3"]]


def test_wizards_tower_delayed_draw_three() -> None:
    state = new(14)
    state.apply(["loc", 14])
    assert hand(state, 0) == A
    home_draws_until_resolution(state)
    # home draws came first (B3 to seat 1, B4 to seat 0, ...); the tower draws 3 at
    # resolution, after the placement phase
    assert len(hand(state, 0)) == 6 + 2 + 3
    assert state.round == 2


def test_printing_press_delayed_draw_two_and_shelve() -> None:
    state = new(15)
    state.apply(["loc", 15])
    home_draws_until_resolution(state)
    assert top(state) == "shelve" and state.current_player == 0
    assert len(hand(state, 0)) == 6 + 2 + 2
    state.apply(["shelve", "A1", 0, 0])
    assert shelf(state, 0) == {(0, 0): "A1"}


def test_lending_library_delayed_take_two() -> None:
    state = new(16)
    assert area(state, 16) == ["B3", "B4", "B5", "B6"]
    state.apply(["loc", 16])
    home_draws_until_resolution(state)
    state.apply(["take", "B3"])
    state.apply(["take", "B6"])
    assert {"B3", "B6"} <= set(hand(state, 0))


def test_catacombs_delayed_discard_up_to_two_then_draw_plus_one() -> None:
    state = new(17)
    state.apply(["loc", 17])
    home_draws_until_resolution(state)
    assert top(state) == "discard_draw"
    state.apply(["discard", "A1"])
    state.apply("done")  # 1 discarded -> draws 1 + 1
    assert len(hand(state, 0)) == 6 + 2 - 1 + 2


def test_royal_library_delayed_take_then_shelve_two() -> None:
    state = new(18)
    state.apply(["loc", 18])
    home_draws_until_resolution(state)
    state.apply(["take", "B4"])
    state.apply(["shelve", "B4", 0, 0])
    state.apply(["shelve", "A2", 0, -1])
    assert shelf(state, 0) == {(0, 0): "A2", (0, 1): "B4"}


def test_closed_spaces_by_player_count() -> None:
    # Shelfmasons Guild has spaces [1, 4]: one space with 2 or 3 players, two with 4.
    state = new(3)
    state.apply(["loc", 3])
    state.apply("pass")
    assert ["loc", 3] not in state.legal_moves()
    state = new(3, players=4)
    assert state.loc(state.comps.location_index(3)).open_spaces(4) == 2


@pytest.mark.slow
def test_random_games_with_every_tile_first() -> None:
    # smoke: each tile first in the stack, seeded random play to the end
    for tile in range(2, 19):
        rng = random.Random(tile)
        state = new(tile, players=3)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_moves()))
        assert len(state.outcome().scores) == 3
