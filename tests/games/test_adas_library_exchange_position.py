"""Ada's Library's ``exchange_position``: which of the partner's books an Exchange takes.

The text: "exchange one of the books in their book pile with the book in their opponent's
pile that lays in the direct opposite position from the book being swapped", and its
example: "in the same location of the opponent's book pile". ``same_index`` (default, the
example) trades your book at ``i`` for the partner's at ``i``; ``mirrored`` for the
partner's at ``size - 1 - i``, the book physically across the table (both rows are laid
"left to right in front of them" by players facing each other). At its default the
option is left out of the resolved options, so records of the rules as written are
unchanged.

Rows are colour initials: Y=yellow T=teal G=gray M=magenta B=blue R=red; master Y T G M B R.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import simcli
from simcli.errors import GameOptionError
from simcli.game import IllegalMoveError
from simcli.games import get_game
from simcli.games.adas_library.components import CARD_TYPES
from simcli.records import dumps
from simcli.verify import replay
from simcli_strategies.adas_heuristic import AdasHeuristic

GAME = get_game("adas_library")
NAMES = {"Y": "yellow", "T": "teal", "G": "gray", "M": "magenta", "B": "blue", "R": "red"}
FODDER = ["switch1", "switch2", "switch3", "switch4"]
MOVES = ["move1", "move2", "move3", "move4"]  # four of each in the deck: fodder for 4 hands


def build(rows: list[str], hands: list[list[str]], **given):
    """A start position: master Y T G M B R, the given rows and hands, the rest of the
    deck as the draw pile in card order."""
    options = GAME.resolve_options(given)
    deck = Counter(GAME.components(options).deck())
    for hand in hands:
        deck.subtract(hand)
    setup = {
        "master": [NAMES[c] for c in "YTGMBR"],
        "rows": [[NAMES[c] for c in row] for row in rows],
        "hands": hands,
        "draw": [card for card in CARD_TYPES for _ in range(deck[card])],
        "redeals": 0,
    }
    return GAME.new_state(len(rows), options, setup)


def letters(state, seat: int) -> str:
    return "".join(state.comp.colours[c][0].upper() for c in state.rows[seat])


def test_the_option_is_left_out_at_its_default() -> None:
    assert "exchange_position" not in GAME.resolve_options({})
    assert "exchange_position" not in GAME.resolve_options({"exchange_position": "same_index"})
    assert GAME.resolve_options({"exchange_position": "mirrored"})["exchange_position"] == (
        "mirrored"
    )
    with pytest.raises(GameOptionError, match="exchange_position"):
        GAME.resolve_options({"exchange_position": "across"})


# Seat 0: Y T G M R R B M G Y; seat 1: R T Y B T G Y G T B.
TWO = ["YTGMRRBMGY", "RTYBTGYGTB"]


@pytest.mark.parametrize(
    ("mode", "offered", "after"),
    [
        # same_index: Y/R T/T G/Y M/B R/T R/G B/Y M/G G/T Y/B: all but 1 differ.
        # Exchange 3: my M for seat 1's B at 3.
        ("same_index", [0, 2, 3, 4, 5, 6, 7, 8, 9], ("YTGBRRBMGY", "RTYMTGYGTB")),
        # mirrored: my book at i faces seat 1's at 9 - i; seat 1 reversed is
        # B T G Y G T B Y T R: Y/B T/T G/G M/Y R/G R/T B/B M/Y G/T Y/R, so 1, 2 and 6
        # change nothing. Exchange 3: my M for seat 1's book at 6, a Y.
        ("mirrored", [0, 3, 4, 5, 7, 8, 9], ("YTGYRRBMGY", "RTYBTGMGTB")),
    ],
)
def test_two_players_hand_worked(mode: str, offered: list[int], after: tuple[str, str]) -> None:
    state = build(TWO, [["exchange", *FODDER], ["reverse", *FODDER]], exchange_position=mode)
    assert [m[1] for m in state.plays(0, "exchange")] == offered
    assert [m for m in state.legal_moves() if m[0] == "exchange"] == [
        ["exchange", i] for i in offered
    ]
    for i in set(range(10)) - set(offered):
        with pytest.raises(IllegalMoveError, match="changes nothing"):
            state.clone().apply(["exchange", i])
    state.apply(["exchange", 3])
    assert (letters(state, 0), letters(state, 1)) == after


# Seat 0's row Y Y T T G G M M B Y is sorted once its last book is a B or an R. Seat 1's
# R T M B R G B G R M holds an M at 9 (same_index: no help) and an R at 0, which faces
# seat 0's position 9 across the table (mirrored: 9 - 9 = 0).
WIN_ROWS = ["YYTTGGMMBY", "RTMBRGBGRM"]


def test_a_mirrored_exchange_sorts_the_row_hand_worked() -> None:
    hands = [["exchange", *FODDER], ["reverse", *FODDER]]
    plain = build(WIN_ROWS, hands)
    plain.apply(["exchange", 9])
    assert letters(plain, 0) == "YYTTGGMMBM" and plain.winner is None
    state = build(WIN_ROWS, hands, exchange_position="mirrored")
    state.apply(["exchange", 9])
    assert letters(state, 0) == "YYTTGGMMBR"
    assert letters(state, 1) == "YTMBRGBGRM"
    assert state.winner == 0 and state.outcome().winners == (0,)


def test_the_heuristic_finds_the_mirrored_win() -> None:
    hands = [["exchange", *FODDER], ["reverse", *FODDER]]
    state = build(WIN_ROWS, hands, exchange_position="mirrored")
    strategy = AdasHeuristic()
    strategy.seat = 0
    strategy.rng = random.Random(1)
    view = state.view(0)
    assert strategy.choose(view, view.legal_moves()) == ["exchange", 9]


# Four rows that use the 36 tiles exactly, none sorted under Y T G M B R.
FOUR = ["RYTGMBYTG", "BRMGTYMBR", "GBRYTMGTY", "MGBRYTMBR"]


def test_four_players_mirrored_with_facing_partners_hand_worked() -> None:
    # facing partners 0<->3, 1<->2; mirrored: position i faces 8 - i (9 books).
    #   seat 0 at 1 takes seat 3's book at 7 (B) for its Y:
    #       0 R B T G M B Y T G   3 M G B R Y T M Y R
    #   seat 1 at 2 takes seat 2's book at 6 (G) for its M:
    #       1 B R G G T Y M B R   2 G B R Y T M M T Y
    #   seat 2 at 0 takes seat 1's book at 8 (R) for its G:
    #       2 R B R Y T M M T Y   1 B R G G T Y M B G
    #   seat 3 at 4 takes seat 0's book at 4 (M) for its Y:
    #       3 M G B R M T M Y R   0 R B T G Y B Y T G
    state = build(FOUR, [["exchange", *MOVES]] * 4, exchange_position="mirrored")
    for seat, position in enumerate([1, 2, 0, 4]):
        assert state.current_player == seat
        state.apply(["exchange", position])
        assert state.winner is None
    assert [letters(state, s) for s in range(4)] == [
        "RBTGYBYTG",
        "BRGGTYMBG",
        "RBRYTMMTY",
        "MGBRMTMYR",
    ]


def test_four_players_an_exchange_of_equal_books_across_is_refused() -> None:
    # seat 0's R at 0 faces seat 3's R at 8: nothing would change
    state = build(FOUR, [["exchange", *MOVES]] * 4, exchange_position="mirrored")
    with pytest.raises(IllegalMoveError, match="changes nothing"):
        state.apply(["exchange", 0])


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.slow
def test_heuristic_games_under_the_mirrored_reading_replay(players: int) -> None:
    options = GAME.resolve_options({"exchange_position": "mirrored"})
    seat = {"name": "h", "use": AdasHeuristic}
    for index in range(2):
        record = simcli.play(
            GAME, seat, players=players, options=options, seed=30 + index, index=index
        )
        assert record["termination"] in ("normal", "move_limit"), record.get("detail")
        assert record["options"]["exchange_position"] == "mirrored"
        assert replay(record) == []
        again = simcli.play(
            GAME, seat, players=players, options=options, seed=30 + index, index=index
        )
        assert dumps(again) == dumps(record)
