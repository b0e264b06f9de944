"""Think time per strategy: seconds per move, measured by the referee, carried back with
each game's result (never in ``games.jsonl``, whose records stay as they were) and kept
in the run folder's sidecar ``timing.json``.

A seat's moves in one game are summed up where the game is played (:class:`SeatClock`:
moves, total, longest, and a histogram with 20 logarithmic bins per decade), so what
travels to the parent is small whatever the game's length; the parent adds them up per
strategy (:class:`ThinkTimes`). The mean and the maximum are exact; the 95th percentile
is read from the histogram, to within one bin (a factor of 10^(1/20), 12%).

Which moves are timed: every move of an in-process strategy (the referee's timed region,
``play.py``), and every answer of a strategy process while games are played one at a
time (``drive``: the round trip, so the process's share of the protocol is included).
When a worker interleaves several games on strategy processes (no ``move_time_limit``,
see ``interleave.py``) answers arrive in batches and those moves are not timed.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TIMING_FILE = "timing.json"
BINS_PER_DECADE = 20
FLOOR = 1e-7  # seconds: bin 0 holds every time up to this

#: One seat's moves of one game: (moves, total seconds, longest, ((bin, count), ...)).
Packed = tuple[int, float, float, tuple[tuple[int, int], ...]]


def bin_of(seconds: float) -> int:
    if seconds <= FLOOR:
        return 0
    return 1 + int(math.log10(seconds / FLOOR) * BINS_PER_DECADE)


def bin_upper(index: int) -> float:
    """The upper edge of bin ``index`` (it holds times from the previous bin's edge up to,
    not including, this one)."""
    return FLOOR * 10 ** (index / BINS_PER_DECADE)


class SeatClock:
    """One seat's moves in one game, as the referee times them: the hot loop only
    appends (``add``, or ``times.append`` bound once); :meth:`packed` sums them up."""

    __slots__ = ("times",)

    def __init__(self) -> None:
        self.times: list[float] = []

    def add(self, seconds: float) -> None:
        self.times.append(seconds)

    def packed(self) -> Packed:
        times = self.times
        bins: dict[int, int] = {}
        get = bins.get
        for seconds in times:
            b = bin_of(seconds)
            bins[b] = get(b, 0) + 1
        return len(times), sum(times), max(times, default=0.0), tuple(sorted(bins.items()))


@dataclass
class StrategyTime:
    """Every timed move of one strategy."""

    moves: int = 0
    total: float = 0.0
    longest: float = 0.0
    bins: Counter = field(default_factory=Counter)

    def add(self, packed: Packed) -> None:
        moves, total, longest, bins = packed
        self.moves += moves
        self.total += total
        self.longest = max(self.longest, longest)
        for b, n in bins:
            self.bins[b] += n

    @property
    def mean(self) -> float | None:
        return self.total / self.moves if self.moves else None

    def quantile(self, q: float) -> float | None:
        """The upper edge of the bin holding the ``q`` quantile (never above the
        longest move)."""
        if not self.moves:
            return None
        need = q * self.moves
        seen = 0
        for b in sorted(self.bins):
            seen += self.bins[b]
            if seen >= need:
                return min(bin_upper(b), self.longest)
        return self.longest  # pragma: no cover (the bins add up to the moves)


@dataclass
class ThinkTimes:
    """Think time per strategy over a run's games (``timing.json``)."""

    games: int = 0
    strategies: dict[str, StrategyTime] = field(default_factory=dict)

    def add(self, seats: list[str], think: tuple[Packed, ...]) -> None:
        """One game's result: ``think[seat]`` for the strategy in ``seats[seat]``
        (empty when the game was not timed, e.g. lost with its worker)."""
        if not think:
            return
        self.games += 1
        for name, packed in zip(seats, think, strict=True):
            self.strategies.setdefault(name, StrategyTime()).add(packed)

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": "seconds per move",
            "games": self.games,
            "bins_per_decade": BINS_PER_DECADE,
            "floor": FLOOR,
            "strategies": {
                name: {
                    "moves": t.moves,
                    "mean": t.mean,
                    "p95": t.quantile(0.95),
                    "max": t.longest,
                    "total": t.total,
                    "bins": {str(b): n for b, n in sorted(t.bins.items())},
                }
                for name, t in self.strategies.items()
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ThinkTimes:
        out = cls(games=int(data.get("games", 0)))
        for name, t in (data.get("strategies") or {}).items():
            out.strategies[name] = StrategyTime(
                moves=int(t["moves"]),
                total=float(t["total"]),
                longest=float(t["max"]),
                bins=Counter({int(b): int(n) for b, n in t["bins"].items()}),
            )
        return out


def read_timing(folder: str | Path) -> ThinkTimes | None:
    """The ``timing.json`` of a run folder; None when there is none or it cannot be
    read (it is a by-product: the report goes on without it)."""
    path = Path(folder) / TIMING_FILE
    try:
        return ThinkTimes.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def write_timing(folder: Path, think: ThinkTimes) -> None:
    from simcli.tournament.output import write_json_atomic

    write_json_atomic(folder / TIMING_FILE, think.to_json())


def think_rows(think: ThinkTimes) -> list[dict[str, Any]]:
    """One row per strategy: ``strategy``, ``moves``, ``mean``, ``p95``, ``max``
    (seconds per move), in the order the strategies were first met."""
    return [
        {
            "strategy": name,
            "moves": t.moves,
            "mean": t.mean,
            "p95": t.quantile(0.95),
            "max": t.longest,
        }
        for name, t in think.strategies.items()
    ]


def think_of(folder: str | Path | None) -> list[dict[str, Any]] | None:
    """The per-strategy rows (:func:`think_rows`) of a run folder's ``timing.json``, or
    ``None`` without one."""
    think = read_timing(folder) if folder is not None else None
    return think_rows(think) if think is not None else None
