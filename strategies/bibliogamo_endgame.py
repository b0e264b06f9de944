"""``bibliogamo_endgame``: an endgame search over the planner's last decisions in Bibliogamo.

``bibliogamo_search`` compared hires from turn 28 on and was no better than the planner on
the ladder: once a search departs from the planner the hands differ and ~12 turns of play
diverge, so paired differences are mostly noise. This search acts only in the last days
(``from_day`` on the time track), where the rest of the game is short, the final score
(books + florins // 5 + prestige) is cheap to reach exactly, and the planner's rules are
approximate: a fixed value of a day for re-draws (a re-draw near the end can cost the
last sale), walks valued by florins / 5 instead of the rounded score, hires judged by
tower potentials rather than by whether the book can still be sold.

1. candidates (the planner's own move first):
   * ``hire``: the planner's hire, the hires that complete a tower (for each tower the
     best by the planner's plan value), ``done``, then the first hires of the planner's
     next best plans, at most ``candidates`` in all;
   * ``walk``: the planner's move, ``stay`` and the shortest walk each way to every
     complete tower the florins reach;
   * ``price``: accept / redraw; ``unblock``: keep and every unblocking card;
2. on each sample (``game.determinize(view, self.rng)``: the unseen cards' order) every
   candidate is played and the game finished by the planner, with common random numbers:
   one deck order and one seed for the reshuffles per sample, shared by every candidate;
3. an alternative is played only with evidence that it is better: its mean paired
   difference from the planner's move over the samples must exceed ``keep`` VP and be
   more than ``z`` standard errors above zero (a departure on noise changes the hand and
   so the rest of the game, turning ties into coin flips); of those that pass, the best
   mean wins, the planner's move otherwise (and on ties).

Samples per decision: ``work`` // (candidates x days left including this one), at least
``min_samples`` and at most ``max_samples`` (a continuation costs about one planner turn
per day left, so the work per decision stays about constant and the last days get the
most samples). Counts only: the same seed plays the same moves on any machine.
Randomness: ``self.rng`` only.

Built on :class:`~simcli_strategies.bibliogamo_search.PlannerSearch` (the planner and its
continuations) with the search core's pick rule
:class:`~simcli_strategies.search.compare.PairedEvidence`.
"""

from __future__ import annotations

from typing import Any

from simcli.game import Move, State
from simcli_strategies.bibliogamo_planner import LAST_DAY
from simcli_strategies.bibliogamo_search import PlannerSearch, hire_move
from simcli_strategies.search.common import check_float, check_int, check_steps
from simcli_strategies.search.compare import PairedEvidence, sampled_deals

#: Decisions the search may take over from the planner.
SEARCHABLE = ("hire", "walk", "price", "unblock")


class BibliogamoEndgame(PlannerSearch):
    description = (
        "Bibliogamo: the planner, with its hires, walks, re-draws and unblocks of the last "
        "days compared by planner continuations to the end on sampled deck orders"
    )

    def __init__(
        self,
        from_day: int = 35,
        work: int = 300,
        min_samples: int = 6,
        max_samples: int = 48,
        candidates: int = 4,
        keep: float = 0.0,
        z: float = 2.0,
        steps: list[str] | tuple[str, ...] = SEARCHABLE,
        planner: dict[str, Any] | None = None,
    ) -> None:
        self.from_day = check_int("from_day", from_day, 1)
        self.steps = check_steps(steps, SEARCHABLE)
        self.work = check_int("work", work, 1)
        self.min_samples = check_int("min_samples", min_samples, 1)
        self.max_samples = check_int("max_samples", max_samples, self.min_samples)
        self.candidates = check_int("candidates", candidates, 1)
        self.keep = check_float("keep", keep, 0.0)
        self.z = check_float("z", z, 0.0)
        #: an alternative replaces the planner's move only on this much evidence
        self.rule = PairedEvidence(self.z, self.keep)
        self.set_planner(planner)
        #: the number of samples of the last searched decision
        self.last_samples = 0

    # ------------------------------------------------------------------ candidates
    def candidate_moves(self, view: Any, legal_moves: list[Move]) -> list[Move]:
        """The planner's move first, then the alternatives worth comparing (module doc)."""
        own = self.planner.choose(view, legal_moves)
        step = view.step
        if step == "hire":
            extra = self._hire_alternatives(view, legal_moves)
        elif step == "walk":
            extra = self._walk_alternatives(view, legal_moves)
        else:  # price (accept / redraw), unblock (keep / unblock C): all of them
            extra = list(legal_moves)
        out = [own]
        for move in extra:
            if len(out) >= self.candidates and step == "hire":
                break
            if move not in out:
                out.append(move)
        return out

    def _hire_alternatives(self, s: Any, legal_moves: list[Move]) -> list[Move]:
        _, _, ranked = self.planner.first_hires(s)
        towers = s.comp.towers
        legal = set(legal_moves)

        completing: list[Move] = []
        done_towers: set[int] = set()
        for first, _ in ranked:  # the best-valued first hire that completes each tower
            if first is None or first[2] in done_towers:
                continue
            t = first[2]
            if s.tower_complete(t):
                continue
            gain = s.hire_gain(first[0], t)
            if len(gain) and sum(s.towers[t]) + len(gain) == towers[t].size:
                done_towers.add(t)
                completing.append(hire_move(towers, first))
        rest = [hire_move(towers, first) for first, _ in ranked]
        return [m for m in [*completing, "done", *rest] if m in legal]

    @staticmethod
    def _walk_alternatives(s: Any, legal_moves: list[Move]) -> list[Move]:
        n = s.comp.spaces
        legal = set(legal_moves)
        out: list[Move] = ["stay"]
        for t, tower in enumerate(s.comp.towers):
            if not s.tower_complete(t):
                continue
            d = (tower.space - s.librarian) % n
            if d == 0:
                continue
            for move in (f"walk +{d}", f"walk -{n - d}"):
                if move in legal:
                    out.append(move)
        return out

    # ------------------------------------------------------------------ the decision
    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        self.last_values = {}
        self.last_samples = 0
        s: Any = view
        if s.step not in self.steps or len(legal_moves) == 1 or s.time < self.from_day:
            return self.planner.choose(view, legal_moves)
        chosen = self.candidate_moves(s, legal_moves)
        if len(chosen) == 1:
            return chosen[0]
        days = LAST_DAY - s.time + 1
        samples = self.work // (len(chosen) * days)
        samples = max(self.min_samples, min(self.max_samples, samples))
        move = self.compare(chosen, sampled_deals(self.game, view, self.rng, samples))
        self.last_samples = samples
        return move
