"""The information-set search that ``ismcts`` runs (and ``mcts`` on hidden-information
games): :func:`ismcts_search` and its nodes. See ``strategies/ismcts.py`` for the method.

Kept apart from both strategy modules so that neither imports the other's module back.
"""

from __future__ import annotations

import time
from math import log, sqrt
from typing import Any, Protocol

from simcli.game import CHANCE, TERMINAL, Game, Move, State
from simcli_strategies.search_common import move_key, rollout, terminal_rewards


class Searcher(Protocol):
    """What the search reads from (and writes back to) the strategy running it: the
    settings of :class:`simcli_strategies.mcts.MCTSStrategy` and its per-game state."""

    game: Game
    rng: Any
    iterations: int
    c: float
    rollout_depth: int | None
    time_limit: float | None
    last_iterations: int
    last_root: Any
    _policy: Any
    _mode: str


INF = float("inf")


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


def ismcts_search(strategy: Searcher, view: State, legal_moves: list[Move]) -> Move:
    """Run ``strategy.iterations`` ISMCTS iterations from ``view`` and return the move
    of the root's most visited child."""
    game = strategy.game
    rng = strategy.rng
    policy = strategy._policy
    depth = strategy.rollout_depth
    mode = strategy._mode
    c = strategy.c
    scored = mode == "score"
    determinize = game.determinize
    root = ISNode(-1)
    lo, hi = INF, -INF
    deadline = time.perf_counter() + strategy.time_limit if strategy.time_limit else None
    done = 0
    for done in range(1, strategy.iterations + 1):  # noqa: B007
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
            rewards = rollout(game, state, rng, policy, depth, mode)
        if scored:
            lo = min(lo, *rewards)
            hi = max(hi, *rewards)
        for nd in path:
            nd.n += 1
            if nd.mover >= 0:
                nd.w += rewards[nd.mover]
        if deadline is not None and time.perf_counter() > deadline:
            break
    strategy.last_iterations = done
    strategy.last_root = root  # type: ignore[assignment]
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
