import math

import numpy as np
import pytest
from scipy import stats

from simcli.stats.power import binomial_power, binomial_pvalues, games_for_power


def test_normal_sample_size_for_two_points():
    # ((1.959964 * 0.5 + 0.841621 * sqrt(0.52 * 0.48)) / 0.02)^2 = 4903.2 -> 4904
    za, zb = 1.959963984540054, 0.8416212335729143
    n = ((za * 0.5 + zb * math.sqrt(0.52 * 0.48)) / 0.02) ** 2
    assert n == pytest.approx(4903.2, abs=0.1)
    assert games_for_power(0.52) == 4904
    assert binomial_power(4904, 0.52, method="normal") == pytest.approx(0.80, abs=0.001)


@pytest.mark.slow
def test_binomial_pvalues_match_scipy():
    for n, p0 in [(57, 0.5), (40, 0.3), (12, 0.5)]:
        pv = binomial_pvalues(n, p0)
        ref = [stats.binomtest(k, n, p0).pvalue for k in range(n + 1)]
        assert pv == pytest.approx(ref, abs=1e-12)


def test_exact_power_by_enumeration():
    # n = 20: the exact test rejects k <= 5 or k >= 15 at 0.05 (P = 0.0414 under H0)
    pv = binomial_pvalues(20)
    reject = np.nonzero(pv <= 0.05)[0]
    assert list(reject) == [0, 1, 2, 3, 4, 5, 15, 16, 17, 18, 19, 20]
    power = stats.binom.cdf(5, 20, 0.7) + stats.binom.sf(14, 20, 0.7)
    assert binomial_power(20, 0.7) == pytest.approx(power, abs=1e-12)
    assert binomial_power(20, 0.5) == pytest.approx(0.0414, abs=1e-4)
    # the general (asymmetric) path agrees with the symmetric shortcut
    assert binomial_power(20, 0.7, p0=0.5 + 1e-15) == pytest.approx(power, abs=1e-9)


def test_exact_sample_size_reaches_power():
    n = games_for_power(0.6, method="exact")
    assert binomial_power(n, 0.6) >= 0.8
    assert abs(n - games_for_power(0.6)) < 0.15 * n
    with pytest.raises(ValueError):
        games_for_power(0.5)
