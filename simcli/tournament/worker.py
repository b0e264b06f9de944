"""What runs inside a worker: build the game and strategy factories once, then play
chunks of the schedule. Records are serialised here, so the parent only writes lines."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from simcli.config import Config
from simcli.games import get_game
from simcli.records import dumps
from simcli.tournament.play import StrategyFactory, play_game
from simcli.tournament.schedule import Schedule
from strategies.loader import load_strategy_class


@dataclass
class GameResult:
    """What the parent needs of one game: the record line and a few fields to tally."""

    index: int
    line: str
    seats: list[str]
    winners: list[int]
    scores: list[float] | None
    termination: str


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

    def play(self, start: int, stop: int) -> list[GameResult]:
        results = []
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
            results.append(
                GameResult(
                    index=index,
                    line=dumps(record),
                    seats=record["seats"],
                    winners=record["winners"],
                    scores=record["scores"],
                    termination=record["termination"],
                )
            )
        return results


_PLAYER: ChunkPlayer | None = None


def init_worker(config: Config) -> None:
    """Process-pool initializer: one ChunkPlayer per worker process."""
    global _PLAYER
    _PLAYER = ChunkPlayer(config)


def play_chunk(start: int, stop: int) -> list[GameResult]:
    if _PLAYER is None:  # pragma: no cover - guarded by init_worker
        raise RuntimeError("worker not initialised")
    return _PLAYER.play(start, stop)
