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
"""

from __future__ import annotations

import random
from typing import Any

from simcli.game import CHANCE, TERMINAL, Move, State
from simcli.strategy import Strategy
from simcli_strategies.bibliogamo_planner import BibliogamoPlanner
from simcli_strategies.search_common import check_float, check_int, check_steps, first_best

#: Decisions the search may take over from the planner.
SEARCHABLE = ("hire", "unblock", "price")


class BibliogamoSearch(Strategy):
    description = (
        "Bibliogamo: the planner's top hires compared by planner continuations on sampled "
        "deck orders (common random numbers); params: samples, candidates, turns, margin, keep"
    )
    games = ("bibliogamo",)

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
        if planner is not None and not isinstance(planner, dict):
            raise ValueError(f"planner must be a mapping of planner params, got {planner!r}")
        self.planner_params = dict(planner or {})
        self._planner = BibliogamoPlanner(**self.planner_params)
        #: the last searched decision: candidate move -> summed value
        self.last_values: dict[Move, float] = {}

    def start_game(self, game: Any, seat: int, rng: random.Random) -> None:
        super().start_game(game, seat, rng)
        self._planner.start_game(game, seat, random.Random(rng.getrandbits(64)))

    # ------------------------------------------------------------------ the decision
    def candidate_moves(self, view: Any, legal_moves: list[Move]) -> list[Move]:
        """The planner's hire first, then the first hires of its next best plans."""
        planner = self._planner
        firsts: dict[tuple[int, int, int] | None, float] = {}
        best, plan = planner._best_plan(view, list(view.hand), view.hires, view.unblocked, firsts)
        towers = view.comp.towers
        ranked = sorted(firsts.items(), key=lambda kv: -kv[1])
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
            return self._planner.choose(view, legal_moves)
        if s.step == "hire":
            chosen = self.candidate_moves(s, legal_moves)
        else:  # a few moves (keep / unblock C, accept / redraw): the planner's first
            own = self._planner.choose(view, legal_moves)
            chosen = [own] + [m for m in legal_moves if m != own][: self.candidates - 1]
        if len(chosen) == 1:
            return chosen[0]
        game, rng = self.game, self.rng
        stop = None if self.turns is None else s.turn + self.turns
        values = sampled_continuations(self._planner, game, view, rng, chosen, self.samples, stop)
        totals = [sum(v) for v in values]
        totals[0] += self.keep * self.samples
        self.last_values = dict(zip(chosen, totals, strict=True))
        return chosen[first_best(totals, 1e-9)]


def hire_move(towers: Any, first: tuple[int, int, int] | None) -> Move:
    """The move of a planner's hire (card played, card paid, tower index); ``done`` for
    None (stopping)."""
    return "done" if first is None else f"hire {first[0]} {first[1]} {towers[first[2]].id}"


def sampled_continuations(
    planner: BibliogamoPlanner,
    game: Any,
    view: Any,
    rng: random.Random,
    moves: list[Move],
    samples: int,
    stop: int | None = None,
) -> list[list[float]]:
    """Each of ``moves`` played on ``samples`` determinisations of ``view`` (drawn from
    ``rng``) and continued by ``planner`` (:func:`continue_with`), with common random
    numbers: every move of a sample gets the same deck order and the same seed for the
    chance events of its continuation. The values, by move, then by sample."""
    values: list[list[float]] = [[] for _ in moves]
    for _ in range(samples):
        state = game.determinize(view, rng)
        seed = rng.getrandbits(64)
        for c, move in enumerate(moves):
            after = state.clone()
            after.apply_trusted(move)
            values[c].append(continue_with(planner, game, after, random.Random(seed), stop))
    return values


def continue_with(
    planner: BibliogamoPlanner,
    game: Any,
    state: Any,
    chance: random.Random,
    stop: int | None = None,
) -> float:
    """Play ``planner`` on ``state`` (chance events from ``chance``) until the game ends,
    then the final score; or until turn ``stop`` is over, then ``game.evaluate``."""
    while True:
        player = state.current_player
        if player == TERMINAL:
            return float(state.score())
        if player == CHANCE:
            state.apply(state.sample_chance(chance))
            continue
        if stop is not None and state.turn > stop:
            return game.evaluate(state, 0)
        moves = state.legal_moves()
        state.apply_trusted(moves[0] if len(moves) == 1 else planner.choose(state, moves))
