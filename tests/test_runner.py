"""The run path end to end: determinism across worker counts, forfeits, rule errors,
replay verification, run files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

CONFIG = """\
name: det
game: libraria
strategies:
  - {name: random, use: random}
  - {name: greedy, use: greedy}
  - {name: noisy, use: greedy, params: {epsilon: 0.5}}
format: round_robin
games: 10
seed: 42
"""

BAD_STRATEGIES = """\
from simcli.strategy import Strategy


class Raiser(Strategy):
    def choose(self, view, legal_moves):
        if len(legal_moves) < 30:
            raise RuntimeError("boom")
        return legal_moves[0]


class Cheater(Strategy):
    def choose(self, view, legal_moves):
        return 99
"""


def run(tmp_path: Path, text: str, *args: str):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    return CliRunner().invoke(cli, ["run", str(path), "-q", "--no-plots", *args])


@pytest.mark.slow
def test_same_records_for_any_worker_count(tmp_path) -> None:
    outs = {}
    for workers in ("0", "1", "2"):
        out = tmp_path / f"w{workers}"
        result = run(tmp_path, CONFIG, "--workers", workers, "--out", str(out))
        assert result.exit_code == 0, result.output
        outs[workers] = (out / "games.jsonl").read_bytes()
    assert outs["1"] == outs["2"] == outs["0"]
    lines = outs["1"].decode().splitlines()
    assert len(lines) == 30  # 3 pairings x 10 games
    assert [json.loads(line)["index"] for line in lines] == list(range(30))


@pytest.mark.slow
def test_seed_changes_the_games(tmp_path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert run(tmp_path, CONFIG, "--workers", "0", "--out", str(a)).exit_code == 0
    assert run(tmp_path, CONFIG, "--workers", "0", "--seed", "43", "--out", str(b)).exit_code == 0
    assert (a / "games.jsonl").read_bytes() != (b / "games.jsonl").read_bytes()


@pytest.mark.slow
def test_run_files_and_summary(tmp_path) -> None:
    out = tmp_path / "out"
    path = tmp_path / "c.yaml"
    path.write_text(CONFIG)
    result = CliRunner().invoke(cli, ["run", str(path), "--workers", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "complete"
    assert info["config"]["seed"] == 42 and info["games"] == 30
    assert info["results"]["terminations"] == {"normal": 30}
    assert "simcli" in info["versions"]
    log_text = (out / "run.log").read_text()
    assert "run 'det': 30 games" in log_text and "run complete" in log_text
    assert "win rate" in result.output and "Seat bias" in result.output
    assert (out / "summary.json").is_file() and (out / "report.md").is_file()
    assert (out / "plots").is_dir()
    # seat balance: every strategy played 20 games, 10 in each seat
    for record in map(json.loads, (out / "games.jsonl").read_text().splitlines()):
        assert set(record) >= {
            "schema",
            "game",
            "options",
            "index",
            "seed",
            "seats",
            "setup",
            "moves",
            "scores",
            "winners",
            "termination",
            "final_hash",
        }
    result = CliRunner().invoke(cli, ["replay", str(out), "--verify"])
    assert result.exit_code == 0
    assert "verified 30 game(s): all match" in result.output


@pytest.mark.slow
def test_forfeits_are_recorded_and_the_run_goes_on(tmp_path) -> None:
    (tmp_path / "bad.py").write_text(BAD_STRATEGIES)
    text = CONFIG.replace("{name: greedy, use: greedy}", "{name: raiser, use: bad.py:Raiser}")
    text = text.replace(
        "{name: noisy, use: greedy, params: {epsilon: 0.5}}", "{name: cheater, use: bad.py:Cheater}"
    )
    out = tmp_path / "out"
    result = run(tmp_path, text, "--workers", "2", "--out", str(out))
    assert result.exit_code == 0, result.output  # forfeits are not errors of the rules
    records = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert len(records) == 30
    kinds = {}
    for r in records:
        if r["termination"] == "forfeit":
            seat = r["detail"]["seat"]
            kinds.setdefault(r["seats"][seat], set()).add(r["detail"]["kind"])
            assert r["winners"] == [1 - seat] and r["scores"] is None
    assert kinds["raiser"] == {"exception"}
    assert kinds["cheater"] == {"illegal_move"}
    # raiser vs cheater: whoever must move first with a bad answer loses
    assert "forfeits" in (out / "run.log").read_text()
    verify = CliRunner().invoke(cli, ["replay", str(out), "--verify"])
    assert verify.exit_code == 0, verify.output


@pytest.mark.slow
def test_a_bug_in_the_rules_is_an_error_and_exit_1(tmp_path, monkeypatch) -> None:
    from simcli.games import libraria

    original = libraria.LibrariaState.legal_moves

    def broken(self):
        if self.ply == 20:
            raise ZeroDivisionError("rules bug")
        return original(self)

    # (the built-in strategies do not call legal_moves themselves, so the driver meets it)
    monkeypatch.setattr(libraria.LibrariaState, "legal_moves", broken)
    out = tmp_path / "out"
    result = run(tmp_path, CONFIG, "--workers", "0", "--out", str(out))
    assert result.exit_code == 1
    records = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert len(records) == 30 and all(r["termination"] == "error" for r in records)
    assert records[0]["winners"] == [] and "rules bug" in records[0]["detail"]["message"]
    log_text = (out / "run.log").read_text()
    assert "Traceback" in log_text and "ZeroDivisionError" in log_text


@pytest.mark.slow
def test_verify_names_game_ply_and_difference(tmp_path) -> None:
    out = tmp_path / "out"
    assert run(tmp_path, CONFIG, "--workers", "0", "--out", str(out)).exit_code == 0
    path = out / "games.jsonl"
    records = [json.loads(x) for x in path.read_text().splitlines()]
    records[3]["moves"][5] = records[3]["moves"][4]  # a spot already taken at ply 6
    records[7]["scores"] = [99, 0]
    records[9]["final_hash"] = "0" * 16
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = CliRunner().invoke(cli, ["replay", str(path), "--verify"])
    assert result.exit_code == 1
    assert "game 3, ply 6: move" in result.output and "is not legal" in result.output
    assert "game 7: scores: record has [99, 0]" in result.output
    assert "game 9: final_hash" in result.output
    assert "verified 30 game(s): 3 with mismatches" in result.output


@pytest.mark.slow
def test_replay_show_and_list(tmp_path) -> None:
    out = tmp_path / "out"
    assert run(tmp_path, CONFIG, "--workers", "0", "--out", str(out)).exit_code == 0
    result = CliRunner().invoke(cli, ["replay", str(out), "--game", "2", "--show"])
    assert result.exit_code == 0
    assert result.output.count("ply ") == 36 and "game over" in result.output
    listing = CliRunner().invoke(cli, ["replay", str(out)])
    assert listing.output.count("\n") == 30 and "game 0: " in listing.output


def test_list_command() -> None:
    result = CliRunner().invoke(cli, ["list"])
    assert result.exit_code == 0
    assert "libraria" in result.output and "opening = two_counters" in result.output
    assert "greedy" in result.output and "random" in result.output


@pytest.mark.slow
def test_records_match_the_json_schema(tmp_path) -> None:
    import jsonschema

    from simcli.records import SCHEMA_PATH

    schema = json.loads(SCHEMA_PATH.read_text())
    (tmp_path / "bad.py").write_text(BAD_STRATEGIES)
    text = CONFIG.replace(
        "{name: noisy, use: greedy, params: {epsilon: 0.5}}", "{name: cheater, use: bad.py:Cheater}"
    )
    out = tmp_path / "out"
    assert run(tmp_path, text, "--workers", "0", "--out", str(out)).exit_code == 0
    lines = (out / "games.jsonl").read_text().splitlines()
    terminations = set()
    for line in lines:
        record = json.loads(line)
        jsonschema.validate(record, schema)
        terminations.add(record["termination"])
    assert terminations == {"normal", "forfeit"}
    broken = json.loads(lines[0]) | {"termination": "forfeit"}
    try:
        jsonschema.validate(broken, schema)
    except jsonschema.ValidationError:
        pass
    else:
        raise AssertionError("a forfeit without detail must not validate")


@pytest.mark.slow
def test_bench_command_prints_ratios() -> None:
    args = ["bench", "--games", "20", "--game", "libraria", "--repeats", "1"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "bare engine loop" in result.output and "vs 1 worker" in result.output
    result = CliRunner().invoke(cli, ["bench", "--games", "20", "--game", "chess"])
    assert result.exit_code == 2 and "unknown game 'chess'" in result.output


@pytest.mark.slow
def test_verify_catches_tampered_terminations_and_bad_shapes(tmp_path) -> None:
    out = tmp_path / "out"
    assert run(tmp_path, CONFIG, "--workers", "0", "--out", str(out)).exit_code == 0
    path = out / "games.jsonl"
    records = [json.loads(x) for x in path.read_text().splitlines()][:4]
    records[0] |= {"termination": "error", "scores": None, "winners": []}  # a normal game
    records[1]["final_hash"] = None
    records[2] |= {
        "termination": "forfeit",
        "detail": {"seat": 0, "kind": "exception", "message": "x"},
    }
    records[3]["winners"] = [7]  # not a seat: a bad line, not a crash
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = CliRunner().invoke(cli, ["replay", str(path), "--verify"])
    assert result.exit_code == 2, result.output  # the bad line makes it a usage error
    assert "game 0: termination 'error', but the rules end the game normally" in result.output
    assert "line 2: 'final_hash' is null in a game that ended 'normal'" in result.output
    assert "game 2: a forfeit has no scores" in result.output
    assert "line 4: 'winners' must be a list of distinct seats 0..1" in result.output
    assert "Traceback" not in result.output
