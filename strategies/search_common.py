"""Shared pieces of the search strategies (``mcts``, ``ismcts``): parameter checks,
terminal rewards, move keys and the rollout policies.

Rewards are per seat and lie in [0, 1] in ``win`` mode: each of the *k* winners of a
finished game gets ``1/k``, the others 0; a finished game without a winner (a draw, a move
limit) gives every one of the *n* seats ``1/n``. In ``score`` mode the reward is the seat's
final score minus the best other seat's score (its own score in a one-player game),
normalised by the search to [0, 1] over the values it has seen. When rollouts are cut
(``rollout_depth``), ``score`` mode values every leaf, finished or cut, by the margins of
``game.evaluate``, so that both are on one scale (in a game whose final scores are only
1 / 0 for the winner, such as ``adas_library``, a finished game's score margin of 1 would
otherwise be worth less than a good cut position).

Everything random here draws from the ``rng`` argument, which the strategies pass as their
own ``self.rng``: never the game's RNG and never the ``random`` module's global generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from simcli.game import CHANCE, TERMINAL, Game, Move, State

#: A rollout policy picks a move for ``seat`` in ``state`` from ``moves``.
RolloutPolicy = Callable[[State, int, list[Move]], Move]

REWARD_MODES = ("auto", "win", "score")


def move_key(move: Move) -> Any:
    """A hashable key for a JSON move (lists become tuples, recursively)."""
    if move.__class__ is list:
        return tuple(move_key(m) for m in move)
    return move


def first_best(totals: list[float], tolerance: float = 0.0) -> int:
    """The index of the best of ``totals``: a later total must beat the best so far by
    more than ``tolerance`` to take its place, so ties go to the earlier candidate (the
    base policy's move comes first)."""
    best = 0
    for c in range(1, len(totals)):
        if totals[c] > totals[best] + tolerance:
            best = c
    return best


def paired_pick(values: list[list[float]], z: float, keep: float = 0.0) -> int:
    """The index of the candidate to play given each candidate's per-sample values (the
    same samples for all, candidate 0 the base policy's move): 0 unless an alternative's
    mean paired difference from candidate 0 is above ``keep`` and more than ``z``
    standard errors; the best such mean (ties to the earlier candidate). A search that
    departs on noise changes the rest of the game for nothing; this one needs evidence."""
    base = values[0]
    n = len(base)
    means = [0.0] * len(values)
    for c in range(1, len(values)):
        diffs = [a - b for a, b in zip(values[c], base, strict=True)]
        mean = sum(diffs) / n
        if mean <= keep + 1e-9:
            continue
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        if mean * mean * n <= z * z * var + 1e-12:
            continue
        means[c] = mean
    return first_best(means, 1e-9)


def check_int(name: str, value: Any, minimum: int, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return value


def check_float(name: str, value: Any, minimum: float, allow_none: bool = False) -> float | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < minimum:
        raise ValueError(f"{name} must be a number >= {minimum}, got {value!r}")
    return float(value)


def check_steps(steps: Any, allowed: tuple[str, ...]) -> frozenset[str]:
    """A non-empty list of names out of ``allowed`` (the decisions a search may take)."""
    if isinstance(steps, str) or not steps or any(x not in allowed for x in steps):
        raise ValueError(f"steps must be a list of {', '.join(allowed)}, got {steps!r}")
    return frozenset(steps)


def resolve_reward(mode: str, players: int) -> str:
    """``auto`` is ``score`` for one-player games (everyone wins a solitaire) and ``win``
    otherwise."""
    if mode == "auto":
        return "score" if players == 1 else "win"
    return mode


def win_rewards(state: State) -> tuple[float, ...]:
    """1/k for each of k winners, 0 for the others; 1/n for all n seats if nobody won."""
    players = state.players
    winners = state.outcome().winners
    if not winners:
        share = 1.0 / players
        return (share,) * players
    share = 1.0 / len(winners)
    return tuple(share if s in winners else 0.0 for s in range(players))


def margins(values: list[float] | tuple[float, ...]) -> tuple[float, ...]:
    """Each seat's value minus the best other seat's (the value itself for one seat)."""
    if len(values) == 1:
        return (float(values[0]),)
    out = []
    for s, v in enumerate(values):
        best_other = max(x for i, x in enumerate(values) if i != s)
        out.append(float(v - best_other))
    return tuple(out)


def score_rewards(state: State) -> tuple[float, ...]:
    return margins(state.outcome().scores)


def cutoff_rewards(game: Game, state: State, mode: str) -> tuple[float, ...]:
    """The reward of a rollout stopped before the end: in ``win`` mode the seats with the
    best ``game.evaluate`` share the win; in ``score`` mode the evaluation margins."""
    players = state.players
    values = [game.evaluate(state, s) for s in range(players)]
    if mode == "score":
        return margins(values)
    best = max(values)
    leaders = [s for s in range(players) if values[s] == best]
    share = 1.0 / len(leaders)
    return tuple(share if s in leaders else 0.0 for s in range(players))


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


def strategy_policy(use: str, game: Game, players: int, rng: random.Random) -> RolloutPolicy:
    """A rollout policy that asks a strategy (built-in name or ``module:Class``, default
    parameters) for every move; one instance per seat, all sharing ``rng``. The strategy
    sees a copy of the full rollout state (``None`` when it declares ``wants_view =
    False``)."""
    from simcli.strategy import load_strategy_class

    cls = load_strategy_class(use)
    instances = []
    for seat in range(players):
        inst = cls()
        inst.start_game(game, seat, rng)
        instances.append(inst)
    sees = [inst.wants_view for inst in instances]

    def policy(state: State, seat: int, moves: list[Move]) -> Move:
        inst = instances[seat]
        return inst.choose(state.clone() if sees[seat] else None, moves)

    return policy


def make_policy(
    rollout: str, game: Game, players: int, rng: random.Random, epsilon: float
) -> RolloutPolicy | None:
    """``None`` for ``random`` (the search inlines it), else the policy function."""
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


def rollout(
    game: Game,
    state: State,
    rng: random.Random,
    policy: RolloutPolicy | None,
    depth: int | None,
    mode: str,
) -> tuple[float, ...]:
    """Play ``state`` (changed in place) to the end, or for ``depth`` decisions, and return
    the per-seat rewards. Chance events are sampled from ``rng``.

    A random rollout draws its moves by ``state.random_legal_move`` (the move
    ``legal_moves()[randrange(n)]``, which a game may build without listing the others).
    Moves go through ``state.apply_trusted`` (they come from ``legal_moves``), except
    those of a policy without a true ``trusted`` attribute (a strategy used as the
    policy may answer anything), which ``state.apply`` checks."""
    apply = state.apply_trusted
    apply_policy = apply if getattr(policy, "trusted", False) else state.apply
    legal_moves = state.legal_moves
    pick = state.random_legal_move  # legal_moves()[randrange(n)], for the same draw
    sample = state.sample_chance
    # ``_randbelow(n)`` is what ``randrange(n)`` returns for n >= 1 (the same draws),
    # without its argument checks; kept to ``random.Random`` and its subclasses
    randrange = getattr(rng, "_randbelow", None) or rng.randrange
    plies = 0
    while True:
        seat = state.current_player
        if seat == TERMINAL:
            return terminal_rewards(state, mode, game, depth)
        if seat == CHANCE:
            apply(sample(rng))
            continue
        if depth is not None and plies >= depth:
            return cutoff_rewards(game, state, mode)
        if policy is None:
            apply(pick(randrange))
        else:
            apply_policy(policy(state, seat, legal_moves()))
        plies += 1


def terminal_rewards(
    state: State, mode: str, game: Game | None = None, depth: int | None = None
) -> tuple[float, ...]:
    """The rewards of a finished game. In ``score`` mode with cut rollouts (``depth`` not
    ``None``) the ``game.evaluate`` margins, the scale of the cut rollouts."""
    if mode == "win":
        return win_rewards(state)
    if depth is not None and game is not None:
        return cutoff_rewards(game, state, mode)
    return score_rewards(state)
