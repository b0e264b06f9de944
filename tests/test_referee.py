"""The in-process referee: nothing a strategy does to what it is handed changes the game,
its answer is checked without running its code, and whatever it raises is its forfeit.

Each test plays one of the attackers of tests/data/adversaries.py; each attack worked on
the referee before it was hardened (options rewritten for later games, a sleeping
``__eq__`` hanging a timed run, ``SystemExit`` ending a run with exit 0, a lying
``modifies_view`` producing records that do not replay).
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner

import simcli
from simcli.cli.main import cli
from simcli.games import get_game
from simcli.strategy import load_strategy_class
from simcli.verify import replay
from simcli_strategies.random_play import RandomStrategy

ADVERSARIES = Path(__file__).resolve().parent / "data" / "adversaries.py"


def adversary(name: str):
    return load_strategy_class(f"{ADVERSARIES}:{name}")


def play(game_id: str, attacker: str, index: int = 0, seed: int = 3, limit=None, **opts):
    seats = [{"name": "bad", "use": adversary(attacker)}, "random"]
    return simcli.play(game_id, seats, options=opts, seed=seed, index=index, move_time_limit=limit)


def test_options_cannot_be_rewritten_for_this_or_later_games():
    game = get_game("libraria")
    options = game.resolve_options({})
    before = dict(options)
    bad = {"name": "bad", "use": adversary("RewriteOptions")}
    honest = {"name": "bad", "use": RandomStrategy}
    for index in range(20):
        seats = [bad, "random"] if index % 2 == 0 else ["random", bad]
        fair = [honest if s is bad else s for s in seats]
        record = simcli.play(game, seats, options=options, seed=100 + index, index=index)
        assert record["options"] == before
        assert record["termination"] == "normal"
        # The attacker plays random moves from the same seeded RNG as the random
        # strategy: the game is exactly the honest one.
        assert record == simcli.play(game, fair, options=options, seed=100 + index, index=index)
    assert options == before


def test_nested_legal_moves_cannot_be_rewritten():
    # Ada's Library moves are lists: the attacker empties every offered list and answers a
    # fresh copy of its pick; the game goes on with the game's own moves.
    game = get_game("adas_library")
    options = game.resolve_options({})
    bad = {"name": "bad", "use": adversary("RewriteLegal")}
    record = simcli.play(game, [bad, "random"], options=options, seed=9)
    assert record["termination"] in ("normal", "move_limit")
    honest = {"name": "bad", "use": RandomStrategy}
    assert record == simcli.play(game, [honest, "random"], options=options, seed=9)


@pytest.mark.parametrize("game_id", ["libraria", "library"])
def test_a_strategy_that_applies_moves_to_its_view_changes_nothing(game_id):
    game = get_game(game_id)
    options = game.resolve_options({})
    seats = [adversary("ApplyToView"), RandomStrategy]
    for index in range(4):
        record = simcli.play(game, seats, options=options, seed=40 + index, index=index)
        assert record["termination"] in ("normal", "move_limit")
        assert replay(json.loads(json.dumps(record))) == []  # replays with no mismatch


@pytest.mark.parametrize(
    ("attacker", "kind", "text"),
    [
        ("SleepyMove", "illegal_move", "a SleepyEq is not a move"),
        ("ExitInEq", "illegal_move", "a _Raises is not a move"),
        ("InterruptInEq", "illegal_move", "a _Raises is not a move"),
        ("ExitInChoose", "exception", "SystemExit: 4"),
        ("UnprintableError", "exception", "_BadMessage: <message could not be printed>"),
        ("RaiseStopNow", "exception", "StopNow"),
    ],
)
def test_whatever_a_strategy_answers_or_raises_is_its_forfeit(attacker, kind, text):
    record = play("libraria", attacker, limit=2.0)
    assert record["termination"] == "forfeit"
    assert record["winners"] == [1]
    assert record["detail"]["kind"] == kind
    assert record["detail"]["message"].startswith(text)
    untimed = play("libraria", attacker)
    assert untimed["detail"] == record["detail"]


def test_floats_and_bools_are_not_moves():
    from simcli.moves import IllegalAnswer, find_move

    legal = [0, 1, 2, [1, 2]]
    assert find_move(legal, 1) == 1
    assert find_move(legal, [1, 2]) is legal[3]
    for bad in (1.0, True, (1, 2), None, {"a": 1}, [1.0, 2]):
        with pytest.raises(IllegalAnswer):
            find_move(legal, bad)


@pytest.mark.parametrize("workers", [0, 2])
@pytest.mark.slow
def test_runs_finish_whatever_the_answer_objects_do(tmp_path, workers):
    """A sleeping ``__eq__`` with a 1 s move limit, and ``SystemExit``/``KeyboardInterrupt``
    raised from ``__eq__``/``__repr__``: every game is written and the run exits 0."""
    config = tmp_path / "c.yaml"
    config.write_text(
        "game: libraria\n"
        "strategies:\n"
        f"  - {{name: sleepy, use: '{ADVERSARIES}:SleepyMove'}}\n"
        f"  - {{name: exits, use: '{ADVERSARIES}:ExitInEq'}}\n"
        f"  - {{name: interrupts, use: '{ADVERSARIES}:InterruptInEq'}}\n"
        "  - random\n"
        "games: 2\nmove_time_limit: 1\n"
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["run", str(config), "--out", str(out), "--workers", str(workers), "-q", "--no-plots"]
    )
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(records) == 12
    assert json.loads((out / "run.json").read_text())["status"] == "complete"
    assert (out / "summary.json").exists()
    for record in records:
        cheaters = [s for s in record["seats"] if s != "random"]
        if cheaters and record["termination"] == "forfeit":
            assert record["detail"]["kind"] == "illegal_move"
    assert {r["termination"] for r in records} == {"forfeit"}


def test_exit_from_choose_in_process_run_is_a_forfeit_not_the_end(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(
        f"game: libraria\nstrategies:\n  - {{name: exits, use: '{ADVERSARIES}:ExitInChoose'}}\n"
        "  - random\ngames: 4\n"
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["run", str(config), "--out", str(out), "--workers", "0", "-q", "--no-plots"]
    )
    assert result.exit_code == 0, result.output
    lines = (out / "games.jsonl").read_text().splitlines()
    assert len(lines) == 4
    assert all(json.loads(line)["detail"]["message"] == "SystemExit: 4" for line in lines)


def test_components_are_read_only_through_a_view():
    game = get_game("bibliogamo")
    options = game.resolve_options({})
    setup = game.sample_setup(1, options, __import__("random").Random(1))
    view = game.new_state(1, options, setup).view(0)
    some_card = next(iter(view.comp.cards))
    with pytest.raises(TypeError):
        view.comp.cards[some_card] = None
    with pytest.raises(TypeError):
        view.options["prestige"] = "none"


def test_strategies_get_their_own_game_object():
    seen = []

    class Grab(RandomStrategy):
        def start_game(self, game, seat, rng):
            super().start_game(game, seat, rng)
            seen.append(game)

    game = get_game("libraria")
    simcli.play(game, partial(Grab), players=2, seed=1)
    assert seen and all(g is not game for g in seen)


class _RaisesOnBool:
    def __init__(self, exc):
        self.exc = exc

    def __bool__(self):
        raise self.exc


class _WantsExit(RandomStrategy):
    wants_view = _RaisesOnBool(SystemExit(3))


class _WantsProperty(RandomStrategy):
    @property
    def wants_view(self):
        raise KeyboardInterrupt


class _ClassProperty(RandomStrategy):
    @property
    def __class__(self):
        raise SystemExit(4)


@pytest.mark.parametrize("cls", [_WantsExit, _WantsProperty, _ClassProperty])
def test_strategy_attributes_are_read_under_the_guard(cls):
    """An attribute the referee reads (wants_view, the class) is strategy code as well:
    whatever it does is the seat's forfeit or harmless, never the run's end."""
    game = get_game("libraria")
    record = simcli.play(game, [cls, RandomStrategy], seed=5)
    assert record["termination"] in ("normal", "forfeit")
    if record["termination"] == "forfeit":
        assert record["detail"]["seat"] == 0


def test_an_int_equal_to_a_legal_move_is_that_move_even_when_not_the_same_object():
    """Shift Duel with moves past CPython's cache of small integers: an answer equal to
    a legal move need not be the very object the referee handed out."""
    from simcli.games import load_game
    from simcli.strategy import Strategy

    duel = load_game(f"{Path(__file__).resolve().parent / 'data' / 'shift_duel.py'}:ShiftDuel")
    DuelState = type(duel.new_state(2, duel.resolve_options({}), {"values": [0, 0]}))

    class BigState(DuelState):
        def legal_moves(self):
            return [] if self.moved == 2 else [10**6 + k for k in range(3 - 2 * self.moved)]

        def clone(self):
            new = BigState(self.game, self.options, self.values)
            new.moved = self.moved
            return new

    class Big(type(duel)):
        def new_state(self, players, options, setup):
            return BigState(self, options, list(setup["values"]))

    class Equal(Strategy):
        """Answers the middle legal move as a new int object (equal, not identical)."""

        def choose(self, view, legal):
            middle = legal[len(legal) // 2]
            answer = int(str(middle))
            assert answer == middle and answer is not middle
            return answer

    record = simcli.play(Big(), [Equal, Equal], seed=1)
    # seat 0 has 1000000..1000002 and answers the middle one; seat 1 has 1000000 only
    assert record["termination"] == "normal"
    assert record["moves"] == [1000001, 1000000]
