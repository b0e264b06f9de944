"""Libraria rules: hand-worked final positions, turn order, options, a golden record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import simcli
from simcli.game import IllegalMoveError
from simcli.games import get_game
from simcli.games.libraria import TILE_CORNERS, score_board, seat_for_ply, tile_points
from simcli.records import dumps
from simcli.verify import replay
from simcli_strategies.greedy import GreedyStrategy
from simcli_strategies.random_play import RandomStrategy

GAME = get_game("libraria")

# Tile layout used by the hand-worked positions (row-major, -1 = mouse):
#    3  2  1  0 -1
#    0  1  2  3 -1
#   -1  0  1  2  3
#    3 -1  0  1  2
#    2  3 -1  0  1
TILES = [3, 2, 1, 0, -1, 0, 1, 2, 3, -1, -1, 0, 1, 2, 3, 3, -1, 0, 1, 2, 2, 3, -1, 0, 1]


def board(*rows: str) -> list[int]:
    """Six rows of six spots: X = seat 0, O = seat 1."""
    assert len(rows) == 6 and all(len(r) == 6 for r in rows)
    return [{"X": 0, "O": 1}[ch] for row in rows for ch in row]


def final_state(spots: list[int], **options):
    """A finished game with exactly ``spots`` (18 counters each)."""
    assert spots.count(0) == 18 and spots.count(1) == 18
    opts = GAME.resolve_options(options)
    return GAME.state_from_snapshot(2, opts, {"tiles": TILES, "board": list(spots), "ply": 36})


CHECKER = board("XOXOXO", "OXOXOX", "XOXOXO", "OXOXOX", "XOXOXO", "OXOXOX")


def test_tile_points_table() -> None:
    # (value, mine, theirs) -> points of the holder of `mine`
    assert tile_points(3, 4, 0) == 4  # total control: books + 1
    assert tile_points(3, 3, 1) == 3  # majority: the books
    assert tile_points(0, 4, 0) == 1  # empty tile under total control gives 1
    assert tile_points(0, 3, 1) == 0  # empty tile, plain majority: nothing
    assert tile_points(-1, 3, 1) == -1  # a mouse eats a book
    assert tile_points(-1, 4, 0) == -2  # ... two under total control
    assert tile_points(2, 2, 2) == 0  # 2-2: nobody has the majority
    assert tile_points(2, 1, 3) == 0  # the minority scores nothing


def test_checkerboard_all_ties_is_a_draw() -> None:
    # Every tile has two X and two O corners: 2-2 everywhere, 0-0, no winner.
    state = final_state(CHECKER)
    outcome = state.outcome()
    assert outcome.scores == (0, 0)
    assert outcome.winners == ()


def test_tiebreak_first_player_wins_the_draw() -> None:
    outcome = final_state(CHECKER, tiebreak="first_player").outcome()
    assert outcome.scores == (0, 0)
    assert outcome.winners == (0,)


def test_horizontal_halves_total_control_draw() -> None:
    # Rows 0-2 X, rows 3-5 O. Tile rows 0 and 1 are 4-0 X, tile row 2 is 2-2,
    # tile rows 3 and 4 are 4-0 O (total control: books + 1, mouse -2).
    # X: row 0 (3,2,1,0,M) 4+3+2+1-2 = 8; row 1 (0,1,2,3,M) 1+2+3+4-2 = 8 -> 16
    # O: row 3 (3,M,0,1,2) 4-2+1+2+3 = 8; row 4 (2,3,M,0,1) 3+4-2+1+2 = 8 -> 16
    spots = board("XXXXXX", "XXXXXX", "XXXXXX", "OOOOOO", "OOOOOO", "OOOOOO")
    outcome = final_state(spots).outcome()
    assert outcome.scores == (16, 16)
    assert outcome.winners == ()
    assert final_state(spots, tiebreak="first_player").outcome().winners == (0,)


def test_vertical_halves() -> None:
    # Columns 0-2 X, 3-5 O. Tile columns 0,1 are 4-0 X, column 2 ties, 3,4 are 4-0 O.
    # X: col 0 (3,0,M,3,2) 4+1-2+4+3 = 10; col 1 (2,1,0,M,3) 3+2+1-2+4 = 8 -> 18
    # O: col 3 (0,3,2,1,0) 1+4+3+2+1 = 11; col 4 (M,M,3,2,1) -2-2+4+3+2 = 5 -> 16
    spots = board(*["XXXOOO"] * 6)
    outcome = final_state(spots).outcome()
    assert outcome.scores == (18, 16)
    assert outcome.winners == (0,)


def test_three_one_majorities_on_books_and_mouse() -> None:
    # Checkerboard with spot 0 turned O and spot 5 turned X (still 18 each).
    # Tile 0 (3 books): corners 0=O 1=O 6=O 7=X -> O has 3-1: O +3.
    # Tile 4 (mouse):   corners 4=X 5=X 10=O 11=X -> X has 3-1: X -1.
    # Every other tile keeps its 2-2.
    spots = list(CHECKER)
    spots[0], spots[5] = 1, 0
    outcome = final_state(spots).outcome()
    assert outcome.scores == (-1, 3)
    assert outcome.winners == (1,)


def test_total_control_of_an_empty_tile_and_balanced_flips() -> None:
    # Checkerboard (X where row + column is even); spots 3 and 10 turned X, spots 31
    # and 35 turned O (18 each).
    # Tile 2 (1 book):  2=X 3=X 8=O 9=X    -> X 3-1: +1
    # Tile 3 (empty):   3=X 4=X 9=X 10=X   -> X 4-0: 0+1 = +1
    # Tile 4 (mouse):   4=X 5=O 10=X 11=X  -> X 3-1: -1
    # Tile 8 (3 books): 9=X 10=X 15=O 16=X -> X 3-1: +3
    # Tile 9 (mouse):   10=X 11=X 16=X 17=O -> X 3-1: -1      X total: 3
    # Tile 20 (2):      24=X 25=O 30=O 31=O -> O 3-1: +2
    # Tile 21 (3):      25=O 26=X 31=O 32=O -> O 3-1: +3
    # Tile 24 (1):      28=X 29=O 34=O 35=O -> O 3-1: +1      O total: 6
    spots = list(CHECKER)
    spots[3] = spots[10] = 0
    spots[31] = spots[35] = 1
    outcome = final_state(spots).outcome()
    assert outcome.scores == (3, 6)
    assert outcome.winners == (1,)
    # the tiebreak option only matters for equal totals
    assert final_state(spots, tiebreak="first_player").outcome().winners == (1,)


def test_mixed_rows_with_an_empty_tile_plain_majority() -> None:
    # Rows 0-1 X, rows 2-3 O, row 4 XXXOOO, row 5 OOOXXX.
    # Tile row 0: 4-0 X: 4+3+2+1-2 = 8.  Tile row 1: X over O, all 2-2.
    # Tile row 2: 4-0 O: -2+1+2+3+4 = 8.
    # Tile row 3 (O above, XXXOOO below): cols 0,1 tie; col 2 O 3-1 on the
    #   empty tile = 0; col 3 O 4-0 on 1 book = 2; col 4 O 4-0 on 2 books = 3 -> 5.
    # Tile row 4 (XXXOOO over OOOXXX): every tile 2-2.
    # X 8, O 13.
    spots = board("XXXXXX", "XXXXXX", "OOOOOO", "OOOOOO", "XXXOOO", "OOOXXX")
    outcome = final_state(spots).outcome()
    assert outcome.scores == (8, 13)
    assert outcome.winners == (1,)


def test_score_board_counts_partial_boards() -> None:
    # One X counter alone on spot 0 is a 1-0 total control of tile 0 (3 books): 4.
    spots = [-1] * 36
    spots[0] = 0
    assert score_board(TILES, spots) == [4, 0]
    assert len(TILE_CORNERS) == 25


def test_turn_order_two_counters() -> None:
    order = [seat_for_ply(n, "two_counters") for n in range(36)]
    assert order[:7] == [0, 1, 1, 0, 1, 0, 1]
    assert order[-1] == 0  # seat 0 places the 36th (forced) counter
    assert order.count(0) == order.count(1) == 18


def test_turn_order_one_counter() -> None:
    order = [seat_for_ply(n, "one_counter") for n in range(36)]
    assert order[:4] == [0, 1, 0, 1]
    assert order[-1] == 1
    assert order.count(0) == order.count(1) == 18


def test_state_follows_turn_order_and_rejects_bad_moves() -> None:
    state = GAME.new_state(2, GAME.resolve_options({}), {"tiles": TILES})
    assert state.current_player == 0
    state.apply(14)
    assert state.current_player == 1
    state.apply(0)
    assert state.current_player == 1  # the second counter of the opening
    state.apply(35)
    assert state.current_player == 0
    assert state.board[14] == 0 and state.board[0] == 1 and state.board[35] == 1
    for bad in (14, 36, -1, "7", 2.0, True, None):
        with pytest.raises(IllegalMoveError):
            state.apply(bad)
    assert len(state.legal_moves()) == 33


def test_setup_must_be_the_real_tile_set() -> None:
    opts = GAME.resolve_options({})
    for tiles in (TILES[:-1], [3] * 25, TILES[:-1] + [4], "x"):
        with pytest.raises(IllegalMoveError):
            GAME.new_state(2, opts, {"tiles": tiles})
    # a float equal to a tile value (3.0 == 3), a bool (True == 1) and a mixed list that
    # sorted() cannot compare are refused with the same clear message, not a TypeError
    i = TILES.index(3)
    j = TILES.index(1)
    for tiles in (
        TILES[:i] + [3.0] + TILES[i + 1 :],
        TILES[:j] + [True] + TILES[j + 1 :],
        TILES[:i] + ["3"] + TILES[i + 1 :],
        TILES[:i] + [None] + TILES[i + 1 :],
    ):
        with pytest.raises(IllegalMoveError, match="setup.tiles must list 25 tiles"):
            GAME.new_state(2, opts, {"tiles": tiles})


GOLDEN = Path(__file__).parent / "data" / "libraria_golden.jsonl"


def test_golden_records() -> None:
    """Seeds, RNG use and rules are frozen: these records must not change."""
    factories = {"random": RandomStrategy, "greedy": GreedyStrategy}
    lines = GOLDEN.read_text().splitlines()
    assert len(lines) == 2
    for line in lines:
        expected = json.loads(line)
        seats = [{"name": s, "use": factories[s]} for s in expected["seats"]]
        record = simcli.play(GAME, seats, seed=expected["seed"], index=expected["index"])
        assert dumps(record) == line
        assert replay(record) == []
