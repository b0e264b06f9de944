"""Games (and strategies) that are not built in: from a file named in the config, from an
installed package's entry points, and as a rules variant compared with its built-in
game in one run. Each runs a tournament, a report and a verified replay; records say
where the game came from; changed or missing rules are named; bad input exits 2 with one
line."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

FILE_CONFIG = """\
name: plug
game: rules/high_roll.py:HighRoll
players: 3
strategies:
  - {name: random, use: random}
  - {name: greedy, use: greedy}
  - {name: noisy, use: greedy, params: {epsilon: 0.5}}
games: 6
seed: 3
"""


def invoke(*args: str):
    return CliRunner().invoke(cli, [*args])


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


@pytest.fixture
def file_game(tmp_path: Path) -> Path:
    (tmp_path / "rules").mkdir()
    shutil.copy(EXAMPLES / "high_roll.py", tmp_path / "rules" / "high_roll.py")
    config = tmp_path / "plug.yaml"
    config.write_text(FILE_CONFIG)
    return config


@pytest.mark.slow
def test_a_game_from_a_file_runs_reports_and_replays(tmp_path, file_game) -> None:
    outs = {}
    for workers in ("0", "1"):
        out = tmp_path / f"out{workers}"
        result = invoke(
            "run", str(file_game), "-q", "--no-plots", "--workers", workers, "--out", str(out)
        )
        assert result.exit_code == 0, result.output
        outs[workers] = (out / "games.jsonl").read_bytes()
    assert outs["0"] == outs["1"]  # worker processes load the same file the same way
    out = tmp_path / "out0"
    recs = records(out)
    assert len(recs) == 6 and {r["game"] for r in recs} == {"high_roll"}
    source = recs[0]["game_source"]
    assert list(recs[0])[-1] == "game_source"  # added after the played record's keys
    assert source["kind"] == "file" and source["version"] == "1"
    assert source["use"] == f"{(tmp_path / 'rules' / 'high_roll.py').resolve()}:HighRoll"
    assert source["fingerprint"].startswith("sha256:") and len(source["fingerprint"]) == 23
    assert all(r["game_source"] == source for r in recs)
    assert any(isinstance(m, dict) for r in recs for m in r["moves"])  # chance events
    report = invoke("report", str(out), "--no-plots")
    assert report.exit_code == 0 and "high_roll" in report.output, report.output
    replay = invoke("replay", str(out), "--verify")
    assert replay.exit_code == 0 and "verified 6 game(s): all match" in replay.output
    validate = invoke("validate", str(file_game))
    assert "ok — high_roll (from rules/high_roll.py:HighRoll), 3 players" in validate.output


@pytest.mark.slow
def test_changed_or_missing_rules_are_named(tmp_path, file_game) -> None:
    out = tmp_path / "out"
    assert invoke("run", str(file_game), "-q", "--no-plots", "--workers", "0", "--out", str(out))
    rules = tmp_path / "rules" / "high_roll.py"
    logged = records(out)[0]["game_source"]["fingerprint"]
    rules.write_text(rules.read_text() + "\n# a house rule is coming\n")

    replay = invoke("replay", str(out), "--verify")
    assert replay.exit_code == 0, replay.output  # the moves still replay
    assert "has changed since the log was written (rules fingerprint " + logged in replay.output
    report = invoke("report", str(out), "--no-plots")
    assert report.exit_code == 0 and "has changed since the log was written" in report.output

    lines = (out / "games.jsonl").read_text().splitlines(keepends=True)
    (out / "games.jsonl").write_text("".join(lines[:3]))  # an interrupted run
    resume = invoke(
        "run", str(file_game), "-q", "--no-plots", "--workers", "0", "--out", str(out), "--resume"
    )
    assert resume.exit_code == 2
    assert "line 1: game 'high_roll': its rules changed (fingerprint " + logged in resume.output
    assert resume.output.count("\n") == 1

    rules.rename(tmp_path / "rules" / "moved.py")
    replay = invoke("replay", str(out), "--verify")
    assert replay.exit_code == 2 and replay.output.count("\n") == 1
    assert "game 0: game 'high_roll' of this log (loaded from" in replay.output
    assert "cannot be loaded: game file" in replay.output
    report = invoke("report", str(out), "--no-plots")
    assert report.exit_code == 0 and "cannot be loaded" in report.output


# ----------------------------------------------------------------------------- packages

BOTS = """\
from simcli.strategy import Strategy


class AlwaysHold(Strategy):
    name = "always_hold"
    description = "holds at once"
    games = ("high_roll",)

    def choose(self, view, legal_moves):
        return "hold"
"""
ENTRY_POINTS = """\
[simcli.games]
high_roll = dicegames.rules:HighRoll
broken_game = dicegames.missing:Game

[simcli.strategies]
always_hold = dicegames.bots:AlwaysHold
"""


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A package 'dicegames' installed into a folder on sys.path: its code and a
    .dist-info with entry points, which importlib.metadata finds like any installed
    distribution. Removed from sys.path and sys.modules afterwards."""
    site = tmp_path / "site"
    package = site / "dicegames"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    shutil.copy(EXAMPLES / "high_roll.py", package / "rules.py")
    (package / "bots.py").write_text(BOTS)
    info = site / "dicegames-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dicegames\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(site))
    yield site
    for name in [m for m in sys.modules if m == "dicegames" or m.startswith("dicegames.")]:
        del sys.modules[name]


@pytest.mark.slow
def test_an_installed_game_and_strategy(tmp_path, installed) -> None:
    listed = invoke("list")
    assert listed.exit_code == 0
    assert "  high_roll      2/3/4 players  High Roll: Push your luck" in listed.output
    assert "(example game). [installed by dicegames 0.1]" in listed.output
    assert "always_hold          holds at once [high_roll] [installed by dicegames 0.1]" in (
        listed.output
    )
    assert "broken_game    (installed by dicegames 0.1) cannot be loaded" in listed.output
    config = tmp_path / "pkg.yaml"
    config.write_text(
        "game: high_roll\nstrategies: [random, always_hold]\ngames: 4\nseed: 5\nworkers: 0\n"
    )
    out = tmp_path / "out"
    result = invoke("run", str(config), "-q", "--no-plots", "--out", str(out))
    assert result.exit_code == 0, result.output
    recs = records(out)
    assert recs[0]["game_source"]["kind"] == "entry_point"
    assert recs[0]["game_source"]["use"] == "high_roll"
    assert recs[0]["game_source"]["package"] == "dicegames 0.1"
    assert invoke("report", str(out), "--no-plots").exit_code == 0
    replay = invoke("replay", str(out), "--verify")
    assert replay.exit_code == 0 and "all match" in replay.output
    check = invoke("check-game", "high_roll", "--games", "2")
    assert check.exit_code == 0 and "all checks pass" in check.output


# ----------------------------------------------------------------------------- variants

VARIANT_CONFIG = """\
game: libraria
strategies: [greedy]
format: self_play
games: 6
seed: 11
workers: 0
variants:
  - name: rulebook
  - name: mouse-2
    game: {rules}
"""


@pytest.mark.slow
def test_a_rules_variant_beside_its_builtin_game(tmp_path) -> None:
    config = tmp_path / "v.yaml"
    config.write_text(VARIANT_CONFIG.format(rules=f"{EXAMPLES}/libraria_mouse.py:MouseMinusTwo"))
    out = tmp_path / "out"
    result = invoke("run", str(config), "-q", "--no-plots", "--out", str(out))
    assert result.exit_code == 0, result.output
    recs = records(out)
    rulebook = [r for r in recs if r["variant"] == "rulebook"]
    mouse = [r for r in recs if r["variant"] == "mouse-2"]
    assert len(rulebook) == len(mouse) == 6
    assert all("game_source" not in r for r in rulebook)  # built-in: records as before
    assert all(r["game_source"]["use"].endswith("libraria_mouse.py:MouseMinusTwo") for r in mouse)
    assert invoke("replay", str(out), "--verify").exit_code == 0
    # The variant's rules played: under the rulebook's (-1 a mouse) some scores differ.
    from simcli.verify import replay

    stripped = [{k: v for k, v in r.items() if k != "game_source"} for r in mouse]
    assert any(p.message.startswith("scores:") for r in stripped for p in replay(r))
    report = invoke("report", str(out), "--no-plots")
    assert report.exit_code == 0 and "Seat bias across variants" in report.output


def test_a_variant_must_keep_its_games_id(tmp_path) -> None:
    config = tmp_path / "v.yaml"
    config.write_text(VARIANT_CONFIG.format(rules=f"{EXAMPLES}/high_roll.py:HighRoll"))
    result = invoke("validate", str(config))
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "key 'variants[1].game': a variant keeps the id of the config's game" in result.output


# ----------------------------------------------------------------------------- bad input

BAD = {
    "missing file": ("nothere.py:Game", None, "game file 'nothere.py' not found"),
    "no such class": (
        "rules.py:HighRol",
        "from simcli.game import Game\nclass HighRoll(Game):\n    pass\n",
        "has no class 'HighRol' (did you mean 'HighRoll'?)",
    ),
    "not a game": (
        "rules.py:Thing",
        "class Thing:\n    pass\n",
        "is not a Game subclass (derive it from simcli.game.Game)",
    ),
    "incomplete game": (
        "rules.py:Half",
        "from simcli.game import Game\nclass Half(Game):\n    id = 'half'\n"
        "    title = 'Half'\n    player_counts = (2,)\n",
        "cannot be created: TypeError: Can't instantiate abstract class Half",
    ),
    "import fails": ("rules.py:X", "import nosuchmodule\n", "ModuleNotFoundError"),
    "setup raises": (
        "rules.py:Bad",
        f"import sys\nsys.path.insert(0, {str(EXAMPLES)!r})\nfrom high_roll import HighRoll\n"
        "class Bad(HighRoll):\n    def sample_setup(self, players, options, rng):\n"
        "        raise KeyError('deck')\n",
        "game 'high_roll' fails to set up a 2-player game: KeyError: 'deck'",
    ),
    "entry point fails": (
        "broken_game",
        None,
        "game entry point 'broken_game' = 'dicegames.missing:Game' (package dicegames 0.1) "
        "fails to load: ModuleNotFoundError",
    ),
}


@pytest.mark.parametrize("command", ["validate", "run"])
@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_games_exit_2_with_one_line(tmp_path, installed, command, case) -> None:
    game, code, message = BAD[case]
    if code is not None:
        (tmp_path / "rules.py").write_text(code)
    config = tmp_path / "c.yaml"
    config.write_text(f"game: {game}\nstrategies: [random, greedy]\ngames: 2\n")
    args = [command, str(config)] + (
        ["-q", "--out", str(tmp_path / "o")] if command == "run" else []
    )
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1, result.output
    assert result.output.startswith(f"error: {config}:1: key 'game': ")
    assert message in result.output
    assert not (tmp_path / "o").exists()
