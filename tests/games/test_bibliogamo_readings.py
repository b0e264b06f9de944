"""Bibliogamo's options for the text's other readings (issue 37), on hand-built positions:
``blocked_cards`` (which cards phase 3's block stops) and ``sale_redraw`` (which card's
florin icon reads the price after a re-draw). Each is left out of the resolved options
at its default, so records of the default reading stay as they were.

Card facts are from the packaged ``simcli/games/data/bibliogamo.yaml`` (``describe_card``
prints them); the expected results are worked out by hand in the comments.
"""

from __future__ import annotations

import random

import pytest

import simcli
from simcli.game import CHANCE, IllegalMoveError
from simcli.games import get_game
from simcli.games.bibliogamo.state import BibliogamoState
from simcli.records import dumps
from simcli.verify import replay
from simcli_strategies.bibliogamo_planner import BibliogamoPlanner
from simcli_strategies.random_play import RandomStrategy

GAME = get_game("bibliogamo")
COMP = GAME.components()
T = COMP.tower_index
SCR = 1  # scribe


def start(top: list[int], prestige: int | None = 1, **options) -> BibliogamoState:
    """A new game whose deck begins with ``top`` (the rest in id order)."""
    opts = GAME.resolve_options(options)
    rest = [c for c in COMP.card_ids if c not in top]
    setup = {"deck": list(top) + rest, "prestige": prestige, "components": COMP.digest}
    return GAME.new_state(1, opts, setup)


def test_the_readings_are_left_out_at_their_defaults() -> None:
    defaults = GAME.resolve_options({})
    assert "blocked_cards" not in defaults and "sale_redraw" not in defaults
    same = GAME.resolve_options({"blocked_cards": "artisans", "sale_redraw": "first_icon"})
    assert same == defaults
    other = GAME.resolve_options({"blocked_cards": "small_icon", "sale_redraw": "chain"})
    assert (other["blocked_cards"], other["sale_redraw"]) == ("small_icon", "chain")


# Hand 1 (small icon B; gives S S I), 2 (B; I I B B), 3 (B; R B), 16 (R; I I), 30 (S; I I);
# card 7 revealed: the scribe (S) is blocked. Card 1 provides a scribe; card 30 shows the
# scribe as its small icon but provides none; 2, 3 and 16 neither.
BLOCK_DECK = [1, 2, 3, 16, 30, 7]


@pytest.mark.parametrize(
    ("reading", "playable"),
    [
        ("artisans", {"2", "3", "16", "30"}),  # card 1 provides a scribe
        ("small_icon", {"1", "2", "3", "16"}),  # card 30 shows the scribe icon
        ("either", {"2", "3", "16"}),  # both
    ],
)
def test_which_cards_the_block_stops(reading: str, playable: set[str]) -> None:
    state = start(BLOCK_DECK, blocked_cards=reading)
    assert state.blocked == SCR and state.step == "unblock"
    # the block is lifted by discarding a card with the scribe's small icon: card 30
    assert state.legal_moves() == ["keep", "unblock 30"]
    state.apply("keep")
    state.apply("stay")
    legal = state.legal_moves()
    assert {m.split()[1] for m in legal if m != "done"} == playable
    # every card may still pay (block_scope: hire)
    assert {m.split()[2] for m in legal if m != "done"} == {"1", "2", "3", "16", "30"}
    for card in {"1", "2", "3", "16", "30"} - playable:
        payment = "2" if card != "2" else "3"
        with pytest.raises(IllegalMoveError, match="blocked artisan"):
            state.clone().apply(f"hire {card} {payment} history")


def test_small_icon_block_lifted_and_with_block_scope_any() -> None:
    # discarding card 30 lifts the block: card 1 (and everything else left) may be played
    lifted = start(BLOCK_DECK, blocked_cards="small_icon")
    lifted.apply("unblock 30")
    lifted.apply("stay")
    assert {m.split()[1] for m in lifted.legal_moves() if m != "done"} == {"1", "2", "3", "16"}
    # with block_scope: any a blocked card may not pay either: card 30 pays for nothing
    strict = start(BLOCK_DECK, blocked_cards="small_icon", block_scope="any")
    strict.apply("keep")
    strict.apply("stay")
    legal = strict.legal_moves()
    assert all(m.split()[2] != "30" and m.split()[1] != "30" for m in legal if m != "done")
    with pytest.raises(IllegalMoveError, match="may not pay"):
        strict.apply("hire 1 30 history")


# Sale cards: the first card 1 (florin icon 3), then 3 (florins 1/2/3, icon 2), then the
# re-draws 7 (3/3/5, icon 2) and 2 (1/3/8, icon 2).
#   first_icon: every price card is read at card 1's icon 3: 3, then 5, then 8.
#   chain: card 3 at card 1's icon 3 = 3; card 7 at card 3's icon 2 = 3; card 2 at card
#   7's icon 2 = 3.
@pytest.mark.parametrize(("reading", "prices"), [("first_icon", [3, 5, 8]), ("chain", [3, 3, 3])])
def test_sale_redraw_readings(reading: str, prices: list[int]) -> None:
    state = start([10, 12, 13, 14, 16, 5, 1, 3, 7, 2], prestige=3, sale_redraw=reading)
    assert state.librarian == 5 and state.step == "walk"  # the Poetry tower
    state.towers[T["poetry"]] = list(COMP.towers[T["poetry"]].recipe)
    state.apply("stay")
    state.apply("sell")
    seen = [state.price]
    for _ in range(2):
        state.apply("redraw")
        seen.append(state.price)
    assert state.sale == [1, 3, 7, 2] and seen == prices and state.time == 3
    state.apply("accept")
    assert state.florins == 3 + prices[-1]


def test_a_chain_price_can_also_be_higher() -> None:
    # Sale cards 6 (icon 1) and 9 (2/3/8, icon 2): 2 either way. Re-draw card 11
    # (2/2/3): first_icon reads its first value, 2; chain reads it at card 9's icon 2,
    # also 2. A second re-draw, card 12 (1/5/5): first_icon 1; chain at card 11's
    # icon 1: 1. Then card 13 (2/3/5): first_icon 2; chain at card 12's icon 1: 2.
    # Re-draw card 15 (3/5/6): first_icon 3; chain at card 13's icon 3: 6.
    deck = [10, 14, 16, 17, 18, 5, 6, 9, 11, 12, 13, 15]
    results = {}
    for reading in ("first_icon", "chain"):
        state = start(deck, prestige=3, sale_redraw=reading)
        state.towers[T["poetry"]] = list(COMP.towers[T["poetry"]].recipe)
        state.apply("stay")
        state.apply("sell")
        seen = [state.price]
        for _ in range(4):
            state.apply("redraw")
            seen.append(state.price)
        results[reading] = seen
    assert results == {"first_icon": [2, 2, 1, 2, 3], "chain": [2, 2, 1, 2, 6]}


@pytest.mark.slow
@pytest.mark.parametrize(
    "given",
    [{"blocked_cards": "small_icon"}, {"blocked_cards": "either"}, {"sale_redraw": "chain"}],
    ids=lambda g: "-".join(map(str, g.items())),
)
def test_the_planner_and_random_play_every_reading_and_the_records_replay(given) -> None:
    for name, factory in (("planner", BibliogamoPlanner), ("random", RandomStrategy)):
        seat = [{"name": name, "use": factory}]
        record = simcli.play(GAME, seat, options=given, seed=9)
        assert record["termination"] == "normal", record.get("detail")
        assert {k: record["options"][k] for k in given} == given
        assert replay(record) == []
        assert dumps(simcli.play(GAME, seat, options=given, seed=9)) == dumps(record)


@pytest.mark.slow
@pytest.mark.parametrize("reading", ["small_icon", "either"])
def test_the_planner_plans_only_hires_the_reading_allows(reading: str) -> None:
    """At every hire of a seeded game, the first hire of the planner's best plan is a
    legal move (a plan the block forbids would make it stop hiring instead)."""
    options = GAME.resolve_options({"blocked_cards": reading})
    rng = random.Random(4)
    state = GAME.new_state(1, options, GAME.sample_setup(1, options, rng))
    planner = BibliogamoPlanner()
    planner.start_game(GAME, 0, random.Random(5))
    checked = 0
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        view = state.view(0)
        legal = view.legal_moves()
        if state.step == "hire" and state.blocked is not None and not state.unblocked:
            _, plan = planner._best_plan(view, list(view.hand), view.hires, view.unblocked)
            if plan:
                a, b, t = plan[0]
                assert f"hire {a} {b} {COMP.towers[t].id}" in legal
                checked += 1
        state.apply(planner.choose(view, legal))
    assert checked >= 10
