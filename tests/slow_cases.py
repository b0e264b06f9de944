"""Keep the cheap cases of a parametrized test in the inner loop (``pytest -m "not slow"``)
and mark the costly ones slow: the full suite still runs every case."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest

ParameterSet = type(pytest.param())


def slow_unless(cases: Iterable[Any], quick: Callable[..., bool]) -> list[ParameterSet]:
    """``cases`` (argument tuples, single values or ``pytest.param``), each one for which
    ``quick(*arguments)`` is false marked slow; ids and marks already given are kept."""
    out = []
    for case in cases:
        if isinstance(case, ParameterSet):
            values, marks, case_id = case.values, tuple(case.marks), case.id
        else:
            values, marks, case_id = case if isinstance(case, tuple) else (case,), (), None
        if not quick(*values):
            marks = (*marks, pytest.mark.slow)
        out.append(pytest.param(*values, marks=marks, id=case_id))
    return out
