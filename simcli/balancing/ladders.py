"""Each built-in game's default skill ladder: the rungs of its ladder config
(``configs/<game>-ladder.yaml``, a test keeps them equal), cheapest first, each with a
fixed per-move budget (iterations, samples), so a rung plays the same
moves on any machine. ``balance: {top: NAME}`` stops the ladder at a rung."""

from __future__ import annotations

from typing import Any

#: game id -> rung entries in the form of a config's ``strategies:`` entries.
DEFAULT_LADDERS: dict[str, tuple[dict[str, Any], ...]] = {
    "libraria": (
        {"name": "random", "use": "random"},
        {"name": "greedy", "use": "greedy"},
        {"name": "mcts-400", "use": "mcts", "params": {"iterations": 400, "c": 0.4}},
        {"name": "mcts-1000", "use": "mcts", "params": {"iterations": 1000, "c": 0.4}},
        {"name": "solver", "use": "libraria_solver", "params": {"exact_from": 14, "depth": 4}},
    ),
    "library": (
        {"name": "random", "use": "random"},
        {"name": "greedy", "use": "greedy"},
        {
            "name": "mcts-200",
            "use": "mcts",
            "params": {"iterations": 200, "rollout_depth": 20, "decisive": True},
        },
    ),
    "adas_library": (
        {"name": "random", "use": "random"},
        {"name": "greedy", "use": "greedy"},
        {
            "name": "heuristic",
            "use": "adas_heuristic",
            "params": {"follow_up": 0.9, "spite": 0.5, "spare": 0.05},
        },
        {
            "name": "reply",
            "use": "adas_reply",
            "params": {"samples": 8, "extra": 20, "finalists": 4, "candidates": 8, "z": 1},
        },
    ),
    "ex_libris": (
        {"name": "random", "use": "random"},
        {"name": "greedy", "use": "greedy"},
        {
            "name": "heuristic",
            "use": "ex_libris_heuristic",
            "params": {"width": 5, "misfit": 0.6, "draw_value": 1.6},
        },
        {
            "name": "endgame",
            "use": "ex_libris_endgame",
            "params": {"near": 0, "samples": 6, "candidates": 4},
        },
    ),
}

#: A game without a ladder of its own (a plug-in game) climbs these.
FALLBACK_LADDER: tuple[dict[str, Any], ...] = (
    {"name": "random", "use": "random"},
    {"name": "greedy", "use": "greedy"},
)


def default_ladder(game: Any) -> tuple[dict[str, Any], ...]:
    """The ladder of ``game`` (a :class:`~simcli.game.Game`): its own ``ladder``
    attribute, the built-in one, or random then greedy."""
    own = getattr(game, "ladder", None)
    if own:
        return tuple(dict(entry) for entry in own)
    return tuple(dict(e) for e in DEFAULT_LADDERS.get(game.id, FALLBACK_LADDER))
