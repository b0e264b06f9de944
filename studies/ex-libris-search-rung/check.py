"""The checks on fresh deals play the ladder's own rungs.

    python studies/ex-libris-search-rung/check.py   (or: pytest on this file)

Their figures are quoted as the ladder rung's, and the configs copy the ladder's
strategies, params and game options, so a drift would go unseen: each check must play the
same strategies with the same params and options as configs/ex-libris-ladder.yaml,
only on other seeds.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from simcli.configfile import load_config

HERE = Path(__file__).resolve().parent
CONFIGS = HERE.parents[1] / "configs"
CHECKS = {
    "ex-libris-rung-check.yaml": "ex-libris-ladder.yaml",
}


@pytest.mark.parametrize("check", sorted(CHECKS))
def test_rung_check_plays_the_ladders_strategies_and_options(check: str) -> None:
    config = load_config(HERE / check)
    ladder = load_config(CONFIGS / CHECKS[check])
    rungs = {s.name: s for s in ladder.strategies}
    assert config.strategies and all(s == rungs[s.name] for s in config.strategies)
    assert (config.game, config.players, config.options) == (
        ladder.game,
        ladder.players,
        ladder.options,
    )
    assert config.seed != ladder.seed


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
