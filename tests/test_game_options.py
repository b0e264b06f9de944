"""Numeric game options (``simcli.game.Option``): kind float, maximum, step (the grid of
allowed values), ``numeric`` and ``nearest``; the one-line messages of ``check``."""

from __future__ import annotations

import math

import pytest

from simcli.errors import GameOptionError
from simcli.game import Option

KOMI = Option(default=0, doc="points per seat", kind=float, step=0.5, minimum=-60, maximum=60)
TURNS = Option(default=300, doc="actions", kind=int, minimum=1)
ODD = Option(default=1, doc="odd counts", kind=int, minimum=1, maximum=10, step=2)
FREE = Option(default=0.0, doc="any number", kind=float)
TENTHS = Option(default=0.0, doc="tenths", kind=float, step=0.1, maximum=1)


def message(option: Option, value: object) -> str:
    with pytest.raises(GameOptionError) as info:
        option.check("g", "x", value)
    text = str(info.value)
    assert "\n" not in text
    return text


# -- kind float ------------------------------------------------------------------------


@pytest.mark.parametrize("value", [0, 0.5, -2.5, 3, 60, -60, 12.0])
def test_a_float_option_takes_ints_and_floats_on_its_grid_as_given(value) -> None:
    got = KOMI.check("g", "x", value)
    assert got == value
    assert type(got) is type(value)  # stored as given: 3 stays an int, 12.0 a float


@pytest.mark.parametrize("value", [True, False, "1", None, [1]])
def test_a_float_option_refuses_what_is_not_a_number(value) -> None:
    assert message(KOMI, value) == f"game 'g': option 'x' must be a number; got {value!r}"


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_a_float_option_refuses_nan_and_infinity(value) -> None:
    assert message(FREE, value) == f"game 'g': option 'x' must be a finite number; got {value!r}"


def test_bounds_name_the_bound() -> None:
    assert message(KOMI, 60.5) == "game 'g': option 'x' must be at most 60; got 60.5"
    assert message(KOMI, -61) == "game 'g': option 'x' must be at least -60; got -61"
    assert message(TURNS, 0) == "game 'g': option 'x' must be at least 1; got 0"


def test_off_grid_values_are_refused_with_the_nearest_allowed_value() -> None:
    assert message(KOMI, 0.3) == (
        "game 'g': option 'x' must be a multiple of 0.5; got 0.3 (the nearest allowed value is 0.5)"
    )
    assert message(KOMI, 1.2) == (
        "game 'g': option 'x' must be a multiple of 0.5; got 1.2 (the nearest allowed value is 1)"
    )
    # an int grid starting at its minimum 1: the odd numbers
    assert message(ODD, 4) == (
        "game 'g': option 'x' must be 1 plus a multiple of 2; got 4 "
        "(the nearest allowed value is 5)"
    )


def test_the_grid_is_exact_in_decimals() -> None:
    # 0.3 and 0.7 are not multiples of 0.1 in binary floating point; they are in decimals
    for value in (0.1, 0.3, 0.7, 1.0, 0, 1):
        assert TENTHS.check("g", "x", value) == value
    assert "multiple of 0.1" in message(TENTHS, 0.25)


def test_a_float_option_without_a_step_takes_any_finite_number_in_range() -> None:
    assert FREE.check("g", "x", 0.123456789) == 0.123456789
    assert FREE.check("g", "x", -1e300) == -1e300


def test_int_options_behave_as_before() -> None:
    assert TURNS.check("g", "x", 5) == 5
    for value in (2.0, True, "3"):
        assert message(TURNS, value) == f"game 'g': option 'x' must be an integer; got {value!r}"
    assert ODD.check("g", "x", 9) == 9
    assert message(ODD, 11) == "game 'g': option 'x' must be at most 10; got 11"


def test_choices_come_first() -> None:
    opt = Option(default="a", doc="", choices=("a", "b"))
    assert opt.check("g", "x", "b") == "b"
    assert message(opt, "c") == "game 'g': option 'x' must be one of a, b; got 'c'"


# -- numeric and nearest ---------------------------------------------------------------


def test_numeric() -> None:
    assert KOMI.numeric and TURNS.numeric and ODD.numeric and FREE.numeric
    assert not Option(default="a", doc="", choices=("a", "b")).numeric
    assert not Option(default=1, doc="", kind=int, choices=(1, 2)).numeric
    assert not Option(default=None, doc="").numeric
    assert not Option(default="", doc="", kind=str).numeric


def test_grid_step() -> None:
    assert KOMI.grid_step == 0.5
    assert TURNS.grid_step == 1  # an int option's step is 1 unless set
    assert ODD.grid_step == 2
    assert FREE.grid_step is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0.3, 0.5),  # 0.3 is 0.2 from 0.5 and 0.3 from 0
        (0.2, 0.0),
        (0.25, 0.5),  # halfway goes up
        (-0.25, 0.0),  # halfway goes up, towards +infinity
        (-0.26, -0.5),
        (7, 7.0),
        (59.9, 60.0),
        (1000, 60.0),  # clamped to the maximum
        (-1e9, -60.0),  # and to the minimum
    ],
)
def test_nearest_of_a_float_option(value: float, expected: float) -> None:
    got = KOMI.nearest(value)
    assert got == expected
    assert type(got) is float
    assert KOMI.check("g", "x", got) == got  # always an allowed value


@pytest.mark.parametrize(
    ("value", "expected"),
    [(2.4, 2), (2.5, 3), (2.6, 3), (-3, 1), (0.5, 1), (10**9, 10**9), (7, 7)],
)
def test_nearest_of_an_int_option_is_an_int(value: float, expected: int) -> None:
    got = TURNS.nearest(value)
    assert got == expected
    assert type(got) is int


def test_nearest_on_a_grid_that_starts_at_the_minimum_and_an_off_grid_maximum() -> None:
    # ODD allows 1, 3, 5, 7, 9 (10 is its maximum but off the grid)
    assert [ODD.nearest(v) for v in (0, 1.9, 2, 3.9, 4, 8.5, 10, 100)] == [1, 1, 3, 3, 5, 9, 9, 9]


def test_nearest_without_a_step_only_clamps() -> None:
    assert FREE.nearest(0.123) == 0.123
    assert Option(default=0, doc="", kind=float, maximum=2.5).nearest(3) == 2.5


def test_nearest_in_decimals() -> None:
    assert TENTHS.nearest(0.34) == 0.3  # not 0.30000000000000004
    assert TENTHS.nearest(0.35) == 0.4  # halfway goes up
    assert TENTHS.nearest(0.66) == 0.7


@pytest.mark.parametrize("value", [math.nan, math.inf, True, "1", None])
def test_nearest_needs_a_finite_number(value) -> None:
    with pytest.raises(ValueError, match="finite number"):
        KOMI.nearest(value)


def test_nearest_needs_a_numeric_option() -> None:
    with pytest.raises(ValueError, match="numeric option"):
        Option(default="a", doc="", choices=("a", "b")).nearest(1)


# -- declarations ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"kind": float, "step": 0}, "step must be positive"),
        ({"kind": float, "step": -0.5}, "step must be positive"),
        ({"kind": float, "step": math.nan}, "step must be a finite number"),
        ({"kind": int, "step": 0.5}, "must be whole"),
        ({"kind": int, "minimum": 0.5}, "must be whole"),
        ({"kind": float, "minimum": 2, "maximum": 1}, "greater than its maximum"),
        ({"choices": (0, 1), "kind": int, "maximum": 3}, "need kind int or float"),
        ({"kind": str, "step": 1}, "need kind int or float"),
        ({"maximum": 3}, "need kind int or float"),
    ],
)
def test_a_bad_declaration_fails_at_once(fields: dict, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        Option(default=0, doc="", **fields)
