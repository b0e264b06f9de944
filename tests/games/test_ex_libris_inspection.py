"""Ex Libris inspection on hand-built shelves; every score is worked out in a comment.

Cards are plain integers here (a larger number = later in the alphabet) and the books of
each card are given by a small table, so these tests do not depend on the deck data.
"""

from __future__ import annotations

import pytest

from simcli.games.ex_libris.inspection import (
    alphabetical_check,
    category_counts,
    inspect_all,
    prominent_awards,
    stability,
    winners,
)

# categories: 0 C, 1 F, 2 H, 3 M, 4 R, 5 S


def grid(rows: list[list[int | None]]) -> dict[tuple[int, int], int]:
    """Rows top to bottom; None = no card."""
    return {
        (r, c): card for r, row in enumerate(rows) for c, card in enumerate(row) if card is not None
    }


def test_alphabetical_check_flips_two_and_compares_with_previous_face_up_card() -> None:
    shelf = grid([[10, 50, 20], [30, 60, 70]])
    # reading order 10, 50, 20, 30, 60, 70:
    # 10 first (never flipped); 50 > 10 stays; 20 < 50 flipped;
    # 30: the previous FACE-UP card is 50 (20 was just flipped), 30 < 50 -> flipped
    #     (comparing with the card just before it, 20, would have kept it);
    # 60 > 50 stays; 70 > 60 stays.
    assert alphabetical_check(shelf) == [(0, 2), (1, 0)]


def test_voluntary_flip_saves_later_cards() -> None:
    shelf = grid([[10, 50, 20], [30, 60, 70]])
    # 50 turned face down before the inspection: it is skipped, so the sequence is
    # 10, 20, 30, 60, 70 -> nothing flipped.
    assert alphabetical_check(shelf, down={(0, 1)}) == []


def test_first_card_never_flipped_and_face_down_skipped() -> None:
    shelf = grid([[90, 10], [20, 95]])
    # 90 first: stays; 10 < 90 flipped; 20 < 90 flipped; 95 > 90 stays.
    assert alphabetical_check(shelf) == [(0, 1), (1, 0)]
    # with 90 face down the first face-up card is 10: 20 and 95 follow it.
    assert alphabetical_check(shelf, down={(0, 0)}) == []


def test_stability_rectangle_must_include_bottom_row() -> None:
    shelf = grid([[1, 2, 3, 4], [5, 6, 7, 8], [None, None, 9, 10]])
    # The top two rows form a 2x4 block (8 cards) but it does not include the bottom row.
    # Rectangles on the bottom row (cols 2-3): 2 tall -> 4 cards, 3 tall -> 6 cards.
    assert stability(shelf) == 6


def test_stability_needs_two_by_two() -> None:
    # one long row: 1 tall -> no rectangle
    assert stability(grid([[1, 2, 3, 4, 5]])) == 0
    # a single bottom card under a wide row: only 1 wide -> 0
    assert stability(grid([[1, 2, 3], [None, 4, None]])) == 0
    # 2x2 exactly -> 4; holes break rectangles: bottom row cols 0,1,3 with top row full
    assert stability(grid([[1, 2], [3, 4]])) == 4
    assert stability(grid([[1, 2, 3, 4], [5, 6, None, 7]])) == 4
    # face-down cards still count: stability ignores faces (takes positions only)
    assert stability(grid([[1, 2, 3], [4, 5, 6], [7, 8, 9]])) == 9


def test_prominent_works_plain_and_two_way_ties() -> None:
    # Two-way ties read the same under both options: the tied place's prize plus the
    # next place's is also the prize of the two places the pair occupies.
    for ties in ("next_place", "pooled"):
        # no ties: 15 / 9 / 4, fourth place gets nothing
        assert prominent_awards([7, 5, 3, 1], ties=ties) == [15, 9, 4, 0]
        # two tied for first: (15 + 9) / 2 = 12 each; the next player is third: 4
        assert prominent_awards([5, 5, 2], ties=ties) == [12, 12, 4]
        # two tied for second: (9 + 4) / 2 = 6.5 -> 7 each
        assert prominent_awards([6, 2, 2], ties=ties) == [15, 7, 7]
        assert prominent_awards([6, 2, 2, 1], ties=ties) == [15, 7, 7, 0]
        # two tied for third: (4 + 0) / 2 = 2 each
        assert prominent_awards([6, 4, 1, 1], ties=ties) == [15, 9, 2, 2]
        # two players with equal counts: 24 / 2 = 12 each
        assert prominent_awards([4, 4], ties=ties) == [12, 12]


def test_prominent_works_three_way_ties() -> None:
    # three tied for first, fourth behind:
    #   next_place: 15 + 9 (the next lower place) = 24, 24 / 3 = 8 each; fourth is 4th: 0
    #   pooled: 15 + 9 + 4 (the three places they occupy) = 28, 28 / 3 = 9.33 -> 10 each
    assert prominent_awards([3, 3, 3, 1]) == [8, 8, 8, 0]
    assert prominent_awards([3, 3, 3, 1], ties="next_place") == [8, 8, 8, 0]
    assert prominent_awards([3, 3, 3, 1], ties="pooled") == [10, 10, 10, 0]
    # three players all tied: the same sums, 8 or 10 each
    assert prominent_awards([5, 5, 5], ties="next_place") == [8, 8, 8]
    assert prominent_awards([5, 5, 5], ties="pooled") == [10, 10, 10]
    # three tied for second behind a leader: 9 + 4 = 13 both ways (there is no 4th
    # prize to pool), 13 / 3 = 4.33 -> 5 each
    assert prominent_awards([7, 2, 2, 2], ties="next_place") == [15, 5, 5, 5]
    assert prominent_awards([7, 2, 2, 2], ties="pooled") == [15, 5, 5, 5]


def test_prominent_works_four_way_ties() -> None:
    # all four tied (here with 0 books: every seat is ranked):
    #   next_place: 15 + 9 = 24, 24 / 4 = 6 each
    #   pooled: 15 + 9 + 4 + 0 = 28, 28 / 4 = 7 each
    assert prominent_awards([0, 0, 0, 0]) == [6, 6, 6, 6]
    assert prominent_awards([0, 0, 0, 0], ties="pooled") == [7, 7, 7, 7]
    assert prominent_awards([4, 4, 4, 4], ties="next_place") == [6, 6, 6, 6]
    assert prominent_awards([4, 4, 4, 4], ties="pooled") == [7, 7, 7, 7]
    with pytest.raises(ValueError, match="prominent_ties"):
        prominent_awards([1, 1], ties="shared")


BOOKS = {
    # card: categories of its books
    1: (0, 1, 2),  # C F H
    2: (0, 3),  # C M
    3: (1, 4, 5),  # F R S
    4: (2, 3, 4, 5),  # H M R S
    5: (0, 0, 1),  # C C F
    6: (5, 5),  # S S
    7: (0, 1, 2, 3),  # C F H M
    8: (4, 5, 1),  # R S F
}
CARD_BOOKS = [BOOKS.get(i, ()) for i in range(10)]


def test_category_counts_skip_face_down_cards() -> None:
    shelf = grid([[1, 2], [3, 4]])
    # face up: 1 (C F H), 2 (C M), 4 (H M R S); card 3 face down.
    assert category_counts(shelf, {(1, 0)}, CARD_BOOKS) == [2, 1, 2, 2, 1, 1]


def test_full_inspection_worked_example() -> None:
    # Seat 0: rows [1, 2, 3] / [4, 5, 6] -> alphabetical, nothing flipped.
    #   books: 1 C F H, 2 C M, 3 F R S, 4 H M R S, 5 C C F, 6 S S
    #   counts C4 F3 H2 M2 R2 S4
    #   stability: 2x3 = 6
    # Seat 1: rows [7, 2] / [8, 1] -> 2 < 7 flipped; 8 > 7 stays; 1 < 8 flipped.
    #   face up: 7 C F H M, 8 R S F -> counts C1 F2 H1 M1 R1 S1; stability 2x2 = 4
    # Prominent = F (1): seat 0 has 3, seat 1 has 2 -> 15 and 9.
    # Banned = S (5): seat 0 -4, seat 1 -1.
    # Variety ignores S: seat 0 min(C4 F3 H2 M2 R2) = 2 -> 6; seat 1 min(1,2,1,1,1) = 1 -> 3.
    # Focus: seat 0 H (2) -> 2 x 2 = 4; seat 1 M (3) -> 2 x 1 = 2.
    # Totals: seat 0 = 6 + 15 - 4 + 6 + 4 = 27; seat 1 = 4 + 9 - 1 + 3 + 2 = 17.
    shelves = [grid([[1, 2, 3], [4, 5, 6]]), grid([[7, 2], [8, 1]])]
    sheets = inspect_all(shelves, [set(), set()], CARD_BOOKS, prominent=1, banned=5, focuses=[2, 3])
    a, b = sheets
    assert a.flipped == () and a.counts == (4, 3, 2, 2, 2, 4)
    assert (a.stability, a.prominent, a.banned, a.variety, a.focus) == (6, 15, -4, 6, 4)
    assert a.total == 27 and a.books == 17 and a.banned_books == 4
    assert b.flipped == ((0, 1), (1, 1))
    assert b.counts == (1, 2, 1, 1, 1, 1)
    assert (b.stability, b.prominent, b.banned, b.variety, b.focus) == (4, 9, -1, 3, 2)
    assert b.total == 17


def test_variety_ignores_banned_category() -> None:
    # One card 1 (C F H) and 3 (F R S) and 4 (H M R S): counts C1 F2 H2 M1 R2 S2.
    # Banned C: variety = 3 x min(F2 H2 M1 R2 S2) = 3 (M is the smallest).
    # If C were not ignored it would still be 3; make C zero to tell the cases apart:
    # shelf [3, 4] -> counts C0 F1 H1 M1 R2 S2; banned C -> min over F..S = 1 -> 3 points
    # (counting C would give 0).
    sheets = inspect_all([grid([[3, 4]])], [set()], CARD_BOOKS, prominent=1, banned=0, focuses=[5])
    assert sheets[0].variety == 3
    # banned S instead: C counts and is 0 -> variety 0
    sheets = inspect_all([grid([[3, 4]])], [set()], CARD_BOOKS, prominent=1, banned=5, focuses=[2])
    assert sheets[0].variety == 0


def test_focus_scores_two_per_book() -> None:
    # shelf [5, 6]: 5 C C F, 6 S S -> C2 F1 S2. Focus C -> 2 x 2 = 4.
    sheets = inspect_all([grid([[5, 6]])], [set()], CARD_BOOKS, prominent=1, banned=3, focuses=[0])
    assert sheets[0].focus == 4
    # total: stability 0, prominent (alone: first) 15, banned M 0, variety min(C2,F1,H0,..)=0,
    # focus 4 -> 19
    assert sheets[0].total == 19


def _sheet(total: int, books: int, banned: int):
    from simcli.games.ex_libris.inspection import ScoreSheet

    return ScoreSheet((), (), 0, 0, -banned, 0, 0, total, books, banned)


def test_tie_breaks() -> None:
    # different totals: the highest wins
    assert winners([_sheet(30, 10, 0), _sheet(31, 5, 0)], [0, 0]) == (1,)
    # equal totals: more books on the shelf wins
    assert winners([_sheet(30, 10, 0), _sheet(30, 12, 0)], [0, 0]) == (1,)
    # equal totals and books: fewer cards in hand wins
    assert winners([_sheet(30, 12, 0), _sheet(30, 12, 0)], [3, 1]) == (1,)
    # ... then fewer banned books
    assert winners([_sheet(30, 12, 2), _sheet(30, 12, 1)], [1, 1]) == (1,)
    # all equal: a shared win
    assert winners([_sheet(30, 12, 1), _sheet(30, 12, 1), _sheet(2, 1, 0)], [1, 1, 0]) == (0, 1)


def test_three_way_prominent_tie_in_the_inspection() -> None:
    # Three shelves [1, 2] (C F H + C M): F (1) count 1 each -> three tied for first.
    # next_place: (15 + 9) / 3 = 8 each; pooled: (15 + 9 + 4) / 3 -> 10 each.
    shelves = [grid([[1, 2]]) for _ in range(3)]
    for ties, prize in (("next_place", 8), ("pooled", 10)):
        sheets = inspect_all(shelves, [set()] * 3, CARD_BOOKS, 1, 5, [0, 2, 3], prominent_ties=ties)
        assert [s.prominent for s in sheets] == [prize] * 3


def test_prominent_ties_option() -> None:
    from simcli.errors import GameOptionError
    from simcli.games import get_game

    game = get_game("ex_libris")
    assert game.resolve_options({})["prominent_ties"] == "next_place"
    assert game.resolve_options({"prominent_ties": "pooled"})["prominent_ties"] == "pooled"
    with pytest.raises(GameOptionError, match="prominent_ties"):
        game.resolve_options({"prominent_ties": "shared"})
