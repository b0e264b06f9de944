"""Ex Libris throughput: random self-play games per second for 2, 3 and 4 players.

    python benchmarks/bench_ex_libris.py [--games N] [--mode beginner|advanced]

A bare loop over the engine (setup, chance events, legal moves, apply; no strategies, no
records), one process. Also prints the mean number of decisions and rounds per game.
"""

from __future__ import annotations

import argparse
import random
import time

from simcli.game import CHANCE
from simcli.games import get_game


def run(players: int, games: int, mode: str) -> tuple[float, float, float]:
    game = get_game("ex_libris")
    options = game.resolve_options({"mode": mode})
    rng = random.Random(players)
    steps = rounds = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_state(players, options, game.sample_setup(players, options, rng))
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_moves()))
            steps += 1
        state.outcome()
        rounds += state.round  # type: ignore[attr-defined]
    elapsed = time.perf_counter() - start
    return games / elapsed, steps / games, rounds / games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--mode", default="beginner", choices=("beginner", "advanced"))
    args = parser.parse_args()
    for players in (2, 3, 4):
        rate, steps, rounds = run(players, args.games, args.mode)
        print(
            f"{players} players ({args.mode}): {rate:7.1f} games/s   "
            f"{steps:6.1f} decisions/game   {rounds:4.1f} rounds/game"
        )


if __name__ == "__main__":
    main()
