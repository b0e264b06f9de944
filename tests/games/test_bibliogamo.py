"""Bibliogamo: components, and each phase of a turn on hand-built positions.

Positions are built from a setup whose deck order is chosen: the first five cards are
the opening hand, the sixth is turned over in phase 2 of turn 1, the next ones are the
cards a sale turns over. Card facts quoted in comments are from the packaged
``simcli/games/data/bibliogamo.yaml`` (``describe_card`` prints them).
"""

from __future__ import annotations

import copy
import functools
import random
from pathlib import Path

import pytest
import yaml

from simcli.errors import GameOptionError
from simcli.game import CHANCE, TERMINAL, IllegalMoveError
from simcli.games import get_game
from simcli.games.bibliogamo import ARTISANS
from simcli.games.bibliogamo.state import CUBES, BibliogamoState

GAME = get_game("bibliogamo")
COMP = GAME.components()
T = COMP.tower_index  # tower id -> index
RES, SCR, ILL, BIN = range(4)  # researcher, scribe, illustrator, binder


def start(top: list[int], prestige: int | None = 1, **options) -> BibliogamoState:
    """A new game whose deck begins with ``top`` (the rest in id order)."""
    opts = GAME.resolve_options(options)
    rest = [c for c in COMP.card_ids if c not in top]
    setup = {"deck": list(top) + rest, "prestige": prestige, "components": COMP.digest}
    return GAME.new_state(1, opts, setup)


def fill(state: BibliogamoState, tower: str) -> None:
    state.towers[T[tower]] = list(COMP.towers[T[tower]].recipe)


# The usual opening: hand 1 (S S I), 3 (R B), 4 (R R S), 14 (R S I), 30 (I I); card 28
# revealed (librarian +2, binder blocked). Librarian: 0 + 3 + 2 = space 5, the Poetry
# tower. Cards 1, 3, 4 and 14 carry the binder icon, so phase 3 asks first.
QUIET = [1, 3, 4, 14, 30, 28]


def quiet(**options) -> BibliogamoState:
    """The usual opening after keeping the block (only card 3 provides a binder)."""
    state = start(QUIET, **options)
    state.apply("keep")
    return state


# ---------------------------------------------------------------------- components
def test_component_totals() -> None:
    assert ARTISANS == ("researcher", "scribe", "illustrator", "binder")
    assert len(COMP.cards) == 47
    assert len(COMP.prestige) == 7
    assert len(COMP.towers) == 6
    assert COMP.towers[T["history"]].recipe == (3, 3, 2, 0)  # RULES-NOTES §5
    assert COMP.spaces == 18 and COMP.librarian_start == 0
    assert COMP.starting_florins == 3
    assert sorted(t.space for t in COMP.towers) == [2, 5, 7, 10, 13, 16]
    # Totals stated in the data file's comments.
    cards = COMP.cards.values()
    assert sum(len(c.artisans) for c in cards) == 118
    assert [sum(c.artisans.count(a) for c in cards) for a in range(4)] == [30, 30, 30, 28]
    assert [sum(c.blocked == a for c in cards) for a in range(4)] == [12, 12, 12, 11]
    assert [sum(c.florin_icon == k for c in cards) for k in range(3)] == [18, 18, 11]
    moves = sorted(c.librarian for c in cards)
    assert [moves.count(m) for m in (-1, 0, 1, 2, 3)] == [6, 8, 12, 12, 9]
    assert all(len(p.points) == len(p.books) + 1 for p in COMP.prestige.values())
    # Artisans the six recipes need in all (45) exceed the 26 cubes: the cap matters.
    assert sum(t.size for t in COMP.towers) == 45 > CUBES


@functools.cache
def _packaged_components() -> dict:
    text = (Path(__file__).parents[2] / "simcli/games/data/bibliogamo.yaml").read_text()
    return yaml.safe_load(text)


def _write_variant(tmp_path: Path, change) -> Path:
    data = copy.deepcopy(_packaged_components())  # parsed once: YAML is slow in Python
    change(data)
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.dump(data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper)))
    return path


def test_replacement_components_file(tmp_path: Path) -> None:
    path = _write_variant(tmp_path, lambda d: d.update(starting_florins=9))
    opts = GAME.resolve_options({"components": str(path)})
    setup = GAME.sample_setup(1, opts, random.Random(5))
    state = GAME.new_state(1, opts, setup)
    assert state.florins == 9
    # A setup made with other data is refused (it would not replay the same).
    setup_default = GAME.sample_setup(1, GAME.resolve_options({}), random.Random(5))
    with pytest.raises(IllegalMoveError, match="other data"):
        GAME.new_state(1, opts, setup_default)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["cards"][3].update(florin_icon=4), r"cards\[3\] \(id 4\)\.florin_icon"),
        (lambda d: d["cards"][0].update(blocked="printer"), r"unknown artisan 'printer'"),
        (lambda d: d["cards"][1].update(id=1), r"cards\[1\] \(id 1\): duplicate card id"),
        (lambda d: d["prestige"][0]["books"].append("cookery"), r"unknown tower 'cookery'"),
        (lambda d: d["prestige"][2].update(points=[0, 1]), r"prestige\[2\] \(id 3\)\.points"),
        (lambda d: d["towers"][1].update(space=2), r"space 2 already has a tower"),
        (lambda d: d["track"].update(librarian_start=18), r"track.librarian_start"),
        (lambda d: d["cards"][5].update(florins=[1, 2]), r"must list 3 values"),
        (lambda d: d.update(extra=1), r"unknown key 'extra'"),
        (lambda d: d.pop("cards"), r"missing key 'cards'"),
        # impossible data: a book that needs more artisans than there are cubes
        (
            lambda d: d["towers"][0].update(recipe={"researcher": 27}),
            r"towers\[0\] \(id \w+\)\.recipe: needs 27 artisans; there are only 26 cubes",
        ),
        # a recipe no card can supply: no card provides binders any more
        (
            lambda d: [
                c.update(artisans=[a for a in c["artisans"] if a != "binder"] or ["scribe"])
                for c in d["cards"]
            ],
            r"\.recipe: needs binders, which no card provides",
        ),
        (lambda d: d["cards"].pop(), r"cards: the game has 47 artisan cards, got 46"),
        (lambda d: d.update(cards=d["cards"][:10]), r"the game has 47 artisan cards, got 10"),
        (lambda d: d["prestige"].pop(), r"the game has 7 Prestige Collection cards, got 6"),
        (lambda d: d["prestige"][0].update(name=None), r"prestige\[0\] \(id 1\)\.name: must be"),
        (lambda d: d["towers"][2].update(name=""), r"towers\[2\] \(id \w+\)\.name: must be"),
        # a prestige table that falls: more books marked, fewer points
        (
            lambda d: d["prestige"][1].update(points=sorted(d["prestige"][1]["points"])[::-1]),
            r"prestige\[1\] \(id 2\)\.points\[1\]: .* less than",
        ),
    ],
)
def test_bad_components_name_file_entry_and_problem(tmp_path: Path, change, message) -> None:
    path = _write_variant(tmp_path, change)
    with pytest.raises(GameOptionError, match=message) as info:
        GAME.resolve_options({"components": str(path)})
    assert str(path) in str(info.value)


def test_impossible_components_exit_2_from_the_cli(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from simcli.cli.main import cli

    path = _write_variant(tmp_path, lambda d: d["cards"].pop())
    config = tmp_path / "c.yaml"
    config.write_text(
        "name: t\ngame: bibliogamo\nplayers: 1\n"
        f"options: {{components: {path}}}\n"
        "strategies: [{name: random, use: random}]\nformat: solo\ngames: 2\nworkers: 0\n"
    )
    result = CliRunner().invoke(cli, ["validate", str(config)])
    assert result.exit_code == 2, result.output
    assert str(path) in result.output and "cards: the game has 47 artisan cards, got 46" in (
        result.output
    )
    assert "Traceback" not in result.output


def test_missing_or_invalid_components_file(tmp_path: Path) -> None:
    with pytest.raises(GameOptionError, match="option .components.: cannot read"):
        GAME.resolve_options({"components": str(tmp_path / "nope.yaml")})
    bad = tmp_path / "bad.yaml"
    bad.write_text("track: [1, 2\n")
    with pytest.raises(GameOptionError, match="not valid YAML"):
        GAME.resolve_options({"components": str(bad)})
    with pytest.raises(GameOptionError, match="must be a file path"):
        GAME.resolve_options({"components": 3})
    with pytest.raises(GameOptionError, match="block_scope"):
        GAME.resolve_options({"block_scope": "all"})


def test_setup_validation() -> None:
    opts = GAME.resolve_options({})
    good = GAME.sample_setup(1, opts, random.Random(1))
    assert sorted(good["deck"]) == COMP.card_ids and good["prestige"] in COMP.prestige
    with pytest.raises(IllegalMoveError, match="setup.deck"):
        GAME.new_state(1, opts, {**good, "deck": good["deck"][:-1]})
    with pytest.raises(IllegalMoveError, match="setup.prestige"):
        GAME.new_state(1, opts, {**good, "prestige": 8})
    choose = GAME.resolve_options({"prestige": "choose"})
    with pytest.raises(IllegalMoveError, match="null"):
        GAME.new_state(1, choose, good)
    with pytest.raises(GameOptionError, match="played by 1"):
        GAME.new_state(2, opts, good)


# ---------------------------------------------------------------------- phases 1-3
def test_time_and_librarian_move() -> None:
    state = start(QUIET)
    assert state.turn == 1 and state.time == 1  # phase 1: day 0 -> 1
    assert state.hand == [1, 3, 4, 14, 30]
    assert state.revealed == 28 and state.discard == [28]
    assert state.librarian == 5  # 0 + 3, then card 28's icon +2
    assert state.blocked == BIN
    assert state.step == "unblock"
    assert state.legal_moves() == ["keep", "unblock 1", "unblock 3", "unblock 4", "unblock 14"]
    # A negative icon: card 16 (librarian -1): 0 + 3 - 1 = 2. Card 5 blocks the
    # illustrator; no card in hand has that icon: straight to phase 4a.
    other = start([1, 3, 4, 14, 30, 16])
    assert other.librarian == 2
    other = start([1, 3, 4, 14, 30, 5])
    assert other.blocked == ILL and other.step == "walk"


def test_blocked_artisan_without_the_matching_discard() -> None:
    # Hand 1 (S S I), 2, 3, 8 (gives S B, scribe icon), 16; card 7 revealed: scribe blocked.
    state = start([1, 2, 3, 8, 16, 7])
    assert state.blocked == SCR and state.step == "unblock"
    assert state.legal_moves() == ["keep", "unblock 8"]
    state.apply("keep")
    state.apply("stay")
    assert state.step == "hire"
    legal = state.legal_moves()
    assert "hire 1 2 history" not in legal  # card 1 provides scribes
    assert "hire 8 2 history" not in legal
    assert "hire 2 1 history" in legal  # a blocked card may still pay (block_scope: hire)
    with pytest.raises(IllegalMoveError, match="blocked artisan"):
        state.apply("hire 1 2 history")
    played = {m.split()[1] for m in legal if m != "done"}
    assert played == {"2", "3", "16"}


def test_blocked_artisan_with_the_matching_discard() -> None:
    state = start([1, 2, 3, 8, 16, 7])
    state.apply("unblock 8")
    assert state.hand == [1, 2, 3, 16] and state.discard == [7, 8] and state.unblocked
    state.apply("stay")
    assert "hire 1 2 history" in state.legal_moves()
    state.apply("hire 1 2 history")
    assert state.towers[T["history"]] == [0, 2, 1, 0]


def test_unblock_needs_a_card_with_the_matching_icon() -> None:
    state = start([1, 2, 3, 8, 16, 7])
    with pytest.raises(IllegalMoveError, match="blocked artisan's icon"):
        state.apply("unblock 1")  # card 1 has the binder icon


def test_block_scope_any_also_stops_paying() -> None:
    state = start([1, 2, 3, 8, 16, 7], block_scope="any")
    state.apply("keep")
    state.apply("stay")
    legal = state.legal_moves()
    assert "hire 2 1 history" not in legal and "hire 2 3 history" in legal
    with pytest.raises(IllegalMoveError, match="may not pay"):
        state.apply("hire 2 1 history")


# ---------------------------------------------------------------------- phase 4a
def test_paying_florins_to_move_the_librarian_both_ways() -> None:
    state = quiet()  # librarian on 5, 3 florins
    legal = state.legal_moves()
    assert legal == ["stay", "walk +1", "walk +2", "walk +3", "walk -1", "walk -2", "walk -3"]
    back = state.clone()
    back.apply("walk -3")
    assert back.librarian == 2 and back.florins == 0
    fwd = state.clone()
    fwd.apply("walk +2")
    assert fwd.librarian == 7 and fwd.florins == 1
    with pytest.raises(IllegalMoveError, match="walks go 1..3"):
        state.clone().apply("walk +4")
    # Around the circle, and onto a complete tower: with 10 florins, Theology (space 13)
    # is 8 spaces clockwise or 10 counter-clockwise from space 5.
    fill(state, "theology")
    state.florins = 10
    cw, ccw = state.clone(), state.clone()
    cw.apply("walk +8")
    ccw.apply("walk -10")
    assert cw.librarian == ccw.librarian == 13
    assert (cw.florins, ccw.florins) == (2, 0)
    assert cw.step == ccw.step == "sell"
    state.librarian, state.florins = 16, 5
    state.apply("walk +4")  # 16 + 4 = 20 -> space 2
    assert state.librarian == 2 and state.florins == 1


# ---------------------------------------------------------------------- phase 4b
# Sale cards: first card 1 (florin icon 3: the third value counts), then 3 (florins
# 1/2/3: price 3), then re-draws 7 (3/3/5: price 5) and 2 (1/3/8: price 8).


def test_sale_without_redraw() -> None:
    state = start([10, 12, 13, 14, 16, 5, 6, 9], prestige=3)  # sale cards 6 (icon 1), 9
    fill(state, "poetry")
    state.apply("stay")
    assert state.legal_moves() == ["pass", "sell"]
    state.apply("sell")
    assert state.sale == [6, 9] and state.price == 2  # card 9's first value
    state.apply("accept")
    assert state.florins == 3 + 2 and state.time == 1


def _sale_position() -> BibliogamoState:
    # QUIET's deck continues with 1, 3, 7, 2. Cards 1..4 are in the hand, so build the
    # deck explicitly: hand 10, 12, 13, 14, 16; revealed 5; then the sale cards.
    state = start([10, 12, 13, 14, 16, 5, 1, 3, 7, 2], prestige=3)
    assert state.librarian == 5 and state.step == "walk"
    fill(state, "poetry")
    state.apply("stay")
    state.apply("sell")
    assert state.sale == [1, 3] and state.price == 3
    return state


def test_sale_with_one_paid_redraw() -> None:
    state = _sale_position()
    state.apply("redraw")
    assert state.time == 2 and state.sale == [1, 3, 7] and state.price == 5
    state.apply("accept")
    assert state.florins == 3 + 5
    assert state.towers[T["poetry"]] == [0, 0, 0, 0]  # artisans back to the pool
    assert state.sold[T["poetry"]] == 1 and state.books == 1
    assert state.marks[T["poetry"]] == 1  # Poets and Prophets wants poetry twice
    assert state.discard[-3:] == [1, 3, 7]
    assert state.step == "hire"
    # Score: 1 book + floor(8 / 5) = 1 + prestige card 3 with one book marked = 1.
    assert state.score() == 3


def test_sale_with_two_paid_redraws() -> None:
    state = _sale_position()
    state.apply("redraw")
    state.apply("redraw")
    assert state.time == 3 and state.sale == [1, 3, 7, 2] and state.price == 8
    state.apply("accept")
    assert state.florins == 11 and state.discard[-4:] == [1, 3, 7, 2]


def test_no_sale_without_a_complete_book_or_off_a_tower() -> None:
    state = quiet()
    state.towers[T["poetry"]] = [0, 3, 2, 1]  # one binder short
    state.apply("stay")
    assert state.step == "hire"
    state = quiet()
    fill(state, "poetry")
    state.apply("walk +1")  # space 6: no tower
    assert state.step == "hire"


# ---------------------------------------------------------------------- phase 4c
def test_hiring_twice_with_surplus_lost() -> None:
    state = quiet()
    state.apply("stay")
    assert "hire 3 1 history" not in state.legal_moves()  # card 3 provides a binder
    state.towers[T["history"]] = [0, 2, 0, 0]
    # Card 1 gives S S I; History (R3 S3 I2) needs one more scribe: the second is lost.
    # Card 3 pays: a blocked card may pay.
    state.apply("hire 1 3 history")
    assert state.towers[T["history"]] == [0, 3, 1, 0]
    assert state.hand == [4, 14, 30] and state.discard == [28, 1, 3] and state.hires == 1
    # Card 30 gives I I: one illustrator fits, the other is lost.
    state.apply("hire 30 4 history")
    assert state.towers[T["history"]] == [0, 3, 2, 0]
    # Two hires end phase 4; phase 5 draws back to five; the next turn has begun.
    assert state.turn == 2 and state.time == 2 and state.hires == 0
    assert len(state.hand) == 5


def test_second_hire_may_use_another_tower_and_done_ends_the_turn() -> None:
    state = quiet()
    state.apply("stay")
    state.apply("hire 30 1 poetry")  # I I on Poetry (S3 I2 B2): both fit
    assert state.towers[T["poetry"]] == [0, 0, 2, 0]
    with pytest.raises(IllegalMoveError, match="two different cards"):
        state.apply("hire 4 4 law")
    with pytest.raises(IllegalMoveError, match="no tower"):
        state.apply("hire 4 3 cookery")
    state.apply("done")
    assert state.turn == 2


def test_cube_cap() -> None:
    state = quiet()
    state.apply("stay")
    state.towers[T["science"]] = [3, 1, 2, 1]  # 7
    state.towers[T["law"]] = [2, 3, 0, 2]  # 7
    state.towers[T["theology"]] = [1, 2, 2, 3]  # 8
    state.towers[T["medicine"]] = [2, 1, 0, 0]  # 3: 25 cubes on the board
    # Card 14 gives R S I: the researcher takes the 26th cube, the rest are lost.
    state.apply("hire 14 4 history")
    assert state.towers[T["history"]] == [1, 0, 0, 0]
    assert state.cubes_on_board == CUBES
    state.apply("hire 1 30 history")  # nothing more can be placed
    assert state.towers[T["history"]] == [1, 0, 0, 0]


def test_last_cubes_chosen_by_the_player() -> None:
    # The position of test_cube_cap: 25 cubes on the board, one left. Card 14 gives
    # R S I; History needs R 3, S 3, I 2 and has none, so all three are placeable.
    # printed (default): the researcher takes the cube, and there is no other hire move.
    # choose: "hire 14 4 history" still places R (printed order); "... S" and "... I"
    # put the last cube on the scribe or the illustrator instead; "... R" is the plain
    # hire, so it is not offered twice.
    def position(**options) -> BibliogamoState:
        state = quiet(**options)
        state.apply("stay")
        state.towers[T["science"]] = [3, 1, 2, 1]
        state.towers[T["law"]] = [2, 3, 0, 2]
        state.towers[T["theology"]] = [1, 2, 2, 3]
        state.towers[T["medicine"]] = [2, 1, 0, 0]
        return state

    plain = position()
    assert [m for m in plain.legal_moves() if m.startswith("hire 14 4 history")] == [
        "hire 14 4 history"
    ]
    with pytest.raises(IllegalMoveError):
        plain.clone().apply("hire 14 4 history I")  # no choice under printed
    state = position(last_cubes="choose")
    assert [m for m in state.legal_moves() if m.startswith("hire 14 4 history")] == [
        "hire 14 4 history",
        "hire 14 4 history S",
        "hire 14 4 history I",
    ]
    before = state.snapshot()
    for refused in (
        "hire 14 4 history R",
        "hire 14 4 history B",
        "hire 14 4 history SI",
        "hire 14 4 history X",
    ):
        with pytest.raises(IllegalMoveError, match="last cubes"):
            state.apply(refused)
        assert state.snapshot() == before
    state.apply("hire 14 4 history I")
    assert state.towers[T["history"]] == [0, 0, 1, 0] and state.cubes_on_board == CUBES
    # with cubes to spare the choice does not arise: card 1 (S S I) on Poetry
    fresh = quiet(last_cubes="choose")
    fresh.apply("stay")
    assert not [m for m in fresh.legal_moves() if m.count(" ") == 4]


# ---------------------------------------------------------------------- phase 5, chance
def test_draw_back_to_five_with_a_reshuffle_chance_event() -> None:
    state = quiet()
    state.apply("stay")
    state.draw, state.known = [], 0  # the draw pile has run out
    state.apply("hire 1 3 history")
    state.apply("hire 30 4 history")
    assert state.current_player == CHANCE and state.hand == [14]
    discards = sorted(state.discard)
    with pytest.raises(IllegalMoveError, match="reshuffle"):
        state.apply(discards[:-1])
    order = state.sample_chance(random.Random(3))
    assert sorted(order) == discards
    state.apply(order)
    # Four cards to the hand, the fifth turned over for turn 2's phase 2.
    assert sorted(state.hand) == sorted([14, *order[:4]])
    assert state.revealed == order[4] and state.draw == order[5:]


def test_reshuffle_in_the_middle_of_a_sale() -> None:
    state = quiet()
    fill(state, "poetry")
    state.apply("stay")
    # One card left in the draw pile; every other card not in hand is discarded.
    state.discard += [c for c in state.draw if c != 7]
    state.draw, state.known = [7], 1
    state.apply("sell")  # card 7 first, then the pile is empty
    assert state.current_player == CHANCE and state.sale == [7]
    order = sorted(state.discard)  # not the sale card: it is on the table
    state.apply(order)
    assert state.sale == [7, order[0]] and state.step == "price"


# ---------------------------------------------------------------------- the end
def test_game_ends_after_the_turn_that_reaches_day_40() -> None:
    state = start([10, 12, 13, 14, 16, 5, 1, 3, 7, 2], prestige=3)
    state.time = 39  # as if this turn's phase 1 had reached day 39
    fill(state, "poetry")
    state.apply("stay")
    state.apply("sell")
    assert state.legal_moves() == ["accept", "redraw"]
    state.apply("redraw")  # pays day 40: allowed, the day is on the track
    assert state.time == 40
    # A further re-draw would pass day 40: the price is taken without a choice.
    assert state.step == "hire" and state.florins == 3 + 5
    with pytest.raises(IllegalMoveError):
        state.apply("redraw")
    state.apply("done")  # the turn is finished ...
    assert state.current_player == TERMINAL  # ... and the game with it, on turn 1
    assert state.turn == 1 and state.legal_moves() == []


def test_no_redraw_on_day_40() -> None:
    state = start([10, 12, 13, 14, 16, 5, 1, 3, 7, 2], prestige=3)
    state.time = 40
    fill(state, "poetry")
    state.apply("stay")
    state.apply("sell")  # price 3 taken at once: no day is left to pay
    assert state.step == "hire" and state.florins == 6 and state.time == 40


def test_forty_turns_without_redraws() -> None:
    state = quiet()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        moves = state.legal_moves()
        state.apply("accept" if "accept" in moves else moves[0])
    assert state.turn == 40 and state.time == 40
    with pytest.raises(IllegalMoveError, match="over"):
        state.apply("done")


# ---------------------------------------------------------------------- scoring
def test_scoring_worked_out_by_hand() -> None:
    state = quiet(prestige=1)  # Chronicles of the City
    # Books sold: History 3, Poetry 2, Science 1, Theology 1 = 7 books.
    state.sold = [3, 2, 1, 0, 1, 0]
    # Chronicles wants History x2, Law, Theology: marked History 2 (the third History
    # book finds no free slot), Law 0, Theology 1 = 3 marked -> points[3] = 5 VP.
    state.marks = [2, 0, 0, 0, 1, 0]
    state.florins = 23  # floor(23 / 5) = 4 VP (3 florins are worth nothing)
    state.step = "over"
    # 7 books + 4 + 5 = 16
    assert state.outcome().scores == (16,)
    assert state.outcome().winners == (0,)


def test_a_finished_book_that_is_not_sold_scores_nothing() -> None:
    # The text: "For each book you produce, you gain 1VP", and a book is marked on the
    # Book track when it is sold (phase 4b). Two complete towers at the end, none sold:
    # 0 books; 12 florins -> 2 VP; no marks -> Chronicles points[0] = 0. Total 2.
    state = quiet(prestige=1)
    fill(state, "history")
    fill(state, "poetry")
    assert state.tower_complete(T["history"]) and state.tower_complete(T["poetry"])
    state.sold = [0] * 6
    state.marks = [0] * 6
    state.florins = 12
    state.step = "over"
    assert state.books == 0
    assert state.outcome().scores == (2,)


def test_prestige_marks_stop_at_the_books_wanted() -> None:
    state = start([10, 12, 13, 14, 16, 5, 1, 3], prestige=5)  # The Jurist's Shelf: law x3
    fill(state, "poetry")
    state.apply("stay")
    state.apply("sell")
    state.apply("accept")
    assert state.marks == [0] * 6 and state.prestige_points() == 0  # poetry not wanted


# ---------------------------------------------------------------------- notation
@pytest.mark.parametrize("move", [3, None, ["walk", 1], "walk", "walk 2", "walk +x", "fly"])
def test_malformed_moves_are_refused(move) -> None:
    state = quiet()
    with pytest.raises(IllegalMoveError):
        state.apply(move)


def test_choose_prestige_option() -> None:
    opts = GAME.resolve_options({"prestige": "choose"})
    setup = GAME.sample_setup(1, opts, random.Random(4))
    assert setup["prestige"] is None
    state = GAME.new_state(1, opts, setup)
    assert state.step == "prestige" and state.hand == []
    assert state.legal_moves() == [f"prestige {p}" for p in range(1, 8)]
    state.apply("prestige 6")
    assert state.prestige == 6 and len(state.hand) == 5 and state.turn == 1
    # Same seed, same shuffle as the dealt variant.
    dealt = GAME.sample_setup(1, GAME.resolve_options({}), random.Random(4))
    assert dealt["deck"] == setup["deck"]


def test_render_shows_the_position() -> None:
    state = start([10, 12, 13, 14, 16, 5, 1, 3, 7, 2], prestige=3)
    fill(state, "poetry")
    state.apply("stay")
    state.apply("sell")
    text = state.render()
    for part in (
        "day 1/40",
        "accept the price or redraw",
        "^L",
        "Poetry",
        "S 3/3",
        "COMPLETE",
        "cubes on board 7/26",
        "Poets and Prophets",
        "florins 3",
        "sale cards [1, 3]: price 3 florins",
        "10: lib +0, blocks R, gives R S I, florins 2/5/8 (icon 2)",
        "revealed card 5: blocked artisan illustrator",
    ):
        assert part in text, part
