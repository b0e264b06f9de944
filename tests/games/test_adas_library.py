"""Ada's Library rules: cards on hand-worked rows, end check, turns, setup and data file.

Rows are written as strings of colour initials: Y=yellow T=teal G=gray M=magenta B=blue
R=red (the built-in data file's colours).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from simcli.errors import GameOptionError
from simcli.game import CHANCE, TERMINAL, IllegalMoveError
from simcli.games import get_game
from simcli.games.adas_library import AdasLibrary, AdasState, partner_of
from simcli.games.adas_library.components import CARD_TYPES
from simcli.games.adas_library.rows import disorder, is_sorted, out_of_order, ranks, ranks_of

NAMES = {"Y": "yellow", "T": "teal", "G": "gray", "M": "magenta", "B": "blue", "R": "red"}
GAME = AdasLibrary()


def colours(text: str) -> list[str]:
    return [NAMES[c] for c in text]


def letters(state: AdasState, seat: int) -> str:
    return "".join(state.comp.colours[c][0].upper() for c in state.rows[seat])


def master_letters(state: AdasState) -> str:
    return "".join(state.comp.colours[c][0].upper() for c in state.master)


def build(
    rows: list[str],
    master: str = "YTGMBR",
    hands: list[list[str]] | None = None,
    draw_top: list[str] | None = None,
    **options,
) -> AdasState:
    """A start position through new_state: the given rows, master and hands; the draw
    pile is the rest of the deck with ``draw_top`` on top."""
    players = len(rows)
    resolved = GAME.resolve_options(options)
    deck = Counter(GAME.components(resolved).deck())
    default = ["move1", "move2", "move3", "move4", "move_end"]
    hands = hands or [default[:] for _ in range(players)]
    for hand in hands:
        deck.subtract(hand)
    top = draw_top or []
    deck.subtract(top)
    rest = [card for card in CARD_TYPES for _ in range(deck[card])]
    setup = {
        "master": colours(master),
        "rows": [colours(row) for row in rows],
        "hands": hands,
        "draw": top + rest,
        "redeals": 0,
    }
    return GAME.new_state(players, resolved, setup)


PLAIN = ["move1", "move2", "move3", "move4", "move_end"]


def hand_of(*cards: str) -> list[str]:
    """Fill up to a hand of 5 with discard fodder (switch cards)."""
    filler = ["switch1", "switch2", "switch3", "switch4", "reverse"]
    return list(cards) + filler[: 5 - len(cards)]


# -- sortedness -------------------------------------------------------------------------


def test_sorted_ignores_missing_colours() -> None:
    rank = ranks([0, 1, 2, 3, 4, 5])  # Y T G M B R by index in the data file
    idx = {c: i for i, c in enumerate("YTGMBR")}
    assert is_sorted([idx[c] for c in "YYGGGBBBBR"], rank)  # no teal, no magenta
    assert is_sorted([idx[c] for c in "TTTTRRRRRR"], rank)  # two colours only
    assert not is_sorted([idx[c] for c in "YYGGGBBBRB"], rank)
    assert out_of_order([idx[c] for c in "YYGGGBBBRB"], rank) == 1
    assert out_of_order([idx[c] for c in "RBMGTYRBMG"], rank) == 8  # longest run: 2


def test_disorder_counts_books_out_of_order_and_descents_in_one_pass() -> None:
    """Master Y T G M B R. YYGGGBBBRB: 1 book out of order, one step down (R to B).
    RBMGTYRBMG: ranks 5 4 3 2 1 0 5 4 3 2, steps down at 8 of 9 places, 8 books out of
    order. Master order R B M G T Y (reversed): RBMGTY is sorted (0, 0)."""
    idx = {c: i for i, c in enumerate("YTGMBR")}
    rank = ranks_of((0, 1, 2, 3, 4, 5))
    assert rank == (0, 1, 2, 3, 4, 5) and ranks_of((0, 1, 2, 3, 4, 5)) is rank  # kept
    assert disorder([idx[c] for c in "YYGGGBBBRB"], rank) == (1, 1)
    assert disorder([idx[c] for c in "RBMGTYRBMG"], rank) == (8, 8)
    reverse = ranks_of((5, 4, 3, 2, 1, 0))
    assert reverse == tuple(ranks([5, 4, 3, 2, 1, 0]))
    assert disorder([idx[c] for c in "RBMGTY"], reverse) == (0, 0)
    assert disorder([idx[c] for c in "RBMGTYRBMG"], reverse) == (4, 1)


def test_missing_colours_win_by_switch() -> None:
    state = build(["YYGGMBMBBB", "RTRTRTMGMG"], hands=[hand_of("switch1"), hand_of()])
    state.apply(["switch1", 5])  # YYGGMMBBBB: teal and red missing, sorted
    assert letters(state, 0) == "YYGGMMBBBB"
    assert state.winner == 0
    assert state.is_terminal() and state.legal_moves() == []
    outcome = state.outcome()
    assert outcome.winners == (0,) and outcome.scores == (1.0, 0.0)
    assert outcome.termination == "normal"


# -- the cards, with the rulebook's examples -------------------------------------------


def test_move4_right_shifts_the_passed_books() -> None:
    # the text: yellow moves 4 to the right, to where teal was; the 4 books slide left
    state = build(["YBMGTRRBMG", "TTRTYGYGMB"], hands=[hand_of("move4"), hand_of()])
    state.apply(["move4", 0, "R"])
    assert letters(state, 0) == "BMGTYRRBMG"


@pytest.mark.slow
def test_move_left_and_exact_distance() -> None:
    state = build(["YBMGTRRBMG", "TTRTYGYGMB"], hands=[hand_of("move3"), hand_of()])
    moves = [m for m in state.legal_moves() if m[0] == "move3"]
    # 10 books, no three-book run of one colour: p=0..6 right, p=3..9 left
    assert len(moves) == 14
    assert ["move3", 7, "R"] not in moves and ["move3", 2, "L"] not in moves
    with pytest.raises(IllegalMoveError, match="all of its steps"):
        state.clone().apply(["move3", 7, "R"])  # would leave the row: not 2 steps instead
    state.apply(["move3", 9, "L"])
    assert letters(state, 0) == "YBMGTRGRBM"


def test_move_never_offered_without_effect() -> None:
    # YY at the left: move1 of book 0 right / book 1 left would change nothing
    state = build(["YYTGMBRTGM", "RBRBRTYGYG"], hands=[hand_of("move1"), hand_of()])
    moves = [m for m in state.legal_moves() if m[0] == "move1"]
    assert len(moves) == 18 - 2
    assert ["move1", 0, "R"] not in moves and ["move1", 1, "L"] not in moves
    with pytest.raises(IllegalMoveError, match="changes nothing"):
        state.clone().apply(["move1", 0, "R"])


def test_move_to_end() -> None:
    # the text: the gray book goes to the right end
    state = build(["TGYMBRRBMY", "RTRTGTYGYG"], hands=[hand_of("move_end"), hand_of()])
    moves = [m for m in state.legal_moves() if m[0] == "move_end"]
    assert len(moves) == 18  # every book but the end one, each way
    state.apply(["move_end", 1, "R"])
    assert letters(state, 0) == "TYMBRRBMYG"
    with pytest.raises(IllegalMoveError, match="already at that end"):
        build(["TGYMBRRBMY", "RTRTGTYGYG"], hands=[hand_of("move_end"), hand_of()]).apply(
            ["move_end", 0, "L"]
        )


def test_switch4() -> None:
    # the text: yellow switches with teal 4 places to its right
    state = build(["BMYRGRTMBG", "RTRTYTYGYG"], hands=[hand_of("switch4"), hand_of()])
    moves = [m for m in state.legal_moves() if m[0] == "switch4"]
    assert moves == [["switch4", i] for i in range(6)]  # every pair 4 apart differs
    state.apply(["switch4", 2])
    assert letters(state, 0) == "BMTRGRYMBG"


def test_reverse() -> None:
    state = build(["YBMGTRRBMG", "TTRTYGYGMB"], hands=[hand_of("reverse"), hand_of()])
    state.apply(["reverse"])
    assert letters(state, 0) == "GBMGTRRBMY"


def test_master_modify2() -> None:
    # the text: yellow moves 2 right, to teal's place; gray and teal slide left
    state = build(
        ["RBMGTYRBMG", "RTRTBTYGYG"], master="YGTMBR", hands=[hand_of("master2"), hand_of()]
    )
    moves = [m for m in state.legal_moves() if m[0] == "master2"]
    assert len(moves) == 8  # 6 master cards: 4 can go right, 4 left
    state.apply(["master2", 0, "R"])
    assert master_letters(state) == "GTYMBR"
    assert state.rank == ranks(state.master)


def test_exchange_same_position() -> None:
    # the text: my magenta book for the blue book at the same position of the opponent
    state = build(["YTGMRRBMGY", "RTYBTGYGTB"], hands=[hand_of("exchange"), hand_of()])
    state.apply(["exchange", 3])
    assert letters(state, 0) == "YTGBRRBMGY"
    assert letters(state, 1) == "RTYMTGYGTB"


def test_unusable_card_is_only_discardable() -> None:
    # both ends yellow: Reverse cannot be used; same colours everywhere: no Exchange
    state = build(
        ["YTGMBRRBTY", "YTGMBRRBTY"],
        hands=[["reverse", "exchange", "reverse", "exchange", "reverse"], PLAIN],
    )
    assert state.legal_moves() == [["discard", "reverse"], ["discard", "exchange"]]
    with pytest.raises(IllegalMoveError, match="changes nothing"):
        state.clone().apply(["reverse"])
    with pytest.raises(IllegalMoveError, match="changes nothing"):
        state.clone().apply(["exchange", 4])
    state.apply(["discard", "reverse"])
    assert state.discard == ["reverse"] and state.current_player == 1


def test_legal_move_order_and_malformed_moves() -> None:
    state = build(
        ["YBMGTRRBMG", "TTRTYGYGMB"],
        hands=[["reverse", "move2", "reverse", "exchange", "move2"], hand_of()],
    )
    moves = state.legal_moves()
    cards = [m[0] if m[0] != "discard" else "discard:" + m[1] for m in moves]
    first = {c: cards.index(c) for c in set(cards)}
    assert first["move2"] < first["reverse"] < first["exchange"] < first["discard:move2"]
    assert moves[-3:] == [["discard", "move2"], ["discard", "reverse"], ["discard", "exchange"]]
    for bad in (
        "move2",
        [],
        {"card": "move2"},
        ["move2", 0],
        ["move2", 0, "up"],
        ["move2", True, "R"],
        ["move2", 10, "L"],
        ["switch1", 0],  # not in hand
        ["discard", "switch1"],
        ["discard"],
        ["warp", 1],
        ["reverse", 1],
    ):
        with pytest.raises(IllegalMoveError):
            state.clone().apply(bad)
    assert state.legal_moves() == moves


# -- the end check ---------------------------------------------------------------------


def test_exchange_sorting_only_the_opponent_makes_them_win() -> None:
    state = build(["RBMGTRBMGR", "YYTTGGMMBY"], hands=[hand_of("exchange"), hand_of()])
    state.apply(["exchange", 9])
    assert letters(state, 1) == "YYTTGGMMBR"
    assert state.winner == 1 and state.outcome().winners == (1,)


def test_exchange_sorting_both_rows_the_actor_wins() -> None:
    rows = ["YYTTMGGMBB", "YTTMGMBBRR"]
    for actor in (0, 1):
        state = build(rows, hands=[hand_of("exchange"), hand_of("exchange")])
        if actor == 1:
            state.apply(["discard", "switch1"])
        state.apply(["exchange", 4])
        assert letters(state, 0) == "YYTTGGGMBB" and letters(state, 1) == "YTTMMMBBRR"
        assert state.winner == actor


def test_master_change_sorting_two_other_rows_4p() -> None:
    # seat 1 moves blue before red: rows 0 and 3 become sorted; after seat 1 the turn
    # order is 2, 3, 0, so seat 3 wins
    rows = ["YYTTGGMBR", "RBYGTYRBM", "BRMGTYBRM", "YTTGGMMBR"]
    hands = [PLAIN, ["master1", *PLAIN[:4]], PLAIN, hand_of()]
    state = build(rows, master="YTGMRB", hands=hands)
    state.apply(["discard", "move1"])
    assert state.current_player == 1
    state.apply(["master1", 4, "R"])
    assert master_letters(state) == "YTGMBR"
    assert is_sorted(state.rows[0], state.rank) and is_sorted(state.rows[3], state.rank)
    assert state.winner == 3


def test_master_change_sorting_the_actor_and_another_row() -> None:
    rows = ["YYTTGGMBR", "YTTGGMMBR", "BRMGTYBRM", "RBYGTYRBM"]
    hands = [PLAIN, ["master1", *PLAIN[:4]], PLAIN, hand_of()]
    state = build(rows, master="YTGMRB", hands=hands)
    state.apply(["discard", "move1"])
    state.apply(["master1", 4, "R"])  # rows 0 and 1 sorted: the actor, seat 1, wins
    assert state.winner == 1


# -- turns, draws, reshuffle, limit ---------------------------------------------------


def test_scripted_short_game_to_a_win() -> None:
    state = build(
        ["YYTTGGMBMB", "RBMGTRRBMG"],
        hands=[["master1", "reverse", "move4", "move4", "move3"], hand_of()],
        draw_top=["switch1", "move1", "exchange"],
    )
    assert state.current_player == 0 and len(state.draw) == 35
    state.apply(["discard", "master1"])  # seat 0 draws the switch1
    assert state.hands[0][-1] == "switch1" and state.current_player == 1
    state.apply(["switch2", 0])  # seat 1: RBMGTRRBMG -> MBRGTRRBMG, draws move1
    assert letters(state, 1) == "MBRGTRRBMG" and state.hands[1][-1] == "move1"
    assert state.turns == 2 and state.current_player == 0
    state.apply(["switch1", 7])  # YYTTGGMMBB
    assert state.winner == 0 and state.current_player == TERMINAL
    assert state.hands[0].count("switch1") == 0 and len(state.hands[0]) == 4  # no draw
    assert state.discard == ["master1", "switch2", "switch1"]
    assert state.outcome().termination == "normal"
    with pytest.raises(IllegalMoveError, match="over"):
        state.apply(["discard", "move4"])


def test_turn_limit_is_a_draw() -> None:
    state = build(["YBMGTRRBMG", "TTRTYGYGMB"], max_turns=3)
    for _ in range(3):
        state.apply(state.legal_moves()[-1])  # a discard
    assert state.current_player == TERMINAL and state.legal_moves() == []
    outcome = state.outcome()
    assert outcome.winners == () and outcome.termination == "move_limit"
    assert outcome.scores == (0.0, 0.0)


def test_reshuffle_is_a_chance_turn() -> None:
    state = build(["YBMGTRRBMG", "TTRTYGYGMB"])
    rng = random.Random(5)
    while state.draw:
        state.apply(state.legal_moves()[-1])  # discard
    assert state.turns == 35 and state.current_player == 1
    state.apply(["discard", state.hands[1][0]])
    assert state.current_player == CHANCE and state.legal_moves() == []
    assert len(state.discard) == 36 and len(state.hands[1]) == 4
    with pytest.raises(IllegalMoveError):
        state.clone().apply(state.discard[:-1])  # one card short
    with pytest.raises(IllegalMoveError):
        state.clone().apply(["discard", "move1"])
    outcome = state.sample_chance(rng)
    assert sorted(outcome) == sorted(state.discard)
    state.apply(outcome)
    assert state.discard == [] and state.draw == outcome[1:]
    assert state.hands[1][-1] == outcome[0] and len(state.hands[1]) == 5
    assert state.turns == 36 and state.current_player == 0
    with pytest.raises(IllegalMoveError, match="no chance"):
        state.sample_chance(rng)


# -- seats and partners ---------------------------------------------------------------


def test_exchange_partners_by_seating() -> None:
    # Two on a side, clockwise NW=0, NE=1, SE=2, SW=3: 0 faces 3 and 1 faces 2 across
    # the table; 0-2 and 1-3 sit corner to corner.
    assert [partner_of(s, 2) for s in range(2)] == [1, 0]
    assert [partner_of(s, 4) for s in range(4)] == [3, 2, 1, 0]
    assert [partner_of(s, 4, "facing") for s in range(4)] == [3, 2, 1, 0]
    assert [partner_of(s, 4, "diagonal") for s in range(4)] == [2, 3, 0, 1]
    assert [partner_of(s, 2, "diagonal") for s in range(2)] == [1, 0]
    assert GAME.resolve_options({})["exchange_partner"] == "facing"
    with pytest.raises(GameOptionError, match="exchange_partner"):
        GAME.resolve_options({"exchange_partner": "left"})


# Rows that use the 36 tiles exactly (6 of each colour), none sorted under YTGMBR.
FOUR_ROWS = ["RYTGMBYTG", "BRMGTYMBR", "GBRYTMGTY", "MGBRYTMBR"]


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        # facing: seat 0 at 0 with seat 3 (R<->M); seat 1 at 1 with seat 2 (R<->B);
        # seat 2 at 2 with seat 1 (R<->M);
        # seat 3 at 3 with seat 0 (R<->G).
        #   after 0: 0 MYTGMBYTG  3 RGBRYTMBR
        #   after 1: 1 BBMGTYMBR  2 GRRYTMGTY
        #   after 2: 2 GRMYTMGTY  1 BBRGTYMBR
        #   after 3: 3 RGBGYTMBR  0 MYTRMBYTG
        ("facing", ["MYTRMBYTG", "BBRGTYMBR", "GRMYTMGTY", "RGBGYTMBR"]),
        # diagonal: seat 0 at 0 with seat 2 (R<->G); seat 1 at 1 with seat 3 (R<->G);
        # seat 2 at 2 with seat 0 (R<->T); seat 3 at 3 with seat 1 (R<->G).
        #   after 0: 0 GYTGMBYTG  2 RBRYTMGTY
        #   after 1: 1 BGMGTYMBR  3 MRBRYTMBR
        #   after 2: 2 RBTYTMGTY  0 GYRGMBYTG
        #   after 3: 3 MRBGYTMBR  1 BGMRTYMBR
        ("diagonal", ["GYRGMBYTG", "BGMRTYMBR", "RBTYTMGTY", "MRBGYTMBR"]),
    ],
)
def test_four_player_exchanges_hand_worked(mode: str, expected: list[str]) -> None:
    state = build(
        FOUR_ROWS, master="YTGMBR", hands=[["exchange", *PLAIN[:4]]] * 4, exchange_partner=mode
    )
    partners = {"facing": [3, 2, 1, 0], "diagonal": [2, 3, 0, 1]}[mode]
    for seat in range(4):
        assert state.current_player == seat
        before = [letters(state, s) for s in range(4)]
        state.apply(["exchange", seat])
        after = [letters(state, s) for s in range(4)]
        assert {s for s in range(4) if before[s] != after[s]} == {seat, partners[seat]}
    assert [letters(state, s) for s in range(4)] == expected
    assert state.current_player == 0  # turn order 0, 1, 2, 3, 0
    # seat 0's uses of an Exchange: the positions where its row and its partner's differ
    # MYTRMBYTG vs RGBGYTMBR (facing, seat 3): every position but none equal -> 0..8
    # GYRGMBYTG vs RBTYTMGTY (diagonal, seat 2): equal at 7 (T) -> all but 7
    offered = {m[1] for m in state.plays(0, "exchange")}
    assert offered == (
        {0, 1, 2, 3, 4, 5, 6, 7, 8} if mode == "facing" else {0, 1, 2, 3, 4, 5, 6, 8}
    )


# -- setup and the data file ----------------------------------------------------------


@pytest.mark.parametrize(("players", "books", "draw"), [(2, 10, 35), (4, 9, 25)])
def test_sample_setup(players: int, books: int, draw: int) -> None:
    options = GAME.resolve_options({})
    for seed in range(20):
        setup = GAME.sample_setup(players, options, random.Random(seed))
        assert json.loads(json.dumps(setup)) == setup
        assert sorted(setup["master"]) == sorted(NAMES.values())
        assert all(len(row) == books for row in setup["rows"])
        tiles = Counter(name for row in setup["rows"] for name in row)
        assert max(tiles.values()) <= (4 if players == 2 else 6)
        if players == 4:
            assert all(n == 6 for n in tiles.values())  # all 36 tiles are used
        assert all(len(hand) == 5 for hand in setup["hands"]) and len(setup["draw"]) == draw
        assert Counter(setup["draw"] + sum(setup["hands"], [])) == Counter(
            GAME.components(options).deck()
        )
        state = GAME.new_state(players, options, setup)
        assert not any(is_sorted(row, state.rank) for row in state.rows)
    again = GAME.sample_setup(players, options, random.Random(7))
    assert again == GAME.sample_setup(players, options, random.Random(7))


def test_redeal_of_a_sorted_row_is_counted(tmp_path) -> None:
    # two colours only: sorted deals are common, so re-deals happen
    path = tmp_path / "two.yaml"
    path.write_text(
        "colours: [yellow, teal]\nhand_size: 5\ndeck_size: 45\n"
        "cards: {move1: 45}\n"
        "players: {2: {tiles: 6, books_each: 3}, 4: {tiles: 12, books_each: 3}}\n"
    )
    options = GAME.resolve_options({"data_file": str(path)})
    counts = []
    for seed in range(30):
        setup = GAME.sample_setup(2, options, random.Random(seed))
        state = GAME.new_state(2, options, setup)
        assert not any(is_sorted(row, state.rank) for row in state.rows)
        counts.append(setup["redeals"])
    assert max(counts) > 0 and min(counts) == 0


def test_new_state_rejects_impossible_setups() -> None:
    options = GAME.resolve_options({})
    good = GAME.sample_setup(2, options, random.Random(3))

    def broken(**change):
        return {**json.loads(json.dumps(good)), **change}

    rank_master = good["master"]
    sorted_row = sorted(good["rows"][0], key=rank_master.index)
    cases = [
        broken(master=good["master"][:-1] + ["green"]),
        broken(rows=[good["rows"][0]]),
        broken(rows=[good["rows"][0][:-1], good["rows"][1]]),
        broken(rows=[["yellow"] * 10, good["rows"][1]]),  # 10 yellow: the bag has 4
        broken(rows=[sorted_row, good["rows"][1]]),  # sorted at the deal
        broken(hands=[good["hands"][0], good["hands"][1][:-1]]),
        broken(draw=good["draw"][:-1]),
        broken(draw=good["draw"][:-1] + ["reverse"]),
        broken(redeals=-1),
        {k: v for k, v in good.items() if k != "redeals"},
    ]
    for setup in cases:
        with pytest.raises(IllegalMoveError, match="setup"):
            GAME.new_state(2, options, setup)
    with pytest.raises(GameOptionError, match="2 or 4"):
        GAME.new_state(3, options, good)


def test_builtin_data_file_is_marked_reconstructed() -> None:
    from importlib.resources import files

    text = (files("simcli.games") / "data" / "adas_library.yaml").read_text()
    assert "RECONSTRUCTED" in text
    comp = GAME.components(GAME.resolve_options({}))
    assert comp.deck_size == 45 and len(comp.deck()) == 45
    assert comp.players == {2: (24, 10), 4: (36, 9)} and comp.hand_size == 5


def test_replacement_data_file_changes_the_game(tmp_path) -> None:
    path = tmp_path / "cards.yaml"
    path.write_text(
        "colours: [yellow, teal, gray, magenta, blue, red]\nhand_size: 5\ndeck_size: 45\n"
        "cards: {move1: 40, reverse: 5}\n"
        "players: {2: {tiles: 24, books_each: 10}, 4: {tiles: 36, books_each: 9}}\n"
    )
    options = GAME.resolve_options({"data_file": str(path)})
    assert options["components"]["cards"]["move1"] == 40
    setup = GAME.sample_setup(2, options, random.Random(1))
    assert set(setup["draw"]) <= {"move1", "reverse"}
    # the resolved options replay without the file (the record keeps the components)
    path.unlink()
    again = GAME.resolve_options(json.loads(json.dumps(options)))
    assert again == options
    GAME.new_state(2, again, setup)
    # a default-deck setup does not fit this deck
    with pytest.raises(IllegalMoveError, match="deck"):
        GAME.new_state(2, again, GAME.sample_setup(2, GAME.resolve_options({}), random.Random(1)))


BASE = {
    "colours": ["yellow", "teal", "gray", "magenta", "blue", "red"],
    "hand_size": 5,
    "deck_size": 45,
    "cards": {
        "move1": 4,
        "move2": 4,
        "move3": 4,
        "move4": 4,
        "move_end": 4,
        "switch1": 3,
        "switch2": 3,
        "switch3": 3,
        "switch4": 3,
        "reverse": 3,
        "master1": 3,
        "master2": 3,
        "exchange": 4,
    },
    "players": {"2": {"tiles": 24, "books_each": 10}, "4": {"tiles": 36, "books_each": 9}},
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"cards": {**BASE["cards"], "move5": 1}}, r"cards\.move5'.*unknown card type"),
        ({"cards": {**BASE["cards"], "move1": 5}}, "add up to 46, but deck_size is 45"),
        ({"cards": {**BASE["cards"], "move1": -1}}, "cards.move1"),
        (
            {"players": {"2": {"tiles": 25, "books_each": 10}, "4": BASE["players"]["4"]}},
            "do not split evenly",
        ),
        (
            {"players": {"2": {"tiles": 18, "books_each": 10}, "4": BASE["players"]["4"]}},
            "need 20 tiles",
        ),
        ({"players": {"2": BASE["players"]["2"]}}, "players.4': is missing"),
        ({"players": {**BASE["players"], "3": BASE["players"]["2"]}}, "2 or 4 players"),
        ({"colours": ["yellow", "yellow", "gray", "magenta", "blue", "red"]}, "twice"),
        ({"colurs": []}, "did you mean 'colours'"),
        ({"hand_size": 12}, "cannot deal hands of 12"),
    ],
)
def test_loader_errors_name_file_entry_and_problem(tmp_path, change, message) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**BASE, **change}))
    with pytest.raises(GameOptionError, match=message) as info:
        GAME.resolve_options({"data_file": str(path)})
    assert str(path) in str(info.value)
    # the same data inline in the `components` option
    with pytest.raises(GameOptionError, match=message):
        GAME.resolve_options({"components": {**BASE, **change}})


def test_loader_file_problems(tmp_path) -> None:
    with pytest.raises(GameOptionError, match="cannot read"):
        GAME.resolve_options({"data_file": str(tmp_path / "missing.yaml")})
    bad = tmp_path / "bad.yaml"
    bad.write_text("cards: [unclosed\n")
    with pytest.raises(GameOptionError, match="not valid YAML"):
        GAME.resolve_options({"data_file": str(bad)})
    with pytest.raises(GameOptionError, match="data_file"):
        GAME.resolve_options({"data_file": 3})
    with pytest.raises(GameOptionError, match="max_turns"):
        GAME.resolve_options({"max_turns": 0})
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps(BASE))
    assert GAME.resolve_options({"data_file": str(ok)}) == {
        **GAME.resolve_options({}),
        "data_file": str(ok),
    }


def test_registered() -> None:
    game = get_game("adas_library")
    assert isinstance(game, AdasLibrary)
    assert game.player_counts == (2, 4) and not game.perfect_information
