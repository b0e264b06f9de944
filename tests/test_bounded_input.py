"""Bounded input: a YAML alias bomb, unusable output paths and scheduler addresses, a run
name that would escape results/, absurd counts, and log lines nested or numbered beyond
reason are all one line and exit code 2 (each was a hang or an internal error before)."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

BASE = "game: libraria\nstrategies: [random, greedy]\ngames: 4\n"

BOMB = (
    'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
    + "".join(
        f"{b}: &{b} [{','.join([f'*{a}'] * 9)}]\n"
        for a, b in zip("abcdefg", "bcdefgh", strict=True)
    )
    + BASE
)


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_a_yaml_alias_bomb_is_refused_at_once(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB)  # 9**8 = 43 million values by reference, in nine lines
    started = time.monotonic()
    result = invoke("validate", str(path))
    assert time.monotonic() - started < 10
    assert result.exit_code == 2
    assert "expands to more than 100000 values" in result.output


def test_a_huge_config_file_is_refused(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text(BASE + "# " + "x" * (1 << 20) + "\n")
    result = invoke("validate", str(path))
    assert result.exit_code == 2 and "larger than" in result.output


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('output: "a\\0b"', "not a usable folder path"),
        ('scheduler: "!!!"', "expected a Dask scheduler address"),
        ("name: ../escaped", "cannot hold '/'"),
        ("name: ..", "cannot hold '/'"),
        ("games: 100000000000000", "at most 1000000000 games per table"),
    ],
)
def test_bad_values_are_caught_by_validate_and_run(tmp_path, line, message):
    path = tmp_path / "c.yaml"
    path.write_text(BASE.replace("games: 4\n", "") + line + "\n")
    for command in (["validate", str(path)], ["run", str(path), "-q", "--no-plots"]):
        result = invoke(*command)
        assert result.exit_code == 2, result.output
        assert message in result.output
        assert "Traceback" not in result.output
    assert not (tmp_path / "escaped").exists()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply"),
        (None, "not a usable JSON value"),  # an index of 5001 digits
    ],
)
@pytest.mark.slow
def test_unreasonable_log_lines_are_named_not_crashed_on(tmp_path, line, message):
    path = tmp_path / "c.yaml"
    path.write_text(BASE)
    out = tmp_path / "run"
    assert invoke("run", str(path), "--out", str(out), "-q", "--no-plots").exit_code == 0
    log = out / "games.jsonl"
    if line is None:
        record = json.loads(log.read_text().splitlines()[0])
        line = json.dumps(record).replace('"index": 0', '"index": ' + "9" * 5001)
    log.write_text(log.read_text() + line + "\n")
    for command in (
        ["replay", str(out), "--verify"],
        ["report", str(out), "--no-plots"],
        ["run", str(path), "--out", str(out), "--resume", "-q", "--no-plots"],
    ):
        result = invoke(*command)
        assert result.exit_code == 2, (command, result.output)
        assert f"line 5: {message}" in result.output
