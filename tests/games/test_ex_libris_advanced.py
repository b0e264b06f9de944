"""Ex Libris advanced game: library choice and every special assistant.

2 players; seat 0 holds A1-A6, seat 1 A7-A10 B1 B2, the deck is the rest in alphabetical
order. The tile under test is revealed first (face up next to Diviner's Hut).
"""

from __future__ import annotations

import random

import pytest

from simcli.game import CHANCE, IllegalMoveError
from simcli.games import get_game
from simcli.games.ex_libris.state import ExLibrisState

GAME = get_game("ex_libris")
OPTIONS = GAME.resolve_options({"mode": "advanced"})
COMPS = GAME.components(OPTIONS)
NAMES = [b.name for b in COMPS.books]
LIB = {lib.ability: lib.name for lib in COMPS.libraries}


def new(ab0: str, ab1: str, tile: int = 6) -> ExLibrisState:
    spare = [ab for ab in LIB if ab not in (ab0, ab1)]
    offers = [[LIB[ab0], LIB[spare[0]]], [LIB[spare[1]], LIB[ab1]]]
    setup = {
        "start": 1,
        "locations": [tile] + [n for n in range(2, 19) if n != tile],
        "libraries": offers,
        "prominent": "C",
        "banned": "S",
        "focus": ["F", "H"],
        "hands": [NAMES[0:6], NAMES[6:12]],
        "deck": NAMES[12:],
    }
    state = GAME.new_state(2, OPTIONS, setup)
    # library choice in reverse turn order: seat 1 first, then seat 0
    state.apply(["library", LIB[ab1]])
    state.apply(["library", LIB[ab0]])
    return state


def hand(state: ExLibrisState, seat: int) -> list[str]:
    return [state.card_name(c) for c in state.hands[seat]]


def top(state: ExLibrisState) -> str:
    return state.tasks[-1].name if state.tasks else "end"


def test_library_choice_in_reverse_order_and_assistants() -> None:
    setup = {
        "start": 1,
        "locations": list(range(2, 19)),
        "libraries": [[LIB["ghost"], LIB["imp"]], [LIB["wisp"], LIB["dragon"]]],
        "prominent": "C",
        "banned": "S",
        "focus": ["F", "H"],
        "hands": [NAMES[0:6], NAMES[6:12]],
        "deck": NAMES[12:],
    }
    state = GAME.new_state(2, OPTIONS, setup)
    assert state.current_player == 1 and state.round == 0
    assert state.legal_moves() == [["library", LIB["wisp"]], ["library", LIB["dragon"]]]
    with pytest.raises(IllegalMoveError):
        state.clone().apply(["library", LIB["ghost"]])  # not offered to seat 1
    state.apply(["library", LIB["dragon"]])
    assert state.current_player == 0
    state.apply(["library", LIB["imp"]])
    assert state.round == 1 and state.current_player == 0
    assert [COMPS.libraries[i].ability for i in state.libraries] == ["imp", "dragon"]
    assert state.offered == [[], []]
    assert state.standard == [2, 2] and state.special == [1, 1]
    moves = state.legal_moves()
    assert ["sloc", 2] in moves and ["shome", "draw"] in moves and ["home", "draw"] in moves


def test_each_seat_places_three_assistants_in_advanced_game() -> None:
    state = new("imp", "wisp")
    placements = 0
    while top(state) == "place" and state.round == 1:
        state.apply(
            ["home", "draw"] if ["home", "draw"] in state.legal_moves() else ["shome", "draw"]
        )
        placements += 1
    assert placements == 6


def test_bookworm_takes_both_home_actions() -> None:
    state = new("bookworm", "imp")
    assert [m for m in state.legal_moves() if m[0] == "shome"] == [["shome", "both"]]
    state.apply(["shome", "both"])  # draws B3, then may shelve
    assert "B3" in hand(state, 0) and top(state) == "shelve"
    state.apply(["shelve", "B3", 0, 0])
    assert state.card_name(state.shelves[0][(0, 0)]) == "B3" and state.current_player == 1


def test_automaton_takes_a_home_action_per_own_assistant_there() -> None:
    state = new("automaton", "imp")
    state.apply(["loc", 6])  # seat 0 standard assistant: Scriptorium draws B3 B4
    state.apply(["home", "draw"])  # seat 1 draws B5
    state.apply(["sloc", 6])  # one of seat 0's assistants is already there: 1 home action
    assert top(state) == "home_action" and state.current_player == 0
    assert state.legal_moves()[0] == ["draw"]
    state.apply(["shelve", "A1", 0, 0])
    # then the Scriptorium effect: draw 2 (B6 B7)
    assert hand(state, 0) == ["A2", "A3", "A4", "A5", "A6", "B3", "B4", "B6", "B7"]
    assert state.current_player == 1


def test_refused_shelve_leaves_the_state_unchanged() -> None:
    # Bookworm at home draws B3 (top of the deck), then a pending shelve of seat 0:
    # hand A1-A6 B3, empty shelf, so the only open position is (0, 0).
    state = new("bookworm", "imp")
    state.apply(["shome", "both"])
    assert top(state) == "shelve" and "B3" in hand(state, 0)
    before = state.snapshot()
    for refused in (
        ["shelve", "B5", 0, 0],  # B5 is in the deck, not in the hand
        ["shelve", "B3", 0, 1],  # the first card goes to (0, 0)
        ["shelve", "B3", 0],  # no column
        ["take", "B3"],  # not the pending decision
    ):
        with pytest.raises(IllegalMoveError):
            state.apply(refused)
        assert state.snapshot() == before  # the shelve is still pending, nothing moved
    state.apply(["shelve", "B3", 0, 0])
    assert state.card_name(state.shelves[0][(0, 0)]) == "B3" and state.current_player == 1


def test_refused_automaton_home_action_leaves_the_state_unchanged() -> None:
    # as in the test above: the Automaton joins a standard assistant on tile 6 and owes
    # one home action; seat 0's shelf is empty, so only (0, 0) is open.
    state = new("automaton", "imp")
    state.apply(["loc", 6])
    state.apply(["home", "draw"])
    state.apply(["sloc", 6])
    assert top(state) == "home_action"
    before = state.snapshot()
    for refused in (["shelve", "A1", 1, 1], ["shelve", "B9", 0, 0], ["draw", 1]):
        with pytest.raises(IllegalMoveError):
            state.apply(refused)
        assert state.snapshot() == before
    state.apply(["shelve", "A1", 0, 0])
    assert state.card_name(state.shelves[0][(0, 0)]) == "A1"


def test_goblin_sneak_names_a_category_and_opponents_give() -> None:
    state = new("goblin_sneak", "imp")
    state.apply(["home", "draw"])  # seat 0
    state.apply(["loc", 6])  # seat 1 at the Scriptorium (draws B4 B5)
    state.apply(["sloc", 6])  # seat 0's Goblin Sneak joins
    assert top(state) == "name_category" and state.current_player == 0
    state.apply(["name", "H"])
    # seat 1 must give a card with a Historic Volumes book
    assert state.current_player == 1 and top(state) == "give"
    h = COMPS.category_index("H")
    givable = [m[1] for m in state.legal_moves()]
    assert givable and all(h in COMPS.books[COMPS.book_index(n)].books for n in givable)
    state.apply(["give", givable[0]])
    assert givable[0] in hand(state, 0) and givable[0] not in hand(state, 1)


def test_mummy_entombs_a_card_on_a_shelved_card() -> None:
    state = new("mummy", "imp")
    state.apply(["home", "shelve", "A6", 0, 0])
    state.apply(["home", "draw"])
    state.apply(["sloc", 6])
    assert top(state) == "entomb" and "pass" in state.legal_moves()
    state.apply(["entomb", "A2", 0, 0])  # A2 covers A6, which is entombed
    assert state.card_name(state.shelves[0][(0, 0)]) == "A2"
    assert [state.card_name(c) for c in state.entombed[0]] == ["A6"]
    assert "A2" not in hand(state, 0)


def test_gelatinous_cube_takes_a_random_card_from_joiners() -> None:
    state = new("gelatinous_cube", "imp")
    state.apply(["sloc", 6])  # cube at the Scriptorium (draws B3 B4)
    state.apply(["loc", 6])  # seat 1 joins: gives a random card first (chance)
    assert state.current_player == CHANCE and top(state) == "random_card"
    with pytest.raises(IllegalMoveError):
        state.clone().apply("A1")  # not in seat 1's hand
    outcome = state.sample_chance(random.Random(0))
    assert outcome in hand(state, 1)
    state.apply("A9")
    assert "A9" in hand(state, 0) and "A9" not in hand(state, 1)
    # the cube at home takes both home actions
    state = new("gelatinous_cube", "imp")
    assert ["shome", "both"] in state.legal_moves()


def test_sasquatch_only_visits_locations_without_opponents() -> None:
    state = new("sasquatch", "imp")
    state.apply(["home", "draw"])
    state.apply(["loc", 6])  # seat 1 at the Scriptorium
    moves = state.legal_moves()
    assert ["sloc", 6] not in moves and ["sloc", 1] in moves and ["loc", 6] in moves
    state.apply(["sloc", 1])  # the Sasquatch at the Hut: opponents may not join it
    assert ["loc", 1] not in state.legal_moves()


def test_snowman_keeps_others_off_its_instant_location() -> None:
    state = new("snowman", "imp")
    state.apply(["sloc", 6])
    assert ["loc", 6] not in state.legal_moves()  # seat 1
    state = new("snowman", "imp", tile=13)  # Bookbinder is delayed: others may join
    state.apply(["sloc", 13])
    assert ["loc", 13] in state.legal_moves()


def test_ghost_never_visits_the_hut_but_ignores_full_spaces() -> None:
    state = new("ghost", "imp", tile=3)  # Shelfmasons Guild: one space with 2 players
    assert ["sloc", 1] not in state.legal_moves() and ["loc", 1] in state.legal_moves()
    state.apply(["loc", 3])
    state.apply("pass")
    state.apply(["home", "draw"])  # seat 1
    moves = state.legal_moves()
    assert ["loc", 3] not in moves and ["sloc", 3] in moves


def test_wisp_draws_a_card_on_placement() -> None:
    state = new("wisp", "imp")
    state.apply(["sloc", 6])  # draws 1 (B3), then the Scriptorium draws 2 (B4 B5)
    assert hand(state, 0) == [*NAMES[0:6], "B3", "B4", "B5"]


def test_imp_may_shelve_after_its_location() -> None:
    state = new("imp", "wisp")
    state.apply(["sloc", 6])
    assert top(state) == "shelve" and len(hand(state, 0)) == 8
    state.apply(["shelve", "B3", 0, 0])
    assert state.current_player == 1
    # on a delayed tile the shelving comes after the delayed effect, at resolution
    state = new("imp", "wisp", tile=14)
    state.apply(["sloc", 14])
    assert state.current_player == 1 and len(hand(state, 0)) == 6


def test_dragon_takes_from_the_card_area_first() -> None:
    state = new("dragon", "imp", tile=8)  # Market Stall: B3 B4 B5
    state.apply(["sloc", 8])
    assert top(state) == "take"
    state.apply(["take", "B5"])  # the Dragon's card
    assert top(state) == "take" and state.legal_moves() == [["take", "B3"], ["take", "B4"]]
    state.apply(["take", "B3"])  # the Market Stall's card
    assert {"B3", "B5"} <= set(hand(state, 0))


def test_gargoyle_shelves_a_second_card_at_home() -> None:
    state = new("gargoyle", "imp")
    state.apply(["shome", "shelve", "A1", 0, 0])
    assert top(state) == "shelve" and state.current_player == 0
    state.apply(["shelve", "A2", 0, 1])
    assert len(state.shelves[0]) == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_advanced_random_play_replays(players: int) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        pick = random.Random(seed + 50)
        setup = GAME.sample_setup(players, OPTIONS, rng)
        state = GAME.new_state(players, OPTIONS, setup)
        moves = []
        while not state.is_terminal():
            copy = state.clone()
            assert copy == state
            if state.current_player == CHANCE:
                move = state.sample_chance(rng)
            else:
                move = pick.choice(state.legal_moves())
            moves.append(move)
            state.apply(move)
        again = GAME.new_state(players, OPTIONS, setup)
        for move in moves:
            again.apply(move)
        assert again.final_hash() == state.final_hash()
        assert state.outcome().termination in ("normal", "move_limit")
