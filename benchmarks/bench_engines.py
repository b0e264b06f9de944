"""Engine and search speed of this checkout against an earlier commit, interleaved.

    python benchmarks/bench_engines.py [--base REV] [--rounds R] [--quick]

The earlier commit (default: the merge base with ``main``) is checked out into a
temporary ``git worktree``; each side is measured in its own subprocess with
``PYTHONPATH`` pointing at its tree, alternately (base, head, base, head, ...), so that
both see the same machine. Per game:

* engine loop: random self-play games per second through the engine as search plays
  it (setup, ``legal_moves``, a uniform choice, ``apply_trusted`` where the side has it,
  else ``apply``; chance outcomes from ``sample_chance``), and the same loop with the
  referee's validated ``apply``;
* search: MCTS iterations per second from the opening (random rollouts; ``ismcts`` for
  the hidden-card games).

For Libraria a hand-tight pure-Python loop of the same rules (a flat board, the free
spots in a list, scoring by the same table) runs in the head's subprocess: the engine
loop's rate over it is the ``vs tight`` figure.

Each figure is the best of the rounds; each speed-up is the median over the rounds of the
head / base ratio of one round (adjacent measurements), [min, max] after it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (game, players, engine games per measurement, search iterations, search strategy)
GAMES = (
    ("libraria", 2, 3000, 3000, "mcts"),
    ("library", 2, 60, 300, "mcts"),
    ("adas_library", 2, 60, 300, "ismcts"),
    ("ex_libris", 2, 60, 300, "ismcts"),
    ("bibliogamo", 1, 60, 300, "ismcts"),
)


# -- measured inside a subprocess (the side's simcli on PYTHONPATH) ------------------------


def engine_rate(game_id: str, players: int, games: int, trusted: bool) -> float:
    import random

    from simcli.games import get_game

    game = get_game(game_id)
    options = game.resolve_options({})
    rng = random.Random(1)
    choice = rng.choice
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_state(players, options, game.sample_setup(players, options, rng))
        apply = getattr(state, "apply_trusted", state.apply) if trusted else state.apply
        legal = state.legal_moves
        while True:
            seat = state.current_player
            if seat == -2:
                break
            if seat == -1:
                apply(state.sample_chance(rng))
            else:
                apply(choice(legal()))
        state.outcome()
    return games / (time.perf_counter() - start)


def search_rate(game_id: str, players: int, iterations: int, kind: str) -> float:
    import random

    from simcli.games import get_game

    if kind == "mcts":
        from strategies.mcts import MCTSStrategy as cls
    else:
        from strategies.ismcts import ISMCTSStrategy as cls
    game = get_game(game_id)
    options = game.resolve_options({})
    state = game.new_state(players, options, game.sample_setup(players, options, random.Random(1)))
    while state.current_player == -1:
        state.apply(state.sample_chance(random.Random(2)))
    strategy = cls(iterations=iterations)
    seat = state.current_player
    strategy.start_game(game, seat, random.Random(3))
    start = time.perf_counter()
    strategy.choose(state.view(seat), state.legal_moves())
    return strategy.last_iterations / (time.perf_counter() - start)


def tight_libraria(games: int) -> float:
    """The rules of Libraria (rulebook opening, random play) in one flat loop."""
    import random

    from simcli.games.libraria import TILE_CORNERS, TILE_SET, TURN_ORDER

    rng = random.Random(1)
    randrange = rng.randrange
    order = TURN_ORDER["two_counters"][:36]
    corners = TILE_CORNERS
    start = time.perf_counter()
    for _ in range(games):
        tiles = list(TILE_SET)
        rng.shuffle(tiles)
        board = [-1] * 36
        free = list(range(36))
        for seat in order:
            i = randrange(len(free))
            spot = free[i]
            free[i] = free[-1]
            free.pop()
            board[spot] = seat
        a = b = 0
        for value, (p, q, r, s) in zip(tiles, corners, strict=True):
            ones = board[p] + board[q] + board[r] + board[s]
            if ones < 2:
                a += value + 1 if ones == 0 and value >= 0 else (value - 1 if ones == 0 else value)
            elif ones > 2:
                b += value + 1 if ones == 4 and value >= 0 else (value - 1 if ones == 4 else value)
        _ = (a > b) - (a < b)
    return games / (time.perf_counter() - start)


def measure(scale: float, tight: bool) -> dict[str, float]:
    out: dict[str, float] = {}
    for game_id, players, games, iterations, kind in GAMES:
        n = max(1, int(games * scale))
        out[f"{game_id}/engine"] = engine_rate(game_id, players, n, trusted=True)
        if tight and game_id == "libraria":  # right after the engine loop: same machine
            out["libraria/tight"] = tight_libraria(n)
        out[f"{game_id}/validated"] = engine_rate(game_id, players, n, trusted=False)
        budget = max(10, int(iterations * scale))
        out[f"{game_id}/{kind}"] = search_rate(game_id, players, budget, kind)
    return out


# -- the driver --------------------------------------------------------------------------


def run_side(tree: Path, scale: float, tight: bool) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--measure", str(scale)]
    if tight:
        cmd.append("--tight")
    done = subprocess.run(cmd, env=env, cwd=tree, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):5.2f} [{min(values):.2f}, {max(values):.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--base",
        default=None,
        help="earlier commit (default: the merge base with main)",
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a fifth of the work per round")
    parser.add_argument("--measure", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--tight", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure is not None:
        print(json.dumps(measure(args.measure, args.tight)))
        return
    base = (
        args.base
        or subprocess.run(
            ["git", "merge-base", "HEAD", "main"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    scale = 0.2 if args.quick else 1.0
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "base"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(tree), base],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        try:
            rounds = []
            for _ in range(args.rounds):
                before = run_side(tree, scale, tight=False)
                after = run_side(ROOT, scale, tight=True)
                rounds.append((before, after))
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False
            )
    print(
        f"base {base[:12]} vs head, {args.rounds} interleaved rounds (best rate of each; "
        "speed-up: median of the rounds' ratios [min, max])"
    )
    for key in rounds[0][0]:
        if key not in rounds[0][1]:
            continue
        b = max(r[0][key] for r in rounds)
        a = max(r[1][key] for r in rounds)
        unit = "games/s" if key.endswith(("engine", "validated")) else "iterations/s"
        ratios = [r[1][key] / r[0][key] for r in rounds]
        print(f"  {key:24} {b:9.0f} -> {a:9.0f} {unit:13} x{spread(ratios)}")
    tight = [r[1]["libraria/engine"] / r[1]["libraria/tight"] for r in rounds]
    print(
        f"  libraria/tight           {max(r[1]['libraria/tight'] for r in rounds):9.0f} games/s"
        f"   engine loop / tight loop {spread(tight)}"
    )


if __name__ == "__main__":
    main()
