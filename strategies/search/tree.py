# cython: annotation_typing=False
"""Tree search: MCTS (UCT, max^n for 1-4 seats) and information-set MCTS.

:class:`TreeSearch` holds the settings of one strategy's searches for one game (the
game, the strategy's own RNG, the budget, the rollout policy and the reward mode) and
runs them:

* :meth:`TreeSearch.uct` on a full position (perfect information): every iteration
  copies the position, walks down the tree choosing at each node the move with the
  best UCB1 value ``mean + c * sqrt(ln N / n)`` *for the seat to move there*, adds one
  node, finishes the game with the rollout policy (:func:`continuation`) and credits
  every node on the path with the reward of the seat that chose it. Chance turns are
  nodes whose children are the sampled outcomes. Proven values (a light MCTS-Solver):
  a terminal node is exact; a node whose seat to move has a child in which it wins
  outright is a proven win; a node all of whose children are proven takes the best of
  them. Proven losses are skipped by the selection, a proven win at the root is played
  at once. ``decisive`` also tests every move of a new node for an immediate win.
  :func:`find_reused` finds the position a strategy is shown among the expanded
  descendants of the subtree it kept (tree reuse).
* :meth:`TreeSearch.ismcts` from a view (Cowling, Powley and Whitehouse 2012): every
  iteration draws a full state with ``game.determinize(view, rng)``; one tree keyed by
  moves as this seat sees them; only the children legal in the iteration's
  determinisation compete, and UCB uses a child's *availability* count instead of the
  parent's visits. Chance turns are sampled and transparent to the tree.

Budget: ``iterations`` per move (deterministic for a seed); ``time_limit`` adds an
optional wall-clock cap in seconds (the choice then depends on the machine's speed).
"""

from __future__ import annotations

import random
import time
from math import log, sqrt
from typing import Any

from simcli.draws import randbelow_of
from simcli.game import CHANCE, TERMINAL, Game, Move, State
from simcli_strategies.search.common import move_key, seat_rewards, terminal_rewards
from simcli_strategies.search.continuation import RolloutPolicy, continuation

INF = float("inf")


class Node:
    """One position of the UCT tree. ``seat`` is the player to move there (or CHANCE /
    TERMINAL); ``mover`` the seat whose move led here (-1 below a chance node or at the
    root); ``w`` the sum of ``mover``'s rewards over the ``n`` visits."""

    __slots__ = (
        "seat",
        "mover",
        "n",
        "sqrt_n",
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
        self.sqrt_n = 0.0  # sqrt(n), kept with n: the selection reads it for every child
        self.w = 0.0
        self.untried: list[Move] = []
        self.moves: list[Move] = []  # moves of the expanded children, in expansion order
        self.kids: list[Node] = []
        self.outcomes: dict[Any, Node] | None = None  # chance nodes: outcome key -> child
        self.solved: tuple[float, ...] | None = None
        self.solved_move: Move = None


class ISNode:
    """An information-set node: ``w`` is the reward of ``mover`` summed over ``n`` visits;
    ``avail`` counts the iterations in which its move was legal at its parent."""

    __slots__ = ("mover", "n", "w", "avail", "kids")

    def __init__(self, mover: int):
        self.mover = mover
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.kids: dict[Any, ISNode] = {}


def ucb_pick(kids, explore, seat, skip_losses, scaled, lo, hi):  # noqa: ANN001,ANN201 - tree.pxd
    """The index of the child in ``kids`` (expanded :class:`Node` s) with the best UCB1
    value for ``seat``: ``mean + explore / sqrt(n)``, the mean scaled to the rewards
    seen so far (``lo`` .. ``hi``) when ``scaled``; the first on ties. With
    ``skip_losses`` a child that is a proven loss for ``seat`` is passed over (index 0
    when all are: the node is then solved below)."""
    scale = 1.0 / (hi - lo) if scaled and hi > lo else 1.0
    best_i = -1
    best_v = -INF
    for i, kid in enumerate(kids):
        solved = kid.solved
        if skip_losses and solved is not None and solved[seat] == 0.0:
            continue  # a proven loss for the seat to move
        mean = kid.w / kid.n
        if scaled:
            mean = (mean - lo) * scale
        v = mean + explore / kid.sqrt_n
        if v > best_v:
            best_v = v
            best_i = i
    return best_i if best_i >= 0 else 0


class TreeSearch:
    """The searches of one strategy in one game. ``mode`` is ``win`` or ``score`` (see
    :mod:`.common`), ``policy`` the rollout policy (``None``: uniformly random moves),
    ``depth`` the decisions after which a rollout is cut. ``last_iterations`` and
    ``last_root`` describe the last search (for tests and benchmarks)."""

    def __init__(
        self,
        game: Game,
        rng: random.Random,
        *,
        iterations: int,
        c: float,
        policy: RolloutPolicy | None,
        depth: int | None,
        mode: str,
        decisive: bool = False,
        time_limit: float | None = None,
    ) -> None:
        self.game = game
        self.rng = rng
        self.iterations = iterations
        self.c = c
        self.policy = policy
        self.depth = depth
        self.mode = mode
        self.decisive = decisive
        self.time_limit = time_limit
        self.rewards = seat_rewards(game, mode, depth)
        self.last_iterations = 0
        self.last_root: Node | ISNode | None = None

    # -- UCT ---------------------------------------------------------------------------------

    def new_node(self, state: State, mover: int) -> Node:
        seat = state.current_player
        node = Node(seat, mover)
        if seat == TERMINAL:
            node.solved = terminal_rewards(state, self.mode, self.game, self.depth)
        elif seat == CHANCE:
            node.outcomes = {}
        else:
            node.untried = state.legal_moves()
            if self.decisive and self.mode == "win":
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

    def uct(self, state: State, legal_moves: list[Move], root: Node | None = None) -> Move:
        """Search from ``state`` (a copy the search owns), from ``root`` when a kept
        subtree holds the position (else a new one), and return the move to play: a
        proven win, else the most visited child that is not a proven loss."""
        if root is None:
            root = self.new_node(state, -1)
        self.last_iterations = uct_iterations(self, state, root)
        self.last_root = root
        return self.best_move(root, legal_moves)

    def best_move(self, root: Node, legal_moves: list[Move]) -> Move:
        if root.solved is not None and root.solved_move is not None:
            return root.solved_move
        best = None
        best_key = None
        seat = root.seat
        for move, kid in zip(root.moves, root.kids, strict=True):
            solved = kid.solved
            proven = -1 if solved is None else (1 if solved[seat] > 0.0 else -2)
            if proven == -2 and self.mode == "win":
                key = (-1, kid.n, kid.w / kid.n if kid.n else 0.0)
            else:
                key = (0, kid.n, kid.w / kid.n if kid.n else 0.0)
            if best_key is None or key > best_key:
                best, best_key = move, key
        if best is None:  # no iteration expanded anything (budget 0 or time)
            return legal_moves[self.rng.randrange(len(legal_moves))]
        return best

    # -- ISMCTS ------------------------------------------------------------------------------

    def ismcts(self, view: State, legal_moves: list[Move]) -> Move:
        """Run the iterations from ``view`` and return the move of the root's most
        visited child (ties: the better mean)."""
        game = self.game
        rng = self.rng
        policy = self.policy
        depth = self.depth
        rewards_of = self.rewards
        mode = self.mode
        c = self.c
        scored = mode == "score"
        determinize = game.determinize
        root = ISNode(-1)
        lo, hi = INF, -INF
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        done = 0
        for done in range(1, self.iterations + 1):  # noqa: B007
            state = determinize(view, rng)
            node = root
            path = [root]
            rewards: tuple[float, ...] | None = None
            while True:
                seat = state.current_player
                if seat == TERMINAL:
                    rewards = terminal_rewards(state, mode, game, depth)
                    break
                if seat == CHANCE:
                    state.apply_trusted(state.sample_chance(rng))
                    continue
                moves = state.legal_moves()
                kids = node.kids
                keys = [move_key(m) for m in moves]
                fresh = [i for i, k in enumerate(keys) if k not in kids]
                if fresh:
                    i = fresh[rng.randrange(len(fresh))] if len(fresh) > 1 else fresh[0]
                    for k in keys:  # availability of the others (the new one: 1, below)
                        kid = kids.get(k)
                        if kid is not None:
                            kid.avail += 1
                    kid = ISNode(seat)
                    kid.avail = 1
                    kids[keys[i]] = kid
                    state.apply_trusted(moves[i])
                    path.append(kid)
                    break
                scale = 1.0 / (hi - lo) if scored and hi > lo else 1.0
                best_i = 0
                best_v = -INF
                for i, k in enumerate(keys):
                    kid = kids[k]
                    kid.avail += 1
                    kn = kid.n
                    mean = kid.w / kn
                    if scored:
                        mean = (mean - lo) * scale
                    v = mean + c * sqrt(log(kid.avail) / kn)
                    if v > best_v:
                        best_v = v
                        best_i = i
                state.apply_trusted(moves[best_i])
                node = kids[keys[best_i]]
                path.append(node)
            if rewards is None:
                rewards = continuation(state, rng, policy, rewards_of, depth=depth)
            if scored:
                lo = min(lo, *rewards)
                hi = max(hi, *rewards)
            for nd in path:
                nd.n += 1
                if nd.mover >= 0:
                    nd.w += rewards[nd.mover]
            if deadline is not None and time.perf_counter() > deadline:
                break
        self.last_iterations = done
        self.last_root = root
        best = None
        best_key = None
        for move in legal_moves:
            kid = root.kids.get(move_key(move))
            if kid is None or kid.n == 0:
                continue
            key = (kid.n, kid.w / kid.n)
            if best_key is None or key > best_key:
                best, best_key = move, key
        if best is None:
            return legal_moves[rng.randrange(len(legal_moves))]
        return best


def uct_iterations(search, state, root):  # noqa: ANN001,ANN201 - C types in tree.pxd
    """The iterations of :meth:`TreeSearch.uct` from ``state`` under ``root`` (a module
    function, so that its nodes are typed on the compiled path); returns how many ran."""
    root.mover = -1
    rng = search.rng
    below = randbelow_of(rng)  # rng.randrange(n) for n >= 1, compiled where it can be
    policy = search.policy
    depth = search.depth
    rewards_of = search.rewards
    mode = search.mode
    c = search.c
    iterate_score = mode == "score"
    skip_losses = mode == "win"
    # random rollouts to the end: what continuation() plays then (the game's own playout
    # loop on the same draws), called here without its set-up
    plain = policy is None and depth is None
    deadline = time.perf_counter() + search.time_limit if search.time_limit else None
    lo, hi = INF, -INF  # range of rewards seen (score mode)
    done = 0
    for done in range(1, search.iterations + 1):  # noqa: B007
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
                    kid = search.new_node(pos, -1)
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
                i = below(len(untried))
                move = untried[i]
                untried[i] = untried[-1]
                untried.pop()
                pos.apply_trusted(move)
                kid = search.new_node(pos, seat)
                node.moves.append(move)
                node.kids.append(kid)
                path.append(kid)
                node = kid
                rewards = kid.solved
                break
            kids = node.kids
            best_i = ucb_pick(kids, c * sqrt(log(node.n)), seat, skip_losses, iterate_score, lo, hi)
            pos.apply_trusted(node.moves[best_i])
            node = kids[best_i]
            path.append(node)
        if rewards is None:
            if plain:
                pos.playout(rng, below)
                rewards = rewards_of(pos, True)
            else:
                rewards = continuation(pos, rng, policy, rewards_of, depth=depth)
        if iterate_score:
            for r in rewards:
                if r < lo:
                    lo = r
                if r > hi:
                    hi = r
        for nd in path:
            nd.n += 1
            nd.sqrt_n = sqrt(nd.n)
            if nd.mover >= 0:
                nd.w += rewards[nd.mover]
        if mode == "win" and node.solved is not None:
            propagate(path)
        if deadline is not None and time.perf_counter() > deadline:
            break
    return done


def propagate(path: list[Node]) -> None:
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


def find_reused(tree: Node | None, base: State | None, state: State) -> Node | None:
    """The expanded descendant of the kept subtree ``tree`` (at position ``base``) whose
    position equals ``state``, looking at no more than 4000 positions; ``None`` when it
    is not found."""
    if tree is None or base is None:
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
