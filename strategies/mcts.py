"""``mcts``: Monte Carlo tree search (UCT) for any game of the contract.

Every iteration copies the position, walks down the tree choosing at each node the move
with the best UCB1 value *for the seat to move there* (max^n: 1-4 players), adds one new
node, finishes the game with a rollout policy and credits every node on the path with the
reward of the seat that chose it. Chance turns are nodes whose children are the sampled
outcomes (``state.sample_chance(self.rng)`` on the search's own copy).

* Budget: ``iterations`` per move (deterministic for a given seed). ``time_limit`` adds an
  optional wall-clock cap in seconds: the search stops at whichever comes first, and the
  choice then depends on the machine's speed (never the default).
* Proven values (a light MCTS-Solver): a terminal node is exact; a node whose seat to move
  has a child in which that seat wins outright is a proven win; a node all of whose
  children are proven takes the best of them. Proven losses are skipped by the selection,
  and a proven win at the root is played at once. ``decisive: true`` also tests every move
  of a new node for an immediate win (costly: one copy per move; useful in games with
  huge branching and sudden wins such as ``library``).
* Tree reuse: after its move the strategy keeps the subtree; on its next turn it looks
  among the expanded descendants for the position it is shown (the other seats' moves)
  and keeps searching from there. It only does so in perfect-information games, and starts
  a fresh tree when the position is not found (e.g. after an unexpanded reply or a chance
  event).
* Hidden-information games are searched as ``ismcts`` does (see ``strategies/ismcts.py``):
  every iteration starts from ``game.determinize(view, self.rng)``.

The search itself is the search core's (:class:`simcli_strategies.search.tree.TreeSearch`);
this module reads the parameters and keeps the subtree between moves.

Rollouts: ``random`` (default), ``greedy`` (one ply with ``game.evaluate``, random with
probability ``rollout_epsilon``), or any strategy name / ``module:Class`` (constructed with
default parameters, one per seat, sharing the search's RNG). ``rollout_depth`` stops a
rollout after that many decisions and scores it by ``game.evaluate`` (the leaders share the
win; in ``score`` mode the evaluation margins, for finished games too, so that both are on
one scale). Rewards: see ``strategies/search/common.py`` (a draw is worth 1/n to each
seat).
"""

from __future__ import annotations

import random

from simcli.game import Game, Move, State
from simcli.strategy import Strategy
from simcli_strategies.search.common import REWARD_MODES, check_float, check_int, resolve_reward
from simcli_strategies.search.continuation import check_rollout, make_policy
from simcli_strategies.search.tree import Node, TreeSearch, find_reused


class MCTSStrategy(Strategy):
    description = (
        "Monte Carlo tree search (UCT, max^n for 1-4 seats, sampled chance, tree reuse); "
        "params: iterations, c, rollout, rollout_depth, decisive, reuse"
    )

    def __init__(
        self,
        iterations: int = 1000,
        c: float = 0.4,
        rollout: str = "random",
        rollout_depth: int | None = None,
        rollout_epsilon: float = 0.1,
        reward: str = "auto",
        decisive: bool = False,
        reuse: bool = True,
        time_limit: float | None = None,
    ):
        self.iterations = check_int("iterations", iterations, 1)
        self.c = check_float("c", c, 0.0)
        self.rollout = check_rollout(rollout)
        self.rollout_depth = check_int("rollout_depth", rollout_depth, 0, allow_none=True)
        eps = check_float("rollout_epsilon", rollout_epsilon, 0.0)
        if eps > 1.0:
            raise ValueError(f"rollout_epsilon must be between 0 and 1, got {rollout_epsilon!r}")
        self.rollout_epsilon = eps
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)}, got {reward!r}")
        self.reward = reward
        if not isinstance(decisive, bool) or not isinstance(reuse, bool):
            raise ValueError("decisive and reuse must be true or false")
        self.decisive = decisive
        self.reuse = reuse
        self.time_limit = check_float("time_limit", time_limit, 0.0, allow_none=True)
        #: statistics of the last search (for tests and benchmarks)
        self.last_iterations = 0
        self.last_root: Node | None = None

    # -- per game ------------------------------------------------------------------------

    def start_game(self, game: Game, seat: int, rng: random.Random) -> None:
        super().start_game(game, seat, rng)
        self._search: TreeSearch | None = None
        self._tree: Node | None = None  # reusable subtree after our last move
        self._tree_state: State | None = None

    def searcher(self, players: int) -> TreeSearch:
        """This game's search settings (made at the first decision, when the number of
        players is known): the rollout policy shares this strategy's RNG."""
        if self._search is None:
            game, rng = self.game, self.rng
            self._search = TreeSearch(
                game,
                rng,
                iterations=self.iterations,
                c=self.c,
                policy=make_policy(self.rollout, game, players, rng, self.rollout_epsilon),
                depth=self.rollout_depth,
                mode=resolve_reward(self.reward, players),
                decisive=self.decisive,
                time_limit=self.time_limit,
            )
        return self._search

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        search = self.searcher(view.players)
        if self.game.perfect_information:
            move = self._uct(search, view.clone(), legal_moves)
        else:
            move = search.ismcts(view, legal_moves)
        self.last_iterations = search.last_iterations
        self.last_root = search.last_root  # type: ignore[assignment]
        return move

    def _uct(self, search: TreeSearch, state: State, legal_moves: list[Move]) -> Move:
        """UCT from the kept subtree where it holds ``state``; keeps the subtree of the
        move played (with ``reuse``)."""
        tree, base = self._tree, self._tree_state
        self._tree = self._tree_state = None
        root = find_reused(tree, base, state) if self.reuse else None
        move = search.uct(state, legal_moves, root)
        root = search.last_root
        if self.reuse and root.seat >= 0:  # type: ignore[union-attr]
            for m, kid in zip(root.moves, root.kids, strict=True):  # type: ignore[union-attr]
                if m == move:
                    after = state.clone()
                    after.apply_trusted(move)
                    self._tree, self._tree_state = kid, after
                    break
        return move
