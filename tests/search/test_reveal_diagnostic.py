"""The ``--reveal`` diagnostic of benchmarks/bench_rollout_search.py: what it hands a
determinising strategy is the truth it claims to hand it, and nothing more."""

from __future__ import annotations

import importlib.util
import random
from collections import Counter
from pathlib import Path

from test_adas_race import two_player_state

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_rollout_search.py"


def revealing():
    spec = importlib.util.spec_from_file_location("bench_rollout_search", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Revealing


def test_reveal_hand_puts_back_the_true_hands_and_keeps_the_draw_order_unknown():
    game, state = two_player_state(seed=8, decisions=4)
    seat = state.current_player
    view = state.view(seat)
    proxy = revealing()(game, "hand", [state])
    orders = set()
    for k in range(6):
        dealt = proxy.determinize(view, random.Random(k))
        assert dealt.hands == state.hands  # every hand, the viewer's own as it was
        assert Counter(dealt.draw) == Counter(state.draw)  # the same cards...
        assert dealt.rows == state.rows and dealt.master == state.master
        orders.add(tuple(dealt.draw))
    assert len(orders) > 1  # ...in orders of the strategy's own RNG, not the true one


def test_reveal_all_hands_over_a_copy_of_the_true_state():
    game, state = two_player_state(seed=8, decisions=4)
    view = state.view(state.current_player)
    proxy = revealing()(game, "all", [state])
    dealt = proxy.determinize(view, random.Random(3))
    assert dealt.snapshot() == state.snapshot() and dealt is not state
    # without the diagnostic the hidden cards are the game's guess, not the truth
    assert any(game.determinize(view, random.Random(k)).hands != state.hands for k in range(6))
