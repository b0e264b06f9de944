"""Engine and search speed of this checkout against an earlier commit, interleaved.

    python benchmarks/bench_engines.py [--base REV] [--rounds R] [--quick]
    python benchmarks/bench_engines.py --paths [--rounds R] [--quick]
    python benchmarks/bench_engines.py [--paths | --base REV] --rungs [--game ID]

With ``--paths`` the two sides are this checkout's pure Python path (``SIMCLI_PURE=1``)
and its compiled path (the extensions ``pip install -e .`` builds), and the plain C loop
of Libraria (``benchmarks/c/libraria_playout.c``, built with ``gcc -O2`` on first use
into a cache folder) runs right after each Libraria engine loop: it plays the same games
draw for draw (Python's Mersenne Twister, the same shuffle and choices), checked once by
the sum of the games' results, and ``engine loop / C loop`` is printed for both paths.

The earlier commit (default: the merge base with ``main``) is checked out into a
temporary ``git worktree``; each side is measured in its own subprocess with
``PYTHONPATH`` pointing at its tree, alternately (base, head, base, head, ...), so that
both see the same machine. Per game:

* engine loop: random self-play games per second through the engine as a random
  rollout of search plays it: setup, then ``state.playout`` (the game's own loop) with
  the draws of ``simcli.draws`` where the side has them; else a uniformly random legal
  move by ``random_legal_move`` where the side has it, else ``legal_moves`` and a
  uniform choice, for the same draws; ``apply_trusted`` where the side has it, else
  ``apply``; chance outcomes from ``sample_chance``. And the same games as the referee
  plays them (``legal_moves``, a uniform choice, the validated ``apply``);
* search: MCTS iterations per second from the opening (random rollouts; ``ismcts`` for
  the hidden-card games).

With ``--rungs`` the measurements are logged ``simcli run`` self-play games (1 worker)
of the top rungs of the seat-bias-by-skill configs (``RUNGS``): what a balance ladder's
wall time is made of.

For Libraria a hand-tight pure-Python loop of the same rules (a flat board, the free
spots in a list, scoring in one pass) runs in the head's subprocess right after its
engine loop: the engine loop's rate over it is the ``engine loop / tight loop`` figure.

Each side is one long-lived subprocess; every measurement runs on the base and then on
the head, back to back, so that a ratio compares two runs that saw the same machine (the
load of a shared machine drifts by tens of percent within seconds). Each rate printed is
the best of the rounds; each speed-up the median over the rounds of the head / base
ratio, [min, max] after it.
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
    randbelow = rng._randbelow  # what choice draws: seq[randbelow(len(seq))]
    try:  # the same draws, compiled where the side has them
        from simcli.draws import randbelow_of

        randbelow = randbelow_of(rng)
    except Exception:  # noqa: BLE001 - a side from before simcli.draws (or half of it)
        pass
    for _ in range(games):
        state = game.new_state(players, options, game.sample_setup(players, options, rng))
        if trusted and hasattr(state, "playout"):  # the rollout as search plays it
            state.playout(rng, randbelow)
            state.outcome()
            continue
        apply = getattr(state, "apply_trusted", state.apply) if trusted else state.apply
        legal = state.legal_moves
        pick = getattr(state, "random_legal_move", None) if trusted else None
        while True:
            seat = state.current_player
            if seat == -2:
                break
            if seat == -1:
                apply(state.sample_chance(rng))
            elif pick is not None:
                apply(pick(randbelow))
            else:
                apply(choice(legal()))
        state.outcome()
    return games / (time.perf_counter() - start)


def search_rate(game_id: str, players: int, iterations: int, kind: str) -> float:
    import random

    from simcli.games import get_game
    from simcli.strategy import load_strategy_class

    # by its built-in name: each side's own module (the base may predate the package's
    # import name simcli_strategies)
    cls = load_strategy_class(kind)
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


def rung_rate(game_id: str, players: int, strategy: str, games: int) -> float:
    """Games per second of a logged ``simcli run`` (1 worker, in this process) of
    ``games`` self-play games of one rung of a seat-bias-by-skill ladder (``strategy``: a
    config's strategy entry, as YAML)."""
    from simcli.configfile import load_config
    from simcli.tournament.runner import run_tournament

    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "rung.yaml"
        config.write_text(
            f"name: rung\ngame: {game_id}\nplayers: {players}\nstrategies:\n  - {strategy}\n"
            f"format: self_play\ngames: {games}\nseed: 1\nworkers: 0\n"
        )
        start = time.perf_counter()
        run_tournament(load_config(config), Path(tmp) / "out", force=True, quiet=True)
        return games / (time.perf_counter() - start)


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


def libraria_checksum(games: int) -> int:
    """What the C loop prints as its checksum, from the engine loop's games (seed 1)."""
    import random

    from simcli.games import get_game

    game = get_game("libraria")
    options = game.resolve_options({})
    rng = random.Random(1)
    total = 0
    for _ in range(games):
        state = game.new_state(2, options, game.sample_setup(2, options, rng))
        while state.current_player != -2:
            state.apply_trusted(state.random_legal_move(rng._randbelow))
        a, b = state.outcome().scores
        total += a - b + (1000 if a > b else 0)
    return total


def active_path() -> str:
    """Which path this process runs: "compiled" or "pure" (a checkout from before the
    compiled path has no ``simcli.native``: pure)."""
    try:
        from simcli.native import active_path as path
    except ImportError:
        return "pure"
    return path()


C_SOURCE = Path(__file__).resolve().parent / "c" / "libraria_playout.c"


def c_binary() -> Path:
    """The C loop, built with ``gcc -O2`` into the cache folder on first use (one binary
    per version of the source)."""
    import hashlib

    digest = hashlib.sha256(C_SOURCE.read_bytes()).hexdigest()[:12]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "simcli-bench"
    binary = cache / f"libraria_playout-{digest}"
    if not binary.exists():
        cache.mkdir(parents=True, exist_ok=True)
        cc = os.environ.get("CC", "gcc")
        subprocess.run([cc, "-O2", "-o", str(binary), str(C_SOURCE)], check=True)
    return binary


def c_loop(games: int) -> tuple[float, int]:
    """Games per second of the C loop (seed 1) and its checksum."""
    out = subprocess.run(
        [str(c_binary()), str(games), "1"], check=True, capture_output=True, text=True
    ).stdout.split()
    return games / float(out[0]), int(out[1])


#: The top rungs of the seat-bias-by-skill configs (configs/*-balance.yaml) and the
#: self-play games of each per measurement (--rungs).
RUNGS = (
    ("libraria", 2, "{name: mcts-400, use: mcts, params: {iterations: 400, c: 0.4}}", 8),
    ("adas_library", 2, "{name: heuristic, use: adas_heuristic}", 20),
    ("ex_libris", 2, "{name: heuristic, use: ex_libris_heuristic}", 6),
    ("library", 2, "{name: mcts-50, use: mcts, params: {iterations: 50}}", 2),
)


def rung_measurements(scale: float, only: list[str] | None) -> list[tuple[str, str, tuple]]:
    """(key, function name, arguments) of the rungs' measurements."""
    out = []
    for game_id, players, strategy, games in RUNGS:
        if only and game_id not in only:
            continue
        name = strategy.split(",")[0].split(":")[1].strip()
        n = max(1, int(games * scale))
        out.append((f"{game_id}/{name}", "rung_rate", (game_id, players, strategy, n)))
    return out


def measurements(scale: float, only: list[str] | None = None) -> list[tuple[str, str, tuple]]:
    """(key, function name, arguments) of every measurement, in the order they run."""
    out = []
    for game_id, players, games, iterations, kind in GAMES:
        if only and game_id not in only:
            continue
        n = max(1, int(games * scale))
        out.append((f"{game_id}/engine", "engine_rate", (game_id, players, n, True)))
        out.append((f"{game_id}/validated", "engine_rate", (game_id, players, n, False)))
        budget = max(10, int(iterations * scale))
        out.append((f"{game_id}/{kind}", "search_rate", (game_id, players, budget, kind)))
    return out


def serve() -> None:
    """Worker: read one ``[function name, arguments]`` JSON line at a time, answer the
    rate on one line."""
    functions = {
        "engine_rate": engine_rate,
        "search_rate": search_rate,
        "tight": tight_libraria,
        "checksum": libraria_checksum,
        "rung_rate": rung_rate,
        "path": active_path,
    }
    for line in sys.stdin:
        name, arguments = json.loads(line)
        print(json.dumps(functions[name](*arguments)), flush=True)


# -- the driver --------------------------------------------------------------------------


class Worker:
    """A measuring subprocess with ``tree`` (a checkout) first on its import path."""

    def __init__(self, tree: Path, pure: bool = False):
        # the tree's own strategies as simcli_strategies (a folder named so, linked)
        self.shim = tempfile.TemporaryDirectory()
        (Path(self.shim.name) / "simcli_strategies").symlink_to(tree / "strategies")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join((str(tree), self.shim.name)))
        env.pop("SIMCLI_PURE", None)
        if pure:
            env["SIMCLI_PURE"] = "1"
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve"],
            env=env,
            cwd=tree,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def rate(self, name: str, arguments: tuple) -> float:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps([name, list(arguments)]) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()
        self.shim.cleanup()


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):5.2f} [{min(values):.2f}, {max(values):.2f}]"


def interleave(
    old: Worker, new: Worker, plan: list, rounds: int, c_games: int
) -> tuple[dict[str, list[float]], dict[str, list[float]], dict[str, list[float]]]:
    """Every measurement on ``old`` and then on ``new``, back to back, ``rounds`` times
    after a warm-up; after each Libraria engine loop the tight loop on ``new`` and, when
    ``c_games``, the C loop. Returns (old's rates, new's rates, extra rates by name)."""
    before: dict[str, list[float]] = {key: [] for key, _, _ in plan}
    after: dict[str, list[float]] = {key: [] for key, _, _ in plan}
    extra: dict[str, list[float]] = {"tight": [], "c": []}
    for _key, name, arguments in plan:  # warm-up: imports, component files
        old.rate(name, arguments)
        new.rate(name, arguments)
    for _ in range(rounds):
        for key, name, arguments in plan:
            before[key].append(old.rate(name, arguments))
            after[key].append(new.rate(name, arguments))
            if key == "libraria/engine":
                extra["tight"].append(new.rate("tight", (GAMES[0][2],)))
                if c_games:
                    extra["c"].append(c_loop(c_games)[0])
    return before, after, extra


def report(
    title: str, plan: list, before: dict, after: dict, extra: dict, labels: tuple[str, str]
) -> None:
    print(title)
    for key, _, _ in plan:
        unit = "iterations/s" if key.endswith("mcts") else "games/s"
        ratios = [a / b for a, b in zip(after[key], before[key], strict=True)]
        digits = 0 if max(before[key]) >= 100 else 2
        print(
            f"  {key:24} {max(before[key]):9.{digits}f} -> {max(after[key]):9.{digits}f} "
            f"{unit:13} x{spread(ratios)}"
        )
    if extra["tight"]:
        vs_tight = [a / t for a, t in zip(after["libraria/engine"], extra["tight"], strict=True)]
        print(
            f"  libraria/tight           {max(extra['tight']):9.0f} games/s   "
            f"engine loop ({labels[1]}) / tight loop {spread(vs_tight)}"
        )
    if extra["c"]:
        print(f"  libraria/C loop          {max(extra['c']):9.0f} games/s")
        for label, rates in zip(labels, (before, after), strict=True):
            vs_c = [a / c for a, c in zip(rates["libraria/engine"], extra["c"], strict=True)]
            print(f"    engine loop ({label}) / C loop  {spread(vs_c)}")


def paths(args: argparse.Namespace, plan: list) -> None:
    """The pure path against the compiled one, and Libraria's engine against C."""
    c_games = 100_000 if args.quick else 500_000
    pure, compiled = Worker(ROOT, pure=True), Worker(ROOT)
    try:
        sides = (pure.rate("path", ()), compiled.rate("path", ()))
        if sides != ("pure", "compiled"):
            print(f"note: the two sides run the {sides[0]} and the {sides[1]} path")
        if any(key == "libraria/engine" for key, _, _ in plan):
            checks = c_loop(2000)[1], compiled.rate("checksum", (2000,))
            print(f"C loop plays the engine's games: {'yes' if checks[0] == checks[1] else 'NO'}")
        else:
            c_games = 0
        before, after, extra = interleave(pure, compiled, plan, args.rounds, c_games)
    finally:
        pure.close()
        compiled.close()
    report(
        f"pure vs compiled path, {args.rounds} rounds, each measurement on both back to "
        "back (best rate of each; speed-up: median of the rounds' ratios [min, max])",
        plan,
        before,
        after,
        extra,
        ("pure", "compiled"),
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--base", default=None, help="earlier commit (default: the merge base with main)"
    )
    parser.add_argument(
        "--paths",
        action="store_true",
        help="this checkout's pure path against its compiled path, and Libraria against C",
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="a fifth of the work per round")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument(
        "--rungs",
        action="store_true",
        help="logged self-play runs of the balance ladders' top rungs instead",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    scale = 0.2 if args.quick else 1.0
    plan = rung_measurements(scale, args.game) if args.rungs else measurements(scale, args.game)
    if args.paths:
        paths(args, plan)
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
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "base"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(tree), base],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        old, new = Worker(tree, pure=True), Worker(ROOT)
        try:
            before, after, extra = interleave(old, new, plan, args.rounds, 0)
        finally:
            old.close()
            new.close()
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False
            )
    report(
        f"base {base[:12]} vs head, {args.rounds} rounds, each measurement of the base and "
        "the head back to back (best rate of each; speed-up: median of the rounds' "
        "ratios [min, max])",
        plan,
        before,
        after,
        extra,
        ("base", "head"),
    )


if __name__ == "__main__":
    main()
