"""Libraria's engine helpers behind the compiled path: the spot removal and the shared
outcomes give exactly what the plain rules give."""

from __future__ import annotations

import pytest

from simcli.games import get_game
from simcli.games.libraria import decided, take_spot

GAME = get_game("libraria")
TILES = [3, 2, 1, 0, -1, 0, 1, 2, 3, -1, -1, 0, 1, 2, 3, 3, -1, 0, 1, 2, 2, 3, -1, 0, 1]
#: Columns alternate X O X O X O on every row: each tile has two counters of each seat.
SPLIT = [0, 1] * 18


def finished(board: list[int], **options):
    opts = GAME.resolve_options(options)
    return GAME.state_from_snapshot(2, opts, {"tiles": TILES, "board": board, "ply": 36})


def test_take_spot_removes_like_list_remove() -> None:
    free = [0, 3, 4, 17, 35]
    take_spot(free, 17)
    assert free == [0, 3, 4, 35]
    take_spot(free, 0)
    take_spot(free, 35)
    assert free == [3, 4]
    with pytest.raises(ValueError):
        take_spot(free, 5)
    assert free == [3, 4]


def test_decided_gives_the_winner_and_the_tiebreak() -> None:
    assert decided(5, 3, "none").winners == (0,)
    assert decided(3, 5, "first_player").winners == (1,)
    assert decided(4, 4, "none").winners == ()
    assert decided(4, 4, "first_player").winners == (0,)
    assert decided(4, 4.5, "none").scores == (4, 4.5)


def test_equal_endings_share_one_outcome_and_options_keep_theirs() -> None:
    # every tile split two against two: nobody scores, a draw by the rules as written
    a, b = finished(list(SPLIT)), finished(list(SPLIT))
    assert a.outcome() is b.outcome()
    assert a.outcome().scores == (0, 0) and a.outcome().winners == ()
    # the same board under the other tiebreak: its own outcome, seat 0 wins
    first = finished(list(SPLIT), tiebreak="first_player").outcome()
    assert first.scores == (0, 0) and first.winners == (0,)
    assert a.outcome().winners == ()


def test_komi_outcome_is_built_with_the_komi_types() -> None:
    # komi is a float option: both seats' scores become floats (seat s gets s * komi)
    out = finished(list(SPLIT), komi=2.5).outcome()
    assert out.scores == (0, 2.5) and out.winners == (1,)
    assert [type(s) for s in out.scores] == [float, float]
    # without komi the shared outcome keeps the integer points
    plain = finished(list(SPLIT)).outcome()
    assert plain.scores == (0, 0) and [type(s) for s in plain.scores] == [int, int]
