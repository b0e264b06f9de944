"""Every shipped config is valid, the quickstart stays small enough to run first, and
the checks on fresh deals play their ladder's own rungs."""

from __future__ import annotations

from pathlib import Path

import pytest

from simcli.configfile import load_config
from simcli.tournament.schedule import schedule_for

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = sorted([*(ROOT / "configs").glob("*.yaml"), *(ROOT / "examples").glob("*.yaml")])


@pytest.mark.parametrize("path", CONFIGS, ids=[p.name for p in CONFIGS])
def test_shipped_config_is_valid(path: Path) -> None:
    config = load_config(path)
    assert schedule_for(config).total > 0


def test_quickstart_is_a_libraria_round_robin_of_random_and_greedy() -> None:
    config = load_config(ROOT / "configs" / "quickstart.yaml")
    assert config.game == "libraria" and config.format == "round_robin"
    assert {s.use for s in config.strategies} == {"random", "greedy"}
    assert schedule_for(config).total <= 5000


CHECKS = {
    "adas-library-rung-check.yaml": "adas-library-ladder.yaml",
    "adas-library-rung-check-2.yaml": "adas-library-ladder.yaml",
    "ex-libris-rung-check.yaml": "ex-libris-ladder.yaml",
}


@pytest.mark.parametrize("check", sorted(CHECKS))
def test_rung_check_plays_the_ladders_strategies_and_options(check: str) -> None:
    """A check on fresh deals measures the ladder's own rung: the same strategies and
    params, the same game options, only other seeds (its figures are quoted as the
    ladder rung's)."""
    config = load_config(ROOT / "configs" / check)
    ladder = load_config(ROOT / "configs" / CHECKS[check])
    rungs = {s.name: s for s in ladder.strategies}
    assert config.strategies and all(s == rungs[s.name] for s in config.strategies)
    assert (config.game, config.players, config.options) == (
        ladder.game,
        ladder.players,
        ladder.options,
    )
    assert config.seed != ladder.seed
