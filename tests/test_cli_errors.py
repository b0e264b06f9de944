"""Every bad input gets one clear message, exit code 2, no traceback, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

GOOD = """\
name: t
game: libraria
strategies:
  - {name: random, use: random}
  - {name: greedy, use: greedy}
format: round_robin
games: 4
seed: 3
workers: 0
"""


def invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    return result


def assert_user_error(result, *fragments: str) -> str:
    text = result.output + (result.stderr if hasattr(result, "stderr") else "")
    assert result.exit_code == 2, text
    assert "Traceback" not in text
    for fragment in fragments:
        assert fragment in text, f"{fragment!r} not in {text!r}"
    return text


def run_config(tmp_path: Path, text: str, *extra: str):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    out = tmp_path / "out"
    result = invoke("run", str(path), "--out", str(out), "-q", "--no-plots", *extra)
    return result, out


def test_missing_config_file(tmp_path) -> None:
    result = invoke("run", str(tmp_path / "nope.yaml"))
    assert_user_error(result, "nope.yaml", "not found")


def test_yaml_syntax_error_names_line_and_column(tmp_path) -> None:
    result, out = run_config(tmp_path, "game: libraria\nstrategies: [random\nseed: 1\n")
    assert_user_error(result, "c.yaml:3:", "YAML syntax error")
    assert not out.exists()


def test_unknown_top_level_key_with_suggestion(tmp_path) -> None:
    result, out = run_config(tmp_path, GOOD + "seeed: 4\n")
    assert_user_error(result, "c.yaml:10", "seeed", "did you mean 'seed'")
    assert not out.exists()


def test_unknown_nested_key_with_suggestion(tmp_path) -> None:
    text = GOOD.replace("{name: greedy, use: greedy}", "{name: greedy, usee: greedy}")
    result, _ = run_config(tmp_path, text)
    assert_user_error(result, "c.yaml:5", "strategies[1].usee", "did you mean 'use'")


def test_duplicate_key(tmp_path) -> None:
    result, _ = run_config(tmp_path, GOOD + "games: 6\n")
    assert_user_error(result, "c.yaml:10", "'games' appears twice")


def test_unknown_game_lists_known_games(tmp_path) -> None:
    result, _ = run_config(tmp_path, GOOD.replace("game: libraria", "game: librarria"))
    assert_user_error(
        result, "c.yaml:2", "unknown game 'librarria'", "did you mean 'libraria'", "known games: "
    )


def test_unknown_strategy_lists_builtins(tmp_path) -> None:
    result, _ = run_config(tmp_path, GOOD.replace("use: greedy}", "use: greeddy}"))
    assert_user_error(
        result, "c.yaml:5", "unknown strategy 'greeddy'", "did you mean 'greedy'", "random"
    )


def test_strategy_module_that_fails_to_import(tmp_path) -> None:
    (tmp_path / "broken.py").write_text("import no_such_module_xyz\n")
    result, _ = run_config(tmp_path, GOOD.replace("use: greedy}", "use: broken.py:Mine}"))
    assert_user_error(result, "broken.py", "ModuleNotFoundError", "no_such_module_xyz")


def test_strategy_module_without_the_class(tmp_path) -> None:
    (tmp_path / "mine.py").write_text(
        "from simcli.strategy import Strategy\nclass Mime(Strategy):\n    pass\n"
    )
    result, _ = run_config(tmp_path, GOOD.replace("use: greedy}", "use: mine.py:Mine}"))
    assert_user_error(result, "has no class 'Mine'", "did you mean 'Mime'")


def test_dotted_module_that_does_not_exist(tmp_path) -> None:
    result, _ = run_config(tmp_path, GOOD.replace("use: greedy}", "use: nopkg.mod:Cls}"))
    assert_user_error(result, "cannot import strategy module 'nopkg.mod'")


def test_params_the_constructor_rejects(tmp_path) -> None:
    text = GOOD.replace(
        "{name: greedy, use: greedy}", "{name: greedy, use: greedy, params: {depth: 3}}"
    )
    result, _ = run_config(tmp_path, text)
    assert_user_error(
        result, "key 'strategies[1].params.depth'", "takes no param 'depth'", "its params: epsilon"
    )
    text = GOOD.replace(
        "{name: greedy, use: greedy}", "{name: greedy, use: greedy, params: {epsilon: 2}}"
    )
    result, _ = run_config(tmp_path, text)
    assert_user_error(result, "epsilon must be between 0 and 1")


def test_unsupported_player_count(tmp_path) -> None:
    result, _ = run_config(tmp_path, GOOD + "players: 3\n")
    assert_user_error(result, "key 'players'", "played by 2 players, not 3")


@pytest.mark.parametrize(
    ("games", "message"),
    [
        ("0", "must be positive"),
        ("-2", "must be positive"),
        ("5", "must be a multiple of 2"),
        ("ten", "expected a whole number"),
    ],
)
def test_games_not_positive_or_odd(tmp_path, games, message) -> None:
    result, _ = run_config(tmp_path, GOOD.replace("games: 4", f"games: {games}"))
    assert_user_error(result, "key 'games'", message)


def test_games_flag_is_checked_too(tmp_path) -> None:
    result, _ = run_config(tmp_path, GOOD, "--games", "3")
    assert_user_error(result, "must be a multiple of 2")


def test_unknown_option_and_bad_option_value(tmp_path) -> None:
    result, _ = run_config(tmp_path, GOOD + "options: {openning: one_counter}\n")
    assert_user_error(result, "no option 'openning'", "did you mean 'opening'")
    result, _ = run_config(tmp_path, GOOD + "options: {opening: three}\n")
    assert_user_error(result, "'opening' must be one of two_counters, one_counter")


def test_unknown_format_and_gauntlet_without_candidate(tmp_path) -> None:
    result, _ = run_config(tmp_path, GOOD.replace("round_robin", "round_robbin"))
    assert_user_error(result, "unknown format 'round_robbin'", "did you mean 'round_robin'")
    result, _ = run_config(tmp_path, GOOD.replace("round_robin", "gauntlet"))
    assert_user_error(result, "gauntlet needs 'candidate")
    result, _ = run_config(tmp_path, GOOD.replace("round_robin", "{type: gauntlet, candidate: x}"))
    assert_user_error(result, "no strategy named 'x'")


@pytest.mark.slow
def test_existing_output_folder_needs_force(tmp_path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    result, _ = run_config(tmp_path, GOOD)
    assert result.exit_code == 4, result.output  # its own code: not a broken config (2)
    assert "already holds files" in result.output and "--force" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]
    result, _ = run_config(tmp_path, GOOD, "--force")
    assert result.exit_code == 0, result.output
    assert (out / "keep.txt").read_text() == "mine"  # --force replaces only run files
    assert (out / "games.jsonl").is_file()


def test_validate_reports_ok_and_errors(tmp_path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(GOOD)
    result = invoke("validate", str(path))
    assert result.exit_code == 0
    assert "ok" in result.output and "= 4 games" in result.output
    path.write_text(GOOD + "seeed: 1\n")
    assert_user_error(invoke("validate", str(path)), "did you mean 'seed'")


# ----------------------------------------------------------------------------- replay


@pytest.fixture
def log(tmp_path) -> Path:
    result, out = run_config(tmp_path, GOOD)
    assert result.exit_code == 0, result.output
    return out / "games.jsonl"


def test_replay_not_json_lines(tmp_path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text("name: t\ngame: libraria\n")
    assert_user_error(invoke("replay", str(path), "--verify"), "not a JSON-lines game log")


def test_replay_truncated_last_line_checks_the_rest(log) -> None:
    text = log.read_text()
    log.write_text(text[:-40])  # cut the last line short, no newline
    result = invoke("replay", str(log), "--verify")
    text = assert_user_error(result, "line 4: truncated last line")
    assert "verified 3 game(s): all match" in text


def test_replay_garbage_line_is_named(log) -> None:
    lines = log.read_text().splitlines()
    lines.insert(1, "#### garbage")
    log.write_text("\n".join(lines) + "\n")
    result = invoke("replay", str(log), "--verify")
    text = assert_user_error(result, "line 2: not JSON")
    assert "verified 4 game(s): all match" in text


def test_replay_unknown_game_and_schema(log) -> None:
    record = json.loads(log.read_text().splitlines()[0])
    (log.parent / "run.json").unlink()  # a bare log: nothing says which game it should be
    log.write_text(json.dumps({**record, "game": "chess"}) + "\n")
    assert_user_error(invoke("replay", str(log), "--verify"), "unknown game 'chess'")
    log.write_text(json.dumps({**record, "schema": 99}) + "\n")
    assert_user_error(invoke("replay", str(log), "--verify"), "unknown record schema 99")


def test_replay_names_a_game_other_than_the_runs(log) -> None:
    record = json.loads(log.read_text().splitlines()[0])
    log.write_text(json.dumps({**record, "game": "chess"}) + "\n")
    assert_user_error(
        invoke("replay", str(log), "--verify"), 'line 1: game is "chess" but game 0 of this run'
    )


def test_replay_missing_log(tmp_path) -> None:
    assert_user_error(invoke("replay", str(tmp_path / "none.jsonl")), "no such game log")
