"""The ``gate:`` section of a config: an SPRT of a candidate against a baseline, as plain
data (:class:`GateSpec`), and its parsing with file/line errors."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from simcli.suggest import did_you_mean
from simcli.yamldoc import Doc, check_keys, int_at, number_at

MAX_ELO = 2000  # beyond this an expected score is 0 or 1 in floating point
GATE_KEYS = (
    "candidate",
    "baseline",
    "elo0",
    "elo1",
    "alpha",
    "beta",
    "max_games",
    "batch",
    "draw_rate",
)


@dataclass(frozen=True)
class GateSpec:
    """The ``gate:`` section: an SPRT of ``candidate`` against ``baseline``."""

    candidate: str
    baseline: str
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    max_games: int = 20000  # sized for the default bounds at 30% draws (docs/gating.md)
    batch: int = 50  # pairs between two looks at the test
    draw_rate: float = 0.3  # expected draws (equal results) per game, for sizing only


def parse_gate(doc: Doc, value: Any, names: list[str], players: int) -> GateSpec | None:
    """The ``gate:`` section (None when absent), checked against the strategy names."""
    if value is None:
        return None
    value = check_keys(doc, ("gate",), value, GATE_KEYS)
    for key in ("candidate", "baseline"):
        if key not in value:
            raise doc.error(("gate",), f"missing required key '{key}'")
        if value[key] not in names:
            raise doc.error(
                ("gate", key),
                f"no strategy named {value[key]!r}{did_you_mean(str(value[key]), names)}; "
                f"strategies: {', '.join(names)}",
            )
    if value["candidate"] == value["baseline"]:
        raise doc.error(("gate", "baseline"), "candidate and baseline must differ")
    numbers: dict[str, float] = {}
    for key in ("elo0", "elo1", "alpha", "beta", "draw_rate"):
        if key in value:
            v = number_at(doc, ("gate", key), value[key])
            if key.startswith("elo") and abs(v) >= MAX_ELO:
                raise doc.error(("gate", key), f"must be between -{MAX_ELO} and {MAX_ELO} Elo")
            numbers[key] = float(v)
    spec = GateSpec(value["candidate"], value["baseline"], **numbers)
    if spec.elo0 >= spec.elo1:
        raise doc.error(("gate", "elo1"), f"elo1 must be above elo0 ({spec.elo0:g})")
    for key in ("alpha", "beta"):
        if not 0 < getattr(spec, key) < 0.5:
            raise doc.error(("gate", key), "must be between 0 and 0.5")
    if not 0 <= spec.draw_rate < 1:
        raise doc.error(("gate", "draw_rate"), "a rate from 0 up to (not including) 1")
    max_games = int_at(doc, ("gate", "max_games"), value.get("max_games", spec.max_games), 2)
    if max_games % 2:
        raise doc.error(
            ("gate", "max_games"), f"games come in pairs: must be even; got {max_games}"
        )
    batch = int_at(doc, ("gate", "batch"), value.get("batch", spec.batch), 1)
    if players > 2 and len(names) < 3:
        raise doc.error(
            ("strategies",),
            f"a {players}-player gate needs a field: at least "
            f"one strategy besides the candidate and the baseline",
        )
    return replace(spec, max_games=max_games, batch=batch)
