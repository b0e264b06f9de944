"""Ada's Library's ``extra_cards``: seat s is dealt, and keeps, ``s * extra_cards`` cards
more than the hand size of 5. At its default 0 the option is left out of the resolved
options, so records of the rules as written are unchanged.

Rows are written as colour initials: Y=yellow T=teal G=gray M=magenta B=blue R=red.
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
from simcli_strategies.random_play import RandomStrategy

GAME = get_game("adas_library")
NAMES = {"Y": "yellow", "T": "teal", "G": "gray", "M": "magenta", "B": "blue", "R": "red"}
PLAIN = ["move1", "move2", "move3", "move4", "move_end"]


def setup_of(rows: list[str], hands: list[list[str]], draw_top: list[str], **given) -> dict:
    """Master Y T G M B R; the given rows and hands; the draw pile is ``draw_top`` and
    then the rest of the deck in card order."""
    deck = Counter(GAME.components(GAME.resolve_options(given)).deck())
    for hand in hands:
        deck.subtract(hand)
    deck.subtract(draw_top)
    return {
        "master": [NAMES[c] for c in "YTGMBR"],
        "rows": [[NAMES[c] for c in row] for row in rows],
        "hands": hands,
        "draw": draw_top + [card for card in CARD_TYPES for _ in range(deck[card])],
        "redeals": 0,
    }


# Seat 1's row is one Reverse (swap the two end books) from sorted: R T T G G M M B B Y
# becomes Y T T G G M M B B R. None of the five plain cards sorts it: Move to End of R to
# the right gives T T G G M M B B Y R (Y after B), of Y to the left Y R T T ... (R after Y);
# a move of 1 to 4 places moves R or Y at most 4 places.
ROWS = ["TYYGGMMBBR", "RTTGGMMBBY"]
HAND_0 = ["switch3", "switch4", "master1", "master2", "exchange"]


def test_the_sixth_card_of_the_second_seat_wins_the_game() -> None:
    options = GAME.resolve_options({"extra_cards": 1})
    setup = setup_of(ROWS, [HAND_0, [*PLAIN, "reverse"]], ["move1"], extra_cards=1)
    state = GAME.new_state(2, options, setup)
    assert [len(hand) for hand in state.hands] == [5, 6]
    state.apply(["discard", "switch3"])  # seat 0 discards, draws move1: 5 cards again
    assert state.hands[0] == ["switch4", "master1", "master2", "exchange", "move1"]
    assert state.current_player == 1
    assert ["reverse"] in state.legal_moves()
    state.apply(["reverse"])
    assert state.outcome().winners == (1,)
    assert state.outcome().scores == (0.0, 1.0)


def test_without_the_extra_card_no_play_sorts_that_row() -> None:
    options = GAME.resolve_options({})
    state = GAME.new_state(2, options, setup_of(ROWS, [HAND_0, PLAIN], ["reverse"]))
    state.apply(["discard", "switch3"])
    for move in state.legal_moves():
        after = state.clone()
        after.apply(move)
        assert after.winner is None, move


def test_the_bigger_hand_is_kept_after_every_draw() -> None:
    options = GAME.resolve_options({"extra_cards": 2})
    hands = [HAND_0, [*PLAIN, "reverse", "switch1"]]
    state = GAME.new_state(2, options, setup_of(ROWS, hands, [], extra_cards=2))
    rng = random.Random(5)
    for _ in range(30):
        if state.is_terminal():
            break
        if state.current_player < 0:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(["discard", state.hands[state.current_player][0]])
            assert [len(hand) for hand in state.hands] == [5, 7]


def test_the_deal_adds_the_extra_cards_from_the_top_of_the_deck() -> None:
    # The same seed shuffles the master, the deck and the bag alike: with extra_cards 1
    # seat 0 gets the same 5 cards, seat 1 the same 5 plus the card that was the top of
    # the draw pile, and the draw pile is the rest.
    plain = GAME.sample_setup(2, GAME.resolve_options({}), random.Random(9))
    extra = GAME.sample_setup(2, GAME.resolve_options({"extra_cards": 1}), random.Random(9))
    assert extra["hands"][0] == plain["hands"][0]
    assert extra["hands"][1] == plain["hands"][1] + plain["draw"][:1]
    assert extra["draw"] == plain["draw"][1:]
    assert (extra["master"], extra["rows"]) == (plain["master"], plain["rows"])
    # four players, 3 extra cards each later seat: 5, 8, 11, 14 cards, 7 left to draw
    four = GAME.sample_setup(4, GAME.resolve_options({"extra_cards": 3}), random.Random(9))
    assert [len(hand) for hand in four["hands"]] == [5, 8, 11, 14]
    assert len(four["draw"]) == 45 - 38


def test_new_state_checks_the_hand_sizes() -> None:
    hands = [HAND_0, [*PLAIN, "reverse"]]
    with pytest.raises(IllegalMoveError, match="hand 1 must hold 5 cards"):
        GAME.new_state(2, GAME.resolve_options({}), setup_of(ROWS, hands, []))
    with pytest.raises(IllegalMoveError, match="hand 1 must hold 7 cards"):
        GAME.new_state(2, GAME.resolve_options({"extra_cards": 2}), setup_of(ROWS, hands, []))


def test_the_option_is_checked_and_left_out_at_its_default() -> None:
    assert "extra_cards" not in GAME.resolve_options({})
    assert "extra_cards" not in GAME.resolve_options({"extra_cards": 0})
    assert GAME.resolve_options({"extra_cards": 2})["extra_cards"] == 2
    spec = GAME.options["extra_cards"]
    assert spec.numeric and (spec.minimum, spec.maximum, spec.grid_step) == (0, 3, 1)
    for value, problem in [
        (4, "must be at most 3; got 4"),
        (-1, "must be at least 0; got -1"),
        (1.5, "must be an integer; got 1.5"),
    ]:
        with pytest.raises(GameOptionError, match=problem):
            GAME.resolve_options({"extra_cards": value})
    # a data file with bigger hands: 4 players hold 10 + 11 + 12 + 13 = 46 of 45 cards
    components = {**GAME.resolve_options({})["components"], "hand_size": 10}
    assert GAME.resolve_options({"components": components})
    with pytest.raises(GameOptionError, match="'extra_cards' 1 deals 46 cards to 4 players"):
        GAME.resolve_options({"components": components, "extra_cards": 1})


@pytest.mark.parametrize("players", [2, pytest.param(4, marks=pytest.mark.slow)])
def test_records_with_extra_cards_replay_and_records_without_are_unchanged(players) -> None:
    seats = [{"name": "heuristic", "use": AdasHeuristic}, {"name": "random", "use": RandomStrategy}]
    seats *= players // 2
    plain = simcli.play(GAME, seats, seed=3)
    zero = simcli.play(GAME, seats, options={"extra_cards": 0}, seed=3)
    assert dumps(zero) == dumps(plain)
    assert "extra_cards" not in plain["options"]
    record = simcli.play(GAME, seats, options={"extra_cards": 2}, seed=3)
    assert record["options"]["extra_cards"] == 2
    assert [len(hand) for hand in record["setup"]["hands"]] == [5 + 2 * s for s in range(players)]
    assert record["termination"] == "normal"
    assert replay(record) == []
