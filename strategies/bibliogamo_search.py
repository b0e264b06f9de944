"""``bibliogamo_search``: a rollout planner over sampled decks for the Bibliogamo solitaire.

At a hire decision (the decisions where the planner's judgement is most approximate:
~75 a game, ~45 legal moves each) the search compares a few candidate hires on sampled
orders of the unseen cards and plays the one whose continuations score best; every
other decision is the planner's.

1. candidates: the ``bibliogamo_planner``'s own hire and the first hires of its next
   best plans (each first hire valued by the best plan of the turn that starts with it;
   stopping counts as a plan), at most ``candidates`` of them and only those within
   ``margin`` of the planner's best plan value;
2. on each of ``samples`` determinisations (``game.determinize(view, self.rng)``: only
   the order of the unseen cards is sampled; their contents are public) every candidate
   is played and the game continued by the planner to the end of the turn and
   ``turns`` more turns (to the end of the game without ``turns``), with common random
   numbers: all candidates of one sample share the deck order and the seed of the
   chance events inside the continuations (reshuffles), so what differs is the move;
3. a continuation is valued by ``game.evaluate`` where it was cut, by the final score
   where the game ended; the candidate with the best sum is played, the planner's own
   hire wins ties and gets ``keep`` extra per sample.

The search starts at turn ``from_turn`` (before it, and at every decision not in
``steps``, the planner decides alone). The defaults are the setting measured on the
ladder config: not stronger than the planner (docs/search-strategies.md).

Budget: at most ``samples`` x ``candidates`` continuations a decision, counts only, so
the same seed plays the same moves on any machine and with any worker count. Randomness:
``self.rng`` only.

:class:`PlannerSearch` (also the base of ``bibliogamo_endgame``) holds the planner and
values a candidate by the planner's continuation (:func:`planner_continuation`, the search
core's continuation routine); the comparison is the core's with the pick rule
:class:`~simcli_strategies.search.compare.BestTotal`.
"""

from __future__ import annotations

import random
from typing import Any

from simcli.game import Move, State
from simcli_strategies.bibliogamo_planner import BibliogamoPlanner
from simcli_strategies.search.common import check_float, check_int, check_params, check_steps
from simcli_strategies.search.compare import BestTotal, Sample, SampledSearch, sampled_deals
from simcli_strategies.search.continuation import continuation

#: Decisions the search may take over from the planner.
SEARCHABLE = ("hire", "unblock", "price")


class PlannerSearch(SampledSearch):
    """A search over the Bibliogamo planner: the planner (its own RNG drawn first from the
    strategy's at the start of a game) decides where the search does not, names the
    candidates, and plays every continuation."""

    games = ("bibliogamo",)

    def set_planner(self, planner: dict[str, Any] | None) -> None:
        self.planner_params = check_params("planner", planner)
        self.planner = BibliogamoPlanner(**self.planner_params)
        #: the last searched decision: candidate move -> summed value
        self.last_values: dict[Any, float] = {}
        #: where continuations stop (a turn, or None: the end of the game)
        self.stop_turn: int | None = None

    def start_game(self, game: Any, seat: int, rng: random.Random) -> None:
        super().start_game(game, seat, rng)
        self.planner.start_game(game, seat, random.Random(rng.getrandbits(64)))

    def value(self, after: State, sample: Sample) -> float:
        """The planner's continuation of ``after`` (chance from the sample's seed, shared
        by every candidate) to the end of the game, or of turn ``stop_turn``."""
        chance = random.Random(sample.seed)
        return planner_continuation(self.planner, self.game, after, chance, self.stop_turn)


class BibliogamoSearch(PlannerSearch):
    description = (
        "Bibliogamo: the planner's top hires compared by planner continuations on sampled "
        "deck orders (common random numbers); params: samples, candidates, turns, margin, keep"
    )

    def __init__(
        self,
        samples: int = 10,
        candidates: int = 3,
        turns: int | None = None,
        margin: float = 1.0,
        keep: float = 0.0,
        from_turn: int = 28,
        steps: list[str] | tuple[str, ...] = ("hire",),
        planner: dict[str, Any] | None = None,
    ) -> None:
        self.from_turn = check_int("from_turn", from_turn, 1)
        self.steps = check_steps(steps, SEARCHABLE)
        self.samples = check_int("samples", samples, 1)
        self.candidates = check_int("candidates", candidates, 1)
        self.turns = check_int("turns", turns, 0, allow_none=True)
        self.margin = check_float("margin", margin, 0.0)
        self.keep = check_float("keep", keep, 0.0)
        self.rule = BestTotal(self.keep, 1e-9)
        self.set_planner(planner)

    # ------------------------------------------------------------------ the decision
    def candidate_moves(self, view: Any, legal_moves: list[Move]) -> list[Move]:
        """A hire: the planner's hire, then the first hires of its next best plans (at
        most ``candidates``, within ``margin`` of the best plan). An unblock or a price
        (a few moves): the planner's move, then the others in order."""
        if view.step != "hire":
            own = self.planner.choose(view, legal_moves)
            return [own] + [m for m in legal_moves if m != own][: self.candidates - 1]
        best, plan, ranked = self.planner.first_hires(view)
        towers = view.comp.towers
        out = [hire_move(towers, plan[0] if plan else None)]
        legal = set(legal_moves)
        for first, value in ranked:
            if len(out) >= self.candidates or value < best - self.margin:
                break
            move = hire_move(towers, first)
            if move not in out and move in legal:
                out.append(move)
        return out

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        self.last_values = {}
        s: Any = view
        if s.step not in self.steps or len(legal_moves) == 1 or s.turn < self.from_turn:
            return self.planner.choose(view, legal_moves)
        chosen = self.candidate_moves(s, legal_moves)
        if len(chosen) == 1:
            return chosen[0]
        self.stop_turn = None if self.turns is None else s.turn + self.turns
        return self.compare(chosen, sampled_deals(self.game, view, self.rng, self.samples))


def hire_move(towers: Any, first: tuple[int, int, int] | None) -> Move:
    """The move of a planner's hire (card played, card paid, tower index); ``done`` for
    None (stopping)."""
    return "done" if first is None else f"hire {first[0]} {first[1]} {towers[first[2]].id}"


def planner_continuation(
    planner: BibliogamoPlanner,
    game: Any,
    state: Any,
    chance: random.Random,
    stop: int | None = None,
) -> float:
    """Play ``planner`` on ``state`` (chance events from ``chance``) until the game ends,
    then the final score; or until turn ``stop`` is over, then ``game.evaluate``."""

    def plays(st: Any, seat: int, moves: list[Move]) -> Move:
        return planner.choose(st, moves)

    plays.trusted = True  # type: ignore[attr-defined]  # the planner answers a legal move

    def score(st: Any, finished: bool) -> float:
        return float(st.score()) if finished else game.evaluate(st, 0)

    past = None if stop is None else (lambda st: st.turn > stop)
    return continuation(state, chance, plays, score, stop=past, forced=True)
