"""``adas_heuristic``: Ada's Library, two plies of planning with the cards in hand.

For every legal move (play or discard) the strategy also tries every follow-up play of
the cards left in its own hand (the card it will draw is unknown and ignored) and scores
the move by the position after it plus part of the best follow-up gain. A position is
worth minus the strategy's books out of order, plus ``spite`` times the fewest books out
of order among the other rows (so Exchanges and master changes that hurt a close rival
count); a play that sorts its own row wins, a play that sorts another row first loses.
A small bonus for the spare cards' best single gains keeps a flexible hand.

It works on its own view only (own hand, rows, master order); no determinization.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from simcli.game import Move, State
from simcli.games.adas_library.components import CARD_TYPES
from simcli.games.adas_library.rows import (
    MASTER_N,
    MOVE_N,
    SWITCH_N,
    end_targets,
    exchange_positions,
    move_targets,
    out_of_order,
    ranks_of,
    shifted,
    switch_pairs,
)
from simcli.strategy import Strategy

WIN = 1000.0

Rows = tuple[tuple[int, ...], ...]
#: The cards that change only the player's own row.
OWN_ROW = frozenset((*MOVE_N, "move_end", *SWITCH_N, "reverse"))
Position = tuple[Rows, tuple[int, ...]]  # (rows, master)


def successors(
    card: str,
    seat: int,
    partner: int,
    rows: Rows,
    master: tuple[int, ...],
    mirrored: bool = False,
) -> Iterator[tuple[list[Any], Position]]:
    """(move, position after it) for every use of ``card`` that changes something, in the
    order of the game's legal moves (``mirrored``: the game's ``exchange_position:
    mirrored``, an Exchange at ``i`` takes the partner's book at ``size - 1 - i``)."""
    row = rows[seat]

    def with_row(new: Sequence[int], other: Sequence[int] | None = None) -> Rows:
        out = list(rows)
        out[seat] = tuple(new)
        if other is not None:
            out[partner] = tuple(other)
        return tuple(out)

    if card in MOVE_N:
        for p, d, q in move_targets(row, MOVE_N[card]):
            yield [card, p, d], (with_row(shifted(row, p, q)), master)
    elif card == "move_end":
        for p, d, q in end_targets(row):
            yield [card, p, d], (with_row(shifted(row, p, q)), master)
    elif card in SWITCH_N:
        n = SWITCH_N[card]
        for i in switch_pairs(row, n):
            new = list(row)
            new[i], new[i + n] = new[i + n], new[i]
            yield [card, i], (with_row(new), master)
    elif card == "reverse":
        if row[0] != row[-1]:
            new = list(row)
            new[0], new[-1] = new[-1], new[0]
            yield [card], (with_row(new), master)
    elif card in MASTER_N:
        for p, d, q in move_targets(master, MASTER_N[card]):
            yield [card, p, d], (rows, tuple(shifted(master, p, q)))
    elif card == "exchange":
        other = rows[partner]
        last = len(other) - 1
        for i in exchange_positions(row, other, mirrored):
            j = last - i if mirrored else i
            new, mine = list(row), list(other)
            new[i], mine[j] = other[j], row[i]
            yield [card, i], (with_row(new, mine), master)


class HeuristicMemo:
    """What :meth:`AdasHeuristic.scores` may keep between calls of one seat: position ->
    value, (position, card) -> best gain of one play of the card, and (row, master) ->
    books out of order, and (row, master, card) -> the fewest books out of order one
    play of a card that moves only the row's own books leaves (-1: none changes it)."""

    __slots__ = ("values", "gains", "disorder", "least")

    def __init__(self) -> None:
        self.values: dict[Position, float] = {}
        self.disorder: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        self.least: dict[tuple[tuple[int, ...], tuple[int, ...], str], int] = {}
        self.gains: dict[tuple[Position, str], float] = {}

    def __len__(self) -> int:
        return len(self.values) + len(self.gains) + len(self.disorder) + len(self.least)


class AdasHeuristic(Strategy):
    description = "Ada's Library: plans two plays ahead with its own hand (books out of order)"
    games = ("adas_library",)

    def __init__(self, follow_up: float = 0.9, spite: float = 0.5, spare: float = 0.05):
        for label, value in (("follow_up", follow_up), ("spite", spite), ("spare", spare)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{label} must be a number >= 0, got {value!r}")
        self.follow_up = float(follow_up)
        self.spite = float(spite)
        self.spare = float(spare)

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        scored = self.scores(view, legal_moves)
        top = max(scored)
        if top >= WIN:
            return legal_moves[scored.index(top)]
        best = [legal_moves[i] for i, score in enumerate(scored) if score >= top - 1e-9]
        return self.rng.choice(best)

    def scores(
        self, view: State, legal_moves: list[Move], memo: HeuristicMemo | None = None
    ) -> list[float]:
        """The score of each of ``legal_moves`` (``WIN`` for the first move that sorts the
        strategy's row, which stops the scoring: the later moves get ``-2 * WIN``).

        ``memo``: position values and best gains kept from earlier calls with the same
        seat, partner and parameters (a searcher scoring many hands on the same rows);
        the scores are the same with it or without it."""
        seat = self.seat
        partner = view.partner(seat)  # type: ignore[attr-defined]
        mirrored = getattr(view, "mirrored", False)  # option exchange_position: mirrored
        rows: Rows = tuple(tuple(row) for row in view.rows)  # type: ignore[attr-defined]
        master = tuple(view.master)  # type: ignore[attr-defined]
        hand = [card for card in view.hands[seat] if card in CARD_TYPES]  # type: ignore[attr-defined]
        if memo is None:
            memo = HeuristicMemo()
        values, disorder, best_gain, least_out = memo.values, memo.disorder, memo.gains, memo.least

        def books_out(row: tuple[int, ...], pmaster: tuple[int, ...]) -> int:
            key = (row, pmaster)
            found = disorder.get(key)
            if found is None:
                found = disorder[key] = out_of_order(row, ranks_of(pmaster))
            return found

        def value(position: Position) -> float:
            found = values.get(position)
            if found is not None:
                return found
            prow, pmaster = position
            mine = books_out(prow[seat], pmaster)
            if mine == 0:
                result = WIN
            else:
                rival = min(books_out(r, pmaster) for s, r in enumerate(prow) if s != seat)
                # another row sorted (rival 0) is a loss
                result = -WIN if rival == 0 else -mine + self.spite * rival
            values[position] = result
            return result

        def gain(position: Position, card: str, base: float, spited: list[float]) -> float:
            """The best improvement one play of ``card`` makes from ``position``
            (``spited``: empty, or ``spite`` times the position's rival books out of order,
            kept there for the other cards' gains from the same position)."""
            if card in OWN_ROW:
                # only this seat's row changes: the best play leaves the fewest books out
                # of order, which depends on the row and the master order alone
                prow, pmaster = position
                row = prow[seat]
                lkey = (row, pmaster, card)
                least = least_out.get(lkey)
                if least is None:
                    least = min(
                        (
                            books_out(after[0][0], pmaster)
                            for _, after in successors(card, 0, 0, (row,), pmaster)
                        ),
                        default=-1,
                    )
                    least_out[lkey] = least
                if least < 0:  # no play changes the row
                    return 0.0
                if least == 0:
                    return max(0.0, WIN - base)
                if not spited:
                    rival = min(books_out(r, pmaster) for s, r in enumerate(prow) if s != seat)
                    spited.append(self.spite * rival)
                return max(0.0, (-least + spited[0]) - base)
            key = (position, card)
            found = best_gain.get(key)
            if found is None:
                found = 0.0
                for _, after in successors(card, seat, partner, *position, mirrored):
                    found = max(found, value(after) - base)
                best_gain[key] = found
            return found

        start: Position = (rows, master)
        results: dict[tuple[Any, ...], Position] = {}
        for card in set(hand):
            for move, after in successors(card, seat, partner, rows, master, mirrored):
                results[tuple(move)] = after
        scored: list[tuple[float, int]] = []
        for index, move in enumerate(legal_moves):
            if move[0] == "discard":
                card, after = move[1], start
            else:
                card = move[0]
                after = results[tuple(move)]
            v1 = value(after)
            if v1 >= WIN:
                scored.append((WIN, index))
                scored += [(-2 * WIN, i) for i in range(index + 1, len(legal_moves))]
                break
            if v1 <= -WIN:
                scored.append((-2 * WIN, index))
                continue
            rest = list(hand)
            rest.remove(card)
            spited: list[float] = []
            gains = [gain(after, c, v1, spited) for c in sorted(set(rest))]
            score = v1
            if gains:
                score += self.follow_up * max(gains) + self.spare * sum(gains) / len(gains)
            scored.append((score, index))
        return [score for score, _ in scored]
