"""``rollout_search``: one step of policy improvement over a heuristic, on determinisations.

The *rollout algorithm* (Bertsekas, Tsitsiklis and Wu 1997; Tesauro and Galperin 1996 for
backgammon) applied to hidden cards with perfect-information Monte Carlo sampling:

1. the base ``policy`` (a strategy, usually the game's hand-written heuristic) names its
   move for the real view; that move is always a candidate;
2. every legal move is played once on one determinisation of the view and valued (the
   base policy's ``position_value(state, seat)`` where it has one, else
   ``game.evaluate``): a move that ends the game with this seat the only winner is
   played at once; the ``candidates - 1`` best other moves join the base policy's move;
3. for each of ``samples`` determinisations (``game.determinize(view, self.rng)``, the only
   way the search ever gets a full state), every candidate is played and the game is
   finished by the base policy on every seat (or cut after ``depth`` decisions and valued
   as in 2). All candidates of one sample share the determinisation and the random
   numbers of the rollout (common random numbers), so their difference is the difference
   the move makes, not luck of the draw;
4. the candidate with the best mean reward is played; the base policy's move wins ties
   and gets a bonus of ``keep`` (in reward units), so that a move only replaces the
   heuristic's when the samples say it is better.

With enough samples the improved policy is at least as good as the base policy (whose
move is one of the candidates, valued by the same rollouts); at small budgets the noise
of the comparison can cost as much as it gains (measured: docs/search-strategies.md).

Rewards of a rollout, for the seat searching: ``win`` -- 1 for the only winner, 1/k for
one of k winners, 0 for a loss (a cut rollout: the seats with the best evaluation share
the win); ``score`` -- the seat's final score (evaluation at a cut) minus the best other
seat's, or its own score in a one-player game (with cut rollouts a finished game is
valued on the scale of the cut ones, by ``game.evaluate``); ``auto`` -- ``score`` for one player,
``win`` otherwise. ``mixed`` -- the win reward plus ``margin_weight`` times the score
margin (ties broken by points).

The budget is ``samples`` x ``candidates`` rollouts a decision: counts, never wall-clock
time, so the same seed gives the same moves on any machine. Randomness: ``self.rng`` only
(determinisations, chance turns inside rollouts through ``state.sample_chance``, and the
seeds of the rollout policies' own generators).

Built on the search core: the comparison is :func:`simcli_strategies.search.compare.compare`
with the pick rule :class:`~simcli_strategies.search.compare.BestTotal`, each rollout is
:func:`simcli_strategies.search.continuation.continuation`. Public hooks for a subclass:
:meth:`RolloutSearch.preselect` (the moves besides the base policy's, best first),
:meth:`RolloutSearch.candidates_for` (the whole candidate list) and
:meth:`RolloutSearch.value` (a candidate's value on a sample).
"""

from __future__ import annotations

import random
from typing import Any

from simcli.game import TERMINAL, Move, State
from simcli.strategy import Strategy, load_strategy_class
from simcli_strategies.search.common import (
    check_float,
    check_int,
    check_params,
    margins,
    move_key,
    resolve_reward,
)
from simcli_strategies.search.compare import BestTotal, Sample, SampledSearch, sampled_deals
from simcli_strategies.search.continuation import continuation, seat_policy

REWARDS = ("auto", "win", "score", "mixed")


class RolloutSearch(SampledSearch):
    description = (
        "policy improvement over a heuristic: top candidates (the heuristic's move + best "
        "by evaluate) each finished by the heuristic on sampled determinisations; params: "
        "policy, policy_params, samples, candidates, depth, reward, keep"
    )

    def __init__(
        self,
        policy: str = "greedy",
        policy_params: dict[str, Any] | None = None,
        samples: int = 8,
        candidates: int = 4,
        depth: int | None = None,
        reward: str = "auto",
        keep: float = 0.0,
        margin_weight: float = 0.01,
    ) -> None:
        self.samples = check_int("samples", samples, 1)
        self.candidates = check_int("candidates", candidates, 1)
        self.depth = check_int("depth", depth, 0, allow_none=True)
        self.keep = check_float("keep", keep, 0.0)
        self.margin_weight = check_float("margin_weight", margin_weight, 0.0)
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        self.reward = reward
        policy_params = check_params("policy_params", policy_params)
        if not isinstance(policy, str) or not policy or policy == "rollout_search":
            raise ValueError(f"policy must be a strategy name, got {policy!r}")
        from simcli.errors import StrategyLoadError

        try:
            self.policy_class = load_strategy_class(policy)
            self.policy_class(**policy_params)
        except (StrategyLoadError, TypeError, ValueError) as exc:
            raise ValueError(f"policy {policy!r}: {exc}") from None
        self.policy = policy
        self.policy_params = policy_params
        self.rule = BestTotal(self.keep)
        #: root statistics of the last decision: candidate key -> summed reward
        self.last_values: dict[Any, float] = {}

    def start_game(self, game: Any, seat: int, rng: random.Random) -> None:
        super().start_game(game, seat, rng)
        #: the base policy, playing this seat on the real views (its own RNG drawn first)
        self.base = self.policy_class(**self.policy_params)
        self.base.start_game(game, seat, random.Random(rng.getrandbits(64)))
        self._rollers: list[Strategy] = []
        self._mode = "win"

    # -- the decision ----------------------------------------------------------------------

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        self.last_values = {}
        base = self.base
        base_move = base.choose(view.clone() if base.wants_view else None, list(legal_moves))
        if len(legal_moves) == 1:
            return legal_moves[0]
        players = view.players
        if not self._rollers:
            self._rollers = [self.policy_class(**self.policy_params) for _ in range(players)]
            self._continue = seat_policy(self._rollers, copy=False)
        self._mode = resolve_reward(self.reward, players)
        first = self.game.determinize(view, self.rng)
        chosen = self.candidates_for(view, legal_moves, base_move, first)
        if len(chosen) == 1:
            return chosen[0]
        return self.compare(
            chosen, sampled_deals(self.game, view, self.rng, self.samples, first=first)
        )

    def candidates_for(
        self, view: State, legal_moves: list[Move], base_move: Move, first: State
    ) -> list[Move]:
        """The base policy's move and the ``candidates - 1`` best others: those of
        :meth:`preselect`, or every legal move played once on ``first`` (the first
        determinisation) and ranked by :meth:`leaf_value`. A move that ends the game
        there with this seat the only winner is returned alone (played at once)."""
        base_key = move_key(base_move)
        preselected = self.preselect(view, legal_moves, base_move)
        if preselected is not None:
            others = [m for m in preselected if move_key(m) != base_key]
            return [base_move] + others[: self.candidates - 1]
        seat, players = self.seat, view.players
        ranked: list[tuple[float, int]] = []
        for index, move in enumerate(legal_moves):
            after = first.clone()
            after.apply_trusted(move)
            if after.current_player == TERMINAL and players > 1:
                if after.outcome().winners == (seat,):
                    return [move]
            if self.candidates > 1 and move_key(move) != base_key:
                ranked.append((-self.leaf_value(after, seat), index))
        ranked.sort()
        return [base_move] + [legal_moves[i] for _, i in ranked[: self.candidates - 1]]

    def preselect(self, view: State, legal_moves: list[Move], base_move: Move) -> list[Move] | None:
        """Moves to consider besides the base policy's, best first, without playing each
        once (a subclass may know a cheaper ranking); ``None``: play every legal move once
        on the first determinisation and rank by value (step 2 above)."""
        return None

    # -- values ----------------------------------------------------------------------------

    def value(self, after: State, sample: Sample) -> float:
        """Finish ``after`` (changed in place) with the base policy on every seat, or for
        ``depth`` decisions, and return the searching seat's reward. The sample's seed
        fixes the chance turns and the policies' generators (the same for every
        candidate). The policies get the rollout state itself (a determinisation: nothing
        of the real game is hidden from them there) and must not change it."""
        seed: int = sample.seed  # type: ignore[assignment]
        game = self.game
        for s, inst in enumerate(self._rollers):
            inst.start_game(game, s, random.Random(seed + 1 + s))
        return continuation(
            after,
            random.Random(seed),
            self._continue,
            self._reward_of,
            depth=self.depth,
            forced=True,
        )

    def _reward_of(self, state: State, finished: bool) -> float:
        return self.reward_of(state, self._mode)

    def leaf_value(self, state: State, seat: int) -> float:
        """The value of an unfinished position for ``seat``: the base policy's own
        ``position_value`` where it has one, else ``game.evaluate``."""
        if state.current_player != TERMINAL:
            value = getattr(self.base, "position_value", None)
            if value is not None:
                return value(state, seat)
        return self.game.evaluate(state, seat)

    def reward_of(self, state: State, mode: str) -> float:
        """The searching seat's reward of a finished or cut rollout (see the module
        docstring). Finished and cut positions are valued on one scale: in ``score`` and
        ``mixed`` modes a finished game's margin comes from ``game.evaluate`` when
        rollouts are cut (Ada's Library's final scores are only 1 / 0)."""
        players = state.players
        me = self.seat
        finished = state.current_player == TERMINAL
        if finished and self.depth is None:
            values = list(state.outcome().scores)
        else:
            values = [self.leaf_value(state, s) for s in range(players)]
        margin = margins(values)[me]
        if mode == "score":
            return margin
        if finished:
            winners = state.outcome().winners
        else:
            top = max(values)
            winners = tuple(s for s, v in enumerate(values) if v == top)
        if not winners:
            win = 1.0 / players
        else:
            win = 1.0 / len(winners) if me in winners else 0.0
        if mode == "mixed":
            win += self.margin_weight * margin
        return win
