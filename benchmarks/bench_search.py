"""Speed of the search strategies (single process, one core).

    python benchmarks/bench_search.py [--quick]

* MCTS iterations per second from the opening position: Libraria, the sphere game
  (``library``, 2 and 4 players; rollouts to the end and cut after 20 decisions), and
  ISMCTS on Ada's Library (rollouts cut after 20 decisions).
* ``libraria_solver``: nodes per second and time to solve exactly (result and margin)
  from 12, 14 and 16 empty spots. The positions come from games of ``greedy`` with
  epsilon 0.2 (seeded), so they are realistic rather than random scatter; each size
  uses the same positions for both objectives.

Figures depend on the machine and on what else runs on it; the medians over a few
positions are the ones to compare.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from simcli.games import get_game
from simcli_strategies.greedy import GreedyStrategy
from simcli_strategies.ismcts import ISMCTSStrategy
from simcli_strategies.libraria_solver import Position, Searcher
from simcli_strategies.mcts import MCTSStrategy


def opening(game_id: str, players: int, seed: int = 1):
    game = get_game(game_id)
    opts = game.resolve_options({})
    return game, game.new_state(
        players, opts, game.sample_setup(players, opts, random.Random(seed))
    )


def search_rate(strategy, game, state, repeats: int) -> float:
    """Iterations per second of one search from ``state``, median over ``repeats``."""
    rates = []
    for r in range(repeats):
        strategy.start_game(game, state.current_player, random.Random(r))
        start = time.perf_counter()
        strategy.choose(state.view(state.current_player), state.legal_moves())
        rates.append(strategy.last_iterations / (time.perf_counter() - start))
    return statistics.median(rates)


def libraria_position(seed: int, empty: int):
    game = get_game("libraria")
    opts = game.resolve_options({})
    state = game.new_state(2, opts, game.sample_setup(2, opts, random.Random(seed)))
    players = [GreedyStrategy(epsilon=0.2), GreedyStrategy(epsilon=0.2)]
    for seat, p in enumerate(players):
        p.start_game(game, seat, random.Random(seed * 2 + seat))
    while 36 - state.ply > empty:
        state.apply(players[state.current_player].choose(state.clone(), state.legal_moves()))
    return state


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer repeats and positions")
    args = parser.parse_args()
    repeats = 1 if args.quick else 3
    positions = 2 if args.quick else 5

    print(f"MCTS iterations per second from the opening (median of {repeats} searches)")
    cases = [
        ("libraria", 2, MCTSStrategy(iterations=2000), "mcts, random rollouts"),
        ("libraria", 2, ISMCTSStrategy(iterations=2000), "ismcts (open loop), random rollouts"),
        ("library", 2, MCTSStrategy(iterations=200), "mcts, random rollouts to the end"),
        ("library", 2, MCTSStrategy(iterations=1000, rollout_depth=20), "mcts, rollout_depth 20"),
        ("library", 4, MCTSStrategy(iterations=1000, rollout_depth=20), "mcts, rollout_depth 20"),
        (
            "library",
            2,
            MCTSStrategy(iterations=300, rollout_depth=20, decisive=True),
            "mcts, depth 20, decisive",
        ),
        ("adas_library", 2, ISMCTSStrategy(iterations=500, rollout_depth=20), "ismcts, depth 20"),
    ]
    for game_id, players, strategy, label in cases:
        game, state = opening(game_id, players)
        rate = search_rate(strategy, game, state, repeats)
        print(f"  {game_id:<13} {players}p  {label:<38} {rate:8.0f} it/s")

    print(f"\nlibraria_solver: exact solve (median / max over {positions} positions)")
    for empty in (12, 14, 16):
        for objective in ("result", "margin"):
            times, nodes = [], []
            for k in range(positions):
                pos = Position(libraria_position(1000 + k, empty))
                searcher = Searcher()
                start = time.perf_counter()
                searcher.solve(pos, objective)
                times.append(time.perf_counter() - start)
                nodes.append(searcher.nodes)
            rate = sum(nodes) / sum(times)
            print(
                f"  {empty} empty  {objective:<6}  time median {statistics.median(times):6.2f} s"
                f"  max {max(times):6.2f} s   nodes median {statistics.median(nodes):9.0f}"
                f"   {rate:8.0f} nodes/s"
            )


if __name__ == "__main__":
    main()
