"""The gate as a function of config and seed alone: the same games and verdict whatever
the worker count, after a resume too; options that do not apply refused; the folder
named once; validate describing the SPRT; sprt-calc with missing counts."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simcli.cli.main import cli

CONFIG = """\
name: polish-gate
game: libraria
strategies:
  - {name: greedy, use: greedy}
  - {name: random, use: random}
gate: {candidate: greedy, baseline: random, elo0: 0, elo1: 10, max_games: 400, batch: 5}
seed: 3
"""


def _config(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(CONFIG)
    return path


def _gate(path, out, *extra: str):
    return CliRunner().invoke(cli, ["gate", str(path), "--out", str(out), "-q", *extra])


def _verdict(out) -> dict:
    info = json.loads((out / "gate.json").read_text())
    return {k: info[k] for k in ("counts", "pairs", "skipped_pairs", "llr", "verdict")}


@pytest.mark.slow
def test_games_and_verdict_do_not_depend_on_workers_or_a_resume(tmp_path) -> None:
    path = _config(tmp_path)
    one, two = tmp_path / "w1", tmp_path / "w2"
    first = _gate(path, one, "--workers", "1")
    second = _gate(path, two, "--workers", "2", "--junit", str(tmp_path / "j.xml"))
    assert first.exit_code == second.exit_code == 0, first.output + second.output
    log = (one / "games.jsonl").read_bytes()
    # the test decides on a pair: the log ends with that pair, no game in flight after it
    # is kept, so its length is even and equals twice the pairs counted
    lines = log.count(b"\n")
    assert lines == 2 * _verdict(one)["pairs"] and lines < 400
    assert (two / "games.jsonl").read_bytes() == log
    assert _verdict(two) == _verdict(one)
    assert f"games {lines}," in first.output and f"games {lines}," in second.output

    # an interrupt leaves a prefix of the log (here cut mid-pair and mid-line); --resume
    # counts the kept games again and ends with the same games and verdict
    cut = log.split(b"\n")
    (two / "games.jsonl").write_bytes(b"\n".join(cut[:37]) + b"\n" + cut[37][:20])
    info = json.loads((two / "run.json").read_text())
    (two / "run.json").write_text(json.dumps({**info, "status": "interrupted"}))
    resumed = _gate(path, two, "--workers", "2", "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert (two / "games.jsonl").read_bytes() == log
    assert _verdict(two) == _verdict(one)
    # resuming a decided gate plays nothing and gives the verdict again
    again = _gate(path, two, "--resume")
    assert again.exit_code == 0 and (two / "games.jsonl").read_bytes() == log
    assert _verdict(two) == _verdict(one)


@pytest.mark.slow
def test_options_that_do_not_apply_are_refused(tmp_path) -> None:
    path = _config(tmp_path)
    result = _gate(path, tmp_path / "o", "--games", "10")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: --games does not apply to a gate: it plays pairs until the SPRT decides, "
        "at most gate.max_games (set that in the config)"
    ]
    assert not (tmp_path / "o").exists()
    both = _gate(path, tmp_path / "o", "--resume", "--force")
    assert both.exit_code == 2 and "choose one" in both.output
    nothing = _gate(path, tmp_path / "none", "--resume")
    assert nothing.exit_code == 2 and "nothing to resume" in nothing.output
    assert "--games" not in CliRunner().invoke(cli, ["gate", "--help"]).output


def test_a_resumed_gate_must_run_the_same_test(tmp_path) -> None:
    from dataclasses import asdict

    from simcli.configfile import load_config

    path = _config(tmp_path)
    started = asdict(load_config(str(path)).gate)
    out = tmp_path / "o"
    out.mkdir()
    (out / "run.json").write_text(json.dumps({"config": {"gate": {**started, "elo1": 5.0}}}))
    result = _gate(path, out, "--resume")
    assert result.exit_code == 2
    assert "the gate changed since it started (elo1: 5.0 -> 10.0)" in result.output


def test_the_output_folder_is_named_once() -> None:
    from simcli.gating.verdict import gate_folder

    assert str(gate_folder("results/x")) == "results/x-gate"
    assert str(gate_folder("results/x-gate")) == "results/x-gate"


@pytest.mark.slow
def test_validate_describes_the_sprt(tmp_path) -> None:
    result = CliRunner().invoke(cli, ["validate", str(_config(tmp_path))])
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert "gate: SPRT of greedy against random (elo0 0, elo1 10, alpha 0.05, beta 0.05)" in first
    assert "seat-swapped pairs" in first and "at most 400 games" in first
    assert "round_robin" not in first


def test_sprt_calc_defaults_missing_counts_to_zero() -> None:
    def out(*args: str) -> str:
        result = CliRunner().invoke(cli, ["sprt-calc", "--elo0", "0", "--elo1", "10", *args])
        assert result.exit_code == 0, result.output
        return result.output

    assert out("--wins", "10", "--losses", "3") == out(
        "--wins", "10", "--losses", "3", "--draws", "0"
    )
    assert out("--wins", "10") == out("--wins", "10", "--draws", "0", "--losses", "0")
    none = CliRunner().invoke(cli, ["sprt-calc", "--elo0", "0", "--elo1", "10"])
    assert none.exit_code == 2 and "a missing one is 0" in none.output
