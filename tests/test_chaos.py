"""Chaos: the parent or a worker killed at random moments of a run, resumed each time,
gives the log of a clean run byte for byte, and leaves no process behind. A few seeded
trials here; ``studies/chaos-resume/chaos_resume.py`` runs many (figures in
docs/running.md and studies/chaos-resume/README.md)."""

from __future__ import annotations

import pytest
from chaos import chaos_trial, clean_log, pause_for, write_config

# Some twenty short runs started and killed: about half a minute.
pytestmark = pytest.mark.slow

GAMES = 600


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    folder = tmp_path_factory.mktemp("chaos")
    config = write_config(folder, GAMES)
    return (config, *clean_log(config, folder / "clean"))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_kills_and_resumes_end_in_the_clean_log(tmp_path, clean, seed) -> None:
    config, expected, seconds = clean
    # the kills must land while the run is going, however fast this machine plays it:
    # up to three moments a kill, and waits scaled to a clean run's time
    trial = chaos_trial(
        config, tmp_path / "out", expected, GAMES, seed, kills=5, pause=pause_for(seconds)
    )
    assert trial.status == "complete", trial
    assert len(trial.kills) >= 3, trial  # the kills landed during the run
    assert trial.equal, trial
    assert not trial.left, trial
