"""Which game a run has at each index, and whether a record is that game: the one check
of a record's identity (game, variant, options, seats, seed) against the schedule of the
run's config. ``--resume`` builds it from the config it resumes with; every reader of a
run folder (report, replay, the statistics, through
:class:`simcli.tournament.gamelog.GameLog`) builds it from the config stored in
``run.json``. A line copied from another run or config, or edited by hand, is caught
alike by all of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from types import SimpleNamespace
from typing import Any

from simcli.config import Config, StrategySpec, Variant
from simcli.errors import RecordError
from simcli.tournament.schedule import PairedSchedule, Schedule, schedule_for

#: Keys of a stored config without which the schedule cannot be rebuilt: a run.json
#: written by simcli always has them (a hand-made one may not; its log is not checked).
SCHEDULE_KEYS = ("game", "options", "players", "strategies", "format", "games", "seed")
#: What a record must share with the scheduled game at its index, in the order checked.
IDENTITY_KEYS = ("game", "variant", "options", "seats", "seed")


@dataclass(frozen=True)
class RunIdentity:
    """The games of one run: the config's game and options, and its schedule."""

    config: Config
    schedule: Schedule | PairedSchedule

    @classmethod
    def of_config(
        cls, config: Config, schedule: Schedule | PairedSchedule | None = None
    ) -> RunIdentity:
        return cls(config, schedule if schedule is not None else schedule_for(config))

    @classmethod
    def of_stored(cls, stored: Any, where: str) -> RunIdentity | None:
        """From the ``config`` of a ``run.json`` (``where`` names the file); None when it
        lacks what the schedule needs; :class:`RecordError` when it has it but the values
        do not make a schedule."""
        if not isinstance(stored, dict) or not all(k in stored for k in SCHEDULE_KEYS):
            return None
        try:
            config = _config_of_stored(stored)
            return cls.of_config(config)
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise RecordError(
                f"{where}: its config does not give the run's schedule ({exc})"
            ) from None

    @property
    def total(self) -> int:
        return self.schedule.total

    def expected(self, index: int) -> dict[str, Any]:
        """What game ``index`` of the run is (``index`` within the schedule)."""
        spec = self.schedule.spec(index)
        return {
            "game": self.config.game,
            "variant": spec.variant,
            "options": self.config.options_for(spec.variant),
            "seats": list(spec.seats),
            "seed": spec.seed,
        }

    def mismatch(self, record: dict[str, Any]) -> str | None:
        """Why ``record`` is not the game the run has at its index, or None."""
        index = record["index"]
        if not 0 <= index < self.total:
            return f"game index {index} is beyond the run's {self.total} games"
        for key, value in self.expected(index).items():
            if record.get(key) != value:
                return (
                    f"{key} is {json.dumps(record.get(key))} but game {index} of this run "
                    f"has {json.dumps(value)}: the line is not from this run"
                )
        return None


def _config_of_stored(stored: dict[str, Any]) -> Config:
    """The parts of a stored config (``Config.to_dict()``) that the schedule and the
    options need, as a :class:`Config` (strategies are named, never loaded)."""
    known = {f.name for f in fields(Config)}
    data = {k: v for k, v in stored.items() if k in known}
    data.setdefault("name", "")
    data.setdefault("candidate", None)
    data.setdefault("workers", 0)
    data.setdefault("output", "")
    data["strategies"] = tuple(StrategySpec(**s) for s in stored["strategies"])
    data["variants"] = tuple(Variant(**v) for v in stored.get("variants") or ())
    gate = stored.get("gate")
    data["gate"] = SimpleNamespace(**gate) if gate else None
    data["asserts"] = ()
    config = Config(**data)
    if not isinstance(config.games, int) or not isinstance(config.seed, int):
        raise ValueError("games and seed must be whole numbers")
    return config
