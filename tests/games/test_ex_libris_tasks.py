"""Each task class of the Ex Libris engine on its own, in hand-worked positions.

2 players, beginner game unless a test says otherwise. A test puts the task under test
on an emptied stack, with hands, deck, discard pile, card areas and shelves set by hand,
and checks the legal moves and the effect of each move against values worked out in the
comments. Card names (letter + number) sort in card order: A1 < ... < A10 < B1 < ...
Book icons used below (from the built-in deck): A7 M S, A8 C M R S, A9 C F H M,
A10 H R S, B1 F M R, B2 C F H S.
"""

from __future__ import annotations

import pytest

from simcli.game import CHANCE, TERMINAL, IllegalMoveError
from simcli.games import get_game
from simcli.games.ex_libris import assistants, effects, phases
from simcli.games.ex_libris.assistants import Entomb, Give, HomeAction, NameCategory, RandomCard
from simcli.games.ex_libris.effects import (
    Begin,
    Bid,
    Discard,
    DiscardDraw,
    Draw,
    First,
    Pay,
    ReshuffleDeck,
    Search,
    Shelve,
    Swap,
    Take,
    effect_tasks,
)
from simcli.games.ex_libris.phases import (
    Cleanup,
    Clear,
    Fill,
    Inspect,
    LibraryChoice,
    Place,
    Prep,
    ReshuffleLocs,
    Resolve,
    Reveal,
    Round,
    Score,
)
from simcli.games.ex_libris.snapshot import TASKS
from simcli.games.ex_libris.state import ExLibrisState
from simcli.games.ex_libris.tasks import Task

GAME = get_game("ex_libris")
COMPS = GAME.components(GAME.resolve_options({}))
NAMES = [b.name for b in COMPS.books]


def new(players: int = 2, mode: str = "beginner") -> ExLibrisState:
    """A game at its first decision; the test then sets what it needs."""
    libs = COMPS.libraries
    per_seat = 2 if mode == "advanced" else 1
    setup = {
        "start": 1,
        "locations": list(range(2, 19)),
        "libraries": [
            [libs[per_seat * i + k].name for k in range(per_seat)] for i in range(players)
        ],
        "prominent": "C",
        "banned": "S",
        "focus": ["F", "H", "M", "R"][:players],
        "hands": [NAMES[6 * i : 6 * i + 6] for i in range(players)],
        "deck": NAMES[6 * players :],
    }
    return GAME.new_state(players, GAME.resolve_options({"mode": mode}), setup)


def cards(*names: str) -> list[int]:
    return [NAMES.index(n) for n in names]


def names(pile: list[int]) -> list[str]:
    return [NAMES[c] for c in pile]


def tile(number: int) -> int:
    return COMPS.location_index(number)


def start(state: ExLibrisState, *tasks: Task) -> None:
    """Only ``tasks`` on the stack (the first one next), run up to the first decision."""
    state.tasks = []
    state.push(*tasks)
    state.run()


def stack(state: ExLibrisState) -> list[list]:
    """The tasks in JSON form, the next one first."""
    return [task.to_json() for task in reversed(state.tasks)]


# ---------------------------------------------------------------- effects.py


def test_begin_forgets_the_cards_taken_and_first_takes_the_token() -> None:
    state = new()
    state.taken = cards("A1")
    start(state, Begin(0), First(1))
    assert state.taken == [] and state.first == 1 and state.current_player == TERMINAL


def test_draw_reshuffles_the_discard_pile_when_the_deck_runs_out() -> None:
    # deck B3 (top) B4; discard C1 C2; seat 0 draws 3: B3, B4, then the deck is empty
    # and the discard pile is not: a reshuffle (chance), then the third card.
    state = new()
    state.deck, state.discard = cards("B4", "B3"), cards("C1", "C2")
    start(state, Draw(0, 3))
    assert names(state.hands[0])[-2:] == ["B3", "B4"]
    assert stack(state) == [["reshuffle_deck"], ["draw", 0, 1]]
    assert state.current_player == CHANCE
    with pytest.raises(IllegalMoveError):  # not the discard pile: refused, nothing changes
        state.apply(["C1", "C3"])
    assert stack(state) == [["reshuffle_deck"], ["draw", 0, 1]]
    state.apply(["C2", "C1"])  # draw order: C2 first
    assert names(state.hands[0])[-3:] == ["B3", "B4", "C2"]
    assert names(state.deck) == ["C1"] and state.discard == []
    assert state.chance.counts == {"reshuffle_deck": 1}


def test_draw_with_deck_and_discard_pile_empty_loses_the_rest() -> None:
    state = new()
    state.deck, state.discard = cards("B3"), []
    start(state, Draw(0, 3))  # B3, then nothing to draw from
    assert len(state.hands[0]) == 7 and state.deck == [] and state.tasks == []


def test_pay_discards_the_bid_at_most_the_hand() -> None:
    state = new()
    state.hands[0] = cards("A1", "A2")
    start(state, Pay(0, 3))  # bid 3, two cards in hand: discard both
    assert stack(state) == [["discard", 0, 2]]
    assert state.legal_moves() == [["discard", "A1"], ["discard", "A2"]]
    start(state, Pay(0, 0))  # bid 0: nothing to pay
    assert state.tasks == [] and len(state.hands[0]) == 2


def test_take_one_card_at_a_time_from_the_card_area() -> None:
    # area C3 B5 C1; take 2: the moves list each card once, in card order
    state = new()
    t = tile(8)
    state.area[t] = cards("C3", "B5", "C1")
    start(state, Take(0, t, 2))
    assert state.legal_moves() == [["take", "B5"], ["take", "C1"], ["take", "C3"]]
    state.apply(["take", "C1"])
    assert stack(state) == [["take", 0, t, 1]] and names(state.taken) == ["C1"]
    assert state.legal_moves() == [["take", "B5"], ["take", "C3"]]
    state.apply(["take", "C3"])
    assert names(state.area[t]) == ["B5"] and state.tasks == []
    assert names(state.hands[0]) == ["A1", "A2", "A3", "A4", "A5", "A6", "C1", "C3"]
    assert names(state.taken) == ["C1", "C3"]
    start(state, Take(0, tile(9), 1))  # an empty card area: nothing to take
    assert state.tasks == []


def test_shelve_only_a_card_taken_by_this_effect() -> None:
    # taken A3 (in hand) and C9 (not in hand): only A3 may be shelved; on an empty shelf
    # the only position is (0, 0). After it, no taken card is in hand: the second
    # shelving is skipped.
    state = new()
    state.taken = cards("A3", "C9")
    start(state, Shelve(0, 2, 1))
    assert state.legal_moves() == [["shelve", "A3", 0, 0], "pass"]
    state.apply(["shelve", "A3", 0, 0])
    assert state.tasks == [] and names(state.shelves[0].values()) == ["A3"]


def test_shelve_any_hand_card_next_to_the_shelf_and_pass() -> None:
    # shelf A1 at (0, 0), hand A2: the four neighbours, in reading order, then "pass".
    # Shelving left of A1 renumbers the columns: A2 (0, 0), A1 (0, 1).
    state = new()
    state.shelves[0] = {(0, 0): NAMES.index("A1")}
    state.hands[0] = cards("A2")
    start(state, Shelve(0, 2, 0))
    assert state.legal_moves() == [
        ["shelve", "A2", -1, 0],
        ["shelve", "A2", 0, -1],
        ["shelve", "A2", 0, 1],
        ["shelve", "A2", 1, 0],
        "pass",
    ]
    state.apply(["shelve", "A2", 0, -1])
    assert state.shelves[0] == {(0, 0): NAMES.index("A2"), (0, 1): NAMES.index("A1")}
    assert state.tasks == []  # the hand is empty: the second shelving is skipped
    state.hands[0] = cards("A3")
    start(state, Shelve(0, 3, 0))
    state.apply("pass")  # passing ends the task at once
    assert state.tasks == [] and names(state.hands[0]) == ["A3"]


def test_swap_a_hand_card_with_one_of_the_card_area() -> None:
    # hand A1 A2, area B5: two swaps or "pass"; swapping A2 for B5 leaves A2 in the area
    state = new()
    t = tile(2)
    state.hands[0], state.area[t] = cards("A1", "A2"), cards("B5")
    start(state, Swap(0, t, 1))
    assert state.legal_moves() == [["swap", "A1", "B5"], ["swap", "A2", "B5"], "pass"]
    state.apply(["swap", "A2", "B5"])
    assert names(state.hands[0]) == ["A1", "B5"] and names(state.area[t]) == ["A2"]
    assert names(state.taken) == ["B5"] and state.tasks == []
    state.area[t] = []
    start(state, Swap(0, t, 1))  # nothing in the area: skipped
    assert state.tasks == []


def test_discard_draw_draws_one_more_than_discarded() -> None:
    # hand A1 A2 A3, deck B3 (top) B4 B5; up to 2 discards: A1, A2 -> draw 2 (B3 B4; the
    # Gambling Den's "+ 1" is a draw step of its own)
    state = new()
    state.hands[0], state.deck = cards("A1", "A2", "A3"), cards("B5", "B4", "B3")
    start(state, DiscardDraw(0, 2, 0))
    assert state.legal_moves() == [
        ["discard", "A1"],
        ["discard", "A2"],
        ["discard", "A3"],
        "done",
    ]
    state.apply(["discard", "A1"])
    assert stack(state) == [["discard_draw", 0, 1, 1]]
    state.apply(["discard", "A2"])  # the last discard allowed: the draw follows
    assert names(state.hands[0]) == ["A3", "B3", "B4"]
    assert names(state.discard) == ["A1", "A2"] and state.tasks == []


def test_discard_draw_done_at_once_draws_one_and_empty_hand_draws_the_count() -> None:
    # Gambling Den's rule: discard up to N, draw that many + 1 (the + 1 is a separate
    # Draw step of the tile). The task alone draws what was discarded: "done" after
    # none draws nothing; with the hand empty after 2 discards it draws 2.
    state = new()
    state.deck = cards("B4", "B3")
    start(state, DiscardDraw(0, 3, 0))
    state.apply("done")
    assert len(state.hands[0]) == 6 and state.tasks == []
    state.hands[0] = []
    start(state, DiscardDraw(0, 1, 2))
    assert names(state.hands[0]) == ["B3", "B4"] and state.tasks == []


def test_discard_stops_when_the_hand_is_empty() -> None:
    state = new()
    state.hands[0] = cards("A1", "A2")
    start(state, Discard(0, 3))
    state.apply(["discard", "A1"])
    assert stack(state) == [["discard", 0, 2]]
    assert state.legal_moves() == [["discard", "A2"]]
    state.apply(["discard", "A2"])  # one more owed, but the hand is empty: skipped
    assert state.tasks == [] and names(state.discard) == ["A1", "A2"]


def test_search_takes_one_of_the_top_cards_of_the_discard_pile() -> None:
    # discard C1 B4 C2 (C2 on top); search 2: B4 or C2
    state = new()
    state.discard = cards("C1", "B4", "C2")
    start(state, Search(0, 2))
    assert state.legal_moves() == [["take", "B4"], ["take", "C2"]]
    state.apply(["take", "B4"])
    assert names(state.discard) == ["C1", "C2"] and names(state.taken) == ["B4"]
    assert "B4" in names(state.hands[0]) and state.tasks == []
    state.discard = []
    start(state, Search(0, 5))  # nothing to search
    assert state.tasks == []


def test_bid_is_capped_by_the_hand_and_marks_the_last_assistant() -> None:
    # bid up to 3 with 2 cards in hand: 0, 1 or 2; the bid goes to the assistant just
    # placed (the last occupant), not to the one already there
    state = new()
    t = tile(12)
    state.hands[0] = cards("A1", "A2")
    state.occupants[t] = [(1, 0, 1), (0, 0, 0)]
    start(state, Bid(0, t, 3))
    assert state.legal_moves() == [["bid", 0], ["bid", 1], ["bid", 2]]
    state.apply(["bid", 2])
    assert state.occupants[t] == [(1, 0, 1), (0, 0, 2)] and len(state.hands[0]) == 2


def test_effect_tasks_of_a_location() -> None:
    state = new()
    auction, archive, den = tile(12), tile(7), tile(5)
    # Auction House (delayed: bid 3, pay the bid, take 1): placing only bids
    assert [t.to_json() for t in effect_tasks(state, 0, auction, placing=True)] == [
        ["begin", 0],
        ["bid", 0, auction, 3],
    ]
    # ... and at resolution, with a bid of 2, pays and takes
    assert [t.to_json() for t in effect_tasks(state, 0, auction, bid=2)] == [
        ["begin", 0],
        ["pay", 0, 2],
        ["take", 0, auction, 1],
    ]
    # Town Archive (draw 4, keep 2): draw 4, then discard 4 - 2
    assert effect_tasks(state, 1, archive) == [Begin(1), Draw(1, 4), Discard(1, 2)]
    # Gambling Den (discard up to 3 and draw as many, draw 1)
    assert effect_tasks(state, 1, den) == [Begin(1), DiscardDraw(1, 3, 0), Draw(1, 1)]
    # Diviner's Hut: one card per assistant out (seat 0: 2 at home, 1 on a tile)
    state.home[0] = [0, 0]
    state.occupants[tile(3)] = [(0, 0, 0)]
    assert effect_tasks(state, 0, tile(1)) == [Begin(0), Draw(0, 3), First(0)]
    # a delayed tile without a bid does nothing when placed
    assert effect_tasks(state, 0, tile(14), placing=True) == []


# ---------------------------------------------------------------- phases.py


def test_library_choice_keeps_the_named_tile() -> None:
    state = new(mode="advanced")
    assert stack(state)[:2] == [["library", 1], ["library", 0]]
    offered = state.offered[1]
    choice = COMPS.libraries[offered[1]].name
    assert state.legal_moves() == [["library", COMPS.libraries[i].name] for i in offered]
    state.apply(["library", choice])
    assert state.libraries[1] == offered[1] and state.offered[1] == []
    assert stack(state)[0] == ["library", 0]


def test_round_reveal_and_prep() -> None:
    # 2 players, round 3, first player seat 1; the stack is empty and the location
    # discards hold tiles 5 and 2: a location reshuffle, reveal order 2 then 5. Ye Olde
    # Book Swap (2) gets its 3 setup cards from the deck (B3 B4 B5, B3 on top); the
    # Gambling Den (5) has none. Placement then starts with seat 1.
    state = new()
    state.round, state.first, state.current, state.stack = 3, 1, [], []
    state.loc_discard = [tile(5), tile(2)]
    state.deck = cards("C1", "B5", "B4", "B3")
    state.area = [[] for _ in state.area]
    start(state, Round())
    assert state.round == 4 and stack(state) == [
        ["reshuffle_locs"],
        ["reveal"],
        ["prep"],
        ["place"],
    ]
    with pytest.raises(IllegalMoveError):
        state.apply([2, 7])  # not the location discards
    state.apply([2, 5])
    assert state.current == [tile(2), tile(5)] and state.loc_discard == []
    assert names(state.area[tile(2)]) == ["B3", "B4", "B5"] and state.area[tile(5)] == []
    assert stack(state) == [["place"]] and state.current_player == 1


def test_fill_reshuffles_like_a_draw() -> None:
    # 2 cards for tile 8: B3, then the deck is empty: reshuffle the discard (C1), C1
    state = new()
    t = tile(8)
    state.area[t], state.deck, state.discard = [], cards("B3"), cards("C1")
    start(state, Fill(t, 2))
    assert stack(state) == [["reshuffle_deck"], ["fill", t, 1]]
    state.apply(["C1"])
    assert names(state.area[t]) == ["B3", "C1"] and state.tasks == []


def test_place_turn_passes_to_the_next_seat_with_an_assistant() -> None:
    # 3 players; seat 0 is to play but has none left; seat 1 neither: seat 2 plays
    state = new(players=3)
    state.standard = [0, 0, 2]
    place = Place()
    assert place.has_choice(state) and state.turn == 2 and place.player(state) == 2
    state.standard = [0, 0, 0]
    assert not place.has_choice(state)
    # with nobody left: the face-up tiles resolve in number order, then the cleanup
    state.tasks, state.current, state.permanent = [], [tile(9), tile(4)], [tile(1)]
    place.run(state)
    assert stack(state) == [
        ["resolve", tile(1)],
        ["resolve", tile(4)],
        ["resolve", tile(9)],
        ["cleanup"],
    ]


def test_place_moves_and_what_a_placement_sets_off() -> None:
    # round 1, 2 players: Diviner's Hut and Ye Olde Book Swap are up, both empty. Seat 0,
    # empty shelf, hand A1-A6: each tile, a home draw, a home shelving of each card at
    # (0, 0).
    state = new()
    moves = state.legal_moves()
    hut, swap = COMPS.locations[tile(1)].number, COMPS.locations[tile(2)].number
    assert moves == [["loc", hut], ["loc", swap], ["home", "draw"]] + [
        ["home", "shelve", n, 0, 0] for n in ("A1", "A2", "A3", "A4", "A5", "A6")
    ]
    # a home draw: seat 0 draws the top card (the deck after the 3 setup cards: B6)
    state.apply(["home", "draw"])
    assert names(state.hands[0])[-1] == "B6" and state.home[0] == [0]
    assert state.standard == [2, 3] and state.turn == 1 and stack(state) == [["place"]]
    # seat 1 to Ye Olde Book Swap: occupant added, the swap waits for seat 1, the
    # placement goes on after the effect
    state.apply(["loc", swap])
    assert state.occupants[tile(2)] == [(1, 0, 0)]
    assert stack(state) == [["swap", 1, tile(2), 1], ["shelve", 1, 1, 1], ["place"]]


def test_resolve_orders_bids_highest_first_ties_in_space_order() -> None:
    # Auction House with seat 0 (bid 1) before seat 1 (bid 2): seat 1 resolves first
    state = new()
    t = tile(12)
    state.occupants[t] = [(0, 0, 1), (1, 0, 2)]
    state.tasks = []
    Resolve(t).run(state)
    assert stack(state) == [
        ["begin", 1],
        ["pay", 1, 2],
        ["take", 1, t, 1],
        ["begin", 0],
        ["pay", 0, 1],
        ["take", 0, t, 1],
        ["clear", t],
    ]
    state.occupants[t] = [(0, 0, 2), (1, 0, 2)]  # a tie: space order
    state.tasks = []
    Resolve(t).run(state)
    assert stack(state)[0] == ["begin", 0] and stack(state)[3] == ["begin", 1]
    # an instant tile has nothing left to do at resolution but its clearing
    state.occupants[tile(6)] = [(0, 0, 0)]
    state.tasks = []
    Resolve(tile(6)).run(state)
    assert stack(state) == [["clear", tile(6)]]


def test_clear_discards_the_cards_left_and_sends_the_assistants_home() -> None:
    state = new()
    t = tile(8)
    state.discard, state.area[t], state.occupants[t] = cards("C1"), cards("B3"), [(0, 0, 0)]
    start(state, Clear(t))
    assert names(state.discard) == ["C1", "B3"] and state.area[t] == []
    assert state.occupants[t] == []


def test_cleanup_keeps_the_lowest_tile_and_checks_the_trigger() -> None:
    # tiles 7 and 3 were up this round: 3 becomes permanent, 7 goes to the discards;
    # seat 1 has 13 shelved cards (the 2-player trigger): the next round is the last
    state = new()
    state.current, state.permanent, state.loc_discard = [tile(7), tile(3)], [tile(1)], []
    state.home, state.standard = [[0, 0], [0]], [1, 2]
    state.shelves[1] = {(r, c): r * 5 + c for r in range(3) for c in range(5) if r * 5 + c < 13}
    state.tasks = []
    Cleanup().run(state)
    assert state.permanent == [tile(1), tile(3)] and state.loc_discard == [tile(7)]
    assert state.current == [] and state.home == [[], []] and state.standard == [3, 3]
    assert state.final_round and stack(state) == [["round"]]
    state.tasks = []
    Cleanup().run(state)  # the final round is over: the inspection
    assert stack(state) == [["inspect"]] and state.termination == "normal"


def test_cleanup_at_the_round_limit_scores_the_game_as_it_stands() -> None:
    state = new(players=2)
    state.round = state.max_rounds
    state.tasks = []
    Cleanup().run(state)
    assert stack(state) == [["inspect"]] and state.termination == "move_limit"


def test_inspect_flip_and_score() -> None:
    # first player seat 1: seat 1 flips first, then seat 0, then the score.
    # Seat 0's shelf: A1 (0,0), A2 (0,1) face down, A3 (1,0): A1 and A3 may be flipped.
    state = new()
    state.first = 1
    state.shelves[0] = dict(zip([(0, 0), (0, 1), (1, 0)], cards("A1", "A2", "A3"), strict=True))
    state.down[0] = {(0, 1)}
    start(state, Inspect())
    assert stack(state) == [["flip", 1], ["flip", 0], ["score"]]
    assert state.legal_moves() == ["done"]  # seat 1's shelf is empty
    state.apply("done")
    assert state.legal_moves() == ["done", ["flip", "A1"], ["flip", "A3"]]
    state.apply(["flip", "A3"])  # the seat flips on until done
    assert state.down[0] == {(0, 1), (1, 0)} and stack(state) == [["flip", 0], ["score"]]
    assert state.legal_moves() == ["done", ["flip", "A1"]]
    state.apply("done")
    assert state.tasks == [] and state.sheets is not None
    # only A1 (C F R) is face up and counts: focus F scores 2 x 1
    assert state.sheets[0].counts == (1, 1, 0, 0, 1, 0) and state.sheets[0].focus == 2
    start(state, Score())
    assert state.outcome().scores[0] == state.sheets[0].total


# ---------------------------------------------------------------- assistants.py


def test_home_action_draws_or_shelves() -> None:
    # Automaton's extra home action: draw, or shelve a hand card at (0, 0)
    state = new(mode="advanced")
    state.hands[0], state.deck = cards("A1", "A2"), cards("B3")
    start(state, HomeAction(0))
    assert state.legal_moves() == [["draw"], ["shelve", "A1", 0, 0], ["shelve", "A2", 0, 0]]
    state.apply(["draw"])
    assert names(state.hands[0]) == ["A1", "A2", "B3"] and state.tasks == []
    start(state, HomeAction(0))
    state.apply(["shelve", "A2", 0, 0])
    assert names(state.shelves[0].values()) == ["A2"] and names(state.hands[0]) == ["A1", "B3"]


def test_name_category_asks_each_opponent_once_in_space_order() -> None:
    # 3 players; seat 0's Goblin Sneak on a tile with seat 2, seat 1, seat 2 again:
    # seat 2 gives first, then seat 1
    state = new(players=3, mode="advanced")
    t = tile(8)
    state.occupants[t] = [(2, 0, 0), (1, 0, 0), (2, 1, 0), (0, 1, 0)]
    start(state, NameCategory(0, t))
    assert state.legal_moves() == [["name", c] for c in "CFHMRS"]
    state.tasks = []
    NameCategory(0, t).apply(state, ["name", "F"])
    f = COMPS.category_index("F")
    assert stack(state) == [["give", 2, 0, f], ["give", 1, 0, f]]


def test_give_a_card_of_the_named_category() -> None:
    # seat 1 holds A7 (M S), A8 (C M R S), A9 (C F H M), A10 (H R S), B1 (F M R),
    # B2 (C F H S): the F cards are A9, B1, B2
    state = new()
    f, h = COMPS.category_index("F"), COMPS.category_index("H")
    start(state, Give(1, 0, f))
    assert state.current_player == 1
    assert state.legal_moves() == [["give", "A9"], ["give", "B1"], ["give", "B2"]]
    state.apply(["give", "B1"])
    assert "B1" in names(state.hands[0]) and "B1" not in names(state.hands[1])
    state.hands[1] = cards("A7")  # M S: no H book, the seat shows its hand
    start(state, Give(1, 0, h))
    assert state.tasks == [] and names(state.hands[1]) == ["A7"]


def test_entomb_lays_a_hand_card_over_a_shelved_one() -> None:
    state = new(mode="advanced")
    state.hands[0] = cards("A1")
    state.shelves[0] = {(0, 0): NAMES.index("B3")}
    start(state, Entomb(0))
    assert state.legal_moves() == ["pass", ["entomb", "A1", 0, 0]]
    state.apply(["entomb", "A1", 0, 0])
    assert names(state.shelves[0].values()) == ["A1"] and names(state.entombed[0]) == ["B3"]
    assert state.hands[0] == [] and state.tasks == []
    state.hands[0], state.shelves[0] = cards("A2"), {}
    start(state, Entomb(0))  # nothing shelved to entomb: skipped
    assert state.tasks == []


def test_random_card_moves_the_drawn_card_and_refuses_others() -> None:
    # seat 1 joined seat 0's Gelatinous Cube: seat 0 takes a random card of seat 1's
    state = new(mode="advanced")
    state.hands[1] = cards("A7", "A8")
    start(state, RandomCard(1, 0))
    assert state.current_player == CHANCE
    before = state.snapshot()
    with pytest.raises(IllegalMoveError):
        state.apply("A1")  # seat 0's own card
    assert state.snapshot() == before
    state.apply("A8")
    assert names(state.hands[1]) == ["A7"] and "A8" in names(state.hands[0])
    assert state.chance.counts == {"random_card": 1}


# ---------------------------------------------------------------- the set of tasks


def test_every_task_class_is_known_to_the_snapshot_by_a_unique_name() -> None:
    classes = [*effects.TASKS, *phases.TASKS, *assistants.TASKS]
    assert len({cls.name for cls in classes}) == len(classes) == len(TASKS) == 30
    assert all(TASKS[cls.name] is cls for cls in classes)
    assert ReshuffleDeck in classes and ReshuffleLocs in classes and Reveal in classes
    assert Prep in classes and Score in classes and LibraryChoice in classes


def test_snapshot_reads_each_task_back_and_checks_seats_and_tiles() -> None:
    state = new()
    tasks = [Take(0, tile(8), 2), Give(1, 0, 3), Shelve(1, 2, 1), Bid(0, tile(12), 3)]
    state.tasks = tasks[::-1]  # Take on top (not run: its empty card area would skip it)
    snap = state.snapshot()
    assert snap["tasks"] == [t.to_json() for t in reversed(tasks)]
    again = GAME.state_from_snapshot(2, GAME.resolve_options({}), snap)
    assert again.tasks == state.tasks and again.snapshot() == snap
    for bad in (["give", 1, 2, 3], ["resolve", len(COMPS.locations)], ["take", 0, 1], ["x"]):
        broken = dict(snap, tasks=[bad])
        with pytest.raises(IllegalMoveError, match="'tasks'"):
            GAME.state_from_snapshot(2, GAME.resolve_options({}), broken)
