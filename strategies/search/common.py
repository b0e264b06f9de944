"""Parameter checks, move keys and rewards, shared by every search.

Rewards are per seat and lie in [0, 1] in ``win`` mode: each of the *k* winners of a
finished game gets ``1/k``, the others 0; a finished game without a winner (a draw, a move
limit) gives every one of the *n* seats ``1/n``. In ``score`` mode the reward is the seat's
final score minus the best other seat's score (its own score in a one-player game),
normalised by the tree search to [0, 1] over the values it has seen. When rollouts are cut
(``rollout_depth``), ``score`` mode values every leaf, finished or cut, by the margins of
``game.evaluate``, so that both are on one scale (in a game whose final scores are only
1 / 0 for the winner, such as ``adas_library``, a finished game's score margin of 1 would
otherwise be worth less than a good cut position).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from simcli.game import Game, Move, State

REWARD_MODES = ("auto", "win", "score")

#: Per-seat rewards of a continuation's last position: (state, whether the game ended).
SeatRewards = Callable[[State, bool], tuple[float, ...]]


def move_key(move: Move) -> Any:
    """A hashable key for a JSON move (lists become tuples, recursively)."""
    if move.__class__ is list:
        return tuple(move_key(m) for m in move)
    return move


# -- parameters ------------------------------------------------------------------------------


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


def check_params(name: str, params: Any) -> dict[str, Any]:
    """A mapping of another strategy's parameters (``None``: none), copied."""
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise ValueError(f"{name} must be a mapping of params, got {params!r}")
    return dict(params)


# -- rewards ---------------------------------------------------------------------------------


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
    key = (players, winners)
    try:
        return _WIN_SHARES[key]
    except KeyError:
        pass
    except TypeError:  # winners not a tuple: nothing to remember it by
        return _win_shares(players, winners)
    shares = _WIN_SHARES[key] = _win_shares(players, winners)
    return shares


#: (players, winners) -> :func:`_win_shares`: a game has few of them, and a search asks
#: for them once per rollout.
_WIN_SHARES: dict[tuple[int, tuple[int, ...]], tuple[float, ...]] = {}


def _win_shares(players: int, winners: Sequence[int]) -> tuple[float, ...]:
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


def seat_rewards(game: Game, mode: str, depth: int | None) -> SeatRewards:
    """The rewards of a rollout's last position: :func:`terminal_rewards` where the game
    ended, :func:`cutoff_rewards` where ``depth`` cut it."""

    def rewards(state: State, finished: bool) -> tuple[float, ...]:
        if finished:
            return terminal_rewards(state, mode, game, depth)
        return cutoff_rewards(game, state, mode)

    return rewards
