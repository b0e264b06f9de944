"""Game-quality metrics of a rung's self-play games (docs/balance.md defines each).

From the records: completion, draws, timeouts, margin and balance (1 minus the largest
gap between the seats' win rates, as Ludii defines it). From replaying the first
``metric_games`` records through the rules: length in the game's natural unit,
branching, decision share, and, for games that define ``evaluate``, lead changes and
comebacks."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from simcli.game import CHANCE, Game
from simcli.verify import replay


def record_metrics(records: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """The metrics a record states directly."""
    n = len(records)
    if not n:
        return {}
    won = [r for r in records if r["winners"] and len(r["winners"]) < players]
    draws = sum(
        1 for r in records if r["termination"] == "normal" and len(r["winners"]) in (0, players)
    )
    wins = [0] * players
    for r in won:
        for seat in r["winners"]:
            wins[seat] += 1 / len(r["winners"])
    rates = [w / n for w in wins]
    margins = []
    for r in records:
        scores = r.get("scores")
        if len(r["winners"]) == 1 and scores:
            best = scores[r["winners"][0]]
            rest = [s for seat, s in enumerate(scores) if seat != r["winners"][0]]
            margins.append(best - max(rest))
    return {
        "games": n,
        "completion": len(won) / n,
        "draws": draws / n,
        "timeouts": sum(r["termination"] == "move_limit" for r in records) / n,
        "forfeits_or_errors": sum(r["termination"] in ("forfeit", "error") for r in records) / n,
        "margin": _mean_sd(margins),
        "win_rates": rates,
        "balance": 1 - (max(rates) - min(rates)),
    }


def _mean_sd(values: Sequence[float]) -> dict[str, float] | None:
    if not values:
        return None
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return {"mean": statistics.fmean(values), "sd": sd}


class _Walk:
    """What one replay collects at every decision: legal moves, and the leader."""

    def __init__(self, game: Game, evaluates: bool) -> None:
        self.game = game
        self.evaluates = evaluates
        self.decisions = 0
        self.choices = 0
        self.real = 0  # decisions with more than one legal move
        self.leaders: list[int | None] = []
        self.final: Any = None

    def __call__(self, ply: int, entry: Any, state: Any, seat: int | None) -> None:
        self.final = state
        mover = state.current_player
        if mover < 0 or mover == CHANCE:
            return
        legal = len(state.legal_moves())
        self.decisions += 1
        self.choices += legal
        self.real += legal > 1
        if self.evaluates:
            self.leaders.append(_leader(self.game, state))


def _leader(game: Game, state: Any) -> int | None:
    values = [game.evaluate(state, seat) for seat in range(state.players)]
    best = max(values)
    return values.index(best) if values.count(best) == 1 else None


def _lead_changes(leaders: list[int | None]) -> int:
    known = [s for s in leaders if s is not None]
    return sum(a != b for a, b in zip(known, known[1:], strict=False))


def replay_metrics(records: Sequence[dict[str, Any]], game: Game) -> dict[str, Any]:
    """The metrics that need a replay, over ``records``."""
    evaluates = type(game).evaluate is not Game.evaluate
    lengths, unit = [], "plies"
    decisions = choices = real = 0
    changes, comebacks, decisive = [], 0, 0
    for record in records:
        walk = _Walk(game, evaluates)
        if replay(record, on_state=walk) or walk.final is None:
            continue
        figures = game.facts(walk.final).game
        if figures:
            unit, length = next(iter(figures.items()))
        else:
            length = sum(not isinstance(m, dict) for m in record["moves"])
        lengths.append(float(length))
        decisions += walk.decisions
        choices += walk.choices
        real += walk.real
        if evaluates and walk.leaders:
            changes.append(_lead_changes(walk.leaders))
            if len(record["winners"]) == 1:
                decisive += 1
                half = walk.leaders[len(walk.leaders) // 2]
                comebacks += half is not None and half != record["winners"][0]
    out: dict[str, Any] = {
        "replayed": len(lengths),
        "length": {**(_mean_sd(lengths) or {}), "unit": unit} if lengths else None,
        "branching": choices / decisions if decisions else None,
        "decision_share": real / decisions if decisions else None,
    }
    if evaluates:
        out["lead_changes"] = statistics.fmean(changes) if changes else None
        out["comebacks"] = comebacks / decisive if decisive else None
    return out
