"""Ex Libris rules: setup, shelving, the four phases, locations, the final round.

States are built from hand-made setups: card names in alphabetical order are dealt six
per seat (seat 0: A1-A6, seat 1: A7-A10 B1 B2, ...) and the rest form the deck in
alphabetical order (2 players: B3 on top), so every draw is known in advance.
"""

from __future__ import annotations

import random

import pytest

from simcli.game import CHANCE, TERMINAL, IllegalMoveError
from simcli.games import get_game
from simcli.games.ex_libris.shelf import open_positions
from simcli.games.ex_libris.state import ExLibrisState

GAME = get_game("ex_libris")
NAMES = [b.name for b in GAME.components(GAME.resolve_options({})).books]


def make_setup(players: int, first_tiles: tuple[int, ...] = (), **extra) -> dict:
    stack = list(first_tiles) + [n for n in range(2, 19) if n not in first_tiles]
    libs = GAME.components(GAME.resolve_options({})).libraries
    setup = {
        "start": 1,
        "locations": stack,
        "libraries": [[libs[i].name] for i in range(players)],
        "prominent": "C",
        "banned": "S",
        "focus": ["F", "H", "M", "R"][:players],
        "hands": [NAMES[6 * i : 6 * i + 6] for i in range(players)],
        "deck": NAMES[6 * players :],
    }
    setup.update(extra)
    return setup


def new(players: int = 2, first_tiles: tuple[int, ...] = (), **options) -> ExLibrisState:
    opts = GAME.resolve_options(options)
    return GAME.new_state(players, opts, make_setup(players, first_tiles))


def hand(state: ExLibrisState, seat: int) -> list[str]:
    return [state.card_name(c) for c in state.hands[seat]]


def shelf(state: ExLibrisState, seat: int) -> dict[tuple[int, int], str]:
    return {pos: state.card_name(c) for pos, c in state.shelves[seat].items()}


def area(state: ExLibrisState, number: int) -> list[str]:
    tile = state.comps.location_index(number)
    return [state.card_name(c) for c in state.area[tile]]


def top(state: ExLibrisState) -> str:
    return state.tasks[-1].name if state.tasks else "end"


def finish_placement(state: ExLibrisState) -> None:
    """Every remaining assistant draws at home (or takes the first legal move)."""
    while top(state) == "place":
        moves = state.legal_moves()
        home = [m for m in moves if m[:2] == ["home", "draw"]]
        state.apply(home[0] if home else moves[0])


# ------------------------------------------------------------------ setup


def test_setup_state() -> None:
    state = new(3)
    assert state.round == 1 and state.current_player == 0 and top(state) == "place"
    # round 1: Diviner's Hut + 2 revealed tiles (one per player)
    assert [state.loc(t).number for t in state.face_up_tiles()] == [1, 2, 3]
    # Book Swap (2) got its 3 setup cards from the top of the deck (3 players: C1 on top)
    assert area(state, 2) == ["C1", "C2", "C3"]
    assert hand(state, 0) == ["A1", "A2", "A3", "A4", "A5", "A6"]
    assert state.standard == [3, 3, 3] and state.special == [0, 0, 0]


def test_setup_validation() -> None:
    opts = GAME.resolve_options({})
    bad = make_setup(2)
    bad["focus"] = ["C", "H"]  # the prominent category cannot be a focus
    with pytest.raises(IllegalMoveError, match="distinct category"):
        GAME.new_state(2, opts, bad)
    bad = make_setup(2)
    bad["deck"] = bad["deck"][:-1]
    with pytest.raises(IllegalMoveError, match="every book card exactly once"):
        GAME.new_state(2, opts, bad)
    bad = make_setup(2)
    bad["locations"] = bad["locations"][:-1]
    with pytest.raises(IllegalMoveError, match="every tile number"):
        GAME.new_state(2, opts, bad)
    bad = make_setup(2)
    bad["hands"][0] = bad["hands"][0][:5]
    with pytest.raises(IllegalMoveError, match="6 cards"):
        GAME.new_state(2, opts, bad)


def test_sample_setup_is_seeded_and_valid() -> None:
    opts = GAME.resolve_options({})
    a = GAME.sample_setup(4, opts, random.Random(5))
    assert a == GAME.sample_setup(4, opts, random.Random(5))
    assert a != GAME.sample_setup(4, opts, random.Random(6))
    GAME.new_state(4, opts, a)
    assert len(a["deck"]) == 152 - 24 and len(a["locations"]) == 17


# ------------------------------------------------------------------ shelving


def test_open_positions_adjacency_and_three_rows() -> None:
    assert open_positions({}) == [(0, 0)]
    assert open_positions({(0, 0): 5}) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    three_rows = {(0, 0): 1, (1, 0): 2, (2, 0): 3}
    # no fourth row above or below; only the sides
    assert open_positions(three_rows) == [(0, -1), (0, 1), (1, -1), (1, 1), (2, -1), (2, 1)]
    # a diagonal cell is not adjacent
    assert (1, 1) not in open_positions({(0, 0): 1})


def test_shelving_moves_and_normalisation() -> None:
    state = new(2)
    moves = state.legal_moves()
    assert ["home", "shelve", "A3", 0, 0] in moves
    assert ["home", "shelve", "A3", 0, 1] not in moves  # the first card goes to (0, 0)
    state.apply(["home", "shelve", "A3", 0, 0])
    state.apply(["home", "draw"])  # seat 1
    assert ["home", "shelve", "A1", 0, -1] in state.legal_moves()
    assert ["home", "shelve", "A1", 1, 1] not in state.legal_moves()  # diagonal
    with pytest.raises(IllegalMoveError):
        state.clone().apply(["home", "shelve", "A1", 1, 1])
    with pytest.raises(IllegalMoveError):
        state.clone().apply(["home", "shelve", "B5", 0, 1])  # not in hand
    state.apply(["home", "shelve", "A1", 0, -1])
    # coordinates are normalised: A1 is now at (0, 0) and A3 at (0, 1)
    assert shelf(state, 0) == {(0, 0): "A1", (0, 1): "A3"}


def test_shelf_never_taller_than_three_rows() -> None:
    state = new(2)
    state.shelves[0] = {(0, 0): 0, (1, 0): 1, (2, 0): 2}
    moves = [m for m in state.legal_moves() if m[:2] == ["home", "shelve"]]
    rows = {m[3] for m in moves}
    assert rows == {0, 1, 2}
    with pytest.raises(IllegalMoveError):
        state.clone().apply(["home", "shelve", "A4", 3, 0])
    with pytest.raises(IllegalMoveError):
        state.clone().apply(["home", "shelve", "A4", -1, 0])


# ------------------------------------------------------------------ a scripted round


def test_scripted_round_through_all_four_phases() -> None:
    # 2 players; the stack starts with Bookbinder (13, delayed, one card per player) then
    # Scriptorium (6) and Market Stall (8).
    state = new(2, (13, 6, 8))
    # I. Preparation: Diviner's Hut is already out; one tile revealed (Bookbinder) and
    # dealt 2 cards from the deck (B3, B4).
    assert [state.loc(t).number for t in state.face_up_tiles()] == [1, 13]
    assert area(state, 13) == ["B3", "B4"]
    # II. Placement, seat 0 first, one assistant at a time.
    assert state.current_player == 0
    state.apply(["loc", 13])  # delayed: nothing happens yet
    assert hand(state, 0) == ["A1", "A2", "A3", "A4", "A5", "A6"]
    state.apply(["loc", 1])  # seat 1 at the Hut: 1 assistant out -> draws 1 (B5); token
    assert hand(state, 1) == ["A7", "A8", "A9", "A10", "B1", "B2", "B5"]
    assert state.first == 1
    state.apply(["home", "shelve", "A2", 0, 0])  # seat 0 home action: shelve
    state.apply(["loc", 13])  # seat 1 joins the Bookbinder
    state.apply(["loc", 1])  # seat 0 at the Hut: 3 assistants out -> draws 3 (B6 B7 B8)
    assert state.first == 0
    assert len(hand(state, 0)) == 5 + 3
    # the Hut has spaces [1, 1, 3, 4]: two open with 2 players, both taken now
    assert state.current_player == 1 and ["loc", 1] not in state.legal_moves()
    state.apply(["home", "draw"])  # seat 1's last assistant draws C1
    assert "C1" in hand(state, 1)
    # III. Resolution: the Hut (instant) has nothing to do; the Bookbinder resolves its
    # assistants in space order: seat 0 then seat 1 each take a card.
    assert top(state) == "take" and state.current_player == 0
    assert state.legal_moves() == [["take", "B3"], ["take", "B4"]]
    state.apply(["take", "B4"])
    assert state.current_player == 1 and state.legal_moves() == [["take", "B3"]]
    state.apply(["take", "B3"])
    # IV. Cleanup: the Hut (lowest number under the board) becomes permanent, the
    # Bookbinder goes to the location discard, home spaces are cleared, and round 2
    # starts: 2 new tiles (Scriptorium, Market Stall) + the permanent Hut.
    assert state.round == 2
    assert [state.loc(t).number for t in state.permanent] == [1]
    assert [state.loc(t).number for t in state.loc_discard] == [13]
    assert [state.loc(t).number for t in state.face_up_tiles()] == [1, 6, 8]
    assert state.home == [[], []] and state.standard == [3, 3]
    assert all(not occ for occ in state.occupants)
    # seat 0 took the first-player token last, so it starts round 2
    assert state.current_player == 0 and state.first == 0
    assert area(state, 8) == ["C2", "C3", "C4"]


def test_one_more_location_each_round() -> None:
    rng = random.Random(3)
    state = new(3, final_round_trigger=99, max_rounds=5)
    seen = []
    while not state.is_terminal():
        if (
            top(state) == "place"
            and state.out_count(state.turn) == 0
            and all(not h for h in state.home)
            and all(not occ for occ in state.occupants)
        ):
            if not seen or seen[-1][0] != state.round:
                seen.append((state.round, len(state.face_up_tiles()), len(state.permanent)))
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_moves()))
    # round r: 3 tiles under the board + (r - 1) permanent ones
    assert seen == [(r, 3 + r - 1, r - 1) for r in range(1, 6)]
    assert state.outcome().termination == "move_limit" and state.round == 5


def test_location_stack_reshuffle() -> None:
    # 4 players, no final round: round 1 reveals 3, rounds 2-4 reveal 4 each (15 of 17);
    # round 5 needs 4 and the stack holds 2 -> the discards are reshuffled (a chance event).
    rng = random.Random(8)
    state = new(4, final_round_trigger=99, max_rounds=6)
    while state.current_player != CHANCE or top(state) != "reshuffle_locs":
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_moves()))
    assert state.round == 5 and not state.stack and len(state.current) == 2
    discards = sorted(state.loc(t).number for t in state.loc_discard)
    assert len(discards) == 15 - 3  # 4 rounds x (tiles - 1 made permanent)
    with pytest.raises(IllegalMoveError):
        state.clone().apply(discards[:-1])  # not a reordering of the discards
    with pytest.raises(IllegalMoveError):
        state.clone().apply([*discards[:-1], 1])
    outcome = state.sample_chance(random.Random(1))
    assert sorted(outcome) == discards
    state.apply(outcome)
    assert not state.loc_discard
    # the first two reshuffled tiles were revealed
    assert [state.loc(t).number for t in state.current[2:]] == outcome[:2]
    assert len(state.current) == 4 and len(state.stack) == len(discards) - 2


def test_deck_reshuffle_when_the_deck_runs_out() -> None:
    state = new(2, (6,))  # Scriptorium deals no cards: B3 is on top of the deck
    state.discard = state.deck[:3]  # three cards from the bottom of the deck
    state.deck = state.deck[-1:]  # one card left (the top, B3); the rest are gone
    state.apply(["loc", 1])  # seat 0 at the Hut: draws 1
    assert "B3" in hand(state, 0)
    state.apply(["home", "draw"])  # seat 1 draws from an empty deck -> reshuffle first
    assert state.current_player == CHANCE and top(state) == "reshuffle_deck"
    with pytest.raises(IllegalMoveError):
        state.clone().apply(["A1"])
    order = [state.card_name(c) for c in state.discard]
    state.apply(order[::-1])  # draw order: the last discarded first
    assert order[-1] in hand(state, 1)
    assert [state.card_name(c) for c in state.deck[::-1]] == order[::-1][1:]
    assert state.discard == []


def _final_round_check(players: int, options: dict, expected: int, seed: int) -> None:
    rng = random.Random(seed)
    opts = GAME.resolve_options(options)
    state = GAME.new_state(players, opts, GAME.sample_setup(players, opts, rng))
    starts: dict[int, int] = {}
    while not state.is_terminal():
        starts.setdefault(state.round, max(len(s) for s in state.shelves))
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            moves = state.legal_moves()
            shelve = [m for m in moves if m[:2] == ["home", "shelve"] or m[:1] == ["shelve"]]
            state.apply(rng.choice(shelve or [m for m in moves if m != "pass"] or moves))
    last = state.round
    assert state.outcome().termination == "normal"
    # the final round starts with a shelf at the trigger size; the one before did not
    assert starts[last] >= expected > starts[last - 1]


@pytest.mark.parametrize(("players", "trigger"), [(2, 13), (3, 12), (4, 11)])
def test_final_round_trigger_per_player_count(players: int, trigger: int) -> None:
    assert new(players).trigger == trigger
    _final_round_check(players, {}, trigger, seed=players)


def test_final_round_trigger_option() -> None:
    assert new(3, final_round_trigger=7).trigger == 7
    assert new(3, final_round_trigger={3: 9}).trigger == 9
    _final_round_check(3, {"final_round_trigger": 7}, 7, seed=11)


def test_inspection_flip_phase_and_outcome() -> None:
    state = new(2, final_round_trigger=1, max_rounds=3)
    state.apply(["home", "shelve", "A5", 0, 0])
    state.apply(["home", "shelve", "B1", 0, 0])
    state.apply(["home", "shelve", "A1", 0, 1])  # A1 after A5: will be flipped
    finish_placement(state)
    # round 2 is the final round (shelves reached 1 card)
    assert state.round == 2 and state.final_round
    finish_placement(state)
    while top(state) != "flip":
        state.apply(state.legal_moves()[0])
    # seat 0 (first player) flips first: it may turn any face-up card down, or stop
    assert state.current_player == 0
    moves = state.legal_moves()
    assert moves[0] == "done" and ["flip", "A5"] in moves and ["flip", "A1"] in moves
    state.apply(["flip", "A5"])
    assert ["flip", "A5"] not in state.legal_moves()
    state.apply("done")
    assert state.current_player == 1
    state.apply("done")
    assert state.current_player == TERMINAL and state.legal_moves() == []
    sheets = state.sheets
    assert sheets is not None and sheets[0].flipped == ()  # A5 down: A1 is first face up
    outcome = state.outcome()
    assert outcome.scores == (float(sheets[0].total), float(sheets[1].total))
    assert outcome.termination == "normal"


def test_max_rounds_ends_with_move_limit() -> None:
    rng = random.Random(4)
    state = new(2, final_round_trigger=99, max_rounds=2)
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_moves()))
    assert state.round == 2
    assert state.outcome().termination == "move_limit"
    assert len(state.outcome().scores) == 2
