"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def write_config(tmp_path):
    """Write a YAML config into tmp_path and return its path."""

    def write(text: str, name: str = "config.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


@pytest.fixture(scope="session")
def play_config():
    """Play a config text in ``folder`` (files beside it, e.g. a strategy module, given as
    ``{name: text}``) in this process, quietly and without plots; return the run folder."""
    import os

    from click.testing import CliRunner

    from simcli.cli.main import cli

    def play(folder: Path, text: str, files: dict[str, str] | None = None) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        for name, content in (files or {}).items():
            (folder / name).write_text(content)
        (folder / "c.yaml").write_text(text)
        out = folder / "out"
        old = os.getcwd()
        os.chdir(folder)  # strategy files are found beside the config
        try:
            args = ["run", "c.yaml", "-q", "--no-plots", "--workers", "0", "--out", str(out)]
            result = CliRunner().invoke(cli, args)
        finally:
            os.chdir(old)
        assert result.exit_code == 0, result.output
        return out

    return play
