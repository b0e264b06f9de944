from collections import Counter

import numpy as np
import pytest
from scipy import stats

from simcli.stats.significance import (
    adjust_pvalues,
    binomial_test,
    chi2_gof_test,
    homogeneity_test,
    seat_by_strategy_test,
    sign_test,
    wilcoxon_from_counts,
)


def test_binomial_test_hand_value():
    # 60 of 100 against 0.5: two-sided exact p = 2 * P(X >= 60) = 0.056887
    res = binomial_test(60, 100)
    assert res.p_value == pytest.approx(0.0568887, abs=1e-6)
    assert res.statistic == 60 and res.n == 100
    # 9 of 10: 2 * (10 + 1) / 1024
    assert binomial_test(9, 10).p_value == pytest.approx(22 / 1024, abs=1e-12)


def test_binomial_test_no_decisive_games():
    res = binomial_test(0, 0)
    assert res.p_value is None and res.note == "no decisive games"


def test_sign_test():
    assert sign_test(9, 1).p_value == pytest.approx(22 / 1024, abs=1e-12)
    assert sign_test(0, 0).p_value is None


def test_chi2_gof_hand_value():
    # counts 30, 20, 25, 25 (expected 25): chi2 = (25 + 25 + 0 + 0) / 25 = 2, df 3
    res = chi2_gof_test([30, 20, 25, 25])
    assert res.statistic == pytest.approx(2.0)
    assert res.df == 3
    assert res.p_value == pytest.approx(stats.chi2.sf(2.0, 3))
    assert res.p_value == pytest.approx(0.5724, abs=1e-4)
    assert chi2_gof_test([0, 0, 0]).p_value is None
    assert chi2_gof_test([5]).p_value is None


def test_homogeneity_hand_value():
    # 2x2 [[60, 40], [40, 60]]: expected 50 everywhere, chi2 = 4 * 100/50 = 8
    res = homogeneity_test([[60, 40], [40, 60]])
    assert res.statistic == pytest.approx(8.0)
    assert res.df == 1
    assert res.p_value == pytest.approx(stats.chi2.sf(8.0, 1))
    # an empty row is dropped; a single row left is undefined
    assert homogeneity_test([[10, 5], [0, 0]]).p_value is None
    assert homogeneity_test([[10, 5], [0, 0], [5, 10]]).df == 1


def test_seat_by_strategy_fisher_and_chi2():
    res = seat_by_strategy_test([8, 2], [2, 8])
    assert res.test == "Fisher exact test"
    assert res.p_value == pytest.approx(stats.fisher_exact([[8, 2], [2, 8]]).pvalue)
    three = seat_by_strategy_test([10, 5, 3], [5, 10, 7])
    assert three.test.startswith("chi-square") and three.df == 2
    assert seat_by_strategy_test([5, 0], [5, 0]).p_value is None
    assert seat_by_strategy_test([0, 0], [5, 5]).p_value is None


def test_wilcoxon_small_equals_scipy_exact():
    rng = np.random.default_rng(5)
    d = np.round(rng.normal(0.5, 1, size=25), 3)
    res, info = wilcoxon_from_counts(Counter(d.tolist()))
    ref = stats.wilcoxon(d)
    assert res.p_value == pytest.approx(ref.pvalue, rel=1e-12)
    assert res.statistic == pytest.approx(ref.statistic)
    assert info["method"] == "exact"


def test_wilcoxon_large_with_ties_equals_scipy_asymptotic():
    rng = np.random.default_rng(6)
    d = rng.integers(-4, 6, size=700)
    res, info = wilcoxon_from_counts(Counter(d.tolist()))
    ref = stats.wilcoxon(d, method="asymptotic")
    assert info["method"] == "normal"
    assert info["n_nonzero"] == int((d != 0).sum())
    assert res.p_value == pytest.approx(ref.pvalue, rel=1e-9)
    assert res.statistic == pytest.approx(ref.statistic)


def test_wilcoxon_all_zero():
    res, info = wilcoxon_from_counts({0.0: 12})
    assert res.p_value is None and info["n_pairs"] == 12


def test_adjust_bh_hand_values():
    p = [0.01, 0.04, 0.03, 0.5]
    # BH: sorted 0.01, 0.03, 0.04, 0.5 -> 0.04, 0.0533, 0.0533, 0.5
    assert adjust_pvalues(p, "bh") == pytest.approx([0.04, 0.16 / 3, 0.16 / 3, 0.5])


def test_adjust_holm_bonferroni_by():
    p = [0.01, 0.04, 0.03, 0.5]
    assert adjust_pvalues(p, "holm") == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert adjust_pvalues(p, "bonferroni") == pytest.approx([0.04, 0.16, 0.12, 1.0])
    by = adjust_pvalues(p, "by")
    c = 1 + 1 / 2 + 1 / 3 + 1 / 4
    assert by == pytest.approx(np.minimum(np.array([0.04, 0.16 / 3, 0.16 / 3, 0.5]) * c, 1))
    assert list(adjust_pvalues(p, "none")) == p
    assert adjust_pvalues([], "bh").size == 0
    with pytest.raises(ValueError):
        adjust_pvalues(p, "fdr")
