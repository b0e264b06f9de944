"""What a strategy author sees when a strategy fails: full tracebacks in run.log (the
first of each kind on screen with -v), forfeits per strategy and kind in the report and
summary.json, and the no_forfeits assertion."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

BAD = """\
from simcli.strategy import Strategy


class Raiser(Strategy):
    def choose(self, view, legal_moves):
        if len(legal_moves) < 33:
            return self.fail()
        return legal_moves[0]

    def fail(self):
        if self.seat == 0:
            raise ValueError("seat zero")
        raise RuntimeError("boom")


class Cheater(Strategy):
    def choose(self, view, legal_moves):
        return 99
"""

CONFIG = """\
name: diag
game: libraria
strategies:
  - {name: random, use: random}
  - {name: raiser, use: bad.py:Raiser}
format: round_robin
games: 4
seed: 5
"""


def run(tmp_path: Path, text: str, *args: str):
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "c.yaml").write_text(text)
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        return CliRunner().invoke(
            cli, ["run", "c.yaml", "--no-plots", "--out", str(tmp_path / "out"), *args]
        )
    finally:
        os.chdir(old)


def records(tmp_path: Path) -> list[dict]:
    lines = (tmp_path / "out" / "games.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


@pytest.mark.parametrize("workers", ["0", "2"])
@pytest.mark.slow
def test_tracebacks_in_run_log_and_the_first_of_each_kind_on_screen(tmp_path, workers) -> None:
    result = run(tmp_path, CONFIG, "-v", "--workers", workers)
    assert result.exit_code == 0, result.output
    recs = records(tmp_path)
    forfeits = [r for r in recs if r["termination"] == "forfeit"]
    assert len(forfeits) == len(recs) == 4  # the raiser fails in every game
    log = (tmp_path / "out" / "run.log").read_text()
    # every forfeit's traceback, down to the line of the strategy that raised
    assert log.count("Traceback (most recent call last)") == 4
    assert log.count('raise RuntimeError("boom")') == 2  # raiser in seat 1: two games
    assert log.count('raise ValueError("seat zero")') == 2
    assert f'{tmp_path / "bad.py"}", line 12, in fail' in log
    # on screen: one traceback per kind (ValueError, RuntimeError), not one per game
    assert result.stderr.count("Traceback (most recent call last)") == 2
    assert result.stderr.count('raise RuntimeError("boom")') == 1
    assert result.stderr.count('raise ValueError("seat zero")') == 1
    assert "further forfeits of this kind: run.log only" in result.stderr


@pytest.mark.slow
def test_without_verbose_no_traceback_on_screen(tmp_path) -> None:
    result = run(tmp_path, CONFIG, "--workers", "0")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.stderr
    assert (tmp_path / "out" / "run.log").read_text().count("Traceback") == 4


@pytest.mark.slow
def test_forfeits_per_strategy_and_kind_in_report_and_summary(tmp_path) -> None:
    text = CONFIG.replace("{name: random, use: random}", "{name: cheater, use: bad.py:Cheater}")
    result = run(tmp_path, text, "--workers", "0")
    assert result.exit_code == 0, result.output
    counted: dict[str, dict[str, int]] = {}
    for rec in records(tmp_path):
        assert rec["termination"] == "forfeit"
        name = rec["seats"][rec["detail"]["seat"]]
        kinds = counted.setdefault(name, {})
        kinds[rec["detail"]["kind"]] = kinds.get(rec["detail"]["kind"], 0) + 1
    # the cheater answers 99 on its first move; the raiser fails only from move 4 on, so
    # the cheater forfeits every game
    assert counted == {"cheater": {"illegal_move": 4}}
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["forfeits"] == counted
    assert summary["totals"]["forfeits"] == 4
    assert "Forfeits by strategy: cheater 4 (illegal_move 4)" in result.stdout


@pytest.mark.slow
def test_no_forfeits_assertion_fails_a_run_with_forfeits(tmp_path) -> None:
    result = run(tmp_path, CONFIG + "asserts:\n  - no_forfeits\n", "--workers", "0")
    assert result.exit_code == 1
    assert "FAIL         no_forfeits: 4 game(s) forfeited: raiser exception 4" in result.stdout


@pytest.mark.slow
def test_no_forfeits_assertion_passes_without_forfeits(tmp_path) -> None:
    text = CONFIG.replace("bad.py:Raiser", "greedy") + "asserts:\n  - {no_forfeits: true}\n"
    result = run(tmp_path, text, "--workers", "0")
    assert result.exit_code == 0, result.output
    assert "PASS         no_forfeits: 0 game(s) forfeited" in result.stdout
