"""The one continuation routine: finish a game (or a part of it) with a policy and score
it; and the rollout policies.

:func:`continuation` plays a full state on in place: chance turns sampled from the
``rng`` it is given, every decision by the ``policy`` (uniformly random moves without
one), until the game ends, ``depth`` decisions were made or ``stop(state)`` says so,
then returns ``reward(state, finished)``. Every search that finishes games calls it:
the rollouts of ``mcts`` and ``ismcts``, the continuations of ``rollout_search`` and
``ex_libris_endgame`` (the base heuristic on every seat) and those of
``bibliogamo_search`` and ``bibliogamo_endgame`` (the planner, up to a turn or to the
end).

A policy picks a move for ``seat`` in ``state`` from ``moves``. Its moves go through
``state.apply_trusted`` when it has a true ``trusted`` attribute (it always answers one
of ``moves``) or when the move is one of ``moves``; anything else goes through the
checked ``state.apply``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from simcli.draws import randbelow_of
from simcli.game import CHANCE, TERMINAL, Game, Move, State
from simcli.strategy import Strategy

#: A rollout policy picks a move for ``seat`` in ``state`` from ``moves``.
RolloutPolicy = Callable[[State, int, list[Move]], Move]

R = TypeVar("R")


def continuation(
    state: State,
    rng: random.Random,
    policy: RolloutPolicy | None,
    reward: Callable[[State, bool], R],
    *,
    depth: int | None = None,
    stop: Callable[[State], bool] | None = None,
    forced: bool = False,
) -> R:
    """Play ``state`` (changed in place) on and return ``reward(state, finished)``:
    ``finished`` is whether the game ended, else ``depth`` decisions were made or
    ``stop(state)`` was true before a decision. Chance outcomes are sampled from ``rng``.

    Without a ``policy`` every move is uniformly random, drawn by
    ``state.random_legal_move`` (the move ``legal_moves()[randrange(n)]``, which a game
    may build without listing the others), one draw of ``rng`` per decision, a single
    legal move included. With one, ``forced`` plays a single legal move without asking
    it (otherwise it is asked every time, and may draw its random numbers)."""
    # ``_randbelow(n)`` is what ``randrange(n)`` returns for n >= 1 (the same draws),
    # without its argument checks (compiled where it can be: simcli/draws.py)
    randrange = randbelow_of(rng)
    if policy is None and depth is None and stop is None:
        state.playout(rng, randrange)  # the game's own loop of the same draws
        return reward(state, True)
    apply = state.apply_trusted
    sample = state.sample_chance
    legal_moves = state.legal_moves
    pick = state.random_legal_move  # legal_moves()[randrange(n)], for the same draw
    trusted = getattr(policy, "trusted", False)
    plies = 0
    while True:
        seat = state.current_player
        if seat == TERMINAL:
            return reward(state, True)
        if seat == CHANCE:
            apply(sample(rng))
            continue
        if (depth is not None and plies >= depth) or (stop is not None and stop(state)):
            return reward(state, False)
        if policy is None:
            apply(pick(randrange))
        else:
            moves = legal_moves()
            if forced and len(moves) == 1:
                apply(moves[0])
            else:
                move = policy(state, seat, moves)
                if trusted or move in moves:
                    apply(move)
                else:
                    state.apply(move)
        plies += 1


# -- policies --------------------------------------------------------------------------------


def greedy_policy(game: Game, rng: random.Random, epsilon: float) -> RolloutPolicy:
    """One ply of look-ahead with ``game.evaluate`` (seeded ties); a uniformly random move
    with probability ``epsilon``."""
    evaluate = game.evaluate

    def policy(state: State, seat: int, moves: list[Move]) -> Move:
        if epsilon and rng.random() < epsilon:
            return moves[rng.randrange(len(moves))]
        best_value = float("-inf")
        best: list[Move] = []
        for move in moves:
            after = state.clone()
            after.apply_trusted(move)
            value = evaluate(after, seat)
            if value > best_value:
                best_value, best = value, [move]
            elif value == best_value:
                best.append(move)
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    policy.trusted = True  # type: ignore[attr-defined]  # always one of ``moves``
    return policy


def seat_policy(instances: Sequence[Strategy], copy: bool = True) -> RolloutPolicy:
    """A policy that asks the strategy of the seat to move (``instances[seat]``, started
    by the caller). It sees the continuation's full state (``None`` when it declares
    ``wants_view = False``): a copy, or with ``copy=False`` the state itself, which it
    must then only read."""
    sees = [inst.wants_view for inst in instances]

    def policy(state: State, seat: int, moves: list[Move]) -> Move:
        inst = instances[seat]
        if not sees[seat]:
            return inst.choose(None, moves)
        return inst.choose(state.clone() if copy else state, moves)

    return policy


def strategy_policy(use: str, game: Game, players: int, rng: random.Random) -> RolloutPolicy:
    """A rollout policy that asks a strategy (built-in name or ``module:Class``, default
    parameters) for every move; one instance per seat, all sharing ``rng``, each shown a
    copy of the rollout state."""
    from simcli.strategy import load_strategy_class

    cls = load_strategy_class(use)
    instances = []
    for seat in range(players):
        inst = cls()
        inst.start_game(game, seat, rng)
        instances.append(inst)
    return seat_policy(instances)


def make_policy(
    rollout: str, game: Game, players: int, rng: random.Random, epsilon: float
) -> RolloutPolicy | None:
    """``None`` for ``random`` (uniformly random moves), else the policy function."""
    if rollout == "random":
        return None
    if rollout == "greedy":
        return greedy_policy(game, rng, epsilon)
    return strategy_policy(rollout, game, players, rng)


def check_rollout(rollout: Any) -> str:
    if not isinstance(rollout, str) or not rollout:
        raise ValueError(f"rollout must be 'random', 'greedy' or a strategy name, got {rollout!r}")
    if rollout in ("random", "greedy"):
        return rollout
    from simcli.errors import StrategyLoadError
    from simcli.strategy import load_strategy_class

    try:
        load_strategy_class(rollout)
    except StrategyLoadError as exc:
        raise ValueError(f"rollout {rollout!r}: {exc}") from None
    return rollout
