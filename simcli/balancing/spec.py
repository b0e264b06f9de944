"""The ``balance:`` section of a config, as plain data (:class:`BalanceSpec`), and its
parsing with file/line errors (docs/balance.md is the reference)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simcli.suggest import did_you_mean
from simcli.yamldoc import Doc, check_keys, int_at, number_at, str_at

BALANCE_KEYS = (
    "ladder",
    "top",
    "precision",
    "max_games",
    "max_seconds",
    "min_games",
    "skill_check",
    "skill_games",
    "metric_games",
    "tune",
)
TUNE_KEYS = ("option", "low", "high", "at", "variants", "probe_games", "max_games", "confirm")


@dataclass(frozen=True)
class TuneSpec:
    """``balance.tune``: search numeric game option ``option`` over [``low``, ``high``]
    for the value that evens the seats at rung ``at``; or, with ``variants``, race the
    named config variants for the fairest."""

    at: str
    option: str | None = None
    low: float = 0.0
    high: float = 0.0
    variants: tuple[str, ...] = ()
    probe_games: int = 400  # games per probe (rounded up to whole seat rotations)
    max_games: int = 8000  # every probe together; the confirmation is extra
    confirm: bool = True


@dataclass(frozen=True)
class BalanceSpec:
    """``balance:``: the ladder's rung names (config strategies, weakest first) and when
    each rung stops: every seat's 95% interval of its share of decisive games at most
    ``precision`` on each side (after ``min_games``), ``max_games`` games, or
    ``max_seconds`` of play (the only stop that depends on the machine)."""

    ladder: tuple[str, ...]
    precision: float = 0.02
    max_games: int = 20000
    max_seconds: float | None = None
    min_games: int = 100
    skill_check: bool = False
    skill_games: int = 200  # per adjacent pair of rungs, in seat-swapped pairs
    metric_games: int = 1000  # games per rung replayed for the metrics that need a replay
    tune: TuneSpec | None = None


def ladder_entries(doc: Doc, value: Any, default: tuple[dict[str, Any], ...]) -> list[Any]:
    """The strategy entries of the ladder (``balance.ladder``, else ``default``), cut at
    ``balance.top``; checked as a list here, entry by entry by the config's strategy
    checks."""
    if not isinstance(value, dict):
        return list(default)
    ladder = value.get("ladder", list(default))
    if not isinstance(ladder, list) or not ladder:
        raise doc.error(("balance", "ladder"), "the ladder is empty: give at least one rung")
    top = value.get("top")
    if top is None:
        return ladder
    names = [_entry_name(e) for e in ladder]
    if top not in names:
        raise doc.error(
            ("balance", "top"),
            f"no rung named {top!r}{did_you_mean(str(top), names)}; rungs: {', '.join(names)}",
        )
    return ladder[: names.index(top) + 1]


def _entry_name(entry: Any) -> str:
    if isinstance(entry, dict):
        return str(entry.get("name", entry.get("use")))
    return str(entry)


def parse_balance(
    doc: Doc,
    value: Any,
    rungs: list[str],
    game: Any,
    players: int,
    options: dict[str, Any],
    variants: tuple[Any, ...],
) -> BalanceSpec | None:
    """The ``balance:`` section (None when absent), checked against the ladder's rung
    names, the game's options and the config's variants."""
    if value is None:
        return None
    value = check_keys(doc, ("balance",), value, BALANCE_KEYS)
    if players < 2:
        raise doc.error(
            ("balance",), f"balance compares seats: game '{game.id}' is played by 1 player"
        )
    precision = float(number_at(doc, ("balance", "precision"), value.get("precision", 0.02)))
    if not 0 < precision < 0.5:
        raise doc.error(
            ("balance", "precision"),
            f"the half-width of a 95% interval of a share: between 0 and 0.5; got {precision:g}",
        )
    max_games = int_at(doc, ("balance", "max_games"), value.get("max_games", 20000), 1)
    min_games = int_at(doc, ("balance", "min_games"), value.get("min_games", 100), 1)
    seconds = value.get("max_seconds")
    if seconds is not None:
        seconds = float(number_at(doc, ("balance", "max_seconds"), seconds))
        if seconds <= 0:
            raise doc.error(("balance", "max_seconds"), f"must be positive; got {seconds:g}")
    skill = value.get("skill_check", False)
    if not isinstance(skill, bool):
        raise doc.error(("balance", "skill_check"), "expected true or false")
    if skill and players != 2:
        raise doc.error(
            ("balance", "skill_check"),
            f"a skill check plays two rungs head to head in seat-swapped pairs: 2-player "
            f"games only (this config has {players} players)",
        )
    skill_games = int_at(doc, ("balance", "skill_games"), value.get("skill_games", 200), 2)
    if skill_games % 2:
        raise doc.error(
            ("balance", "skill_games"), f"seat-swapped pairs: must be even; got {skill_games}"
        )
    metric_games = int_at(doc, ("balance", "metric_games"), value.get("metric_games", 1000), 0)
    tune = None
    if value.get("tune") is not None:
        tune = _tune(doc, value["tune"], rungs, game, options, variants, max_games)
    return BalanceSpec(
        ladder=tuple(rungs),
        precision=precision,
        max_games=max_games,
        max_seconds=seconds,
        min_games=min(min_games, max_games),
        skill_check=skill,
        skill_games=skill_games,
        metric_games=metric_games,
        tune=tune,
    )


def _tune(
    doc: Doc,
    value: Any,
    rungs: list[str],
    game: Any,
    options: dict[str, Any],
    variants: tuple[Any, ...],
    rung_games: int,
) -> TuneSpec:
    path = ("balance", "tune")
    value = check_keys(doc, path, value, TUNE_KEYS)
    at = value.get("at", rungs[-1])
    if at not in rungs:
        raise doc.error(
            (*path, "at"),
            f"no rung named {at!r}{did_you_mean(str(at), rungs)}; rungs: {', '.join(rungs)}",
        )
    probe_games = int_at(doc, (*path, "probe_games"), value.get("probe_games", 400), 2)
    max_games = int_at(doc, (*path, "max_games"), value.get("max_games", 8000), 2)
    confirm = value.get("confirm", True)
    if not isinstance(confirm, bool):
        raise doc.error((*path, "confirm"), "expected true or false")
    common = {"at": at, "probe_games": probe_games, "max_games": max_games, "confirm": confirm}
    if "variants" in value:
        if "option" in value:
            raise doc.error(path, "give either 'option' (a search) or 'variants' (a race)")
        return TuneSpec(variants=_race(doc, value["variants"], variants), **common)
    if "option" not in value:
        raise doc.error(path, "missing required key 'option' (or 'variants')")
    name = str_at(doc, (*path, "option"), value["option"])
    if name not in game.options:
        known = sorted(game.options)
        raise doc.error(
            (*path, "option"),
            f"game '{game.id}' has no option '{name}'{did_you_mean(name, known)}; "
            f"its options are: {', '.join(known) or '(none)'}",
        )
    spec = game.options[name]
    if not getattr(spec, "numeric", False):
        raise doc.error(
            (*path, "option"),
            f"option '{name}' of game '{game.id}' is not numeric "
            f"({', '.join(map(str, spec.choices)) if spec.choices else 'free text'}): "
            f"tune a numeric option, or race variants with 'tune: {{variants: [...]}}'",
        )
    for key in ("low", "high"):
        if key not in value:
            raise doc.error(path, f"missing required key '{key}'")
    low = float(number_at(doc, (*path, "low"), value["low"]))
    high = float(number_at(doc, (*path, "high"), value["high"]))
    if low >= high:
        raise doc.error((*path, "high"), f"high must be above low ({low:g}); got {high:g}")
    for key, bound in (("low", low), ("high", high)):
        try:
            game.resolve_options({**options, name: spec.nearest(bound)})
        except Exception as exc:  # the option's own range check, in its words
            raise doc.error((*path, key), str(exc)) from None
    return TuneSpec(option=name, low=low, high=high, **common)


def _race(doc: Doc, value: Any, variants: tuple[Any, ...]) -> tuple[str, ...]:
    path = ("balance", "tune", "variants")
    known = [v.name for v in variants]
    if not isinstance(value, list) or len(value) < 2:
        raise doc.error(path, "a race needs a list of at least two variant names")
    for i, name in enumerate(value):
        if name not in known:
            raise doc.error(
                (*path, i),
                f"no variant named {name!r}{did_you_mean(str(name), known)}; "
                f"variants: {', '.join(known) or '(none: add a variants: list)'}",
            )
    if len(set(value)) < len(value):
        raise doc.error(path, "a variant is named twice")
    return tuple(value)
