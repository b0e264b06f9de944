"""``ex_libris_heuristic``: keeps its shelf alphabetical and chases its focus and Prominent
Works.

The shelf is planned as a 3-row grid of ``width`` columns (the target): reading-order
cell ``k`` of ``3 * width`` cells is meant for cards around ``k / (3 * width)`` of the
way through the alphabet. A card's *misfit* is how many cells it sits away from its ideal
cell. Shelving decisions add the exact change of the seat's inspection score (books,
flips, stability, Prominent Works, variety, focus) to a penalty for misfit; placement
compares home actions with a per-step estimate of every open location; the voluntary
flips before the inspection are chosen greedily.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from typing import Any, TypeVar

from simcli.game import Move, State
from simcli.games.ex_libris import inspection
from simcli.games.ex_libris.state import UNKNOWN, ExLibrisState
from simcli.strategy import Strategy

Pos = tuple[int, int]
T = TypeVar("T")


def bounded_memo(cache: dict[Any, T], key: Any, limit: int, compute: Callable[[], T]) -> T:
    """``cache[key]``, computed by ``compute()`` the first time; the cache is emptied
    when it holds more than ``limit`` values (a continuation meets many shelves once)."""
    found = cache.get(key)
    if found is None:
        if len(cache) > limit:
            cache.clear()
        found = cache[key] = compute()
    return found


class ExLibrisHeuristic(Strategy):
    description = "Ex Libris: alphabetical shelf plan, focus and Prominent Works, greedy flips"
    games = ("ex_libris",)

    def __init__(self, width: int = 5, misfit: float = 0.6, draw_value: float = 1.6) -> None:
        if not (isinstance(width, int) and 2 <= width <= 10):
            raise ValueError("width must be an integer from 2 to 10")
        self.width = width
        self.misfit_weight = float(misfit)
        self.draw_value = float(draw_value)
        # caches of values that depend only on their keys (the same numbers, computed once;
        # shelves are keyed by their cells in dict order, since float sums depend on it)
        self._ranks: dict[int, list[float]] = {}
        self._fits: dict[tuple, list[tuple[float, float, float]]] = {}
        self._misfits: dict[tuple, float] = {}
        self._scores: dict[tuple, float] = {}
        self._awards: dict[tuple, int] = {}  # the first seat's prize by the counts
        self._stability: dict[tuple, int] = {}
        self._card_shelves: dict[tuple, list[tuple[float, int, Pos]]] = {}

    # ------------------------------------------------------------------ entry

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        st: ExLibrisState = view  # type: ignore[assignment]
        self.new_decision()
        head = st.tasks[-1].name if st.tasks else ""
        if len(legal_moves) == 1:
            return legal_moves[0]
        handler = getattr(self, "_choose_" + head, None)
        if handler is None:
            return self._best_by_evaluation(st, legal_moves)
        return handler(st, legal_moves)

    def new_decision(self) -> None:
        """Forget what :meth:`score` keeps for one decision (the other seats' counts).
        ``choose`` and :meth:`position_value` call it; a search that calls the value
        methods (``best_shelves``, ``location_value``, ...) on a position of its own
        calls it first."""
        self._others_key: tuple | None = None

    # ------------------------------------------------------------------ shelf model

    def cells(self) -> int:
        return 3 * self.width

    def rank(self, st: ExLibrisState, card: int) -> float:
        """Position of ``card`` in the alphabet, in target cells (0 .. cells)."""
        return self.rank_table(st)[card]

    def rank_table(self, st: ExLibrisState) -> list[float]:
        """:meth:`rank` of every card of the game, by card."""
        books = len(st.comps.books)
        table = self._ranks.get(books)
        if table is None:
            cells = self.cells()
            table = self._ranks[books] = [(c + 0.5) * cells / books for c in range(books)]
        return table

    def offset(self, st: ExLibrisState, cells: dict[Pos, int]) -> tuple[int, int]:
        """The placement of the actual shelf inside the target grid that fits best."""
        if not cells:
            return (0, 0)
        rows = [r for r, _ in cells]
        cols = [c for _, c in cells]
        h, w = max(rows) + 1, max(cols) + 1
        width = self.width
        # rank(card) and ideal(r, c) = r * width + c + 0.5 once per cell; a shift of the
        # grid adds r0 * width + c0 to every ideal (exact: whole numbers plus one half)
        rank = self.rank_table(st)
        pairs = [(rank[card], r * width + c + 0.5) for (r, c), card in cells.items()]
        best, best_cost = (0, 0), float("inf")
        for r0 in range(0, max(1, 3 - h + 1)):
            for c0 in range(0, max(1, width - w + 1)):
                shift = r0 * width + c0
                cost = 0.0
                for rank, ideal in pairs:
                    cost += abs(rank - (ideal + shift))
                if cost < best_cost:
                    best, best_cost = (r0, c0), cost
        return best

    def misfit_adding(
        self, st: ExLibrisState, cells: dict[Pos, int]
    ) -> Callable[[int, Pos], float]:
        """``f(card, pos)``: :meth:`misfit` of ``cells`` with ``card`` added at the open
        position ``pos`` (the shelf moved to non-negative positions), the same number.
        The cells already there contribute the same sums to every such shelf, for a given
        shift of theirs in the target grid, so those sums are worked out once per shift
        and the new card's terms are added last, in the order :meth:`offset` and
        :meth:`_misfit` add them."""
        rank = self.rank_table(st)
        width = self.width
        cards = [(rank[card], r, c) for (r, c), card in cells.items()]
        height = max((r for _, r, _ in cards), default=-1) + 1
        span = max((c for _, _, c in cards), default=-1) + 1
        sums: dict[tuple[int, int], tuple[float, float]] = {}

        def base(dr: int, dc: int) -> tuple[float, float]:
            """The old cells shifted by (dr, dc): their cost in :meth:`offset` and their
            total in :meth:`_misfit`."""
            found = sums.get((dr, dc))
            if found is None:
                shift = dr * width + dc
                cost = total = 0.0
                for value, r, c in cards:
                    term = abs(value - (r * width + c + 0.5 + shift))
                    cost += term
                    total += term
                    if c + dc >= width or r + dr > 2:
                        total += 3.0
                found = sums[(dr, dc)] = (cost, total)
            return found

        def misfit(card: int, pos: Pos) -> float:
            dr, dc = max(0, -pos[0]), max(0, -pos[1])
            nr, nc = pos[0] + dr, pos[1] + dc
            h = max(height + dr, nr + 1)
            w = max(span + dc, nc + 1)
            value = rank[card]
            ideal = nr * width + nc + 0.5
            best, best_cost = (0, 0), float("inf")
            for r0 in range(0, max(1, 3 - h + 1)):
                for c0 in range(0, max(1, width - w + 1)):
                    cost = base(dr + r0, dc + c0)[0] + abs(value - (ideal + (r0 * width + c0)))
                    if cost < best_cost:
                        best, best_cost = (r0, c0), cost
            r0, c0 = best
            total = base(dr + r0, dc + c0)[1]
            total += abs(value - ((nr + r0) * width + (nc + c0) + 0.5))
            if nc + c0 >= width or nr + r0 > 2:
                total += 3.0
            return total

        return misfit

    def ideal(self, tr: int, tc: int) -> float:
        return tr * self.width + tc + 0.5

    def misfit(self, st: ExLibrisState, cells: dict[Pos, int]) -> float:
        """Total misfit of a shelf, plus a penalty for cells outside the target grid."""
        if not cells:
            return 0.0
        return bounded_memo(
            self._misfits, tuple(cells.items()), 65536, lambda: self._misfit(st, cells)
        )

    def _misfit(self, st: ExLibrisState, cells: dict[Pos, int]) -> float:
        r0, c0 = self.offset(st, cells)
        rank = self.rank_table(st)
        width = self.width
        total = 0.0
        for (r, c), card in cells.items():
            tr, tc = r + r0, c + c0
            total += abs(rank[card] - (tr * width + tc + 0.5))
            if tc >= width or tr > 2:
                total += 3.0
        return total

    def book_value(self, st: ExLibrisState, seat: int, card: int) -> float:
        if card == UNKNOWN:
            return 1.0
        value = 0.0
        for cat in st.comps.books[card].books:
            if cat == st.focus[seat]:
                value += 2.0
            elif cat == st.banned:
                value -= 1.0
            elif cat == st.prominent:
                value += 1.0
            else:
                value += 0.5
        return value

    def score(self, st: ExLibrisState, seat: int, cells: dict[Pos, int]) -> float:
        """The seat's inspection total with ``cells`` as its shelf (others as they are)."""
        key = (id(st), st.round, len(st.tasks))
        if self._others_key != key:
            self._others_key = key
            books = [b.books for b in st.comps.books]
            self._others = [
                inspection.category_counts(
                    st.shelves[s],
                    set(st.down[s]) | set(inspection.alphabetical_check(st.shelves[s], st.down[s])),
                    books,
                )[st.prominent]
                for s in range(st.players)
                if s != seat
            ]
        key = self._score_key(st, seat, cells)
        return bounded_memo(self._scores, key, 65536, lambda: self._score(st, seat, cells))

    def _score_key(self, st: ExLibrisState, seat: int, cells: dict[Pos, int]) -> tuple:
        """Everything :meth:`score` reads (after it has set the other seats' counts)."""
        return (
            tuple(cells.items()),
            frozenset(st.down[seat]),
            tuple(self._others),
            st.prominent,
            st.banned,
            st.focus[seat],
            st.prominent_ties,
        )

    def _score(self, st: ExLibrisState, seat: int, cells: dict[Pos, int]) -> float:
        card_books = st.comps.books
        down = st.down[seat]
        flipped = inspection.alphabetical_check(cells, down)
        hidden = set(down) | set(flipped)
        counts = [0] * len(st.comps.categories)
        for pos, card in cells.items():
            if pos not in hidden:
                for cat in card_books[card].books:
                    counts[cat] += 1
        return self._total(st, seat, counts, tuple(cells))

    def _total(self, st: ExLibrisState, seat: int, counts: list[int], shape: tuple) -> float:
        """The inspection total from the face-up books' category counts and the shelf's
        positions (``shape``)."""
        mine = counts[st.prominent]
        award = bounded_memo(
            self._awards,
            (mine, *self._others, st.prominent_ties),
            4096,
            lambda: inspection.prominent_awards([mine, *self._others], ties=st.prominent_ties)[0],
        )
        variety = 3 * min(n for c, n in enumerate(counts) if c != st.banned)
        focus = 2 * counts[st.focus[seat]] if st.focus[seat] != UNKNOWN else 0
        # stability reads the shape only: one shape serves every card tried at a position
        stable = bounded_memo(self._stability, shape, 4096, lambda: inspection.stability(shape))
        return float(stable + award - counts[st.banned] + variety + focus)

    def score_adding(
        self, st: ExLibrisState, seat: int, cells: dict[Pos, int]
    ) -> Callable[[int, Pos], float]:
        """``f(card, pos)``: :meth:`score` of ``cells`` with ``card`` added at the open
        position ``pos`` and the shelf moved to non-negative positions as
        :meth:`shelve_value` moves it (the face-down marks stay where they were), the
        same number. The alphabetical check runs in reading order, so the cells before
        ``pos`` keep their flips and counts, and the cells after it keep theirs unless the
        new card is face up (then the check is run on from it). Call :meth:`score` first
        in the decision: it sets the other seats' counts read here."""
        card_books = [b.books for b in st.comps.books]
        ncat = len(st.comps.categories)
        order = sorted(cells)
        shape = tuple(cells)
        chains: dict[tuple[int, int], tuple] = {}

        def chain(dr: int, dc: int) -> tuple:
            """The check over the cells when the shelf is moved by (dr, dc): the cells
            read as face down, the "previous" card before each cell, the face-up counts
            of the cells before each cell and of all of them."""
            found = chains.get((dr, dc))
            if found is None:
                down = {(r - dr, c - dc) for r, c in st.down[seat]}
                before: list[int] = []
                prefix = [[0] * ncat]
                previous = -1
                counts = [0] * ncat
                for pos in order:
                    before.append(previous)
                    card = cells[pos]
                    if pos not in down and card > previous:
                        previous = card
                        for cat in card_books[card]:
                            counts[cat] += 1
                    prefix.append(list(counts))
                before.append(previous)
                found = chains[(dr, dc)] = (down, before, prefix, counts)
            return found

        def score(card: int, pos: Pos) -> float:
            dr, dc = max(0, -pos[0]), max(0, -pos[1])
            down, before, prefix, total = chain(dr, dc)
            k = bisect_left(order, pos)
            if pos in down or card <= before[k]:
                counts = total  # face down or flipped: the others are as they were
            else:  # face up: the cells after it are checked against it
                counts = list(prefix[k])
                for cat in card_books[card]:
                    counts[cat] += 1
                previous = card
                for other in order[k:]:
                    if other in down:
                        continue
                    value = cells[other]
                    if value > previous:
                        previous = value
                        for cat in card_books[value]:
                            counts[cat] += 1
            if dr or dc:
                moved = tuple((r + dr, c + dc) for r, c in shape)
                return self._total(st, seat, counts, (*moved, (pos[0] + dr, pos[1] + dc)))
            return self._total(st, seat, counts, (*shape, pos))

        return score

    def value_now(self, st: ExLibrisState, seat: int) -> float:
        cells = st.shelves[seat]
        return self.score(st, seat, cells) - self.misfit_weight * self.misfit(st, cells)

    def shelve_value(
        self,
        st: ExLibrisState,
        seat: int,
        card: int,
        pos: Pos,
        before: float | None = None,
        adding: tuple[Callable[[int, Pos], float], Callable[[int, Pos], float]] | None = None,
    ) -> float:
        """Change of (inspection score - misfit penalty) when ``card`` goes to ``pos``
        (``adding``: :meth:`score_adding` and :meth:`misfit_adding` of the seat's shelf,
        when at hand)."""
        cells = st.shelves[seat]
        if before is None:
            before = self.value_now(st, seat)
        if adding is None:
            new = dict(cells)
            new[pos] = card
            dr, dc = max(0, -pos[0]), max(0, -pos[1])
            if dr or dc:
                new = {(r + dr, c + dc): v for (r, c), v in new.items()}
            after = self.score(st, seat, new) - self.misfit_weight * self.misfit(st, new)
        else:
            after = adding[0](card, pos) - self.misfit_weight * adding[1](card, pos)
        if not st.final_round:
            after += 1.5  # a shelved card is a step towards stability and the final round
        return after - before

    def best_shelves(
        self, st: ExLibrisState, seat: int, cards: list[int]
    ) -> list[tuple[float, int, Pos]]:
        from simcli.games.ex_libris.shelf import open_positions

        cells = st.shelves[seat]
        positions = open_positions(cells)
        before = self.value_now(st, seat)  # also sets ``self._others`` for this decision
        # a card's values depend on the shelf and on what the inspection score reads
        # (the key of ``score``), not on the rest of the hand: kept per shelf and card,
        # since hands of 20 and more cards change by a draw far more often than the shelf
        shelf = (self._score_key(st, seat, cells), st.final_round)
        options = []
        pair = None  # the shortcuts, made when a card is not in the memo
        for card in sorted(set(cards)):
            if card == UNKNOWN:
                continue

            def values(card: int = card) -> list[tuple[float, int, Pos]]:
                nonlocal pair
                if pair is None:
                    pair = (self.score_adding(st, seat, cells), self.misfit_adding(st, cells))
                return [
                    (self.shelve_value(st, seat, card, pos, before, pair), card, pos)
                    for pos in positions
                ]

            options += bounded_memo(self._card_shelves, (shelf, card), 16384, values)
        options.sort(key=lambda o: (-o[0], o[1], o[2]))
        return options

    def card_value(self, st: ExLibrisState, seat: int, card: int) -> float:
        """A card in hand: its books, if it fits an empty target cell that keeps order."""
        if card == UNKNOWN:
            return self.draw_value
        rank = self.rank(st, card)
        best_fit = 99.0
        for ideal, highest_before, lowest_after in self.free_cells(st, st.shelves[seat]):
            if highest_before > card or lowest_after < card:
                continue
            best_fit = min(best_fit, abs(rank - ideal))
        if best_fit > 90:
            return 0.2 * self.book_value(st, seat, card)
        return self.book_value(st, seat, card) + 1.5 - self.misfit_weight * best_fit

    def free_cells(
        self, st: ExLibrisState, cells: dict[Pos, int]
    ) -> list[tuple[float, float, float]]:
        """The empty cells of the target grid with the shelf placed by :meth:`offset`:
        (ideal rank, highest card before it in reading order, lowest card after it),
        -inf / +inf when there is none. Kept per shelf (the same shelf is asked about for
        every card in hand and in the card areas)."""
        return bounded_memo(
            self._fits, tuple(cells.items()), 4096, lambda: self._free_cells(st, cells)
        )

    def _free_cells(
        self, st: ExLibrisState, cells: dict[Pos, int]
    ) -> list[tuple[float, float, float]]:
        r0, c0 = self.offset(st, cells)
        width = self.width
        target = {(r + r0, c + c0): v for (r, c), v in cells.items()}
        order = [(r * width + c, v) for (r, c), v in target.items()]
        fits = []
        for k in range(self.cells()):
            tr, tc = divmod(k, width)
            if (tr, tc) in target:
                continue
            before = [v for i, v in order if i < k]
            after = [v for i, v in order if i > k]
            fits.append(
                (
                    self.ideal(tr, tc),
                    max(before) if before else float("-inf"),
                    min(after) if after else float("inf"),
                )
            )
        return fits

    # ------------------------------------------------------------------ decisions

    def _choose_place(self, st: ExLibrisState, moves: list[Move]) -> Move:
        seat = self.seat
        draw = self.draw_value * (0.15 if st.final_round else 1.0)
        shelves = {
            (card, pos): value for value, card, pos in self.best_shelves(st, seat, st.hands[seat])
        }
        inputs = self.location_inputs(st, seat, shelves)
        best_move, best_value = moves[0], float("-inf")
        for move in moves:
            kind = move[0].lstrip("s") if isinstance(move, list) else ""
            if kind == "home" and move[1] == "draw":
                value = draw
            elif kind == "home" and move[1] == "shelve":
                card = st.card_of(move[2])
                value = shelves.get((card, (move[3], move[4])), -99.0)
            elif kind == "home" and move[1] == "pass":  # the game's home_action: optional
                value = 0.0
            elif kind == "home":
                value = draw + max(shelves.values(), default=0.0)
            elif kind == "loc":
                value = self.location_value(st, seat, move[1], shelves, draw, inputs)
            else:
                value = 0.0
            if move[0].startswith("s"):
                value += 0.01  # use the special assistant when it is as good
            if value > best_value:
                best_move, best_value = move, value
        return best_move

    def location_inputs(
        self, st: ExLibrisState, seat: int, shelves: dict[tuple[int, Pos], float]
    ) -> tuple[list[float], list[float]]:
        """What every location of one decision shares: the values of the cards in hand
        (lowest first) and each card's best shelving value (highest first)."""
        per_card: dict[int, float] = {}
        for (card, _pos), v in shelves.items():
            per_card[card] = max(per_card.get(card, -99.0), v)
        return (
            sorted(self.card_value(st, seat, c) for c in st.hands[seat]),
            sorted(per_card.values(), reverse=True),
        )

    def location_value(
        self,
        st: ExLibrisState,
        seat: int,
        number: int,
        shelves: dict[tuple[int, Pos], float],
        draw: float,
        inputs: tuple[list[float], list[float]] | None = None,
    ) -> float:
        """What a visit to location ``number`` is worth (``inputs``: :meth:`location_inputs`
        of the decision, worked out once for all its locations)."""
        if inputs is None:
            inputs = self.location_inputs(st, seat, shelves)
        hand_values, best_shelves = inputs
        tile = st.comps.location_index(number)
        loc = st.comps.locations[tile]
        area = sorted((self.card_value(st, seat, c) for c in st.area[tile]), reverse=True)
        if loc.delayed:
            # others there before us pick first
            area = area[len(st.occupants[tile]) :]
        value = 0.0
        shelved = 0
        for step in loc.effect:
            op, n = step.op, step.n
            if op == "draw":
                value += n * draw
            elif op == "draw_per_assistant":
                value += (st.out_count(seat) + 1) * draw + 0.3
            elif op in ("take", "search_discard"):
                pool = (
                    area
                    if op == "take"
                    else sorted(
                        (self.card_value(st, seat, c) for c in st.discard[-n:]), reverse=True
                    )
                )
                count = n if op == "take" else 1
                value += sum(v for v in pool[:count])
            elif op in ("shelve", "shelve_taken"):
                gains = [g for g in best_shelves[shelved : shelved + n] if g > 0]
                if op == "shelve_taken":
                    gains = gains[:1]
                    value += 0.5 * sum(gains)
                else:
                    value += sum(gains)
                shelved += n
            elif op == "swap":
                if area and hand_values:
                    value += max(0.0, area[0] - hand_values[0])
            elif op == "discard_draw":
                weak = [v for v in hand_values[:n] if v < draw]
                value += sum(draw - v for v in weak) * 0.7
            elif op == "draw_keep":
                value += step.k * draw * 1.3
        if loc.delayed:
            value *= 0.9
        return value

    def _choose_shelve(self, st: ExLibrisState, moves: list[Move]) -> Move:
        cards = sorted({st.card_of(m[1]) for m in moves if m != "pass"})
        for value, card, (r, c) in self.best_shelves(st, self.seat, cards):
            move = ["shelve", st.card_name(card), r, c]
            if value > 0 and move in moves:
                return move
            break
        return "pass"

    def _choose_home_action(self, st: ExLibrisState, moves: list[Move]) -> Move:
        choice = self._choose_shelve(st, [m for m in moves if m != ["draw"]] + ["pass"])
        return ["draw"] if choice == "pass" else choice

    def _pick_card(self, st: ExLibrisState, moves: list[Move], best: bool = True) -> Move:
        scored = sorted(
            moves,
            key=lambda m: (self.card_value(st, self.seat, st.card_of(m[1])), m[1]),
            reverse=best,
        )
        return scored[0]

    def _choose_take(self, st: ExLibrisState, moves: list[Move]) -> Move:
        return self._pick_card(st, moves)

    _choose_search = _choose_take

    def _choose_discard(self, st: ExLibrisState, moves: list[Move]) -> Move:
        return self._pick_card(st, moves, best=False)

    def _choose_give(self, st: ExLibrisState, moves: list[Move]) -> Move:
        return self._pick_card(st, moves, best=False)

    def _choose_discard_draw(self, st: ExLibrisState, moves: list[Move]) -> Move:
        cards = [m for m in moves if m != "done"]
        if not cards or st.final_round:
            return "done"
        worst = self._pick_card(st, cards, best=False)
        if self.card_value(st, self.seat, st.card_of(worst[1])) < self.draw_value * 0.8:
            return worst
        return "done"

    def _choose_swap(self, st: ExLibrisState, moves: list[Move]) -> Move:
        best, best_gain = "pass", 0.3
        for move in moves:
            if move == "pass":
                continue
            gain = self.card_value(st, self.seat, st.card_of(move[2])) - self.card_value(
                st, self.seat, st.card_of(move[1])
            )
            if gain > best_gain:
                best, best_gain = move, gain
        return best

    def _choose_bid(self, st: ExLibrisState, moves: list[Move]) -> Move:
        weak = sum(1 for c in st.hands[self.seat] if self.card_value(st, self.seat, c) < 0.5)
        bid = min(weak, 1, moves[-1][1])
        return ["bid", bid]

    def _choose_flip(self, st: ExLibrisState, moves: list[Move]) -> Move:
        return self._best_inspection(st, moves, "done")

    def _best_inspection(self, st: ExLibrisState, moves: list[Move], keep: Move) -> Move:
        """The move that most raises this seat's inspection total; ``keep`` (the move
        that changes nothing) unless one does."""
        seat = self.seat
        best, best_total = keep, st.inspect()[seat].total
        for move in moves:
            if move == keep:
                continue
            trial = st.clone()
            trial.apply(move)
            total = trial.inspect()[seat].total
            if total > best_total:
                best, best_total = move, total
        return best

    def _choose_library(self, st: ExLibrisState, moves: list[Move]) -> Move:
        order = ["bookworm", "automaton", "gargoyle", "imp", "wisp", "dragon"]
        names = {lib.name: lib.ability for lib in st.comps.libraries}
        return min(
            moves,
            key=lambda m: order.index(names[m[1]]) if names[m[1]] in order else len(order),
        )

    def _choose_name_category(self, st: ExLibrisState, moves: list[Move]) -> Move:
        focus = st.comps.categories[st.focus[self.seat]].code
        return ["name", focus] if ["name", focus] in moves else moves[0]

    def _choose_entomb(self, st: ExLibrisState, moves: list[Move]) -> Move:
        return self._best_inspection(st, moves, "pass")

    def _best_by_evaluation(self, st: ExLibrisState, moves: list[Move]) -> Move:
        game = self.game
        best, best_value = moves[0], float("-inf")
        for move in moves:
            trial = st.clone()
            trial.apply(move)
            value = game.evaluate(trial, self.seat)
            if value > best_value:
                best, best_value = move, value
        return best

    def position_value(self, st: ExLibrisState, seat: int) -> float:
        """This strategy's value of a position for ``seat`` (inspection score minus the
        misfit penalty, plus one point per card in hand as in the game's evaluation):
        the leaf value of searches that use this strategy as their rollout policy."""
        self.new_decision()  # the cache in ``score`` is per decision
        return self.value_now(st, seat) + 1.0 * len(st.hands[seat])
