"""``adas_reply``: Ada's Library, the heuristic's best moves judged after the opponent's
modelled reply, on sampled determinisations.

``adas_race`` values a move by both seats' planned races with the other row standing
still, so a plan that the opponent's next Exchange or master change wrecks looks as good
as one it cannot touch. This strategy plays the opponent's next turn explicitly:

1. ``adas_heuristic`` scores every legal move; a move that sorts the strategy's row is
   played at once, and the ``candidates`` best moves by that score are kept, plus the
   ``disruptive`` best master changes and Exchanges among the rest (a defence the
   heuristic ranks low when the opponent is about to finish);
2. on each of ``samples`` determinisations of the view (``game.determinize`` with the
   strategy's own RNG: the only way it learns a hidden card) every candidate is played,
   then the opponent (2 players: the seat that moves next) answers with its dealt hand:
   ``reply: heuristic`` plays the move ``adas_heuristic`` would choose there (the first
   of its best, no tie-break draw), ``reply: worst`` the one of the heuristic's
   ``reply_candidates`` best replies that leaves this seat the lowest leaf value; with
   ``rounds`` above 1 this seat then plays the heuristic's move and the opponent replies
   again, ``rounds`` replies in all;
3. the position after the reply (this seat to move) is valued by both seats' planned
   races (``adas_race``'s planner: a beam search over a seat's own turns with the cards it
   holds and will draw, the other row standing still): with ``lead = weight * theirs -
   mine`` (this seat moves first, so it wins a tie), the sample is worth
   ``sigmoid((lead + 0.5) / scale) + margin * lead``; a game won or lost on the way,
   or a leaf where a card in this seat's hand sorts its row, is worth ``1 + 10 *
   margin`` or ``-10 * margin``;
4. with ``extra`` above 0, the ``finalists`` candidates with the best totals (the
   heuristic's own move, its top-scored candidate, always among them) are played on
   ``extra`` further determinisations, the same for each, and the others drop out: the
   budget goes where the choice is close;
5. the candidate with the best total over the samples (the same determinisations for
   every candidate) is played; ties go to the heuristic's order. With ``z`` set, the
   heuristic's own move (its top-scored candidate) is played unless an alternative
   earns the change: its per-sample differences from that move (paired: the same
   determinisations) must have a mean above 0 and more than ``z`` standard errors;
   among the alternatives that pass, the best mean.

The opponent's reply is a model of its play, not a search of it; the budget is counted
(samples x candidates + extra x finalists replies and plans), never timed. Two players
only: with four it plays the heuristic's best move.

Built on the search core: :func:`~simcli_strategies.search.compare.compare` with the
finalists' second round and the pick rule
:class:`~simcli_strategies.search.compare.PairedEvidence` (with ``z``) or
:class:`~simcli_strategies.search.compare.BestTotal`; :meth:`AdasReply.deals` supplies the
weighted samples and :meth:`AdasReply.value` a candidate's value on one.
"""

from __future__ import annotations

import math
import random
from typing import Any

from simcli.game import CHANCE, Move, State
from simcli_strategies.adas_heuristic import WIN, AdasHeuristic, HeuristicMemo
from simcli_strategies.adas_race import RaceJudge
from simcli_strategies.search.common import check_float, check_int
from simcli_strategies.search.compare import PairedEvidence, Sample, first_best

REPLIES = ("heuristic", "worst")
#: The cards that change the opponent's row too: master changes and Exchanges.
DISRUPTIVE = frozenset(("master1", "master2", "exchange"))


class AdasReply(RaceJudge):
    description = (
        "Ada's Library: the heuristic's best moves judged after the opponent's modelled "
        "reply by both seats' planned races on sampled determinisations; params: samples, "
        "extra, finalists, candidates, disruptive, reply, reply_candidates, rounds, infer, "
        "depth, beam, opponent_depth, opponent_beam, tail, scale, margin, weight, z"
    )
    games = ("adas_library",)

    def __init__(
        self,
        samples: int = 12,
        extra: int = 0,
        finalists: int = 4,
        candidates: int = 8,
        disruptive: int = 0,
        reply: str = "heuristic",
        reply_candidates: int = 3,
        rounds: int = 1,
        infer: int = 0,
        depth: int = 4,
        beam: int = 8,
        opponent_depth: int = 3,
        opponent_beam: int = 4,
        tail: float = 1.2,
        scale: float = 1.0,
        margin: float = 0.05,
        weight: float = 1.0,
        z: float | None = None,
        heuristic: dict[str, Any] | None = None,
    ) -> None:
        self.z = check_float("z", z, 0.0, allow_none=True)
        self.samples = check_int("samples", samples, 1)
        self.extra = check_int("extra", extra, 0)
        self.finalists = check_int("finalists", finalists, 2)
        self.candidates = check_int("candidates", candidates, 1)
        self.disruptive = check_int("disruptive", disruptive, 0)
        if reply not in REPLIES:
            raise ValueError(f"reply must be one of {', '.join(REPLIES)}, got {reply!r}")
        self.reply = reply
        self.reply_candidates = check_int("reply_candidates", reply_candidates, 1)
        self.rounds = check_int("rounds", rounds, 1)
        self.infer = check_int("infer", infer, 0)
        self.set_race(depth, beam, opponent_depth, opponent_beam, tail, scale, margin, weight)
        self.set_heuristic(heuristic)
        if self.z is not None:
            self.rule = PairedEvidence(self.z)

    def start_game(self, game: Any, seat: int, rng: random.Random) -> None:
        super().start_game(game, seat, rng)
        #: the opponents' models: seat -> a heuristic playing that seat (its RNG unused)
        self._models = {}
        for s in range(2):
            model = AdasHeuristic(**self.heuristic)
            model.start_game(game, s, random.Random(0))
            self._models[s] = model
        self._memos = {s: HeuristicMemo() for s in range(2)}
        self._previous: Any = None
        #: the opponent's move since this seat's last one, as observed
        self._seen: Any = None
        #: the last decision's determinisations that fitted the opponent's last move
        self.last_accepted = 0

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        move = self._choose(view, legal_moves)
        # this seat's view after its move: the position the opponent's next move is
        # made from, for the inference at the next decision
        after = view.clone()
        after.apply_trusted(move)
        self._previous = after if after.current_player == 1 - self.seat else None
        self._seen = None
        return move

    def observe(self, seat: int, move: Move | None, view: State | None) -> None:
        """Keep the opponent's move for the inference; a reshuffle in between (a chance
        event) leaves the position it was made from unknown."""
        if seat == CHANCE:
            self._previous = None
        elif seat != self.seat:
            self._seen = move

    def _choose(self, view: State, legal_moves: list[Move]) -> Move:
        self.last_values = {}
        self.last_accepted = 0
        chosen = self.candidate_moves(view, legal_moves)
        if len(chosen) == 1 or view.players != 2:  # type: ignore[attr-defined]
            return chosen[0]
        self.fresh_planner()
        #: per decision: the model's replies and the leaves' values, by position
        self._replies: dict[Any, list[Any]] = {}
        self._leaves: dict[Any, float] = {}
        return self.compare(
            chosen,
            self.deals(view, self.samples),
            finalists=self.finalists,
            more=(lambda: self.deals(view, self.extra)) if self.extra else None,
        )

    def more_candidates(
        self, legal_moves: list[Move], scores: list[float], order: list[int]
    ) -> list[int]:
        """The ``disruptive`` best master changes and Exchanges beyond the candidates."""
        if not self.disruptive:
            return []
        extra = [
            i
            for i in order[self.candidates :]
            if legal_moves[i][0] in DISRUPTIVE and scores[i] > -WIN
        ]
        return extra[: self.disruptive]

    def value(self, after: State, sample: Sample) -> float:
        """One sample's value of a candidate: the opponent's modelled reply (and further
        rounds), then the race value of the leaf (:meth:`_after_move`)."""
        return self._after_move(after, self._replies, self._leaves, self.rounds)

    def deals(self, view: Any, samples: int) -> list[Sample]:
        """``samples`` determinisations of ``view`` with their weights, all drawn before
        any is used (the values draw from the same RNG: a reshuffle). With ``infer``
        above 0 and the opponent's last move seen, up to ``infer * samples`` are drawn and
        each is weighted by the chance that the heuristic model, holding that deal's hand
        (its current hand minus the card it drew, plus the card it played), makes the
        move it made; deals of weight 0 are dropped. When none fits, the first
        ``samples`` count alike."""
        tries = [self.game.determinize(view, self.rng) for _ in range(samples)]
        seen = self._opponent_move(view) if self.infer else None
        if seen is None:
            return [Sample(state, weight=1.0) for state in tries]
        before, card, matching = seen
        opponent = 1 - self.seat
        kept: list[Sample] = []
        for attempt in range(self.infer * samples):
            if attempt >= len(tries):
                tries.append(self.game.determinize(view, self.rng))
            state = tries[attempt]
            hand = state.hands[opponent]
            position = before.clone()
            position.hands[opponent] = [*hand[:-1], card]  # the last card is the one drawn
            moves = position.legal_moves()
            scores = self._model_scores(opponent, position, moves)
            top = max(scores)
            best = [tuple(m) for m, v in zip(moves, scores, strict=True) if v >= top - 1e-9]
            weight = sum(1 for m in best if m in matching) / len(best)
            if weight > 0:
                kept.append(Sample(state, weight=weight))
                if len(kept) == samples:
                    break
        self.last_accepted += len(kept)  # both rounds' deals, with extra
        return kept or [Sample(state, weight=1.0) for state in tries[:samples]]

    def _opponent_move(self, view: Any) -> tuple[Any, str, set[Any]] | None:
        """(the position the opponent moved from, as this seat saw it; the card it
        played or discarded; the moves of that card that give the position its observed
        move gave), or None when that move is unknown (the first move, a reshuffle in
        between)."""
        before, seen = self._previous, self._seen
        if before is None or seen is None:
            return None
        card = seen[1] if seen[0] == "discard" else seen[0]
        opponent = 1 - self.seat
        position = before.clone()
        position.hands[opponent] = [card] * len(position.hands[opponent])
        played = position.clone()
        played.apply_trusted(seen)
        rows, master = played.rows, played.master
        matching: set[Any] = set()
        for move in [*position.plays(opponent, card), ["discard", card]]:
            after = position.clone()
            after.apply_trusted(move)
            if after.rows == rows and after.master == master:
                matching.add(tuple(move))
        return (before, card, matching) if matching else None

    def _terminal(self, state: Any) -> float:
        return self._won() if state.winner == self.seat else -self.margin * 10

    def _won(self) -> float:
        """A sample's value when this seat wins (or surely will)."""
        return 1.0 + self.margin * 10

    def _model_scores(self, seat: int, position: Any, moves: list[Any]) -> list[float]:
        """The heuristic model's scores of ``moves`` for ``seat`` (its memo kept between
        calls, emptied when large)."""
        memo = self._memos[seat]
        if len(memo) > 400_000:
            self._memos[seat] = memo = HeuristicMemo()
        return self._models[seat].scores(position, moves, memo)

    def _model_moves(self, state: Any, replies: dict[Any, list[Any]], worst: bool) -> list[Any]:
        """The moves the heuristic model plays for the seat to move in ``state`` (a full
        state): its first best move, or with ``worst`` its ``reply_candidates`` best (a
        move that wins is played alone)."""
        seat = state.current_player
        hand = tuple(sorted(state.hands[seat]))
        key = (seat, tuple(map(tuple, state.rows)), tuple(state.master), hand, worst)
        options = replies.get(key)
        if options is None:
            moves = state.legal_moves()
            scores = self._model_scores(seat, state, moves)
            top = max(scores)
            if top >= WIN:
                options = [moves[scores.index(top)]]
            elif not worst:
                options = [moves[first_best(scores, 1e-9)]]
            else:
                order = sorted(range(len(moves)), key=lambda i: -scores[i])
                options = [moves[i] for i in order[: self.reply_candidates] if scores[i] > -WIN]
                options = options or [moves[order[0]]]
            replies[key] = options
        return options

    def _after_move(
        self,
        after: Any,
        replies: dict[Any, list[Any]],
        leaves: dict[Any, float],
        rounds: int,
    ) -> float:
        """One sample's value of the position after this seat's move and draw: the
        opponent replies by the model (then, for each further round, this seat plays the
        heuristic's move and the opponent replies again), then the leaf is valued."""
        if after.winner is not None:
            return self._terminal(after)
        if after.current_player == CHANCE:  # a reshuffle is due: this seat's own RNG
            after.apply_trusted(after.sample_chance(self.rng))
        options = self._model_moves(after, replies, self.reply == "worst")
        worst = math.inf
        for move in options:
            state = after.clone() if len(options) > 1 else after
            state.apply_trusted(move)
            if rounds > 1 and state.winner is None:
                if state.current_player == CHANCE:
                    state.apply_trusted(state.sample_chance(self.rng))
                state.apply_trusted(self._model_moves(state, replies, False)[0])
                value = self._after_move(state, replies, leaves, rounds - 1)
            else:
                value = self._leaf(state, leaves)
            worst = min(worst, value)
        return worst

    def _leaf(self, state: Any, leaves: dict[Any, float]) -> float:
        """The race value of a position with this seat to move (or a finished game)."""
        if state.winner is not None:
            return self._terminal(state)
        seat = self.seat
        other = 1 - seat
        rows = [tuple(row) for row in state.rows]
        master = tuple(state.master)
        draws = state.draw  # with this seat to move (or to draw), it draws first
        mine_hand = tuple(sorted(state.hands[seat]))
        their_hand = tuple(sorted(state.hands[other]))
        key = (
            rows[0],
            rows[1],
            master,
            mine_hand,
            their_hand,
            tuple(draws[: 2 * max(self.depth, self.opponent_depth)]),
        )
        found = leaves.get(key)
        if found is not None:
            return found
        planner = self.planner
        mine = planner.turns(
            rows[seat],
            master,
            rows[other],
            mine_hand,
            draws[0::2],
            self.depth,
            self.beam,
            self.tail,
        )
        if mine <= 1.0:  # a card in this seat's hand sorts its row now: a win
            leaves[key] = value = self._won()
            return value
        theirs = planner.turns(
            rows[other],
            master,
            rows[seat],
            their_hand,
            draws[1::2],
            self.opponent_depth,
            self.opponent_beam,
            self.tail,
        )
        lead = self.weight * theirs - mine
        value = 1.0 / (1.0 + math.exp(-(lead + 0.5) / self.scale)) + self.margin * lead
        leaves[key] = value
        return value
