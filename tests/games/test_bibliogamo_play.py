"""Bibliogamo: seeded whole games, views and determinization, strategies, the config."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import simcli
from simcli.configfile import load_config
from simcli.game import CHANCE, TERMINAL, IllegalMoveError
from simcli.games import get_game
from simcli.games.bibliogamo.state import LAST_DAY, BibliogamoState
from simcli.strategy import BUILTIN
from simcli.verify import replay
from simcli_strategies.bibliogamo_planner import BibliogamoPlanner, _stopping_threshold
from simcli_strategies.greedy import GreedyStrategy
from simcli_strategies.random_play import RandomStrategy

ROOT = Path(__file__).resolve().parents[2]
GAME = get_game("bibliogamo")
COMP = GAME.components()


def random_game(seed: int, options: dict | None = None):
    """Seeded random play; yields (state, move) before each step; returns setup, moves."""
    opts = GAME.resolve_options(options or {})
    rng = random.Random(seed)
    pick = random.Random(seed + 1)
    setup = GAME.sample_setup(1, opts, rng)
    state = GAME.new_state(1, opts, setup)
    moves = []
    while not state.is_terminal():
        if state.current_player == CHANCE:
            move = state.sample_chance(rng)
        else:
            move = pick.choice(state.legal_moves())
        yield state, move
        state.apply(move)
        moves.append(move)
    return setup, moves, state


def _card_count(state: BibliogamoState) -> int:
    return len(state.hand) + len(state.draw) + len(state.discard) + len(state.sale)


@pytest.mark.parametrize("seed", [11, 12])
@pytest.mark.parametrize("options", [{}, {"prestige": "choose", "block_scope": "any"}])
def test_random_games_keep_the_invariants_and_replay(seed: int, options: dict) -> None:
    gen = random_game(seed, options)
    try:
        while True:
            state, move = next(gen)
            assert _card_count(state) == 47
            assert sorted(state.hand + state.draw + state.discard + state.sale) == COMP.card_ids
            assert state.cubes_on_board <= 26
            assert 0 <= state.time <= LAST_DAY and state.florins >= 0
            copy = state.clone()
            assert copy == state and copy is not state
            json.dumps(state.snapshot())
            json.dumps(move)
            assert not isinstance(move, dict)
            if state.current_player == 0:
                assert move in state.legal_moves()
                view = state.view(0)
                assert view.legal_moves() == state.legal_moves()
                assert view.known == 0 and view.draw == sorted(state.draw)
                full = GAME.determinize(view, random.Random(seed))
                assert sorted(full.draw) == sorted(state.draw)
                assert full.known == len(full.draw)
                assert full.hand == state.hand and full.towers == state.towers
                view.apply(move)  # a view accepts the player's own moves
                full.apply(move)
                copy.apply(move)  # the clone moves on; the original does not
                assert state.snapshot() != copy.snapshot() or move in ("stay", "keep")
    except StopIteration as stop:
        setup, moves, final = stop.value
    assert final.current_player == TERMINAL and final.legal_moves() == []
    assert final.time == LAST_DAY
    with pytest.raises(IllegalMoveError):
        final.sample_chance(random.Random(0))
    # Replay setup + moves (chance outcomes included) without any random generator.
    again = GAME.new_state(1, GAME.resolve_options(options), json.loads(json.dumps(setup)))
    for move in json.loads(json.dumps(moves)):
        again.apply(move)
    assert again.final_hash() == final.final_hash()
    assert again.outcome() == final.outcome()


def test_a_view_draws_unseen_cards_as_chance_events() -> None:
    state = GAME.new_state(1, GAME.resolve_options({}), _setup(3))
    while state.step != "hire":  # any turn with a hire
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(random.Random(0)))
        else:
            state.apply(state.legal_moves()[0])
    view = state.view(0)
    view.apply("done")  # phase 5 must draw from a pile whose order the view hides
    assert view.current_player == CHANCE
    card = view.sample_chance(random.Random(1))
    assert card in view.draw
    with pytest.raises(IllegalMoveError, match="unseen cards"):
        view.apply(max(view.hand) + 1000)
    full = GAME.determinize(view, random.Random(2))  # resolves the pending draw
    assert full.current_player == 0 and full.known == len(full.draw)
    assert sorted(full.hand + full.draw + full.discard) == COMP.card_ids
    assert full.turn == state.turn + 1
    view.apply(card)
    assert card in view.hand or card == view.revealed


def _setup(seed: int) -> dict:
    return GAME.sample_setup(1, GAME.resolve_options({}), random.Random(seed))


@pytest.mark.parametrize(
    "use",
    [
        "random",
        *(pytest.param(u, marks=pytest.mark.slow) for u in ("greedy", "bibliogamo_planner")),
    ],
)
def test_strategies_play_whole_games_through_the_runner(use: str) -> None:
    record = simcli.play(GAME, [use], seed=5)
    assert record["termination"] == "normal", record.get("detail")
    assert replay(json.loads(json.dumps(record))) == []
    assert record["scores"][0] >= 0


@pytest.mark.slow
def test_planner_is_registered_and_deterministic() -> None:
    assert BUILTIN["bibliogamo_planner"] == "simcli_strategies.bibliogamo_planner:BibliogamoPlanner"
    a = simcli.play(GAME, [BibliogamoPlanner], seed=9)
    b = simcli.play(GAME, [BibliogamoPlanner], seed=9)
    assert a == b
    with pytest.raises(ValueError):
        BibliogamoPlanner(day_value=-1)


def _position(top: list[int]) -> BibliogamoState:
    rest = [c for c in COMP.card_ids if c not in top]
    setup = {"deck": top + rest, "prestige": 3, "components": COMP.digest}
    return GAME.new_state(1, GAME.resolve_options({}), setup)


def _planner() -> BibliogamoPlanner:
    planner = BibliogamoPlanner()
    planner.start_game(GAME, 0, random.Random(0))
    return planner


def test_planner_walks_to_a_complete_book_and_sells() -> None:
    # Hand 10, 12, 13, 14, 16; card 5 revealed: librarian on space 5 with 3 florins.
    state = _position([10, 12, 13, 14, 16, 5, 1, 3, 7, 2])
    T = COMP.tower_index
    state.towers[T["science"]] = list(COMP.towers[T["science"]].recipe)  # space 7
    planner = _planner()
    move = planner.choose(state.view(0), state.legal_moves())
    assert move == "walk +2"
    state.apply(move)
    assert planner.choose(state.view(0), state.legal_moves()) == "sell"
    # Too far for the florins: space 16 is 7 spaces away counter-clockwise.
    far = _position([10, 12, 13, 14, 16, 5])
    far.towers[T["medicine"]] = list(COMP.towers[T["medicine"]].recipe)
    assert planner.choose(far.view(0), far.legal_moves()) == "stay"


def test_planner_redraws_a_low_price_and_keeps_a_high_one() -> None:
    # Sale cards 1 (florin icon 3) then 3: price 3 where the third values average ~5.9.
    state = _position([10, 12, 13, 14, 16, 5, 1, 3, 7, 2])
    T = COMP.tower_index
    state.towers[T["poetry"]] = list(COMP.towers[T["poetry"]].recipe)
    state.apply("stay")
    state.apply("sell")
    planner = _planner()
    assert planner.choose(state.view(0), state.legal_moves()) == "redraw"
    state.apply("redraw")  # card 7: price 5
    state.apply("redraw")  # card 2: price 8
    assert planner.choose(state.view(0), state.legal_moves()) == "accept"


def test_planner_completes_a_nearly_finished_tower() -> None:
    # Hand 10 (R S I) ...; History needs one scribe and one illustrator more.
    state = _position([10, 12, 13, 14, 16, 5])
    T = COMP.tower_index
    state.towers[T["history"]] = [3, 2, 1, 0]
    state.apply("stay")
    planner = _planner()
    move = planner.choose(state.view(0), state.legal_moves())
    assert move.startswith("hire 13 ") and move.endswith(" history")  # 13: R S, unblocked
    state.apply(move)
    assert state.towers[T["history"]] == [3, 3, 1, 0]


def test_planner_chooses_a_broad_prestige_collection() -> None:
    opts = GAME.resolve_options({"prestige": "choose"})
    state = GAME.new_state(1, opts, GAME.sample_setup(1, opts, random.Random(0)))
    # VP per artisan needed x share of distinct towers: card 6 (A Scholar's Miscellany,
    # 9 VP over 37 artisans, five different towers) = 0.243 beats card 7 (10 / 45 =
    # 0.222) and card 5 (7 / 21 x 1/3 = 0.111: three Law books).
    assert _planner().choose(state.view(0), state.legal_moves()) == "prestige 6"


def test_stopping_threshold() -> None:
    # mean(max(p - x, 0)) over 1, 2, 3 equals 0.5 at x = 1.75: (0.25 + 1.25) / 3.
    assert _stopping_threshold([1, 2, 3], 0.5) == pytest.approx(1.75, abs=1e-6)
    assert _stopping_threshold([4, 4], 0.0) == pytest.approx(4.0, abs=1e-6)


def test_greedy_uses_the_evaluation_to_sell() -> None:
    state = _position([10, 12, 13, 14, 16, 5, 1, 3, 7, 2])
    T = COMP.tower_index
    state.towers[T["science"]] = list(COMP.towers[T["science"]].recipe)
    greedy = GreedyStrategy()
    greedy.start_game(GAME, 0, random.Random(2))
    assert greedy.choose(state.view(0), state.legal_moves()) == "walk +2"
    rand = RandomStrategy()
    rand.start_game(GAME, 0, random.Random(2))
    assert rand.choose(state.view(0), state.legal_moves()) in state.legal_moves()


def test_config_file() -> None:
    config = load_config(ROOT / "configs/bibliogamo.yaml")
    assert config.game == "bibliogamo" and config.format == "solo" and config.players == 1
    assert [s.use for s in config.strategies] == ["random", "greedy", "bibliogamo_planner"]
    assert config.games == 500 and config.seed == 1
