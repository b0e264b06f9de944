"""Small things a newcomer tripped over (issue 39): what the packaging, the repository
and the commands get right now."""

from __future__ import annotations

import tomllib
from pathlib import Path

# imported here, not in the tests: the first import of scipy would count against the CPU
# limit of whichever test made it
from click.testing import CliRunner

from simcli.cli.main import cli
from simcli.gating import verdict as _verdict  # noqa: F401
from simcli.gating.estimate import corrected_estimate as _corrected  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_the_analysis_extra_installs_what_parquet_export_needs() -> None:
    extra = _project()["optional-dependencies"]["analysis"]
    assert any(dep.startswith("pandas") for dep in extra)
    assert any(dep.startswith("pyarrow") for dep in extra)  # export --format parquet


def test_click_is_capped_below_the_next_major() -> None:
    (click,) = [dep for dep in _project()["dependencies"] if dep.startswith("click")]
    assert "<9" in click


def test_export_to_stdout_does_not_use_clicks_deprecated_stream(monkeypatch, tmp_path) -> None:
    """``click.get_text_stream`` is deprecated for Click 9: export writes to sys.stdout."""
    import json

    import click

    def deprecated(*_args, **_kwargs):
        raise AssertionError("click.get_text_stream is deprecated (Click 9)")

    monkeypatch.setattr(click, "get_text_stream", deprecated)
    record = {
        "schema": 1,
        "game": "libraria",
        "options": {"opening": "two_counters", "tiebreak": "none"},
        "index": 0,
        "seed": 1,
        "seats": ["a", "b"],
        "setup": None,
        "moves": [1],
        "scores": [2, 1],
        "winners": [0],
        "termination": "normal",
        "final_hash": "0" * 16,
    }
    (tmp_path / "games.jsonl").write_text(json.dumps(record) + "\n")
    for fmt in ("csv", "jsonl"):
        result = CliRunner().invoke(cli, ["export", str(tmp_path), "--format", fmt])
        assert result.exit_code == 0, result.output
        assert "game_index" in result.stdout


def test_a_virtual_environment_is_ignored_by_git() -> None:
    import shutil
    import subprocess

    import pytest

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git work tree")
    for path in (".venv/bin/python", ".venv/lib/site.py"):
        # check-ignore exits 0 when the path is ignored (it need not exist)
        done = subprocess.run(
            ["git", "check-ignore", "-q", "--no-index", path], cwd=ROOT, check=False
        )
        assert done.returncode == 0, f"{path} is not ignored"


def test_no_elo_of_minus_zero_plus_minus_zero_without_data() -> None:
    """A gate with nothing counted, or only drawn pairs, has no interval to print (it
    printed "Uncorrected Elo -0.0 ± 0.0")."""
    import json
    from types import SimpleNamespace

    from simcli.gating.spec import GateSpec
    from simcli.gating.sprt import sprt
    from simcli.gating.verdict import summarize

    def lines(counts):
        observer = SimpleNamespace(
            spec=GateSpec("new", "old", elo0=0, elo1=10),
            state=sprt(counts, 0, 10),
            counts=counts,
            labels=("LL", "LD", "DD+WL", "WD", "WW"),
            pairs=sum(counts),
            skipped_pairs=0,
            games_ldw=[0, 2 * sum(counts), 0],
            sizing=None,
            resized=None,
        )
        return summarize(observer, 2 * sum(counts), interrupted=True)[2]

    text = lines([0, 0, 0, 0, 0])
    assert "Score Elo uncorrected: n/a (no pairs counted)" in text
    text = lines([0, 0, 7, 0, 0])
    assert "Score Elo uncorrected: +0.0 (every counted pair had the same outcome" in text
    for args in (["--draws", "5"], ["--wins", "0"]):
        out = CliRunner().invoke(cli, ["sprt-calc", *args, "--elo0", "0", "--elo1", "10"]).output
        assert "-0.00" not in out and "± 0.00" not in out and "inf" not in out, out
        data = json.loads(
            CliRunner()
            .invoke(cli, ["sprt-calc", *args, "--elo0", "0", "--elo1", "10", "--json"])
            .output
        )
        assert data["elo_low"] is None and data["elo_high"] is None


def test_gate_help_names_its_own_folder_and_what_quiet_keeps() -> None:

    text = " ".join(CliRunner().invoke(cli, ["gate", "--help"]).output.split())
    assert "results/<name>-gate" in text
    assert "No progress bar or summary" not in text  # -q prints the verdict
    assert "the counts, Elo and verdict lines are still printed" in text
    run = " ".join(CliRunner().invoke(cli, ["run", "--help"]).output.split())
    assert "results/<name>)" in run and "-gate" not in run


def test_the_run_time_estimate_counts_only_the_cpus_other_jobs_leave_free(monkeypatch) -> None:
    """The README's quickstart was estimated at 5 s on 2 processes and took 16.8 s: the
    machine was busy, and two workers there play no faster than one."""
    import os
    from types import SimpleNamespace

    from simcli.tournament import probe

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    config = SimpleNamespace(workers=2)
    for load, parallel in ((0.0, 2), (0.4, 2), (1.0, 1), (15.2, 1)):
        monkeypatch.setattr(os, "getloadavg", lambda load=load: (load, load, load))
        assert probe.parallelism(config) == parallel, load
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert probe.parallelism(SimpleNamespace(workers=8)) == 2
    assert probe.parallelism(SimpleNamespace(workers=1)) == 1
    # 10 ms a game: 3000 games take 30 s on the one free CPU, not 15 s
    assert probe.Probe(3, 0.03).estimate(3000, 1) == 30.0
