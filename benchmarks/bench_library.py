"""Library (the sphere game) speed: random self-play, legal-move generation, strategies.

    python benchmarks/bench_library.py [--games N] [--no-run]

Per player count (2 and 4):

- ``random self-play``: uniformly random legal moves played straight on the rules, in
  games per CPU second of this process (so that other work on a shared machine does not
  distort it) and per wall-clock second, with the mean game length. Random games often
  run to the default ``max_turns`` of 300.
- ``legal moves``: ``legal_moves()`` calls per CPU second over the positions of those
  games (every position visited, about 100-150 moves each).
- ``greedy`` / ``library_heuristic``: mean CPU milliseconds per decision over positions
  of random games.
- unless ``--no-run``: the full ``simcli run`` path (views, strategies, records, log
  file) for random self-play with 1 worker and with every core, in games per second.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

from simcli.games import get_game
from simcli.games.library import LibraryState
from simcli_strategies.greedy import GreedyStrategy
from simcli_strategies.library_heuristic import LibraryHeuristicStrategy


def self_play(players: int, games: int) -> tuple[float, float, float, list[LibraryState]]:
    """(games per CPU second, games per wall second, mean turns, sampled positions)."""
    game = get_game("library")
    options = game.resolve_options({})
    turns = 0
    sample: list[LibraryState] = []
    cpu, wall = time.process_time(), time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_state(players, options, game.sample_setup(players, options, rng))
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
            if state.turn % 37 == 0 and not state.is_terminal():
                sample.append(state.clone())
        turns += state.turn
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return games / cpu, games / wall, turns / games, sample


def legal_rate(positions: list[LibraryState], repeat: int = 5) -> tuple[float, float]:
    """(legal_moves() calls per CPU second, mean moves per position)."""
    moves = sum(len(p.legal_moves()) for p in positions)
    cpu = time.process_time()
    for _ in range(repeat):
        for position in positions:
            position.legal_moves()
    cpu = time.process_time() - cpu
    return repeat * len(positions) / cpu, moves / len(positions)


def decision_ms(strategy_class: type, positions: list[LibraryState]) -> float:
    game = get_game("library")
    cpu = time.process_time()
    for i, position in enumerate(positions):
        strategy = strategy_class()
        strategy.start_game(game, position.current_player, random.Random(i))
        strategy.choose(position.clone(), position.legal_moves())
    return 1000 * (time.process_time() - cpu) / len(positions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per measurement")
    parser.add_argument("--no-run", action="store_true", help="skip the simcli run path")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    for players in (2, 4):
        per_cpu, per_wall, turns, positions = self_play(players, args.games)
        calls, moves = legal_rate(positions)
        few = positions[:: max(1, len(positions) // 100)]
        greedy = decision_ms(GreedyStrategy, few)
        heuristic = decision_ms(LibraryHeuristicStrategy, few)
        print(
            f"{players} players: random self-play {per_cpu:.0f} games/CPU-s "
            f"({per_wall:.0f}/s wall, {turns:.0f} turns per game); "
            f"legal_moves {calls:.0f}/CPU-s ({moves:.0f} moves per position); "
            f"decision: greedy {greedy:.1f} ms, library_heuristic {heuristic:.1f} ms"
        )
        if not args.no_run:
            from simcli.bench import run_path

            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp)
                one = run_path("library", players, args.games, folder, workers=1)
                many = run_path("library", players, args.games, folder, workers=cores)
            print(f"{players} players: simcli run 1w {one:.0f} games/s, {cores}w {many:.0f}/s")


if __name__ == "__main__":
    main()
