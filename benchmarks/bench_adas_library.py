"""Ada's Library speed: random self-play games per second, 2 and 4 players.

    python benchmarks/bench_adas_library.py [--games N]

Two figures per player count, single process: ``rules`` plays random legal moves straight
on the state (setup, legal moves, apply, reshuffles); ``runner`` plays the same games
through ``simcli.tournament.play.play_game`` (views for the strategies, the game record).
Random play rarely sorts a row, so most games run to the default ``max_turns`` of 400.
Rates are per second of this process's CPU time (``time.process_time``), so that other
work on a shared machine does not distort them; the wall-clock rate is printed too.
"""

from __future__ import annotations

import argparse
import random
import time
from functools import partial

from simcli.game import CHANCE
from simcli.games import get_game
from simcli.tournament.play import play_game
from strategies.random_play import RandomStrategy


def timed(run, games: int) -> tuple[float, float]:
    """(games per CPU second, games per wall second) of ``run()``."""
    cpu, wall = time.process_time(), time.perf_counter()
    run()
    return games / (time.process_time() - cpu), games / (time.perf_counter() - wall)


def bench_rules(players: int, games: int) -> float:
    """Plays ``games`` random games on the bare rules; returns the mean turns per game."""
    game = get_game("adas_library")
    options = game.resolve_options({})
    turns = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_state(players, options, game.sample_setup(players, options, rng))
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_moves()))
        turns += state.turns
    return turns / games


def bench_runner(players: int, games: int) -> None:
    game = get_game("adas_library")
    options = game.resolve_options({})
    factories = {"random": RandomStrategy}
    for index in range(games):
        play_game(game, options, index, index, ["random"] * players, factories)


def _record(into: list[float], run, *args) -> None:
    into.append(run(*args))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per measurement")
    args = parser.parse_args()
    for players in (2, 4):
        turns: list[float] = []
        rules = timed(partial(_record, turns, bench_rules, players, args.games), args.games)
        runner = timed(partial(bench_runner, players, args.games), args.games)
        print(
            f"{players} players, random self-play ({turns[0]:.0f} turns per game): "
            f"rules {rules[0]:.1f} games/s, runner {runner[0]:.1f} games/s per CPU second "
            f"(wall clock: {rules[1]:.1f} and {runner[1]:.1f})"
        )


if __name__ == "__main__":
    main()
