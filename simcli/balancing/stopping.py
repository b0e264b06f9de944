"""When a segment of a balance run stops: seat counts as games arrive in schedule
order, and the precision rule on them."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959963984540054  # the 97.5% point of the standard normal

#: How a segment stopped. Only ``max_seconds`` depends on the machine.
PRECISION, MAX_GAMES, MAX_SECONDS = "precision", "max_games", "max_seconds"


@dataclass
class SeatCounts:
    """A segment's games so far: games, decisive games (one winner) won per seat,
    draws (nobody or everybody first) and shared first places."""

    seats: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    shared: int = 0

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.seats

    @property
    def decisive(self) -> int:
        return sum(self.wins)

    def add(self, winners: list[int]) -> None:
        self.games += 1
        if len(winners) == 1:
            self.wins[winners[0]] += 1
        elif not winners or len(winners) == self.seats:
            self.draws += 1
        else:
            self.shared += 1

    def widest(self) -> float:
        """The largest half-width of a seat's 95% Wilson interval of its share of the
        decisive games (1.0 before the first decisive game)."""
        n = self.decisive
        if not n:
            return 1.0
        widest = 0.0
        for k in self.wins:  # the Wilson interval in closed form: checked after every game
            p = k / n
            scale = 1 + Z95 * Z95 / n
            centre = (p + Z95 * Z95 / (2 * n)) / scale
            half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / scale
            low, high = max(0.0, centre - half), min(1.0, centre + half)
            widest = max(widest, high - p, p - low)
        return widest


@dataclass
class PrecisionStop:
    """The runner's observer for a rung or a confirmation: done once every seat's
    interval is at most ``precision`` wide on each side (after ``min_games`` games), or
    ``max_seconds`` after the first game arrived. Checked game by game in schedule
    order, so the games kept depend on the records alone (but for the time stop)."""

    label: str
    seats: int
    precision: float
    min_games: int
    max_seconds: float | None = None
    counts: SeatCounts = field(init=False)
    reason: str | None = None
    started: float | None = None

    def __post_init__(self) -> None:
        self.counts = SeatCounts(self.seats)

    @property
    def done(self) -> bool:
        return self.reason is not None

    def add(self, index: int, outcome: Any) -> None:
        if self.started is None:
            self.started = time.monotonic()
        self.counts.add(list(outcome.winners))
        if self.counts.games >= self.min_games and self.counts.widest() <= self.precision:
            self.reason = PRECISION
        elif self.max_seconds is not None and time.monotonic() - self.started > self.max_seconds:
            self.reason = MAX_SECONDS

    def status(self) -> str:
        width = self.counts.widest()
        now = f"±{width:.1%}" if width < 1 else "no decisive game yet"
        return f"{self.label}: {now} (stops at ±{self.precision:.1%})"


def precise_enough(winners: list[list[int]], seats: int, precision: float, min_games: int) -> int:
    """How many of ``winners`` (each game's winning seats, in order) a precision stop
    keeps: the games up to the one at which it stops, or all of them."""
    counts = SeatCounts(seats)
    for n, won in enumerate(winners, start=1):
        counts.add(won)
        if n >= min_games and counts.widest() <= precision:
            return n
    return len(winners)
