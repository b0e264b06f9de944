"""Fixtures of the viewer tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from viewer_support import played, write_log


@pytest.fixture
def libraria_run(tmp_path: Path) -> Path:
    """A run folder with two Libraria games (indexes 3 and 4)."""
    records = [
        played("libraria", ["random", "greedy"], seed=11, index=3),
        played("libraria", ["greedy", "random"], seed=11, index=4),
    ]
    write_log(tmp_path / "run", records)
    return tmp_path / "run"
