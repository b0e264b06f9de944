"""The segments of a balance run, decided one after the other from the games played.

:class:`Planner` says which segment comes next given the results of those before it;
both the live run and :func:`split_log` (which recomputes everything from a
``games.jsonl``) ask it, so they cannot disagree."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from simcli.balancing.spec import BalanceSpec
from simcli.balancing.stopping import (
    MAX_GAMES,
    MAX_SECONDS,
    PRECISION,
    SeatCounts,
)
from simcli.balancing.tuner import (
    FairValue,
    Probe,
    fair_value,
    next_probe,
    no_fair_value,
    race_survivors,
    settled,
)
from simcli.config import Config
from simcli.seeding import derive_seed
from simcli.tournament.schedule import Schedule, schedule_for

RUNG, SKILL, PROBE, CONFIRM, RACE = "rung", "skill", "probe", "confirm", "race"
#: Most probes of one search (besides the two ends of the range).
MAX_PROBES = 12


@dataclass(frozen=True)
class Segment:
    """One ordinary run of a balance: ``kind`` and a ``label`` for people, the strategy
    names and format, the game options, the root seed and at most ``games`` games;
    ``stops`` when the precision rule may end it early. ``value`` is a probe's option
    value, ``variant`` a race entry's."""

    kind: str
    label: str
    strategies: tuple[str, ...]
    format: str
    options: dict[str, Any]
    seed: int
    games: int
    stops: bool
    value: float | None = None
    variant: str | None = None

    def config(self, base: Config, name: str, output: str) -> Config:
        """The run config of this segment."""
        specs = {s.name: s for s in base.strategies}
        return dataclasses.replace(
            base,
            name=name,
            strategies=tuple(specs[n] for n in self.strategies),
            format=self.format,
            candidate=None,
            games=self.games,
            seed=self.seed,
            options=self.options,
            variants=(),
            gate=None,
            asserts=(),
            gating=False,
            balance=None,
            output=output,
        )

    def schedule(self, base: Config) -> Schedule:
        return schedule_for(self.config(base, "", ""))  # type: ignore[return-value]

    def folder_name(self, number: int) -> str:
        safe = re.sub(r"[^A-Za-z0-9._=+-]+", "-", self.label).strip("-")
        return f"{number:02d}-{safe}"


@dataclass
class Played:
    """A segment and its games' winners in order (scores and the rest stay in the
    log), with why it stopped."""

    segment: Segment
    winners: list[list[int]] = field(default_factory=list)
    stop: str = MAX_GAMES

    def counts(self, seats: int) -> SeatCounts:
        counts = SeatCounts(seats)
        for won in self.winners:
            counts.add(won)
        return counts


class Planner:
    """Which segment comes next (see the module's doc)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.spec: BalanceSpec = config.balance
        self.players = config.players

    def _options(self, value: float | None = None, variant: str | None = None) -> dict:
        """A segment's game options, resolved by the game as a config's are (so a probe
        at an option's default has the records of a config that does not set it)."""
        if variant is not None:
            return dict(self.config.options_for(variant))
        options = dict(self.config.options)
        tune = self.spec.tune
        if value is None or tune is None or not tune.option:
            return options
        from simcli.tournament.rules import game_for

        return game_for(self.config, None).resolve_options({**options, tune.option: value})

    def _seed(self, *labels: Any) -> int:
        return derive_seed(self.config.seed, "balance", *labels)

    def _rungs(self) -> Iterator[Segment]:
        spec = self.spec
        for k, name in enumerate(spec.ladder):
            yield Segment(
                RUNG,
                f"rung {name}",
                (name,),
                "self_play",
                self._options(),
                self._seed("rungs"),  # the same deals on every rung
                spec.max_games,
                True,
            )
            if spec.skill_check and k:
                below = spec.ladder[k - 1]
                yield Segment(
                    SKILL,
                    f"skill {name} vs {below}",
                    (name, below),
                    "round_robin",
                    self._options(),
                    self._seed("skill", k),
                    spec.skill_games,
                    False,
                )

    def segments(self, played: list[Played]) -> Segment | None:
        """The segment after ``played`` (None: the balance is complete)."""
        fixed = list(self._rungs())
        if len(played) < len(fixed):
            return fixed[len(played)]
        tune = self.spec.tune
        if tune is None:
            return None
        later = played[len(fixed) :]
        if tune.variants:
            return self._race(later)
        return self._search(later)

    # -- the search for a fair value -------------------------------------------------

    def option_spec(self) -> Any:
        from simcli.tournament.rules import game_for

        return game_for(self.config, None).options[self.spec.tune.option]

    def probes(self, later: list[Played]) -> list[Probe]:
        return [
            Probe(p.segment.value, tuple(p.counts(self.players).wins))
            for p in later
            if p.segment.kind == PROBE
        ]

    def fair(self, later: list[Played]) -> FairValue | None:
        return self.fair_of(self.probes(later))

    def fair_of(self, probes: list[Probe]) -> FairValue | None:
        """The fair value the probes give (None without a probe): the one estimate that
        both the search and balance.json use."""
        if not probes:
            return None
        tune = self.spec.tune
        return fair_value(probes, tune.low, tune.high, self._seed("bootstrap"))

    def _search(self, later: list[Played]) -> Segment | None:
        tune = self.spec.tune
        option = self.option_spec()
        if any(p.segment.kind == CONFIRM for p in later):
            return None
        probes = [p for p in later if p.segment.kind == PROBE]
        spent = sum(len(p.winners) for p in probes)
        if len(probes) < 2:
            value = option.nearest(tune.low if not probes else tune.high)
            return self._probe(value, probes)
        fair = self.fair(later)
        tolerance = float(getattr(option, "step", None) or 1)
        done = (
            settled(fair, tolerance)
            or no_fair_value(fair, tune.low, tune.high)
            or spent + tune.probe_games > tune.max_games
            or len(probes) >= MAX_PROBES + 2
        )
        if not done:
            return self._probe(next_probe(fair, tune.low, tune.high, option.nearest), probes)
        if not tune.confirm or fair.fair is None or no_fair_value(fair, tune.low, tune.high):
            return None
        value = option.nearest(min(max(fair.fair, tune.low), tune.high))
        return Segment(
            CONFIRM,
            f"confirm {tune.option}={value:g}",
            (tune.at,),
            "self_play",
            self._options(value),
            self._seed("confirm"),
            self.spec.max_games,
            True,
            value=value,
        )

    def _probe(self, value: float, probes: list[Played]) -> Segment:
        tune = self.spec.tune
        again = sum(p.segment.value == value for p in probes)  # a second look: new deals
        return Segment(
            PROBE,
            f"probe {tune.option}={value:g}" + (f" #{again + 1}" if again else ""),
            (tune.at,),
            "self_play",
            self._options(value),
            self._seed("tune", again),  # first looks share their deals across values
            tune.probe_games,
            False,
            value=value,
        )

    # -- the race of variants --------------------------------------------------------

    def race_wins(self, later: list[Played]) -> dict[str, list[int]]:
        totals: dict[str, list[int]] = {}
        for p in later:
            wins = p.counts(self.players).wins
            old = totals.setdefault(p.segment.variant, [0] * self.players)
            totals[p.segment.variant] = [a + b for a, b in zip(old, wins, strict=True)]
        return totals

    def _race(self, later: list[Played]) -> Segment | None:
        """Rounds: every variant still in the race plays ``probe_games`` games on the
        round's deals; after each round the ones significantly less fair than the
        fairest drop out."""
        tune = self.spec.tune
        alive, start, number = list(tune.variants), 0, 1
        while len(later) - start >= len(alive):
            start += len(alive)
            totals = self.race_wins(later[:start])
            alive = race_survivors({v: totals[v] for v in alive})
            spent = sum(len(p.winners) for p in later[:start])
            if len(alive) < 2 or spent + len(alive) * tune.probe_games > tune.max_games:
                return None
            number += 1
        variant = alive[len(later) - start]
        return Segment(
            RACE,
            f"race {variant} #{number}",
            (tune.at,),
            "self_play",
            self._options(variant=variant),
            self._seed("race", number),  # one round's entries share their deals
            tune.probe_games,
            False,
            variant=variant,
        )


def stop_reason(segment: Segment, winners: list[list[int]], players: int, spec) -> str:
    """Why a segment of these games stopped, from the games alone: the precision rule
    stops at the first game at which it holds, so it holds at the last game kept or
    it did not stop the segment."""
    if not segment.stops:
        return MAX_GAMES
    counts = SeatCounts(players)
    for won in winners:
        counts.add(won)
    if len(winners) >= spec.min_games and counts.widest() <= spec.precision:
        return PRECISION
    return MAX_GAMES if len(winners) >= segment.games else MAX_SECONDS


def split_log(config: Config, records: Iterable[dict[str, Any]]) -> list[tuple[Played, list]]:
    """The balance's segments in ``records`` (a balance's ``games.jsonl`` in order), each
    with its records: a record belongs to the current segment while it is that
    segment's next scheduled game (same seats and seed)."""
    planner = Planner(config)
    done: list[tuple[Played, list]] = []
    segment = planner.segments([])
    schedule = segment.schedule(config) if segment else None
    current: list = []
    for record in records:
        while segment is not None:
            k = len(current)
            if k < schedule.total:
                spec = schedule.spec(k)
                if record["seed"] == spec.seed and tuple(record["seats"]) == spec.seats:
                    current.append(record)
                    break
            done.append(_played(segment, current, config))
            segment = planner.segments([p for p, _ in done])
            schedule = segment.schedule(config) if segment else None
            current = []
        else:
            raise ValueError(f"game {record.get('index')} belongs to no segment of the balance")
    if segment is not None and current:
        done.append(_played(segment, current, config))
    return done


def _played(segment: Segment, records: list, config: Config) -> tuple[Played, list]:
    winners = [list(r["winners"]) for r in records]
    played = Played(segment, winners, stop_reason(segment, winners, config.players, config.balance))
    return played, records
