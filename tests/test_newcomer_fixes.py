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
