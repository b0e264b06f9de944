"""expected_score: the Bradley-Terry win probability for an Elo difference."""

import math

from simcli.stats.ratings import expected_score


def test_known_values() -> None:
    assert expected_score(0) == 0.5
    # 400 Elo: odds of 10 to 1
    assert math.isclose(expected_score(400), 10 / 11)
    assert math.isclose(expected_score(-400), 1 / 11)


def test_far_tails_do_not_overflow() -> None:
    # 10 ** (300000 / 400) overflowed a float; a run whose ratings separate hit it
    assert expected_score(-300000) == 0.0
    assert expected_score(300000) == 1.0
    assert expected_score(float("-inf")) == 0.0
    assert 0 < expected_score(-3000) < 1e-7
