"""Seat compensation: the option of each multi-player built-in game that a designer turns
to even out the seats (``simcli balance`` tunes it).

- ``komi`` (Libraria, Ex Libris): seat ``s`` gets ``s * komi`` points added to its final
  score, as in Go (with two players the second player gets ``komi``);
- ``extra_cards`` (Ada's Library): seat ``s`` holds ``s * extra_cards`` more cards;
- ``extra_actions`` (the sphere game): seat ``s`` takes ``s * extra_actions`` more
  actions on its first turn.

Each defaults to 0, the rules as written; each game's page in ``docs/games/`` argues its
choice. The options came after these games had game records. A record stores the
resolved options, so that a record of the rules as written stays byte-identical (and an
older log still matches its config on ``--resume`` and ``replay``) a compensation option
at its default is left out of the resolved options (:func:`drop_defaults`); the rules
read it with ``options.get(name, 0)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from simcli.game import Option

KOMI = "komi"


def komi_option(bound: float, why: str) -> Option:
    """The ``komi`` option: a float on a grid of half points (a half-point komi leaves
    no tie between two seats), in ``[-bound, bound]``; ``why`` says why the bound."""
    return Option(
        default=0,
        kind=float,
        step=0.5,
        minimum=-bound,
        maximum=bound,
        doc=f"points added to each seat's final score per seat position: seat s gets "
        f"s x komi (2 players: the second player gets komi); half points break ties; "
        f"0 = the rules as written; at most {bound:g} either way ({why})",
    )


def drop_defaults(
    declared: Mapping[str, Option], resolved: dict[str, Any], names: Sequence[str]
) -> dict[str, Any]:
    """``resolved`` without the options ``names`` that hold their default (the rules as
    written): records of the rules as written stay as they were before the option."""
    for name in names:
        if name in resolved and resolved[name] == declared[name].default:
            del resolved[name]
    return resolved


def with_komi(scores: Sequence[Any], komi: float) -> tuple[Any, ...]:
    """``scores`` with ``seat * komi`` added to each seat's score (unchanged, values and
    types, when ``komi`` is 0)."""
    if not komi:
        return tuple(scores)
    return tuple(score + seat * komi for seat, score in enumerate(scores))
