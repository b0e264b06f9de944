"""``run --check-determinism``: play a sample of a run's games again with fresh strategy
instances and compare their moves with the log. A strategy whose moves differ depends on
something besides its seat's seed: the global ``random`` module, the clock, state kept
between games in a module or class... The first differing move names it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcli.config import Config
from simcli.records import dumps
from simcli.tournament.gamelog import BadLine, GameLog
from simcli.tournament.probe import spread
from simcli.tournament.schedule import PairedSchedule, Schedule
from simcli.tournament.worker import ChunkPlayer


@dataclass(frozen=True)
class Divergence:
    """Game ``index`` played differently at ``ply`` (1-based, as ``replay --show``)."""

    index: int
    ply: int | None
    seat: int | None  # None: not a strategy's move (a chance event, the outcome)
    strategy: str | None
    logged: Any
    replayed: Any

    def __str__(self) -> str:
        who = f"strategy '{self.strategy}' (seat {self.seat})" if self.strategy else "the rules"
        where = f"at ply {self.ply}" if self.ply is not None else "in its outcome"
        return (
            f"game {self.index}: {who} played differently {where}: logged "
            f"{_short(self.logged)}, replayed {_short(self.replayed)}"
        )


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def sample(log_path: Path, games: int) -> list[dict[str, Any]]:
    """``games`` records spread over the log (one pass; bad lines are skipped: the
    run's own checks report them)."""
    lines = [line.item for line in GameLog(log_path).lines()]
    records = [r for r in lines if not isinstance(r, BadLine)]
    return [records[i] for i in spread(len(records), games)] if records else []


def compare(logged: dict[str, Any], replayed: dict[str, Any]) -> Divergence | None:
    """The first difference between a logged record and the same game played again."""
    a, b = logged["moves"], replayed["moves"]
    ply = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    index = logged["index"]
    if ply < max(len(a), len(b)):
        seat = _seat_at(logged, ply + 1)
        name = logged["seats"][seat] if seat is not None else None
        return Divergence(index, ply + 1, seat, name, _at(a, ply), _at(b, ply))
    for key in ("termination", "scores", "winners", "detail"):
        if logged.get(key) != replayed.get(key):
            detail = logged.get("detail") or replayed.get("detail") or {}
            seat = detail.get("seat")
            name = logged["seats"][seat] if isinstance(seat, int) else None
            return Divergence(index, None, seat, name, logged.get(key), replayed.get(key))
    return None


def _at(moves: list[Any], ply: int) -> Any:
    return moves[ply] if ply < len(moves) else "(game over)"


def _seat_at(record: dict[str, Any], ply: int) -> int | None:
    """The seat to make move ``ply`` of ``record``, from the state after the moves before
    it (None for a chance event)."""
    from simcli.game import CHANCE
    from simcli.verify import replay

    to_move: list[Any] = []

    def seen(p: int, entry: Any, state: Any, seat: Any) -> None:
        if p == ply - 1:
            to_move.append(state.current_player)

    replay(record, seen)
    seat = to_move[0] if to_move else None
    if seat == CHANCE or not isinstance(seat, int) or not 0 <= seat < len(record["seats"]):
        return None  # a chance event, or the game was over (TERMINAL)
    return seat


def check_determinism(
    config: Config, schedule: Schedule | PairedSchedule, folder: Path, games: int
) -> tuple[int, list[Divergence]]:
    """Play ``games`` games of the run in ``folder`` again, here, with fresh strategy
    instances; returns how many were compared and the ones that differ."""
    records = sample(folder / "games.jsonl", games)
    player = ChunkPlayer(config, schedule)
    found = []
    try:
        for logged in records:
            replayed = json.loads(dumps(player.record(logged["index"])))
            player.clocks.pop(logged["index"], None)
            divergence = compare(logged, replayed)
            if divergence is not None:
                found.append(divergence)
    finally:
        player.close()
    return len(records), found


def describe(compared: int, found: list[Divergence]) -> list[str]:
    """What to print: one line when every game played the same, else one line per
    strategy (its first differing game) and one for the rules."""
    head = f"determinism: {compared} game(s) played again with fresh strategy instances"
    if not found:
        return [f"{head}: every move as logged"]
    first: dict[str | None, Divergence] = {}
    for d in found:
        first.setdefault(d.strategy, d)
    lines = [f"{head}: {len(found)} played differently"]
    for name, d in first.items():
        count = sum(x.strategy == name for x in found)
        what = "does not reproduce its moves" if name else "does not reproduce"
        subject = f"strategy '{name}'" if name else "the game"
        lines.append(
            f"  {subject} {what} in {count} of {compared} games (unseeded randomness or "
            f"state kept between games?); first: {d}"
        )
    return lines
