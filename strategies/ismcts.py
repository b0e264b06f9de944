"""``ismcts``: information-set Monte Carlo tree search for hidden-information games.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012) with determinisation:

* every iteration draws a full state with ``self.game.determinize(view, self.rng)`` -- the
  only way the search ever gets a complete state; the true state is never seen;
* one tree, keyed by move sequences from the strategy's own information set (the nodes of
  other seats stand for their moves as seen from this seat's point of view);
* at a node, only the children whose move is legal in this iteration's determinisation
  compete; UCB uses the *availability* count (how often a child could have been chosen)
  instead of the parent's visit count;
* chance turns are sampled (``state.sample_chance(self.rng)``) and are transparent to the
  tree;
* rollouts, rewards, ``rollout_depth`` and the optional ``time_limit`` work as in ``mcts``.

The tree is rebuilt at every move (no reuse: the next information set is not a node of
the old tree in general). On a perfect-information game ``determinize`` returns a copy of
the view and ``ismcts`` is open-loop UCT.
"""

from __future__ import annotations

from simcli.game import Move, State
from simcli_strategies.mcts import MCTSStrategy


class ISMCTSStrategy(MCTSStrategy):
    description = (
        "information-set MCTS: every iteration on a determinisation of the view "
        "(game.determinize), availability-count UCB; params: iterations, c, rollout, "
        "rollout_depth"
    )

    def __init__(
        self,
        iterations: int = 1000,
        c: float = 0.4,
        rollout: str = "random",
        rollout_depth: int | None = None,
        rollout_epsilon: float = 0.1,
        reward: str = "auto",
        time_limit: float | None = None,
    ):
        super().__init__(
            iterations=iterations,
            c=c,
            rollout=rollout,
            rollout_depth=rollout_depth,
            rollout_epsilon=rollout_epsilon,
            reward=reward,
            reuse=False,
            time_limit=time_limit,
        )

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        search = self.searcher(view.players)
        move = search.ismcts(view, legal_moves)
        self.last_iterations = search.last_iterations
        self.last_root = search.last_root  # type: ignore[assignment]
        return move
