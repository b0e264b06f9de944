"""Counting a gate's paired outcomes as they arrive, and the sequential test on them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from simcli.gating.spec import GateSpec
from simcli.gating.sprt import SprtState, bounds, sprt
from simcli.tournament.schedule import PairedSchedule
from simcli.tournament.worker import GameResult

PENTANOMIAL = ("LL", "LD", "DD+WL", "WD", "WW")
TRINOMIAL = ("worse", "equal", "better")


def game_share(outcome: GameResult, seat: int) -> float:
    """The seat's result: its share of first place (1/k of k winners), 0.5 in a
    two-player draw; 0 for a loss or forfeit."""
    winners = outcome.winners
    if not winners:
        return 0.5 if len(outcome.seats) == 2 else 0.0
    return 1.0 / len(winners) if seat in winners else 0.0


@dataclass
class GateObserver:
    """Feeds the SPRT: pentanomial pair counts for two players (candidate's pair score
    0, 1/4, 1/2, 3/4, 1), trinomial per-seed comparisons otherwise (the candidate did
    better, equal or worse than the baseline in the same seat against the same field;
    by first-place share, then by points; solitaire games by points)."""

    spec: GateSpec
    schedule: PairedSchedule
    counts: list[int] = field(default_factory=list)
    pending: dict[int, GameResult] = field(default_factory=dict)
    pairs: int = 0
    skipped_pairs: int = 0  # pairs with a game lost to an error
    state: SprtState | None = None
    decided_at: int | None = None
    notify: Callable[[str], None] | None = None
    sizing: Any = None  # simcli.gating.sizing.Sizing before the first batch
    resized: Any = None  # ... recomputed with the first batch's draw rate
    resized_draw_rate: float | None = None  # the draw rate it was recomputed with
    resized_after: int = 0  # units counted when it was
    drawn_games: int = 0  # two players: counted games that were draws
    #: two players: the candidate's game results in the counted pairs (losses, draws, wins)
    games_ldw: list[int] = field(default_factory=lambda: [0, 0, 0])

    def __post_init__(self) -> None:
        self.counts = [0] * (5 if self.schedule.players == 2 else 3)
        lower, upper = bounds(self.spec.alpha, self.spec.beta)
        self.state = SprtState(0.0, lower, upper)

    @property
    def labels(self) -> tuple[str, ...]:
        return PENTANOMIAL if len(self.counts) == 5 else TRINOMIAL

    @property
    def done(self) -> bool:
        return self.decided_at is not None

    def add(self, index: int, outcome: GameResult) -> None:
        if self.done:
            return  # games in flight after the decision are logged, not counted
        pair = index // 2
        other = self.pending.pop(pair, None)
        if other is None:
            self.pending[pair] = outcome
            return
        first, second = (other, outcome) if index % 2 else (outcome, other)
        if "error" in (first.termination, second.termination):
            self.skipped_pairs += 1
        else:
            self.counts[self._bucket(pair, first, second)] += 1
            self.pairs += 1
            if self.schedule.players == 2:
                self.drawn_games += sum(not o.winners for o in (first, second))
                for seat, game in ((0, first), (1, second)):  # the candidate's seat
                    self.games_ldw[round(2 * game_share(game, seat))] += 1
        if (
            self.pairs
            and self.pairs % self.spec.batch == 0
            or 2 * (pair + 1) >= self.schedule.total
        ):
            self.look()

    def _bucket(self, pair: int, first: GameResult, second: GameResult) -> int:
        sched = self.schedule
        if sched.players == 2:  # candidate sits in seat 0 of the first game, 1 of the second
            total = game_share(first, 0) + game_share(second, 1)
            return round(total * 2)
        seat = pair % sched.players
        if sched.players == 1:
            a, b = first.scores, second.scores
            key_a = a[0] if a else float("-inf")
            key_b = b[0] if b else float("-inf")
        else:
            lost = float("-inf")  # a forfeit scores below any real score
            key_a = (game_share(first, seat), first.scores[seat] if first.scores else lost)
            key_b = (game_share(second, seat), second.scores[seat] if second.scores else lost)
        return 2 if key_a > key_b else 0 if key_a < key_b else 1

    def look(self) -> None:
        if self.resized is None and self.pairs >= self.spec.batch and self.sizing is not None:
            self._resize()
        self.state = sprt(
            self.counts, self.spec.elo0, self.spec.elo1, self.spec.alpha, self.spec.beta
        )
        if self.state.verdict is not None:
            self.decided_at = self.pairs

    def observed_draw_rate(self) -> float:
        """Draws per game (two players) or equal results per seed so far."""
        if self.schedule.players == 2:
            return self.drawn_games / (2 * self.pairs) if self.pairs else 0.0
        return self.counts[1] / self.pairs if self.pairs else 0.0

    def _resize(self) -> None:
        """Size the test again with the first batch's draw rate in place of the
        assumed one. Whether the cap is then too small matters only if the gate ends
        without a decision: the verdict says so then
        (:func:`simcli.gating.verdict.summarize`), not now."""
        import dataclasses

        from simcli.gating.sizing import spec_sizing

        self.resized_draw_rate = rate = min(self.observed_draw_rate(), 0.99)
        self.resized_after = self.pairs
        spec = dataclasses.replace(self.spec, draw_rate=rate)
        self.resized = spec_sizing(spec, self.schedule.players)

    @property
    def unit(self) -> str:
        return "pairs" if len(self.counts) == 5 else "seeds"

    def status(self) -> str:
        st = self.state
        return f"LLR {st.llr:+.2f} [{st.lower:+.2f}, {st.upper:+.2f}] pairs {self.pairs}"
