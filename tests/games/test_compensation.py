"""The seat compensation options of every multi-player built-in game
(``simcli/games/compensation.py``): numeric, default 0 = the rules as written and then
left out of the resolved options (records unchanged); at other values the games pass the
conformance checker (``simcli check-game``'s checks), and a run's records replay and
verify (``simcli replay --verify``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.conformance import check_game
from simcli.games import GAMES, get_game

COMPENSATION = {
    "libraria": "komi",
    "ex_libris": "komi",
    "adas_library": "extra_cards",
    "library": "extra_actions",
}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_multi_player_game_has_one_compensation_option_at_the_rules(game_id) -> None:
    game = get_game(game_id)
    names = [n for n in game.options if n in ("komi", "extra_cards", "extra_actions")]
    if max(game.player_counts) == 1:
        assert names == []  # Bibliogamo: a solitaire game has no seats to even out
        return
    assert names == [COMPENSATION[game_id]]
    spec = game.options[names[0]]
    assert spec.numeric and spec.default == 0
    assert spec.minimum < spec.maximum and spec.grid_step in (0.5, 1)
    # the rules as written: not in the resolved options, so not in the records
    assert names[0] not in game.resolve_options({})
    assert names[0] not in game.resolve_options({names[0]: spec.nearest(0.2)})
    # every other allowed value is kept, as given
    assert game.resolve_options({names[0]: spec.maximum})[names[0]] == spec.maximum
    assert game.resolve_options({names[0]: spec.nearest(1.2)})[names[0]] == 1


def _case(game_id: str, players: int, options: dict, games: int, slow: bool = True):
    marks = pytest.mark.slow if slow else ()
    name = "-".join([game_id, f"{players}p", *options])
    return pytest.param(game_id, players, options, games, id=name, marks=marks)


CONFORMANCE = [
    _case("libraria", 2, {"komi": 6.5}, 3, slow=False),
    _case("libraria", 2, {"komi": -2, "tiebreak": "first_player", "opening": "one_counter"}, 3),
    _case("ex_libris", 2, {"komi": 0.5}, 2),
    _case("ex_libris", 3, {"komi": -3.5, "mode": "advanced", "final_round_trigger": 4}, 1),
    _case("ex_libris", 4, {"komi": 12, "final_round_trigger": 3}, 1),
    _case("adas_library", 2, {"extra_cards": 1}, 2),
    _case("adas_library", 4, {"extra_cards": 3, "max_turns": 80}, 1),
    _case("library", 2, {"extra_actions": 1}, 3),
    _case("library", 4, {"extra_actions": 3, "max_turns": 120}, 2),
]


@pytest.mark.parametrize(("game_id", "players", "options", "games"), CONFORMANCE)
def test_the_games_pass_the_conformance_checks_with_compensation(
    game_id, players, options, games
) -> None:
    report = check_game(get_game(game_id), players=[players], games=games, seed=1, options=options)
    assert {n: report.results[n].failure for n in report.failed()} == {}


CONFIG = """\
name: komi-sweep
game: libraria
strategies: [{name: greedy, use: greedy}]
format: self_play
games: 4
seed: 5
workers: 0
variants:
  grid:
    komi: [0, -2, 6.5]
"""


@pytest.mark.slow
def test_a_komi_sweep_runs_and_its_records_verify(tmp_path: Path) -> None:
    config = tmp_path / "sweep.yaml"
    config.write_text(CONFIG)
    out = tmp_path / "out"
    runner = CliRunner()
    args = ["run", str(config), "--out", str(out), "--no-plots", "-q", "--probe", "0"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    # komi 0 is the rules as written: left out of the options, as in any other run
    komi = {r["variant"]: r["options"].get("komi") for r in records}
    assert komi == {"komi=0": None, "komi=-2": -2, "komi=6.5": 6.5}
    for record in records:
        if record["variant"] == "komi=6.5":  # seat 1's score carries the half point
            assert record["scores"][1] % 1 == 0.5
    result = runner.invoke(cli, ["replay", str(out), "--verify"])
    assert result.exit_code == 0, result.output
    assert "all match" in result.output
