"""Every shipped config is valid (configs/, the examples and the studies' configs), and
the quickstart stays small enough to run first. The studies check their own figures
(studies/run_checks.sh)."""

from __future__ import annotations

from pathlib import Path

import pytest

from simcli.configfile import load_config
from simcli.tournament.schedule import schedule_for

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = sorted(
    [
        *(ROOT / "configs").glob("*.yaml"),
        *(ROOT / "examples").glob("*.yaml"),
        *(ROOT / "studies").glob("*/*.yaml"),
    ]
)


@pytest.mark.parametrize("path", CONFIGS, ids=[str(p.relative_to(ROOT)) for p in CONFIGS])
def test_shipped_config_is_valid(path: Path) -> None:
    config = load_config(path)
    assert schedule_for(config).total > 0


def test_quickstart_is_a_libraria_round_robin_of_random_and_greedy() -> None:
    config = load_config(ROOT / "configs" / "quickstart.yaml")
    assert config.game == "libraria" and config.format == "round_robin"
    assert {s.use for s in config.strategies} == {"random", "greedy"}
    assert schedule_for(config).total <= 5000
