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

Rollouts: ``random`` (default), ``greedy`` (one ply with ``game.evaluate``, random with
probability ``rollout_epsilon``), or any strategy name / ``module:Class`` (constructed with
default parameters, one per seat, sharing the search's RNG). ``rollout_depth`` stops a
rollout after that many decisions and scores it by ``game.evaluate`` (the leaders share the
win; in ``score`` mode the evaluation margins, for finished games too, so that both are on
one scale). Rewards: see ``strategies/search_common.py`` (a draw is worth 1/n to each
seat).
"""

from __future__ import annotations

import time
from math import log, sqrt
from typing import Any

from simcli.game import CHANCE, TERMINAL, Game, Move, State
from simcli.strategy import Strategy
from simcli_strategies.is_search import ismcts_search
from simcli_strategies.search_common import (
    REWARD_MODES,
    check_float,
    check_int,
    check_rollout,
    make_policy,
    move_key,
    resolve_reward,
    rollout,
    terminal_rewards,
)

INF = float("inf")


class Node:
    """One position of the tree. ``seat`` is the player to move there (or CHANCE /
    TERMINAL); ``mover`` the seat whose move led here (-1 below a chance node or at the
    root); ``w`` the sum of ``mover``'s rewards over the ``n`` visits."""

    __slots__ = (
        "seat",
        "mover",
        "n",
        "w",
        "untried",
        "moves",
        "kids",
        "outcomes",
        "solved",
        "solved_move",
    )

    def __init__(self, seat: int, mover: int):
        self.seat = seat
        self.mover = mover
        self.n = 0
        self.w = 0.0
        self.untried: list[Move] = []
        self.moves: list[Move] = []  # moves of the expanded children, in expansion order
        self.kids: list[Node] = []
        self.outcomes: dict[Any, Node] | None = None  # chance nodes: outcome key -> child
        self.solved: tuple[float, ...] | None = None
        self.solved_move: Move = None


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

    def start_game(self, game: Game, seat: int, rng) -> None:
        super().start_game(game, seat, rng)
        self._policy_ready = False
        self._tree: Node | None = None  # reusable subtree after our last move
        self._tree_state: State | None = None
        self._mode = "win"

    def _prepare(self, players: int) -> None:
        if not self._policy_ready:
            self._mode = resolve_reward(self.reward, players)
            self._policy = make_policy(
                self.rollout, self.game, players, self.rng, self.rollout_epsilon
            )
            self._policy_ready = True

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        self._prepare(view.players)
        if not self.game.perfect_information:
            return ismcts_search(self, view, legal_moves)
        return self._search(view.clone(), legal_moves)

    # -- the search ------------------------------------------------------------------------

    def _new_node(self, state: State, mover: int) -> Node:
        seat = state.current_player
        node = Node(seat, mover)
        if seat == TERMINAL:
            node.solved = terminal_rewards(state, self._mode, self.game, self.rollout_depth)
        elif seat == CHANCE:
            node.outcomes = {}
        else:
            node.untried = state.legal_moves()
            if self.decisive and self._mode == "win":
                for move in node.untried:
                    after = state.clone()
                    after.apply_trusted(move)
                    if after.current_player == TERMINAL:
                        value = terminal_rewards(after, "win")
                        if value[seat] == 1.0:
                            node.solved = value
                            node.solved_move = move
                            break
        return node

    def _find_reused(self, state: State) -> Node | None:
        """The expanded descendant of the kept subtree whose position equals ``state``."""
        tree, base = self._tree, self._tree_state
        self._tree = self._tree_state = None
        if tree is None or base is None or not self.reuse:
            return None
        seat = state.current_player
        budget = [4000]  # positions compared at most

        def walk(node: Node, pos: State) -> Node | None:
            if node.seat == seat and pos == state:
                return node
            if node.seat < 0 or budget[0] <= 0:  # chance, terminal: outcomes not matched
                return None
            for move, kid in zip(node.moves, node.kids, strict=True):
                budget[0] -= 1
                if budget[0] <= 0:
                    return None
                nxt = pos.clone()
                nxt.apply_trusted(move)
                found = walk(kid, nxt)
                if found is not None:
                    return found
            return None

        return walk(tree, base)

    def _search(self, state: State, legal_moves: list[Move]) -> Move:
        root = self._find_reused(state)
        if root is None:
            root = self._new_node(state, -1)
        root.mover = -1
        rng = self.rng
        game = self.game
        policy = self._policy
        depth = self.rollout_depth
        mode = self._mode
        c = self.c
        iterate_score = mode == "score"
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        lo, hi = INF, -INF  # range of rewards seen (score mode)
        done = 0
        for done in range(1, self.iterations + 1):  # noqa: B007
            if root.solved is not None:
                done -= 1
                break
            pos = state.clone()
            node = root
            path = [node]
            rewards: tuple[float, ...] | None = None
            # selection and expansion
            while True:
                if node.solved is not None:
                    rewards = node.solved
                    break
                seat = node.seat
                if seat == CHANCE:
                    outcome = pos.sample_chance(rng)
                    pos.apply_trusted(outcome)
                    key = move_key(outcome)
                    kid = node.outcomes.get(key)  # type: ignore[union-attr]
                    if kid is None:
                        kid = self._new_node(pos, -1)
                        node.outcomes[key] = kid  # type: ignore[index]
                        path.append(kid)
                        node = kid
                        rewards = kid.solved
                        break
                    path.append(kid)
                    node = kid
                    continue
                untried = node.untried
                if untried:
                    i = rng.randrange(len(untried))
                    move = untried[i]
                    untried[i] = untried[-1]
                    untried.pop()
                    pos.apply_trusted(move)
                    kid = self._new_node(pos, seat)
                    node.moves.append(move)
                    node.kids.append(kid)
                    path.append(kid)
                    node = kid
                    rewards = kid.solved
                    break
                # UCB1 over the expanded children
                kids = node.kids
                explore = c * sqrt(log(node.n))
                best_i = -1
                best_v = -INF
                if iterate_score:
                    scale = 1.0 / (hi - lo) if hi > lo else 1.0
                for i, kid in enumerate(kids):
                    solved = kid.solved
                    if solved is not None and mode == "win" and solved[seat] == 0.0:
                        continue  # a proven loss for the seat to move
                    kn = kid.n
                    mean = kid.w / kn
                    if iterate_score:
                        mean = (mean - lo) * scale
                    v = mean + explore / sqrt(kn)
                    if v > best_v:
                        best_v = v
                        best_i = i
                if best_i < 0:  # every child a proven loss: the node is solved below
                    best_i = 0
                pos.apply_trusted(node.moves[best_i])
                node = kids[best_i]
                path.append(node)
            if rewards is None:
                rewards = rollout(game, pos, rng, policy, depth, mode)
            if iterate_score:
                for r in rewards:
                    if r < lo:
                        lo = r
                    if r > hi:
                        hi = r
            for nd in path:
                nd.n += 1
                if nd.mover >= 0:
                    nd.w += rewards[nd.mover]
            if mode == "win" and node.solved is not None:
                self._propagate(path)
            if deadline is not None and time.perf_counter() > deadline:
                break
        self.last_iterations = done
        self.last_root = root
        move = self._best_move(root, legal_moves)
        if self.reuse and root.seat >= 0:
            for m, kid in zip(root.moves, root.kids, strict=True):
                if m == move:
                    after = state.clone()
                    after.apply_trusted(move)
                    self._tree, self._tree_state = kid, after
                    break
        return move

    @staticmethod
    def _propagate(path: list[Node]) -> None:
        """Mark proven nodes bottom-up along ``path`` (win mode)."""
        for nd in reversed(path[:-1]):
            if nd.solved is not None:
                continue
            seat = nd.seat
            if seat < 0:  # chance nodes are never proven here
                return
            best = None
            best_move = None
            complete = not nd.untried
            for move, kid in zip(nd.moves, nd.kids, strict=True):
                s = kid.solved
                if s is None:
                    complete = False
                    continue
                if s[seat] == 1.0:
                    best, best_move, complete = s, move, True
                    break
                if best is None or s[seat] > best[seat]:
                    best, best_move = s, move
            if not complete or best is None:
                return
            nd.solved = best
            nd.solved_move = best_move

    def _best_move(self, root: Node, legal_moves: list[Move]) -> Move:
        if root.solved is not None and root.solved_move is not None:
            return root.solved_move
        best = None
        best_key = None
        seat = root.seat
        for move, kid in zip(root.moves, root.kids, strict=True):
            solved = kid.solved
            proven = -1 if solved is None else (1 if solved[seat] > 0.0 else -2)
            if proven == -2 and self._mode == "win":
                key = (-1, kid.n, kid.w / kid.n if kid.n else 0.0)
            else:
                key = (0, kid.n, kid.w / kid.n if kid.n else 0.0)
            if best_key is None or key > best_key:
                best, best_key = move, key
        if best is None:  # no iteration expanded anything (budget 0 or time)
            return legal_moves[self.rng.randrange(len(legal_moves))]
        return best
