"""Time per move of a search rung (``rollout_search``, ``ex_libris_endgame``,
``adas_race``, ``adas_reply``, the Bibliogamo searches...) against the heuristic below it.

    python benchmarks/bench_rollout_search.py configs/adas-library-search.yaml [--games 6]
    python benchmarks/bench_rollout_search.py configs/ex-libris-ladder.yaml \
        --strategy endgame --against heuristic
    python benchmarks/bench_rollout_search.py \
        studies/adas-library-search-rung/adas-library-race.yaml \
        --rung race --against heuristic --games 80 --paired --seed 101

Plays ``--games`` games of the config's first strategy (or ``--against``) against its
strategy named ``search`` (or ``--strategy``, alias ``--rung``), seats alternating, one
process, the config's game and options, deals from ``--seed`` (``--paired``: games 2k and
2k + 1 share a deal, the seats swapped), and reports, for the timed strategy's moves with
more than one legal move, the CPU time of one call of ``choose`` (``time.process_time``:
on a shared machine the wall clock counts the other processes' turns too) and the wall
time: median, 95th percentile and maximum; then the timed strategy's wins, losses and
draws (a screen, not a ladder run: the deals are not the runner's). A solitaire config
(``players: 1``) plays the timed strategy alone.

``--reveal`` measures what hidden information is worth to a determinising search (a
diagnostic: it breaks the rule that a strategy sees only its view). ``all`` hands the
timed strategy a copy of the true state whenever it calls ``game.determinize``; ``hand``
(Ada's Library) the game's own determinisation with the other seats' true hands put
back and the draw pile dealt again from the cards left, so only the order of the draw
pile stays unknown.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from simcli.game import CHANCE, TERMINAL
from simcli.games import get_game
from simcli.strategy import load_strategy_class


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Revealing:
    """A game whose ``determinize`` tells the truth (``--reveal``): ``truth[0]`` is the
    true state of the decision being made."""

    def __init__(self, game: Any, mode: str, truth: list[Any]) -> None:
        self.game, self.mode, self.truth = game, mode, truth

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def determinize(self, view: Any, rng: random.Random) -> Any:
        true = self.truth[0]
        if self.mode == "all":
            return true.clone()
        state = self.game.determinize(view, rng)
        viewer = view.viewer
        pool = Counter(state.draw)
        for s, hand in enumerate(state.hands):
            if s != viewer:
                pool.update(hand)
                pool.subtract(true.hands[s])
                state.hands[s] = list(true.hands[s])
        draw = sorted(pool.elements())
        rng.shuffle(draw)
        state.draw = draw
        return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("config", type=Path)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--strategy", "--rung", dest="strategy", default="search", help="the timed strategy"
    )
    parser.add_argument("--against", help="its opponent's name (default: the first strategy)")
    parser.add_argument("--paired", action="store_true", help="each deal twice, seats swapped")
    parser.add_argument(
        "--reveal",
        choices=("none", "hand", "all"),
        default="none",
        help="a diagnostic: the timed strategy's determinisations hold the true opponents' "
        "hands (hand, Ada's Library) or the whole true state (all)",
    )
    args = parser.parse_args()
    config = yaml.safe_load(args.config.read_text())
    game = get_game(config["game"])
    players = config.get("players", 2)
    options = game.resolve_options(config.get("options") or {})
    specs = {s["name"]: s for s in config["strategies"]}
    for name in (args.strategy, args.against):
        if name is not None and name not in specs:
            parser.error(f"{args.config}: no strategy named {name!r} (has {', '.join(specs)})")
    search = specs[args.strategy]
    other = specs[args.against] if args.against else config["strategies"][0]
    if other is search and players > 1:
        parser.error(f"{args.strategy!r} would play itself: name its opponent with --against")
    if args.reveal == "hand" and config["game"] != "adas_library":
        parser.error("--reveal hand knows Ada's Library's hands only; use --reveal all")
    truth: list[Any] = [None]

    def build(spec: dict, seat: int, seed: int):
        inst = load_strategy_class(spec["use"])(**(spec.get("params") or {}))
        inst.start_game(game, seat, random.Random(seed))
        return inst

    cpu: list[float] = []
    wall: list[float] = []
    record = [0, 0, 0]  # the rung's wins, losses, draws
    for g in range(args.games):
        rng = random.Random(args.seed * 1000 + (g // 2 if args.paired else g))
        state = game.new_state(players, options, game.sample_setup(players, options, rng))
        me = g % players
        seats = [build(search if s == me else other, s, 7 * g + s) for s in range(players)]
        if args.reveal != "none":
            seats[me].game = Revealing(game, args.reveal, truth)
        while state.current_player != TERMINAL:
            seat = state.current_player
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            moves = state.legal_moves()
            truth[0] = state
            c0, w0 = time.process_time(), time.perf_counter()
            move = seats[seat].choose(state.view(seat), moves)
            if seat == me and len(moves) > 1:
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
            state.apply(move)
        winners = state.outcome().winners
        record[0 if me in winners else 1 if winners else 2] += 1
    revealed = "" if args.reveal == "none" else f" (--reveal {args.reveal})"
    print(f"{args.config}: {args.games} games, {len(cpu)} decisions of {args.strategy!r}{revealed}")
    for label, values in (("CPU", cpu), ("wall", wall)):
        print(
            f"  {label:4} s/move: median {statistics.median(values):.3f}  "
            f"95th percentile {percentile(values, 0.95):.3f}  max {max(values):.3f}"
        )
    if players > 1:
        print(f"  {args.strategy} wins {record[0]}, losses {record[1]}, draws {record[2]}")


if __name__ == "__main__":
    main()
