"""Libraria's ``komi``: seat 1's final score gets ``komi`` points (seat s: s x komi), the
winner and the ``tiebreak`` are decided on those scores; at its default 0 the option is
left out of the resolved options, so records of the rules as written are unchanged."""

from __future__ import annotations

import random

import pytest

import simcli
from simcli.errors import GameOptionError
from simcli.games import get_game
from simcli.records import dumps
from simcli.verify import replay
from simcli_strategies.libraria_solver import Position, Searcher

GAME = get_game("libraria")

# Every tile row is 0 3 M 1 2 (M = mouse, -1): five of each value.
ROW = [0, 3, -1, 1, 2]
TILES = ROW * 5
# Row 0 changed to 1 3 M 0 2 (still a permutation): seat 0 gains 1, seat 1 loses 1.
LEAD_TILES = [1, 3, -1, 0, 2] + ROW * 4

# Spot columns 0-2 hold seat 0's counters, columns 3-5 seat 1's (18 each). Tile columns
# 0 and 1 (spot columns 0-1 and 1-2) are seat 0's by total control, tile column 2 (spot
# columns 2-3) is 2-2 and scores for nobody, tile columns 3 and 4 are seat 1's by total
# control.
HALVES = [0 if column < 3 else 1 for _row in range(6) for column in range(6)]


def final(tiles: list[int], **given):
    options = GAME.resolve_options(given)
    return GAME.state_from_snapshot(2, options, {"tiles": tiles, "board": HALVES, "ply": 36})


def test_the_hand_worked_boards_without_komi() -> None:
    # TILES, per row: seat 0 has total control of 0 (0 + 1 = 1) and 3 (3 + 1 = 4): 5;
    # seat 1 of 1 (2) and 2 (3): 5; the mouse is 2-2. Five rows: 25 to 25, a draw.
    state = final(TILES)
    assert state.scores() == [25, 25]
    assert state.outcome().scores == (25, 25)
    assert state.outcome().winners == ()
    # LEAD_TILES: row 0 gives seat 0 1 (2) + 3 (4) = 6 and seat 1 0 (1) + 2 (3) = 4:
    # 26 to 24.
    assert final(LEAD_TILES).outcome().scores == (26, 24)
    assert final(LEAD_TILES).outcome().winners == (0,)


@pytest.mark.parametrize(
    ("tiles", "given", "scores", "winners"),
    [
        # 25 to 25: half a point decides either way
        (TILES, {"komi": 0.5}, (25.0, 25.5), (1,)),
        (TILES, {"komi": -0.5}, (25.0, 24.5), (0,)),
        # an int komi keeps the scores ints: 25 to 25 + 2 = 27
        (TILES, {"komi": 2}, (25, 27), (1,)),
        # a whole komi can leave a tie: the tiebreak decides it on the final scores
        (TILES, {"komi": 0, "tiebreak": "first_player"}, (25, 25), (0,)),
        (LEAD_TILES, {"komi": 2}, (26, 26), ()),  # 26 to 24 + 2: a draw
        (LEAD_TILES, {"komi": 2.0, "tiebreak": "first_player"}, (26.0, 26.0), (0,)),
        (LEAD_TILES, {"komi": 1.5}, (26.0, 25.5), (0,)),  # 24 + 1.5 < 26
        (LEAD_TILES, {"komi": 2.5}, (26.0, 26.5), (1,)),  # 24 + 2.5 > 26
        (LEAD_TILES, {"komi": -60}, (26, -36), (0,)),
        (LEAD_TILES, {"komi": 60}, (26, 84), (1,)),
    ],
)
def test_komi_enters_the_final_scores_and_the_winner(tiles, given, scores, winners) -> None:
    outcome = final(tiles, **given).outcome()
    assert outcome.scores == scores
    assert [type(s) for s in outcome.scores] == [type(s) for s in scores]
    assert outcome.winners == winners


def test_evaluate_and_render_count_the_komi() -> None:
    plain, komi = final(LEAD_TILES), final(LEAD_TILES, komi=6.5)
    assert GAME.evaluate(plain, 0) == 2.0 and GAME.evaluate(plain, 1) == -2.0
    assert GAME.evaluate(komi, 0) == 2.0 - 6.5 and GAME.evaluate(komi, 1) == 6.5 - 2.0
    assert plain.render().splitlines()[-1] == (
        "X = seat 0: 26 points   O = seat 1: 24 points   (game over)"
    )
    assert komi.render().splitlines()[-1] == (
        "X = seat 0: 26 points   O = seat 1: 24 points +6.5 komi   (game over)"
    )


def test_komi_is_checked_and_left_out_at_its_default() -> None:
    base = {"opening": "two_counters", "tiebreak": "none"}
    assert GAME.resolve_options({}) == base
    assert GAME.resolve_options({"komi": 0}) == base
    assert GAME.resolve_options({"komi": 0.0}) == base
    assert GAME.resolve_options({"komi": -7.5}) == {**base, "komi": -7.5}
    # resolving twice changes nothing (records are resolved again on replay)
    assert GAME.resolve_options(GAME.resolve_options({"komi": 3})) == {**base, "komi": 3}
    for value, problem in [
        (0.25, "must be a multiple of 0.5; got 0.25 (the nearest allowed value is 0.5)"),
        (60.5, "must be at most 60; got 60.5"),
        ("6.5", "must be a number; got '6.5'"),
        (True, "must be a number; got True"),
    ]:
        with pytest.raises(GameOptionError, match=problem.replace("(", r"\(").replace(")", r"\)")):
            GAME.resolve_options({"komi": value})
    spec = GAME.options["komi"]
    assert spec.numeric and spec.default == 0 and spec.grid_step == 0.5
    assert (spec.minimum, spec.maximum) == (-60, 60)
    assert spec.nearest(7.3) == 7.5


def test_records_with_komi_replay_and_records_without_it_are_unchanged() -> None:
    seats = ["greedy", "random"]
    plain = simcli.play(GAME, seats, seed=11)
    zero = simcli.play(GAME, seats, options={"komi": 0}, seed=11)
    assert dumps(zero) == dumps(plain)
    assert '"options":{"opening":"two_counters","tiebreak":"none"},' in dumps(plain)
    record = simcli.play(GAME, seats, options={"komi": 20.5}, seed=11)
    assert record["options"]["komi"] == 20.5
    # the same game (greedy's moves do not depend on a constant shift of its evaluation)
    assert record["moves"] == plain["moves"]
    a, b = plain["scores"]
    assert record["scores"] == [a, b + 20.5]
    assert replay(record) == []
    # a record whose scores leave the komi out does not verify
    forged = {**record, "scores": plain["scores"]}
    assert replay(forged) != []


@pytest.mark.parametrize("seed", range(6))
def test_the_solver_counts_the_komi(seed: int) -> None:
    """``libraria_solver``'s exact result search: with the margin m of best play (seat 0's
    points minus seat 1's, komi left out) seat 0 wins against a komi of m - 0.5 and loses
    against m + 0.5; a komi of m leaves equal final scores, decided by the tiebreak."""
    rng = random.Random(seed)
    state = GAME.new_state(2, GAME.resolve_options({}), GAME.sample_setup(2, {}, rng))
    while state.ply < 27:  # 9 empty spots
        state.apply(rng.choice(state.legal_moves()))
    margin, _ = Searcher().solve(Position(state), "margin")

    def result(komi: float, tiebreak: str = "none") -> int:
        options = GAME.resolve_options({"komi": komi, "tiebreak": tiebreak})
        position = GAME.state_from_snapshot(2, options, state.snapshot())
        return Searcher().solve(Position(position), "result")[0]

    assert result(margin - 0.5) == 1
    assert result(margin + 0.5) == -1
    assert result(margin) == 0
    assert result(margin, "first_player") == 1
