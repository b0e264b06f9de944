"""Think time per strategy: seconds per move, measured by the referee, carried back with
each game's result (never in ``games.jsonl``, whose records stay as they were) and kept
in the run folder's sidecar ``timing.json``.

A seat's moves in one game travel to the parent as they were timed (:class:`SeatClock`'s
whole nanoseconds, packed: 8 bytes a move), where they are summed up per strategy
(:class:`ThinkTimes`: moves, total, longest, and a histogram with 20 logarithmic bins per
decade). The parent does that work, not the process that plays: with one worker the
parent has a core of its own. Moves are timed in whole nanoseconds and binned by exact
integer edges (the first nanosecond at or above ``FLOOR * 10**(b / 20)``), by table
look-up for times under 65 µs. The mean and the maximum are exact; the 95th percentile
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
import struct
from bisect import bisect_right
from collections import Counter, _count_elements
from dataclasses import dataclass, field
from functools import cache
from operator import itemgetter
from pathlib import Path
from time import perf_counter_ns
from typing import Any

from simcli import native

#: The compiled seat clock (``simcli/_stopwatch.pyx``), or ``None`` (see ``native.py``).
KERNEL = "simcli._stopwatch"
_KERNEL = native.load_kernel(KERNEL)

TIMING_FILE = "timing.json"
BINS_PER_DECADE = 20
FLOOR = 1e-7  # seconds: bin 0 holds every time up to this


def bin_of(seconds: float) -> int:
    if seconds <= FLOOR:
        return 0
    return 1 + int(math.log10(seconds / FLOOR) * BINS_PER_DECADE)


def bin_upper(index: int) -> float:
    """The upper edge of bin ``index`` (it holds times from the previous bin's edge up to,
    not including, this one)."""
    return FLOOR * 10 ** (index / BINS_PER_DECADE)


class _SeatClock:
    """One seat's moves in one game, as the referee times them: :meth:`start` just before
    the seat's ``choose`` is called, :meth:`stop` once its answer is checked (the region
    a move time limit applies to), in whole nanoseconds of ``perf_counter_ns``;
    :meth:`add` takes seconds (the round trip of a strategy process). :meth:`packed` is
    what the parent is sent."""

    __slots__ = ("times", "_started")

    def __init__(self) -> None:
        self.times: list[int] = []
        self._started = 0

    def start(self) -> None:
        self._started = perf_counter_ns()

    def stop(self) -> None:
        self.times.append(perf_counter_ns() - self._started)

    def add(self, seconds: float) -> None:
        self.times.append(round(seconds * NS))

    def packed(self) -> bytes:
        """``times`` as the parent is sent them (:func:`pack`)."""
        return pack(self.times)


def pack(times: list[int]) -> bytes:
    """A seat's times as they travel to the parent: little-endian signed 64-bit integers,
    which pickle as one string instead of an integer each (:func:`unpack` reads them)."""
    return struct.pack(f"<{len(times)}q", *times)


def unpack(data: bytes) -> list[int]:
    """The times :func:`pack` packed."""
    return list(struct.unpack(f"<{len(data) // 8}q", data))


#: The seat clock: compiled where the kernel is built (the lengths kept in C, read on the
#: same clock or on the time-stamp counter behind it, the same ``times``), else
#: :class:`_SeatClock`.
SeatClock = _KERNEL.SeatClock if _KERNEL is not None else _SeatClock


NS = 1_000_000_000  # nanoseconds a second
_FLOOR_NS = 100  # FLOOR in nanoseconds
_EDGES_UP_TO = 300  # bins with a precomputed edge: up to FLOOR * 10**15 s


@cache
def _edges() -> tuple[int, ...]:
    """The first whole nanosecond of every bin from 1 on: bin ``b`` holds the times from
    ``edges[b - 1]`` up to, not including, ``edges[b]`` (bin 0 the rest, up to FLOOR)."""
    return (_FLOOR_NS + 1, *(_first_ns(k) for k in range(1, _EDGES_UP_TO)))


def _first_ns(k: int) -> int:
    """The least whole number of nanoseconds at or above ``FLOOR * 10**(k / 20)``, in
    exact integer arithmetic: the least ``v`` with ``v**20 >= 10**(40 + k)``."""
    bound = 10 ** (2 * BINS_PER_DECADE + k)
    v = math.ceil(_FLOOR_NS * 10 ** (k / BINS_PER_DECADE))  # within a few of it
    while v**BINS_PER_DECADE < bound:
        v += 1
    while v > 1 and (v - 1) ** BINS_PER_DECADE >= bound:
        v -= 1
    return v


def bin_of_ns(ns: int) -> int:
    """The bin of a time of ``ns`` whole nanoseconds (as :func:`bin_of` defines the bins,
    without rounding)."""
    edges = _edges()
    if ns < edges[-1]:
        return bisect_right(edges, ns)
    k = len(edges)
    while _first_ns(k) <= ns:
        k += 1
    return k


_TABLE_NS = 1 << 16  # times below this many nanoseconds are binned by table look-up


@cache
def _table() -> bytes:
    """The bin of every whole number of nanoseconds below ``_TABLE_NS``, one byte each."""
    # the edges up to _TABLE_NS only (a sixth of _edges(): every worker builds this)
    parts = [bytes(_FLOOR_NS + 1)]  # bin 0: 0 .. FLOOR
    low, b = _FLOOR_NS + 1, 1
    while low < _TABLE_NS:
        high = _first_ns(b)
        parts.append(bytes((b,)) * (min(high, _TABLE_NS) - low))
        low, b = high, b + 1
    return b"".join(parts)


@dataclass
class StrategyTime:
    """Every timed move of one strategy."""

    moves: int = 0
    total: float = 0.0
    longest: float = 0.0
    bins: Counter = field(default_factory=Counter)

    def add(self, times: list[int]) -> None:
        """One seat's moves of one game (:attr:`SeatClock.times`)."""
        if not times:
            return
        longest = max(times)
        self.moves += len(times)
        self.total += sum(times) / NS
        self.longest = max(self.longest, longest / NS)
        counts = self.bins
        if len(times) > 1 and longest < _TABLE_NS:  # the usual times: in a few C calls
            _count_elements(counts, itemgetter(*times)(_table()))
        else:
            _count_elements(counts, map(bin_of_ns, times))

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

    def add(self, seats: list[str], think: tuple[bytes, ...]) -> None:
        """One game's result: ``think[seat]``, the times of the strategy in ``seats[seat]``
        (:meth:`SeatClock.packed`; ``think`` is empty when the game was not timed, e.g.
        lost with its worker)."""
        if not think:
            return
        self.games += 1
        strategies = self.strategies
        for name, times in zip(seats, think, strict=True):
            strategy = strategies.get(name)
            if strategy is None:  # not setdefault: it would build one per seat and game
                strategy = strategies[name] = StrategyTime()
            strategy.add(unpack(times))

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
