"""Statistics for tournament records: intervals, tests, ratings and streaming aggregation.

Importing this package is cheap; the submodules import numpy and scipy. The names below
are loaded on first use, so ``from simcli.stats import wilson_interval`` works without
paying for scipy at ``simcli --help`` time.

Submodules:

- :mod:`simcli.stats.intervals` -- binomial intervals (Wilson, ...) and t intervals.
- :mod:`simcli.stats.significance` -- seat tests, sign test, Wilcoxon from counts,
  homogeneity and multiple-comparison correction.
- :mod:`simcli.stats.seat_tests` -- the headline seat test stratified by lineup and the
  smallest detectable seat effect.
- :mod:`simcli.stats.ratings` -- Bradley-Terry and Plackett-Luce fits with a seat effect
  and Davidson tie parameters.
- :mod:`simcli.stats.power` -- binomial power and sample size.
- :mod:`simcli.stats.distribution` -- bounded-memory running moments and quantiles.
- :mod:`simcli.stats.records` -- what one game record means (shares, ranks, length).
- :mod:`simcli.stats.aggregate` -- the one-pass streaming aggregator.
- :mod:`simcli.stats.analysis` -- turns an aggregator into the report summary.
- :mod:`simcli.stats.summary` -- the report summary as typed data (dataclasses).
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Interval": "intervals",
    "binom_ci": "intervals",
    "wilson_interval": "intervals",
    "t_interval": "intervals",
    "CI_METHODS": "intervals",
    "TestResult": "significance",
    "binomial_test": "significance",
    "chi2_gof_test": "significance",
    "sign_test": "significance",
    "homogeneity_test": "significance",
    "seat_by_strategy_test": "significance",
    "wilcoxon_from_counts": "significance",
    "adjust_pvalues": "significance",
    "CORRECTION_METHODS": "significance",
    "stratified_seat_test": "seat_tests",
    "detectable_stratified": "seat_tests",
    "detectable_sign": "seat_tests",
    "RatingFit": "ratings",
    "AllTied": "ratings",
    "bt_fit": "ratings",
    "pl_fit": "ratings",
    "seat_effect_lrt": "ratings",
    "elo_diff": "ratings",
    "ELO_PER_NAT": "ratings",
    "binomial_power": "power",
    "games_for_power": "power",
    "RunningMoments": "distribution",
    "StreamingDistribution": "distribution",
    "Aggregator": "aggregate",
    "summarize": "analysis",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'simcli.stats' has no attribute {name!r}")
    return getattr(importlib.import_module(f"simcli.stats.{module}"), name)
