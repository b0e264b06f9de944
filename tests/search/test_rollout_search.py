"""Tests of ``rollout_search`` (strategies/rollout_search.py): policy improvement over a
heuristic on determinisations. It sees hidden cards only through ``game.determinize``,
draws only from its own RNG, plays the same moves for the same seed, takes an immediate
win and keeps its base policy's move unless the rollouts say otherwise."""

from __future__ import annotations

import random

import pytest
from test_ismcts import (
    Toy,
    adas_positions_with_a_win,
    advanced_state,
    picks_for_two_true_states,
    play_bibliogamo_refusing_global_random,
    started,
)

from simcli.game import TERMINAL
from simcli.strategy import load_strategy_class
from simcli_strategies.rollout_search import RolloutSearch
from simcli_strategies.search.compare import first_best

HEURISTIC = {
    "adas_library": "adas_heuristic",
    "ex_libris": "ex_libris_heuristic",
    "bibliogamo": "bibliogamo_planner",
}
SMALL = {"samples": 2, "candidates": 3, "depth": 4}


def search(game_id: str, seed: int = 1, **params) -> RolloutSearch:
    return RolloutSearch(policy=HEURISTIC[game_id], **{**SMALL, **params})


def values(strategy: RolloutSearch) -> list:
    # by repr: the keys mix strings and tuples (list moves)
    return sorted(((k, round(v, 9)) for k, v in strategy.last_values.items()), key=repr)


def decision_state(game_id: str, seed: int, decisions: int):
    """A state a few random decisions in whose seat to move has at least 3 moves."""
    while True:
        game, state = advanced_state(game_id, seed, decisions)
        if len(state.legal_moves()) >= 3:
            return game, state
        decisions += 1


@pytest.mark.parametrize("game_id", sorted(HEURISTIC))
@pytest.mark.slow
def test_same_seed_same_choice_and_values(game_id):
    game, state = decision_state(game_id, seed=8, decisions=2)
    seat = state.current_player
    runs = []
    for seed in (5, 5, 6):  # rollouts to the end: chance and deals differ between seeds
        s = started(search(game_id, depth=None), game, seat, seed=seed)
        runs.append((s.choose(state.view(seat), state.legal_moves()), values(s)))
    assert runs[0] == runs[1]
    assert runs[0][1]  # the rollouts ran: candidates were valued
    assert runs[0][1] != runs[2][1]  # another seed, other samples


@pytest.mark.parametrize(
    "game_id",
    [
        pytest.param(g, marks=pytest.mark.slow) if g == "adas_library" else g
        for g in sorted(HEURISTIC)
    ],
)
def test_other_true_hidden_cards_same_choice(game_id):
    """Another true state with the same view (its hidden parts re-dealt) gives exactly the
    same decision and the same candidate values."""
    game, state = decision_state(game_id, seed=4, decisions=3)
    picks = picks_for_two_true_states(game, state, lambda: search(game_id), values)
    assert picks[0] == picks[1]
    assert picks[0][1]


@pytest.mark.slow
def test_never_touches_the_chance_rng_or_the_global_random(monkeypatch):
    """Bibliogamo has chance turns inside the rollouts and a hidden deck: the driver's
    chance RNG is unchanged by every decision and the global generator is never called."""
    searched = []
    player = search("bibliogamo", samples=1, depth=6)
    play_bibliogamo_refusing_global_random(
        monkeypatch, player, 20, lambda p: searched.append(bool(p.last_values))
    )
    assert any(searched)


def test_rollout_policies_leave_the_rollout_state_unchanged():
    """The rollout hands the policies the rollout state itself (no copy): every built-in
    heuristic it is meant for must only read it."""
    for game_id, use in HEURISTIC.items():
        game, state = decision_state(game_id, seed=3, decisions=4)
        seat = state.current_player
        policy = load_strategy_class(use)()
        policy.start_game(game, seat, random.Random(1))
        before = state.snapshot()
        policy.choose(state, state.legal_moves())
        assert state.snapshot() == before, game_id


@pytest.mark.slow
def test_takes_an_immediate_win():
    """Positions of seeded adas_heuristic self-play where the seat to move can sort its
    row at once: the search plays a winning move in every one, whatever its base policy
    (``random`` here, which would usually miss it)."""
    for game, state, wins in adas_positions_with_a_win(6):
        seat = state.current_player
        s = started(RolloutSearch(policy="random", samples=1, candidates=2), game, seat, seed=5)
        assert s.choose(state.view(seat), state.legal_moves()) in wins


def test_improves_on_a_bad_base_policy_in_a_toy_game():
    """The toy game of test_ismcts: seat 0 holding the top card (5) wins by betting
    (seat 1 folds or calls and loses) and draws by checking. With a base policy that
    checks (``random`` picks check or bet) and rollouts by random play, the search bets
    for every seed; with a huge ``keep`` it plays the base policy's move."""
    game = Toy()
    state = game.new_state(2, {}, {"cards": [5, 2]})
    view = state.view(0)
    for seed in range(6):
        s = started(RolloutSearch(policy="random", samples=4, candidates=2), game, 0, seed)
        assert s.choose(view.clone(), ["check", "bet"]) == "bet"
    bases = set()
    for seed in range(12):
        s = started(RolloutSearch(policy="random", samples=4, keep=100.0), game, 0, seed)
        base = random.Random()
        base.setstate(s.base.rng.getstate())  # what the base policy will draw
        expected = base.choice(["check", "bet"])
        assert s.choose(view.clone(), ["check", "bet"]) == expected
        bases.add(expected)
    assert bases == {"check", "bet"}  # the base policy's bad move too


def test_params_and_registry():
    assert load_strategy_class("rollout_search") is RolloutSearch
    for bad in (
        {"samples": 0},
        {"candidates": 0},
        {"depth": -1},
        {"reward": "points"},
        {"policy": "no_such_strategy"},
        {"policy": "rollout_search"},
        {"policy": "adas_heuristic", "policy_params": {"spite": -1}},
        {"policy_params": [1]},
    ):
        with pytest.raises(ValueError):
            RolloutSearch(**bad)


@pytest.mark.slow
def test_terminal_of_a_cut_rollout_is_valued_on_the_evaluation_scale():
    """Ada's Library: final scores are 1 / 0, the evaluation +-100; with cut rollouts a
    finished rollout is valued by ``game.evaluate`` margins (a win is worth more than any
    open position), in full rollouts by the final scores."""
    game, state, wins = adas_positions_with_a_win(1)[0]
    seat = state.current_player
    after = state.clone()
    after.apply(wins[0])
    assert after.current_player == TERMINAL
    cut = started(RolloutSearch(policy="greedy", depth=3), game, seat)
    full = started(RolloutSearch(policy="greedy"), game, seat)
    # margin: evaluate(seat) - evaluate(other) = 100 - (-100); final scores 1 - 0
    assert cut.reward_of(after, "score") == 200.0
    assert full.reward_of(after, "score") == 1.0
    assert cut.reward_of(after, "win") == full.reward_of(after, "win") == 1.0


def test_first_best_ties_go_to_the_earlier_candidate():
    assert first_best([1.0, 3.0, 2.0]) == 1
    assert first_best([2.0, 2.0, 1.0]) == 0  # a tie keeps the base policy's move
    assert first_best([2.0, 2.0 + 1e-12], 1e-9) == 0  # within the tolerance: still a tie
    assert first_best([2.0, 2.0 + 1e-12]) == 1
    assert first_best([5.0]) == 0
