"""Small things a newcomer tripped over (issue 39): what the packaging, the repository
and the commands get right now."""

from __future__ import annotations

import tomllib
from pathlib import Path

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
    from click.testing import CliRunner

    from simcli.cli.main import cli

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
