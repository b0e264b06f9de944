"""Issue 36, class 3: no strategy can change the game object another strategy, another
game or the referee uses.

Before the fix every in-process strategy of a worker was handed one shared game object,
and its views referred to the referee's own: ``self.game.evaluate = ...`` changed how
``greedy`` played in games the attacker was not even in (40 of 40 games differed, any
worker count), and ``view.game.sample_setup = ...`` rigged the deals of later games. Now
each seat of each game gets a copy of its own (its views refer to it), in-process and in
the Python client alike.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import simcli
from simcli.cli.main import cli
from simcli.games import get_game
from simcli.strategy import load_strategy_class
from simcli.tournament.play import drive, game_play
from simcli.verify import replay

BOTS = Path(__file__).resolve().parent / "data" / "hardening_bots.py"


def run(tmp_path: Path, attacker: str, *args: str) -> bytes:
    """A round robin of greedy, random and ``attacker`` (a strategy of hardening_bots.py
    that plays random moves from its own RNG): the log's bytes."""
    name = f"{attacker}-{'-'.join(args)}"
    config = tmp_path / f"{name}.yaml"
    config.write_text(
        "game: libraria\nseed: 3\ngames: 4\nstrategies:\n  - greedy\n  - random\n"
        f"  - {{name: x, use: '{BOTS}:{attacker}'}}\n"
    )
    out = tmp_path / name
    result = CliRunner().invoke(
        cli, ["run", str(config), "--out", str(out), "-q", "--no-plots", *args]
    )
    assert result.exit_code == 0, result.output
    return (out / "games.jsonl").read_bytes()


@pytest.mark.parametrize("workers", ["0", "2"])
@pytest.mark.parametrize(
    "attacker",
    [
        "RewriteEvaluate",  # the example: self.game.evaluate = ...
        "RewriteEvaluateDict",  # the same through vars(self.game)
        "RewriteViewGameSetup",  # the referee's game, reached through view.game
    ],
)
@pytest.mark.slow
def test_a_strategy_rewriting_its_game_changes_no_other_game(tmp_path, attacker, workers):
    honest = run(tmp_path, "_Random", "--workers", workers)
    assert run(tmp_path, attacker, "--workers", workers) == honest
    for line in honest.splitlines():
        assert replay(json.loads(line)) == []


def test_every_seat_of_every_game_has_a_game_object_of_its_own():
    from simcli.tournament.worker import strategy_game

    grab = load_strategy_class(f"{BOTS}:Grab")
    grab.seen.clear()
    game = get_game("libraria")
    options = game.resolve_options({})
    base = strategy_game(game, options)
    for index in range(3):
        drive(game_play(game, options, index, 7, ["g", "g"], {"g": grab}, strategy_game=base))
    started = [g for what, _, g in grab.seen if what == "start"]
    assert len(started) == 6 and len({id(g) for g in started}) == 6
    assert all(g is not game and g is not base and type(g) is type(game) for g in started)
    # a view refers to the game object of the seat (and game) it was made for
    starts = {}
    for what, seat, handed in grab.seen:
        if what == "start":
            starts[seat] = handed
        else:
            assert handed is starts[seat]


def test_a_copy_keeps_what_a_game_cached_and_shares_no_container():
    from simcli.frozen import private_copy
    from simcli.tournament.worker import strategy_game

    game = get_game("bibliogamo")
    options = game.resolve_options({})
    base = strategy_game(game, options)
    mine = private_copy(base)
    assert mine.components(options["components"]) is base.components(options["components"])
    mine._components.clear()
    mine.evaluate = None
    assert base._components and base.evaluate is not None


def test_greedy_plays_as_greedy_beside_a_rewriter_in_the_same_game():
    """Seat 0 rewrites the game object it is handed in start_game, before greedy (seat
    1) makes a move: greedy's moves are those it plays beside an honest seat 0 that
    draws the same random moves."""
    game = get_game("libraria")
    rewriter = load_strategy_class(f"{BOTS}:RewriteEvaluate")
    honest = load_strategy_class(f"{BOTS}:_Random")
    for seed in (11, 12):
        cheat = simcli.play(game, [{"name": "x", "use": rewriter}, "greedy"], seed=seed)
        fair = simcli.play(game, [{"name": "x", "use": honest}, "greedy"], seed=seed)
        assert cheat == fair


@pytest.mark.slow
def test_isolated_rewriters_give_the_in_process_records(tmp_path):
    inproc = run(tmp_path, "RewriteEvaluate", "--workers", "0")
    isolated = run(tmp_path, "RewriteEvaluate", "--workers", "0", "--isolation", "process")
    assert isolated == inproc
