"""The schedule: which strategies sit where in game ``i`` and with which seed.

A pure function of the config (strategies, format, players, games, seed, variants) and the
game index, computed in O(1) per game so that a million-game schedule is never held in
memory and any worker can compute its own share.

Games are grouped into *tables*: the set of strategies that meet (round robin: every
combination of ``players`` strategies; gauntlet: the candidate with every combination of
``players - 1`` opponents; self-play: one strategy in every seat; solo: one strategy alone).
A table plays ``games`` games in *rounds* of seat rotations: in round ``r`` the lineup is
rotated through all ``players`` seatings, and every game of the round shares one seed (same
board, same deal), so every strategy sits in every seat equally often and seat-swapped games
are paired. Self-play games each get their own seed (a rotation of identical strategies
would replay the same game). Solo tables share seeds across strategies: game ``r`` of every
strategy uses the same shuffle.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

from simcli.formats import FORMATS, rotations_for
from simcli.seeding import derive_seed, path_seed

if TYPE_CHECKING:
    from simcli.config import Config

__all__ = [
    "FORMATS",
    "GameSpec",
    "PairedSchedule",
    "Schedule",
    "build_schedule",
    "rotations_for",
    "schedule_for",
]


class GameSpec(NamedTuple):  # a tuple: built once per game, so it should be cheap
    index: int
    seed: int
    seats: tuple[str, ...]
    variant: str | None = None


@dataclass(frozen=True)
class Schedule:
    """All games of a run. ``tables`` are lineups in seat order for rotation 0;
    ``games_per_variant`` and ``total`` (games) are set when it is made."""

    tables: tuple[tuple[str, ...], ...]
    games_per_table: int
    rotations: int  # games of a round sharing one seed
    shared_seed_across_tables: bool
    root_seed: int
    variants: tuple[str | None, ...] = (None,)

    def __post_init__(self) -> None:
        # What every spec reads, computed once (a schedule is frozen): the counts, and
        # per variant the start of its seed paths, "root/label/"
        per_variant = len(self.tables) * self.games_per_table
        object.__setattr__(self, "games_per_variant", per_variant)
        object.__setattr__(self, "total", per_variant * len(self.variants))
        roots = tuple(
            f"{int(self.root_seed)}/{'v' if v is None else f'v:{v}'}/" for v in self.variants
        )
        object.__setattr__(self, "_roots", roots)

    def spec(self, index: int) -> GameSpec:
        if not 0 <= index < self.total:
            raise IndexError(f"game index {index} outside 0..{self.total - 1}")
        variant_no, rest = divmod(index, self.games_per_variant)
        table_no, within = divmod(rest, self.games_per_table)
        round_no, rotation = divmod(within, self.rotations)
        lineup = self.tables[table_no]
        if rotation:
            lineup = lineup[-rotation:] + lineup[:-rotation]
        # derive_seed(root, label, "round", r) or (root, label, "table", t, "round", r),
        # its path written in one step (tests pin the equality)
        root = self._roots[variant_no]
        if self.shared_seed_across_tables:
            seed = path_seed(f"{root}round/{round_no}")
        else:
            seed = path_seed(f"{root}table/{table_no}/round/{round_no}")
        # GameSpec(...), without the Python-level __new__ every NamedTuple class has
        return tuple.__new__(GameSpec, (index, seed, tuple(lineup), self.variants[variant_no]))

    def __iter__(self):
        return (self.spec(i) for i in range(self.total))


def build_schedule(
    fmt: str,
    names: list[str],
    players: int,
    games: int,
    seed: int,
    candidate: str | None = None,
    variants: tuple[str | None, ...] = (None,),
) -> Schedule:
    """The schedule for a validated config (the config checks names and counts)."""
    if fmt == "round_robin":
        tables = tuple(combinations(names, players))
    elif fmt == "gauntlet":
        others = [n for n in names if n != candidate]
        tables = tuple((candidate, *combo) for combo in combinations(others, players - 1))
    elif fmt == "self_play":
        tables = tuple((name,) * players for name in names)
    elif fmt == "solo":
        tables = tuple((name,) for name in names)
    else:  # the config validates formats; this guards programmatic use
        raise ValueError(f"unknown format {fmt!r}")
    return Schedule(
        tables=tables,
        games_per_table=games,
        rotations=rotations_for(fmt, players),
        shared_seed_across_tables=fmt == "solo",
        root_seed=seed,
        variants=variants,
    )


@dataclass(frozen=True)
class PairedSchedule:
    """The schedule of a gate: games come in pairs that differ only in one strategy.

    Two players: game ``2k`` seats (candidate, baseline), game ``2k + 1`` the swapped
    lineup, both on seed ``k`` (a seat-swapped pair). More players, or one: on seed ``k``
    the candidate (game ``2k``) and then the baseline (game ``2k + 1``) take seat
    ``k mod players`` against the same field in the same other seats.
    """

    candidate: str
    baseline: str
    field: tuple[str, ...]
    players: int
    pairs: int
    root_seed: int

    @property
    def total(self) -> int:
        return 2 * self.pairs

    def spec(self, index: int) -> GameSpec:
        if not 0 <= index < self.total:
            raise IndexError(f"game index {index} outside 0..{self.total - 1}")
        pair, second = divmod(index, 2)
        seed = derive_seed(self.root_seed, "gate", pair)
        if self.players == 2:
            seats = (self.baseline, self.candidate) if second else (self.candidate, self.baseline)
        else:
            seat = pair % self.players
            others = [self.field[(pair + i) % len(self.field)] for i in range(self.players - 1)]
            tested = self.baseline if second else self.candidate
            seats = tuple(others[:seat] + [tested] + others[seat:])
        return GameSpec(index=index, seed=seed, seats=seats)

    def __iter__(self):
        return (self.spec(i) for i in range(self.total))


def schedule_for(config: Config) -> Schedule | PairedSchedule:
    """The schedule of a validated config: the gate's paired schedule when the config is
    run as a gate (``config.gating``), else the one of its ``format``. Built once per run
    (by the runner, or the command that starts it) and handed to whatever plays games."""
    if config.gating and config.gate is not None:
        g = config.gate
        names = [s.name for s in config.strategies]
        field = tuple(n for n in names if n not in (g.candidate, g.baseline))
        return PairedSchedule(
            g.candidate,
            g.baseline,
            field or (g.baseline,),
            config.players,
            g.max_games // 2,
            config.seed,
        )
    return build_schedule(
        config.format,
        [s.name for s in config.strategies],
        config.players,
        config.games,
        config.seed,
        candidate=config.candidate,
        variants=tuple(v.name for v in config.variants) or (None,),
    )
