"""Running counts the parent keeps while a run streams (never the records themselves).

Everything a user reads about the results comes from the report, computed afterwards
from ``games.jsonl``; the runner only needs how many games were played and how they
ended (errors decide the exit code; ``run.json`` lists the terminations).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Tally:
    games: int = 0
    terminations: Counter = field(default_factory=Counter)

    def add(self, termination: str) -> None:
        """Count one game that ended with ``termination``."""
        self.games += 1
        self.terminations[termination] += 1

    @property
    def errors(self) -> int:
        return self.terminations["error"]
