"""``ex_libris_endgame``: the heuristic's plan, with full-game lookahead at the end.

``ex_libris_heuristic`` plays every decision until the end of the game is near: the final
round, or some shelf within ``near`` cards of the final-round trigger (``near: 0``, the
default: from the moment a shelf reaches the trigger, i.e. the rest of that round and the
final round). From then on each decision with more than one legal move is made by
``rollout_search`` over the heuristic with continuations to the end of the game:

* candidates: the heuristic's move and the ``candidates - 1`` best others. For a
  placement or a shelving (often hundreds of moves, one per card and shelf position) they
  come from the heuristic's own values, best move of each kind first (each location,
  drawing at home, shelving at home; each card to shelve, passing); for the other
  decisions (a few moves each) every move is played once and ranked by the heuristic's
  position value, and a move that ends the game with this seat the only winner is played
  at once;
* each candidate is played on ``samples`` determinisations of the view (common random
  numbers: the same deal and draws for every candidate) and the game is finished by the
  heuristic on both seats; the final inspection decides (``mixed``: 1 for a win, plus
  ``margin_weight`` per point of the final margin).

Near the end a continuation is short (a few dozen decisions), so its cost stays small,
and the real inspection (the Prominent Works race, variety, the flips) replaces the
heuristic's proxies where the game is settled. Hidden cards only through
``game.determinize``; randomness only ``self.rng``; the budget is counts (samples x
candidates continuations a searched decision), so the same seed gives the same moves.
"""

from __future__ import annotations

from typing import Any

from simcli.game import Move, State
from simcli_strategies.rollout_search import RolloutSearch
from simcli_strategies.search.common import check_int


class ExLibrisEndgame(RolloutSearch):
    description = (
        "Ex Libris: ex_libris_heuristic, and near the end of the game rollout_search with "
        "full heuristic continuations; params: near, samples, candidates, reward, "
        "margin_weight, policy_params"
    )
    games = ("ex_libris",)

    def __init__(
        self,
        near: int = 0,
        samples: int = 3,
        candidates: int = 3,
        reward: str = "mixed",
        margin_weight: float = 0.05,
        keep: float = 0.0,
        policy_params: dict[str, Any] | None = None,
    ) -> None:
        self.near = check_int("near", near, 0)
        if policy_params is None:
            policy_params = {"width": 5, "misfit": 0.6, "draw_value": 1.6}
        super().__init__(
            policy="ex_libris_heuristic",
            policy_params=policy_params,
            samples=samples,
            candidates=candidates,
            depth=None,
            reward=reward,
            keep=keep,
            margin_weight=margin_weight,
        )
        #: whether the last decision was searched (for tests and profiling)
        self.searched = False

    def endgame(self, view: State) -> bool:
        """The final round, or a shelf within ``near`` cards of the final-round trigger
        (everything read here is public)."""
        if view.final_round:  # type: ignore[attr-defined]
            return True
        most = max(len(cells) for cells in view.shelves)  # type: ignore[attr-defined]
        return most >= view.trigger - self.near  # type: ignore[attr-defined]

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        self.searched = False
        if len(legal_moves) > 1 and self.endgame(view):
            self.searched = True
            return super().choose(view, legal_moves)
        self.last_values = {}
        return self.base.choose(view, list(legal_moves))

    def preselect(self, view: State, legal_moves: list[Move], base_move: Move) -> list[Move] | None:
        """The heuristic's own ranking of a placement or a shelving (up to several hundred
        moves, one card x position each: too many to play out once each): the best move of
        every kind (each location, drawing at home, shelving at home; or each card to
        shelve, and passing), best first. ``None`` for the other decisions (few moves:
        the search values every one of them once)."""
        st: Any = view
        head = st.tasks[-1].name if st.tasks else ""
        if head not in ("place", "shelve"):
            return None
        base = self.base
        base.new_decision()
        seat = self.seat
        # the heuristic's value of shelving each card of the hand at each position
        shelves = {(card, pos): v for v, card, pos in base.best_shelves(st, seat, st.hands[seat])}
        ranked: list[tuple[float, int, Any]] = []
        if head == "place":
            draw = base.draw_value * (0.15 if st.final_round else 1.0)
            inputs = base.location_inputs(st, seat, shelves)
            for index, move in enumerate(legal_moves):
                kind = move[0].lstrip("s")
                if kind == "home" and move[1] == "draw":
                    value, group = draw, ("draw",)
                elif kind == "home" and move[1] == "shelve":
                    value = shelves.get((st.card_of(move[2]), (move[3], move[4])), -99.0)
                    group = ("home_shelve",)
                elif kind == "loc":
                    value = base.location_value(st, seat, move[1], shelves, draw, inputs)
                    group = ("loc", move[1])
                else:
                    value, group = 0.0, (kind,)
                ranked.append((value, index, group))
        else:
            for index, move in enumerate(legal_moves):
                if move == "pass":
                    ranked.append((0.0, index, ("pass",)))
                else:
                    value = shelves.get((st.card_of(move[1]), (move[2], move[3])), -99.0)
                    ranked.append((value, index, ("card", move[1])))
        ranked.sort(key=lambda r: (-r[0], r[1]))
        seen: set = set()
        out = []
        for _value, index, group in ranked:
            if group not in seen:
                seen.add(group)
                out.append(legal_moves[index])
        return out
