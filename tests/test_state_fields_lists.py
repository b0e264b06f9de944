"""A list of integers is checked with its bounds looked up once (``Int.decode_all``):
the same values, stand-ins and refusals as checking entry by entry."""

from __future__ import annotations

from typing import Any

import pytest

import simcli.statefields as sf

LIMITS = {"players": 2, "open": None}
KINDS = [sf.Int(-1, "players"), sf.Int(0), sf.Int(), sf.Int(0, "open"), sf.Int(3, 4)]
LISTS: list[list[Any]] = [[], [0, 1], [-1, 0, 1], [2], [1, True], [0, 1.0], [5, 3], [-7]]


def one_by_one(kind: sf.Int, raws: list[Any], masked: bool) -> Any:
    try:
        return [kind.decode(x, LIMITS, masked) for x in raws]
    except sf.Bad as bad:
        return bad.what


def at_once(kind: sf.Int, raws: list[Any], masked: bool) -> Any:
    try:
        return kind.decode_all(raws, LIMITS, masked)
    except sf.Bad as bad:
        return bad.what


@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("kind", KINDS, ids=repr)
def test_a_list_of_integers_is_checked_as_entry_by_entry(kind: sf.Int, masked: bool) -> None:
    for raws in LISTS:
        assert at_once(kind, raws, masked) == one_by_one(kind, raws, masked), raws


def test_the_checked_list_is_a_copy_and_refusals_say_why() -> None:
    raws = [0, 1]
    checked = sf.Int(0, "players").decode_all(raws, LIMITS, False)
    assert checked == raws and checked is not raws
    with pytest.raises(sf.Bad, match="an integer 0..1"):
        sf.Int(0, "players").decode_all([0, 2], LIMITS, False)
    assert sf.Int(0, "players").decode_all([-1, 1], LIMITS, True) == [-1, 1]  # the stand-in
    with pytest.raises(sf.Bad, match="^2$"):  # one value allowed: the message names it
        sf.Int("players", 3).decode_all([1], LIMITS, False)


def test_a_subclass_that_checks_its_own_way_is_asked_entry_by_entry() -> None:
    class Even(sf.Int):
        def decode(self, raw: Any, limits: Any, masked: bool) -> Any:
            if raw % 2:
                raise sf.Bad("even")
            return raw

    with pytest.raises(sf.Bad, match="even"):
        Even(0, 10).decode_all([2, 3], LIMITS, False)
