"""``adas_race``: Ada's Library as a race, judged on sampled determinisations.

The game is won by the first player to sort their row, so a move is worth the chance
that it leaves this seat ahead in the race. For each decision:

1. ``adas_heuristic`` scores every legal move; a move that sorts the strategy's row is
   played at once, and the ``candidates`` best moves by that score are kept;
2. on each of ``samples`` determinisations of the view (``game.determinize`` with the
   strategy's own RNG: the only way it learns a hidden card) every candidate is played
   and every seat's race is planned with the cards it will hold and draw there (with two
   players this seat draws every other card of the draw pile, the opponent the ones
   between; the other rows stand still in a seat's plan): a beam
   search of ``depth`` own turns (``beam`` positions kept per turn, ranked by books out of
   order) gives the number of turns each seat still needs, or ``depth`` plus ``tail``
   per book still out of order when the plan does not finish;
3. with ``mine`` and ``theirs`` those turn counts (``theirs``: the fewest of the other
   seats', all of which move before this seat's next turn) and
   ``lead = weight * theirs + slack - mine``, the sample is worth
   ``sigmoid((lead - 0.5) / scale) + margin * lead``: a soft "I finish first", so an
   Exchange or a master change that delays the opponent counts as much as one that
   speeds this seat up (``weight`` above 1: more). Every candidate is valued on the same
   determinisations (common random numbers);
4. the candidate with the best total is played; ties go to the heuristic's order.

A move that sorts the opponent's row (and not this seat's) loses and is never kept while
another move exists. The budget is counted (samples x candidates plans), never timed.

The comparison is the search core's (:class:`~simcli_strategies.search.compare.SampledSearch`
with the pick rule :class:`~simcli_strategies.search.compare.BestTotal`): :class:`RaceJudge`
supplies the candidates, :meth:`AdasRace.value` the value of a candidate on a sample.
"""

from __future__ import annotations

import math
import random
from heapq import nsmallest
from typing import Any

from simcli.game import Move, State
from simcli.games.adas_library.rows import (
    MASTER_N,
    MOVE_N,
    SWITCH_N,
    disorder,
    end_targets,
    move_targets,
    ranks_of,
    shifted,
)
from simcli_strategies.adas_heuristic import WIN, AdasHeuristic
from simcli_strategies.search.common import check_float, check_int
from simcli_strategies.search.compare import BestTotal, Sample, SampledSearch, sampled_deals

Row = tuple[int, ...]


class Planner:
    """Solo race plans: the fewest own turns to sort a row with known future cards.

    Memoises books out of order and the rows each card can make, so the plans of one
    decision (many candidates, many samples, both seats) share the work. Each (row,
    master order) a plan reaches is numbered once (a node): the plan's search keys on
    the numbers, which hash far faster than the rows."""

    def __init__(self) -> None:
        self.shifts: dict[tuple[str, Row], list[Row]] = {}
        #: (row, master) -> its node number; per node: (row, master) and its score
        self.node_of: dict[tuple[Row, Row], int] = {}
        self.nodes: list[tuple[Row, Row]] = []
        self.scores: list[float] = []
        #: (card, node[, partner's row]) -> ((node, score) after each play of the card,
        #: True when one of them is sorted)
        self.plays: dict[tuple[Any, ...], tuple[list[tuple[int, float]], bool]] = {}

    def clear(self) -> None:
        self.shifts.clear()
        self.node_of.clear()
        self.nodes.clear()
        self.scores.clear()
        self.plays.clear()

    def __len__(self) -> int:
        return len(self.nodes) + len(self.plays)

    def node(self, row: Row, master: Row) -> int:
        """The number of (row, master), given the first time it is seen."""
        key = (row, master)
        found = self.node_of.get(key)
        if found is None:
            found = self.node_of[key] = len(self.nodes)
            self.nodes.append(key)
            out, descents = disorder(row, ranks_of(master))
            self.scores.append(out + 0.1 * descents)
        return found

    def score(self, row: Row, master: Row) -> float:
        """Books out of order, plus a tenth per place where the ranks step down (a
        tie-break between rows as far from sorted): 0 exactly when sorted."""
        return self.scores[self.node(row, master)]

    def scored_plays(
        self, card: str, node: int, other: Row
    ) -> tuple[list[tuple[int, float]], bool]:
        """:meth:`successors` of ``card`` from a node, as (node, score) pairs, and whether
        one of them sorts the row (memoised: a decision plans from the same rows many
        times)."""
        key: tuple[Any, ...] = (card, node)
        if card == "exchange":
            key += (other,)
        found = self.plays.get(key)
        if found is None:
            scores = self.scores
            after = []
            for r, m in self.successors(card, *self.nodes[node], other):
                n = self.node(r, m)
                after.append((n, scores[n]))
            found = self.plays[key] = (after, any(v == 0 for _, v in after))
        return found

    def shifted_rows(self, card: str, items: Row) -> list[Row]:
        """Every row (or master order) one play of a move, Move to End or master card
        makes from ``items`` (changed ones only)."""
        key = (card, items)
        found = self.shifts.get(key)
        if found is None:
            if card == "move_end":
                targets = end_targets(items)
            else:
                targets = move_targets(items, MOVE_N.get(card) or MASTER_N[card])
            found = [tuple(shifted(items, p, q)) for p, _, q in targets]
            self.shifts[key] = found
        return found

    def successors(self, card: str, row: Row, master: Row, other: Row) -> list[tuple[Row, Row]]:
        """(row, master) after every play of ``card`` (``other``: the partner's row, for
        an Exchange; the partner's row itself is not followed by the plan)."""
        if card in MOVE_N or card == "move_end":
            return [(r, master) for r in self.shifted_rows(card, row)]
        if card in MASTER_N:
            return [(row, m) for m in self.shifted_rows(card, master)]
        out = []
        if card in SWITCH_N:
            n = SWITCH_N[card]
            for i in range(len(row) - n):
                if row[i] != row[i + n]:
                    new = list(row)
                    new[i], new[i + n] = new[i + n], new[i]
                    out.append((tuple(new), master))
        elif card == "reverse":
            if row[0] != row[-1]:
                new = list(row)
                new[0], new[-1] = new[-1], new[0]
                out.append((tuple(new), master))
        elif card == "exchange":
            for i in range(min(len(row), len(other))):
                if row[i] != other[i]:
                    new = list(row)
                    new[i] = other[i]
                    out.append((tuple(new), master))
        return out

    def turns(
        self,
        row: Row,
        master: Row,
        other: Row,
        hand: tuple[str, ...],
        draws: list[str],
        depth: int,
        beam: int,
        tail: float,
    ) -> float:
        """Own turns until ``row`` is sorted: each turn plays (or discards) one card of the
        hand and then draws the next of ``draws``; a beam search of ``depth`` turns that
        keeps ``beam`` positions a turn."""
        scores = self.scores
        start = self.node(row, master)
        if scores[start] == 0:
            return 0.0
        frontier: list[tuple[int, tuple[str, ...]]] = [(start, hand)]
        for turn in range(1, depth + 1):
            drawn = draws[turn - 1] if turn - 1 < len(draws) else None
            found: dict[tuple[int, tuple[str, ...]], float] = {}
            for node, phand in frontier:
                previous = None
                for i, card in enumerate(phand):
                    if card == previous:
                        continue
                    previous = card
                    rest = phand[:i] + phand[i + 1 :]
                    if drawn is not None:
                        rest = tuple(sorted((*rest, drawn)))
                    key = (node, rest)
                    if key not in found:  # the discard
                        found[key] = scores[node]
                    after, sorts = self.scored_plays(card, node, other)
                    if sorts:
                        return float(turn)
                    for child, value in after:
                        found.setdefault((child, rest), value)
            if not found:  # no cards left: the draws of the plan ran out
                return turn - 1 + tail * min(int(scores[n]) for n, _ in frontier)
            frontier = nsmallest(beam, found, key=found.__getitem__)
        rest_disorder = min(int(scores[n]) for n, _ in frontier)
        return depth + tail * rest_disorder


class RaceJudge(SampledSearch):
    """What the strategies that judge moves by both seats' planned races share: the
    race's parameters (checked), the planner, and ``adas_heuristic`` to rank the moves
    (its own RNG drawn first from the strategy's at the start of a game) and name the
    candidates."""

    #: the best total; ties to the heuristic's order
    rule = BestTotal(tolerance=1e-9)

    def set_race(
        self,
        depth: int,
        beam: int,
        opponent_depth: int,
        opponent_beam: int,
        tail: float,
        scale: float,
        margin: float,
        weight: float,
    ) -> None:
        self.depth = check_int("depth", depth, 1)
        self.beam = check_int("beam", beam, 1)
        self.opponent_depth = check_int("opponent_depth", opponent_depth, 1)
        self.opponent_beam = check_int("opponent_beam", opponent_beam, 1)
        self.tail = check_float("tail", tail, 0.0)
        self.scale = check_float("scale", scale, 0.01)
        self.margin = check_float("margin", margin, 0.0)
        self.weight = check_float("weight", weight, 0.0)
        self.planner = Planner()
        #: the last decision's totals: candidate move (as a tuple) -> summed value
        self.last_values: dict[Any, float] = {}

    def set_heuristic(self, heuristic: dict[str, Any] | None) -> None:
        if heuristic is None:
            heuristic = {"follow_up": 0.9, "spite": 0.5, "spare": 0.05}
        if not isinstance(heuristic, dict):
            raise ValueError(f"heuristic must be a mapping of params, got {heuristic!r}")
        self.heuristic = dict(heuristic)
        AdasHeuristic(**self.heuristic)

    def start_game(self, game: Any, seat: int, rng: random.Random) -> None:
        super().start_game(game, seat, rng)
        self._heuristic = AdasHeuristic(**self.heuristic)
        self._heuristic.start_game(game, seat, random.Random(rng.getrandbits(64)))

    def candidate_moves(self, view: State, legal_moves: list[Move]) -> list[Move]:
        """The heuristic's move alone when it sorts this seat's row (or when it is the
        only one); else its ``candidates`` best moves that do not lose at once (the best
        alone if they all do), best first, and :meth:`more_candidates`."""
        scores = self._heuristic.scores(view, legal_moves)
        top = max(scores)
        if top >= WIN or len(legal_moves) == 1:
            return [legal_moves[scores.index(top)]]
        order = sorted(range(len(legal_moves)), key=lambda i: -scores[i])
        chosen = [i for i in order[: self.candidates] if scores[i] > -WIN] or order[:1]
        chosen += self.more_candidates(legal_moves, scores, order)
        return [legal_moves[i] for i in chosen]

    def more_candidates(
        self, legal_moves: list[Move], scores: list[float], order: list[int]
    ) -> list[int]:
        """Indices of moves to compare beyond the heuristic's best (``order``: all of them,
        best first): none here."""
        return []

    def fresh_planner(self) -> Planner:
        """The race planner, emptied when its memo has grown large."""
        planner = self.planner
        if len(planner) > 200_000:
            planner.clear()
        return planner


class AdasRace(RaceJudge):
    description = (
        "Ada's Library: the heuristic's best moves judged by both seats' planned race "
        "(turns to sort) on sampled determinisations; params: samples, candidates, depth, "
        "beam, opponent_depth, opponent_beam, tail, slack, scale, margin, weight"
    )
    games = ("adas_library",)

    def __init__(
        self,
        samples: int = 16,
        candidates: int = 10,
        depth: int = 4,
        beam: int = 8,
        opponent_depth: int = 3,
        opponent_beam: int = 4,
        tail: float = 1.2,
        slack: float = 0.0,
        scale: float = 1.0,
        margin: float = 0.05,
        weight: float = 1.0,
        heuristic: dict[str, Any] | None = None,
    ) -> None:
        self.samples = check_int("samples", samples, 1)
        self.candidates = check_int("candidates", candidates, 1)
        self.slack = float(check_float("slack", slack, -10.0))
        self.set_race(depth, beam, opponent_depth, opponent_beam, tail, scale, margin, weight)
        self.set_heuristic(heuristic)

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        self.last_values = {}
        chosen = self.candidate_moves(view, legal_moves)
        if len(chosen) == 1:
            return chosen[0]
        self.fresh_planner()
        deals = sampled_deals(self.game, view, self.rng, self.samples, seeded=False)
        return self.compare(chosen, deals)

    def value(self, after: State, sample: Sample) -> float:
        """One sample's value of a position after this seat's move (and draw); the
        opponents' plans, the same for every candidate that leaves them alike, are
        kept in the sample's memo."""
        return self._value(after, self.seat, sample.memo)

    def _value(self, after: Any, seat: int, memo: dict[Any, float]) -> float:
        """One sample's value of a position after this seat's move (and draw)."""
        if after.winner is not None:
            return 1.0 + self.margin * 10 if after.winner == seat else -self.margin * 10
        planner = self.planner
        players = after.players
        master = tuple(after.master)
        rows = [tuple(row) for row in after.rows]
        # what an Exchange can take from each row: under exchange_position: mirrored the
        # book at i trades with the partner's at size - 1 - i, i.e. the reversed row's i
        reach = [row[::-1] for row in rows] if after.mirrored else rows
        draws = after.draw  # the seats after this one draw first, in turn order
        theirs = math.inf
        for k in range(1, players):
            s = (seat + k) % players
            hand = tuple(sorted(after.hands[s]))
            their_draws = draws[k - 1 :: players]
            partner_row = reach[after.partners[s]]
            key: tuple[Any, ...] = (s, rows[s], master, hand)
            if "exchange" in hand or "exchange" in their_draws[: self.opponent_depth]:
                key += (partner_row,)
            turns = memo.get(key)
            if turns is None:
                turns = planner.turns(
                    rows[s],
                    master,
                    partner_row,
                    hand,
                    their_draws,
                    self.opponent_depth,
                    self.opponent_beam,
                    self.tail,
                )
                memo[key] = turns
            theirs = min(theirs, turns)
        mine = planner.turns(
            rows[seat],
            master,
            reach[after.partners[seat]],
            tuple(sorted(after.hands[seat])),
            draws[players - 1 :: players],
            self.depth,
            self.beam,
            self.tail,
        )
        # every other seat moves before this seat's next turn: finishing first means
        # needing fewer turns than each of them
        lead = self.weight * theirs + self.slack - mine
        return 1.0 / (1.0 + math.exp(-(lead - 0.5) / self.scale)) + self.margin * lead
