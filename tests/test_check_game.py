"""``simcli check-game``: each check catches a game broken in its own way, and only that
check fails; the command prints one line per check and exits 0/1/2.

The broken games are the example game High Roll (examples/high_roll.py) with one rule of
the contract broken each.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from slow_cases import slow_unless

from simcli.cli.main import cli
from simcli.conformance import CHECKS, check_game
from simcli.game import IllegalMoveError
from simcli.games import load_game
from simcli.statefields import PUBLIC, StateFields

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "high_roll.py"
HighRoll = type(load_game(f"{EXAMPLE}:HighRoll"))
HighRollState = sys.modules[HighRoll.__module__].HighRollState
FACES = sys.modules[HighRoll.__module__].FACES


class _WithState(HighRoll):
    """A High Roll whose states are of the class ``state_class``."""

    state_class: type = HighRollState

    def new_state(self, players, options, setup):
        state = super().new_state(players, options, setup)
        state.__class__ = self.state_class
        return state

    def state_from_snapshot(self, players, options, snapshot):
        state = super().state_from_snapshot(players, options, snapshot)
        state.__class__ = self.state_class
        return state


class NewSetupEachCall(HighRoll):
    """same_seed: the setup depends on how often it was sampled, not on the seed only."""

    def __init__(self) -> None:
        self.calls = 0

    def sample_setup(self, players, options, rng):
        setup = super().sample_setup(players, options, rng)
        self.calls += 1
        setup["secret"][0] = self.calls % 6 + 1
        return setup


class SharedPublicState(HighRollState):
    def clone(self):
        new = super().clone()
        new.public = self.public  # the clone's rolls land in the original too
        return new


class SharedPublic(_WithState):
    """independent: clones share the list of public totals."""

    state_class = SharedPublicState


class ShowAllState(HighRollState):
    # the secret dice declared public: every view shows them
    state_fields = StateFields(
        replace(HighRollState.state_fields.fields[0], hidden=PUBLIC),
        *HighRollState.state_fields.fields[1:],
    )


class ShowsEverything(_WithState):
    """hidden: declares hidden information, but every view shows every secret die."""

    state_class = ShowAllState

    def determinize(self, view, rng):
        return view.clone()


class RerollsOwnDie(HighRoll):
    """determinize: draws the seat's own secret die again too."""

    def determinize(self, view, rng):
        state = view.clone()
        state.secret = [rng.randint(1, 6) for _ in state.secret]
        return state


class InfiniteSnapshotState(HighRollState):
    def snapshot(self):
        return {**super().snapshot(), "limit": math.inf}


class InfiniteSnapshot(_WithState):
    """snapshot: a snapshot holding a number JSON cannot write."""

    state_class = InfiniteSnapshotState


class TwiceRollState(HighRollState):
    def legal_moves(self):
        moves = super().legal_moves()
        return [*moves, "roll"] if moves else moves


class TwiceRoll(_WithState):
    """legal_moves: offers "roll" twice."""

    state_class = TwiceRollState


class PassesTurnState(HighRollState):
    def apply(self, move):
        if self.current_player >= 0 and move not in ("hold", "roll"):
            self.seat = (self.seat + 1) % self.players  # changed, then refused
            raise IllegalMoveError(f"{move!r} is not a High Roll move")
        super().apply(move)


class PassesTurn(_WithState):
    """illegal_moves: a refused move passes the turn first."""

    state_class = PassesTurnState


class KeepsSetupAside(HighRoll):
    """replay: builds the state from the last setup it sampled, not the one it is given."""

    def sample_setup(self, players, options, rng):
        setup = super().sample_setup(players, options, rng)
        self.last = setup
        return setup

    def new_state(self, players, options, setup):
        return super().new_state(players, options, getattr(self, "last", setup))


class ExtraScoreState(HighRollState):
    def outcome(self):
        outcome = super().outcome()
        return type(outcome)((*outcome.scores, 0.0), outcome.winners)


class ExtraScore(_WithState):
    """outcome: one score more than there are seats."""

    state_class = ExtraScoreState


class TooShort(HighRoll):
    """max_length: declares a maximum that real games exceed."""

    def max_length(self, players, options):
        return 3


class ReorderedState(HighRollState):
    def snapshot(self):  # a hand-written snapshot with the keys in another order
        return dict(reversed(super().snapshot().items()))


class Reordered(_WithState):
    """fields: a hand-written snapshot that differs from the declared one in key order."""

    state_class = ReorderedState


class LoadedDieState(HighRollState):
    def chance_outcomes(self):
        return [(face, 1 / 5) for face in FACES]  # sums to 6/5


class LoadedDie(_WithState):
    """chances: listed probabilities that do not sum to 1."""

    state_class = LoadedDieState


BROKEN = {
    "same_seed": NewSetupEachCall,
    "independent": SharedPublic,
    "hidden": ShowsEverything,
    "determinize": RerollsOwnDie,
    "snapshot": InfiniteSnapshot,
    "legal_moves": TwiceRoll,
    "illegal_moves": PassesTurn,
    "replay": KeepsSetupAside,
    "outcome": ExtraScore,
    "max_length": TooShort,
    "fields": Reordered,
    "chances": LoadedDie,
}


def test_every_check_has_a_broken_game() -> None:
    assert sorted(BROKEN) == sorted(CHECKS)


@pytest.mark.slow
def test_the_example_game_passes_every_check() -> None:
    report = check_game(HighRoll(), games=6, seed=1)
    assert report.failed() == []
    assert report.ok


@pytest.mark.parametrize("check", slow_unless(sorted(BROKEN), lambda check: check == "max_length"))
def test_a_broken_game_fails_only_its_check(check: str) -> None:
    report = check_game(BROKEN[check](), games=6, seed=1)
    assert report.failed() == [check], {n: report.results[n].failure for n in report.failed()}
    failure = report.results[check].failure
    assert failure.seed in range(1, 7) and failure.players in (2, 3, 4)


BROKEN_FILE = """\
from simcli.games import load_game

HighRoll = type(load_game({example!r} + ":HighRoll"))


class TooShort(HighRoll):
    def max_length(self, players, options):
        return 3
"""
LINE = re.compile(
    r"^FAIL  max_length +seed (\d+), (\d) players, ply 3: not over after 3 plies "
    r"\(reproduce: (simcli check-game .*)\)$",
    re.M,
)


@pytest.mark.slow
def test_command_lines_exit_codes_and_the_reproduce_command(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "short.py").write_text(BROKEN_FILE.format(example=str(EXAMPLE)))
    runner = CliRunner()
    good = runner.invoke(cli, ["check-game", f"{EXAMPLE}:HighRoll", "--games", "3"])
    assert good.exit_code == 0, good.output
    assert len([line for line in good.output.splitlines() if line.startswith("ok ")]) == len(CHECKS)
    bad = runner.invoke(cli, ["check-game", "short.py:TooShort", "--games", "4", "--seed", "5"])
    assert bad.exit_code == 1, bad.output
    assert len(bad.output.splitlines()) == len(CHECKS) + 2  # header, the checks, verdict
    match = LINE.search(bad.output)
    assert match, bad.output
    seed, players, command = match.groups()
    assert (
        command
        == f"simcli check-game short.py:TooShort --players {players} --games 1 --seed {seed}"
    )
    again = runner.invoke(cli, command.split()[1:])
    assert again.exit_code == 1
    assert LINE.search(again.output).groups() == (seed, players, command)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check-game", "nosuch.py:Game"], "game file 'nosuch.py' not found"),
        (["check-game", "libraria", "--players", "3"], "played by 2 players, not 3"),
        (["check-game", "librria"], "unknown game 'librria' (did you mean 'libraria'?)"),
    ],
)
def test_command_bad_input_is_one_line_and_exit_2(args, message) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and message in result.output
