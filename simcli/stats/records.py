"""What one game record means for the statistics: points shares, finishing ranks and game
length. Pure functions on the record dict (schema 1; checked by :func:`simcli.records.check`).

Outcome conventions (documented in docs/statistics.md):

- ``winners`` empty, or every seat a winner: a draw; every seat scores ``1/n``.
- otherwise each of the ``k`` winners scores ``1/k`` (a win share) and the others 0.
- solitaire (one seat): the seat "wins" when ``winners == [0]``; there are no draws.
- finishing ranks: winners share rank 0; the other seats follow by points (higher
  points first, equal points tie). A draw puts every seat at rank 0. Without points
  (forfeit) the non-winners share the last rank.
"""

from __future__ import annotations


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
