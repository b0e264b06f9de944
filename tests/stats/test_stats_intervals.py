import math

import numpy as np
import pytest
from scipy import stats

from simcli.stats.intervals import (
    CI_METHODS,
    binom_ci,
    clopper_pearson_interval,
    t_interval,
    wilson_interval,
    wilsoncc_interval,
)


def test_wilson_published_value_600_of_1000():
    iv = binom_ci(600, 1000)
    assert iv.estimate == 0.6
    assert iv.low == pytest.approx(0.5693, abs=5e-5)
    assert iv.high == pytest.approx(0.6299, abs=5e-5)
    assert wilson_interval(600, 1000) == pytest.approx((0.5693, 0.6299), abs=5e-5)


def test_wilson_hand_formula():
    # k=3, n=10, z=1.959964: centre (0.3 + z^2/20)/(1 + z^2/10)
    z = 1.959963984540054
    p, n = 0.3, 10
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert binom_ci(3, 10).low == pytest.approx(centre - half, abs=1e-12)
    assert binom_ci(3, 10).high == pytest.approx(centre + half, abs=1e-12)
    assert binom_ci(3, 10).low == pytest.approx(0.1078, abs=1e-4)


@pytest.mark.parametrize("method", CI_METHODS)
@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (55, 100), (1, 1), (499, 1000)])
def test_closed_forms_equal_scipy(method, k, n):
    closed = {
        "wilson": wilson_interval,
        "wilsoncc": wilsoncc_interval,
        "exact": clopper_pearson_interval,
    }[method](k, n, 0.95)
    ci = stats.binomtest(k, n).proportion_ci(0.95, method=method)
    assert closed[0] == pytest.approx(ci.low, abs=1e-10)
    assert closed[1] == pytest.approx(ci.high, abs=1e-10)


def test_clopper_pearson_published_value():
    # 0 of 10: upper bound 1 - 0.025^(1/10) = 0.3085
    iv = binom_ci(0, 10, method="exact")
    assert iv.low == 0.0
    assert iv.high == pytest.approx(1 - 0.025 ** (1 / 10), abs=1e-9)


def test_fractional_successes_are_continuous():
    a = binom_ci(49.999999, 100)
    b = binom_ci(50, 100)
    assert a.low == pytest.approx(b.low, abs=1e-6)
    half = binom_ci(2.5, 5)
    assert half.estimate == 0.5
    assert half.low < 0.5 < half.high


def test_binom_ci_edge_cases():
    iv = binom_ci(0, 0)
    assert iv.estimate is None and iv.low is None and iv.note == "no games"
    with pytest.raises(ValueError):
        binom_ci(5, 4)
    with pytest.raises(ValueError):
        binom_ci(1, 4, method="agresti")
    assert binom_ci(4, 4).high == 1.0


def test_confidence_level_changes_width():
    w90 = binom_ci(30, 100, confidence=0.90)
    w99 = binom_ci(30, 100, confidence=0.99)
    assert w99.low < w90.low and w99.high > w90.high


def test_wilson_vectorised():
    low, high = wilson_interval(np.array([0, 5, 10]), np.array([10, 10, 10]))
    assert low.shape == (3,)
    assert low[1] == pytest.approx(binom_ci(5, 10).low)


def test_t_interval_hand_computed():
    # data 1..5: mean 3, sd sqrt(2.5), t(0.975, 4) = 2.776445
    iv = t_interval(5, 3.0, math.sqrt(2.5))
    half = 2.7764451051977987 * math.sqrt(2.5) / math.sqrt(5)
    assert iv.low == pytest.approx(3 - half, abs=1e-9)
    assert iv.high == pytest.approx(3 + half, abs=1e-9)
    assert iv.low == pytest.approx(1.0368, abs=1e-4)


def test_t_interval_degenerate():
    assert t_interval(0, None, None).note == "no scored games"
    one = t_interval(1, 4.0, None)
    assert one.estimate == 4.0 and one.low is None and "one observation" in one.note
    flat = t_interval(10, 2.0, 0.0)
    assert flat.low == flat.high == 2.0
