"""What one game record means for the statistics: validation, points shares, finishing
ranks and game length. Pure functions on the record dict (schema 1).

Outcome conventions (documented in docs/statistics.md):

- ``winners`` empty, or every seat a winner: a draw; every seat scores ``1/n``.
- otherwise each of the ``k`` winners scores ``1/k`` (a win share) and the others 0.
- solitaire (one seat): the seat "wins" when ``winners == [0]``; there are no draws.
- finishing ranks: winners share rank 0; the other seats follow by points (higher
  points first, equal points tie). A draw puts every seat at rank 0. Without points
  (forfeit) the non-winners share the last rank.
"""

from __future__ import annotations

from typing import Any

from simcli.errors import RecordError

SCHEMA = 1
TERMINATIONS = ("normal", "move_limit", "forfeit", "error")
FORFEIT_KINDS = ("illegal_move", "exception", "timeout")


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def validate(rec: Any, where: str) -> None:
    """Raise :class:`RecordError` (prefixed with ``where``) unless ``rec`` is a usable
    schema-1 game record."""
    if not isinstance(rec, dict):
        raise RecordError(f"{where}: a game record must be a JSON object, got {type(rec).__name__}")
    if "schema" not in rec:
        raise RecordError(f"{where}: not a game record (no 'schema' key)")
    if rec["schema"] != SCHEMA:
        raise RecordError(
            f"{where}: unknown record schema {rec['schema']!r}; this simcli reads schema {SCHEMA}"
        )
    seats = rec.get("seats")
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        raise RecordError(f"{where}: 'seats' must be a non-empty list of strategy names")
    n = len(seats)
    term = rec.get("termination")
    if term not in TERMINATIONS:
        raise RecordError(
            f"{where}: unknown termination {term!r}; expected one of {', '.join(TERMINATIONS)}"
        )
    winners = rec.get("winners")
    if (
        not isinstance(winners, list)
        or not all(isinstance(w, int) and not isinstance(w, bool) and 0 <= w < n for w in winners)
        or len(set(winners)) != len(winners)
    ):
        raise RecordError(f"{where}: 'winners' must be a list of distinct seat numbers 0..{n - 1}")
    scores = rec.get("scores")
    if scores is not None and (
        not isinstance(scores, list) or len(scores) != n or not all(_is_number(x) for x in scores)
    ):
        raise RecordError(f"{where}: 'scores' must be null or a list of {n} numbers")
    moves = rec.get("moves")
    if moves is not None and not isinstance(moves, list):
        raise RecordError(f"{where}: 'moves' must be a list")
    variant = rec.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise RecordError(f"{where}: 'variant' must be a string")
    game = rec.get("game")
    if game is not None and not isinstance(game, str):
        raise RecordError(f"{where}: 'game' must be a string")


def seat_scores(n: int, winners: list[int]) -> list[float]:
    """Score share per seat: 1/k for each of k winners, 1/n each for a draw."""
    k = len(winners)
    if n == 1:
        return [1.0 if k else 0.0]
    if k == 0 or k == n:
        return [1.0 / n] * n
    share = 1.0 / k
    out = [0.0] * n
    for w in winners:
        out[w] = share
    return out


def is_draw(n: int, winners: list[int]) -> bool:
    """No winner, or every seat shares first place (never for solitaire)."""
    return n > 1 and (len(winners) == 0 or len(winners) == n)


def forfeit_seat(rec: dict) -> int | None:
    """The seat that forfeited, from ``detail.seat`` or else the one non-winner."""
    detail = rec.get("detail")
    if isinstance(detail, dict):
        seat = detail.get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(rec["seats"]):
            return seat
    losers = [s for s in range(len(rec["seats"])) if s not in rec["winners"]]
    return losers[0] if len(losers) == 1 else None


def forfeit_kind(rec: dict) -> str:
    detail = rec.get("detail")
    if isinstance(detail, dict) and isinstance(detail.get("kind"), str):
        return detail["kind"]
    return "unknown"


def detail_message(rec: dict) -> str | None:
    """The message of a forfeit or error (``detail.message``), if the record has one."""
    detail = rec.get("detail")
    if isinstance(detail, dict) and isinstance(detail.get("message"), str):
        return detail["message"]
    return None


def finishing_ranks(n: int, winners: list[int], scores: list[float] | None) -> tuple[int, ...]:
    """Competition ranks (0 = first) per seat; equal ranks are ties (see module doc)."""
    if len(winners) == 0 or len(winners) == n:
        return (0,) * n
    win = set(winners)
    ranks = [0] * n
    others = [s for s in range(n) if s not in win]
    if scores is None:
        for s in others:
            ranks[s] = 1
        return tuple(ranks)
    for s in others:
        ranks[s] = 1 + sum(1 for t in others if scores[t] > scores[s])
    return tuple(ranks)


def game_length(moves: list | None) -> int | None:
    """Number of player moves (chance events, which are JSON objects, excluded)."""
    if moves is None:
        return None
    return len(moves) - list(map(type, moves)).count(dict)


def margin(scores: list[float] | None) -> float | None:
    """Points of the best seat minus points of the second best (two or more seats)."""
    if scores is None or len(scores) < 2:
        return None
    top = sorted(scores, reverse=True)
    return top[0] - top[1]
