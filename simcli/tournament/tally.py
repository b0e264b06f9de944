"""Running W/D/L counts for the end-of-run table (the parent never keeps records)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class StrategyTally:
    games: int = 0
    wins: float = 0.0  # shared first places count 1/k
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    scored: int = 0
    seat_games: Counter = field(default_factory=Counter)
    seat_wins: Counter = field(default_factory=Counter)


@dataclass
class Tally:
    """Counts per strategy, per seat and per termination, fed one game at a time."""

    strategies: dict[str, StrategyTally] = field(default_factory=dict)
    seat_wins: Counter = field(default_factory=Counter)  # seat -> wins (1/k shares)
    seat_games: int = 0
    terminations: Counter = field(default_factory=Counter)
    games: int = 0

    def add(self, seats: list[str], winners: list[int], scores, termination: str) -> None:
        self.games += 1
        self.terminations[termination] += 1
        if termination == "error":
            return
        self.seat_games += 1
        share = 1.0 / len(winners) if winners else 0.0
        for seat in winners:
            self.seat_wins[seat] += share
        for seat, name in enumerate(seats):
            t = self.strategies.setdefault(name, StrategyTally())
            t.games += 1
            if scores is not None:
                t.points += scores[seat]
                t.scored += 1
            if len(seats) == 1:
                continue
            t.seat_games[seat] += 1
            if seat in winners:
                t.wins += share
                t.seat_wins[seat] += share
            elif not winners:
                t.draws += 1
            else:
                t.losses += 1

    @property
    def errors(self) -> int:
        return self.terminations["error"]

    def table(self, players: int, names: list[str]) -> str:
        """A short text table per strategy and, with several seats, per seat."""
        lines = []
        if players == 1:
            lines.append(f"{'strategy':<16} {'games':>7} {'mean score':>11}")
            for name in names:
                t = self.strategies.get(name, StrategyTally())
                mean = f"{t.points / t.scored:.2f}" if t.scored else "-"
                lines.append(f"{name:<16} {t.games:>7} {mean:>11}")
        else:
            seat_heads = "".join(f" {'as seat ' + str(s):>10}" for s in range(players))
            lines.append(
                f"{'strategy':<16} {'games':>7} {'wins':>8} {'draws':>6} {'losses':>7} "
                f"{'win rate':>9}{seat_heads}"
            )
            for name in names:
                t = self.strategies.get(name, StrategyTally())
                rate = _rate(t.wins, t.games)
                by_seat = "".join(
                    f" {_rate(t.seat_wins[s], t.seat_games[s]):>10}" for s in range(players)
                )
                lines.append(
                    f"{name:<16} {t.games:>7} {_num(t.wins):>8} {t.draws:>6} {t.losses:>7} "
                    f"{rate:>9}{by_seat}"
                )
            lines.append("")
            lines.append(f"{'seat':<16} {'games':>7} {'wins':>8} {'win rate':>9}")
            for seat in range(players):
                wins = self.seat_wins[seat]
                rate = _rate(wins, self.seat_games)
                lines.append(f"{seat:<16} {self.seat_games:>7} {_num(wins):>8} {rate:>9}")
        ends = ", ".join(f"{k} {v}" for k, v in sorted(self.terminations.items()))
        lines.append("")
        lines.append(f"{self.games} games ({ends})")
        return "\n".join(lines)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def _rate(wins: float, games: int) -> str:
    return f"{wins / games:.1%}" if games else "-"
