"""What runs inside a worker: build the game and strategy factories once, then play
chunks of the schedule. Records are serialised here, so the parent only writes lines."""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from simcli.config import Config
from simcli.games import get_game
from simcli.records import dumps
from simcli.tournament.play import StrategyFactory, play_game
from simcli.tournament.schedule import Schedule
from strategies.loader import load_strategy_class


class Outcome(NamedTuple):
    """What the parent tallies of one game."""

    seats: list[str]
    winners: list[int]
    scores: list[float] | None
    termination: str


class Chunk(NamedTuple):
    """A played range of the schedule: the record lines (joined, newline-terminated,
    in index order) and one :class:`Outcome` per game. Cheap to send between processes."""

    start: int
    lines: str
    outcomes: list[Outcome]


class ChunkPlayer:
    """Plays index ranges of one config's schedule."""

    def __init__(self, config: Config):
        self.config = config
        self.schedule: Schedule = config.schedule()
        self.game = get_game(config.game)
        self.factories: dict[str, StrategyFactory] = {}
        for spec in config.strategies:
            cls = load_strategy_class(spec.use, config.base_dir)
            self.factories[spec.name] = partial(cls, **spec.params)

    def play(self, start: int, stop: int) -> Chunk:
        lines = []
        outcomes = []
        for index in range(start, stop):
            spec = self.schedule.spec(index)
            record = play_game(
                self.game,
                self.config.options_for(spec.variant),
                index,
                spec.seed,
                spec.seats,
                self.factories,
                variant=spec.variant,
            )
            lines.append(dumps(record))
            outcomes.append(
                Outcome(record["seats"], record["winners"], record["scores"], record["termination"])
            )
        lines.append("")
        return Chunk(start, "\n".join(lines), outcomes)


_PLAYER: ChunkPlayer | None = None


def init_worker(config: Config) -> None:
    """Process-pool initializer: one ChunkPlayer per worker process."""
    global _PLAYER
    _PLAYER = ChunkPlayer(config)


def play_chunk(start: int, stop: int) -> Chunk:
    if _PLAYER is None:  # pragma: no cover - guarded by init_worker
        raise RuntimeError("worker not initialised")
    return _PLAYER.play(start, stop)
