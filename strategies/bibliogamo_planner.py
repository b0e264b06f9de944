"""``bibliogamo_planner``: a hand-written planner for Bibliogamo.

Each decision is taken from the view only (the unseen cards' order is never used; their
contents -- every card not in hand, on the table or in the discards -- are public):

* hiring: every plan of the hires left this turn (which card on which tower, which card
  pays, or stopping) is scored by the change of a *tower potential* plus the value of the
  cards kept. A tower's potential is what its book will earn (1 VP, the expected price,
  the Prestige Collection card's next step when the collection still wants that book)
  times the squared share already built, so the plan concentrates on few towers and the
  26 cubes are not spread until nothing can be finished. A tower the plan completes is
  valued by the librarian's expected arrival: the florins needed, on average, to walk
  him there after next turn's move (3 spaces plus the icon of a random unseen card).
  Towers that cannot be finished and sold in the days left are worth nothing.
* phase 3: discard the card that lifts the block when the best plan with the block lifted
  (one card fewer) is worth more than the best plan under the block.
* phase 4a: walk the librarian to a complete tower when the florins it costs (in VP,
  counting the rounding down of florins at the end) are worth less than the sale.
* phase 4b: always sell; re-draw the price card while the price is below the optimal
  stopping threshold for the unseen cards (a day is worth ``day_value`` VP).
* option ``prestige: choose``: the collection with the most VP per artisan needed,
  discounted when it wants several books of one tower.
"""

from __future__ import annotations

from typing import Any

from simcli.game import Move, State
from simcli.strategy import Strategy

LAST_DAY = 40
CUBES = 26
FLORINS_PER_VP = 5


class BibliogamoPlanner(Strategy):
    description = (
        "Bibliogamo: plans both hires, builds towers by value, prestige and the "
        "librarian's expected arrival, walks to sell, re-draws below an optimal threshold"
    )
    games = ("bibliogamo",)

    def __init__(
        self,
        day_value: float = 0.5,
        keep_value: float = 0.08,
        walk_limit: int = 6,
    ) -> None:
        if day_value < 0 or keep_value < 0 or walk_limit < 0:
            raise ValueError("day_value, keep_value and walk_limit must be >= 0")
        self.day_value = float(day_value)
        self.keep_value = float(keep_value)
        self.walk_limit = int(walk_limit)

    # ------------------------------------------------------------------ entry point
    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        s: Any = view
        step = s.step
        if step == "prestige":
            return self._choose_prestige(s, legal_moves)
        if step == "unblock":
            return self._choose_unblock(s, legal_moves)
        if step == "walk":
            return self._choose_walk(s, legal_moves)
        if step == "sell":
            return "sell" if "sell" in legal_moves else legal_moves[0]
        if step == "price":
            return self._choose_price(s, legal_moves)
        if step == "hire":
            return self._choose_hire(s, legal_moves)
        return legal_moves[0]

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _unseen(s: Any) -> list[int]:
        """Cards whose order is unknown: the draw pile, or the discards once it is empty
        (they will be reshuffled)."""
        return s.draw if s.draw else s.discard

    def _turns_left(self, s: Any) -> int:
        """Turns after this one in which a book finished now could still be sold."""
        return LAST_DAY - s.time

    def _expected_price(self, s: Any, icon: int | None = None) -> float:
        cards = s.comp.cards
        pool = self._unseen(s) or list(cards)
        if icon is None:
            icons = [cards[c].florin_icon for c in pool]
        else:
            icons = [icon]
        total = 0.0
        for i in icons:
            total += sum(cards[c].florins[i] for c in pool) / len(pool)
        return total / len(icons)

    def _book_values(self, s: Any) -> list[float]:
        """What selling the next book of each tower is worth, in VP."""
        comp = s.comp
        price_vp = self._expected_price(s) / FLORINS_PER_VP
        card = comp.prestige.get(s.prestige) if s.prestige is not None else None
        marked = sum(s.marks)
        values = []
        for t in range(len(comp.towers)):
            gain = 0.0
            if card is not None and s.marks[t] < card.wanted(t):
                gain = card.points[marked + 1] - card.points[marked]
            values.append(1.0 + price_vp + gain)
        return values

    def _walk_costs(self, s: Any) -> list[float]:
        """Expected florins to walk the librarian to each tower after next turn's move."""
        comp = s.comp
        n = comp.spaces
        pool = self._unseen(s) or list(comp.cards)
        moves: dict[int, int] = {}
        for c in pool:
            m = comp.cards[c].librarian
            moves[m] = moves.get(m, 0) + 1
        costs = []
        for tower in comp.towers:
            total = 0.0
            for m, count in moves.items():
                pos = (s.librarian + 3 + m) % n
                d = (tower.space - pos) % n
                total += count * min(d, n - d)
            costs.append(total / len(pool))
        return costs

    # ------------------------------------------------------------------ hiring
    def _tower_potentials(self, s: Any) -> list[list[float]]:
        """pot[t][k]: potential of tower t with k artisans placed (see the module doc)."""
        comp = s.comp
        values = self._book_values(s)
        walk = self._walk_costs(s)
        left = self._turns_left(s)
        table = []
        for t, tower in enumerate(comp.towers):
            row = []
            for filled in range(tower.size + 1):
                need = tower.size - filled
                if filled == 0 or left <= 0:
                    row.append(0.0)
                elif need == 0:
                    row.append(values[t] - min(walk[t], 9) / FLORINS_PER_VP * 0.5)
                elif need > 3 * (left - 1):
                    # About 3 useful artisans arrive per turn at best: hopeless.
                    row.append(0.0)
                else:
                    share = filled / tower.size
                    row.append(values[t] * 0.75 * share * share)
            table.append(row)
        return table

    @staticmethod
    def _card_use(s: Any, card: int) -> int:
        """Most artisans ``card`` could add to one tower now."""
        comp = s.comp
        best = 0
        arts = comp.cards[card].artisans
        for t, tower in enumerate(comp.towers):
            have = list(s.towers[t])
            gain = 0
            for a in arts:
                if have[a] < tower.recipe[a]:
                    have[a] += 1
                    gain += 1
            best = max(best, gain)
        return best

    def _best_plan(
        self,
        s: Any,
        hand: list[int],
        hires: int,
        unblocked: bool,
        firsts: dict[tuple[int, int, int] | None, float] | None = None,
    ) -> tuple[float, list[tuple[int, int, int]]]:
        """Best (value, [(card, payment, tower), ...]) for the hires left this turn.

        Value = change of the tower potential + ``keep_value`` per artisan that the kept
        cards could place, measured against an average unseen card (a discarded card is
        replaced by a fresh one at the end of the turn). ``firsts``, when given, receives
        the best value of the plans that start with each first hire (None: stopping)."""
        comp = s.comp
        pot = self._tower_potentials(s)
        pool = self._unseen(s) or list(comp.cards)
        average = sum(self._card_use(s, c) for c in pool) / len(pool)
        use = {c: self._card_use(s, c) - average for c in hand}
        blocked = None if unblocked else s.blocked
        scope_any = s.options["block_scope"] == "any"
        recipes = [t.recipe for t in comp.towers]
        arts = {c: comp.cards[c].artisans for c in hand}
        base = [list(t) for t in s.towers]
        base_filled = [sum(t) for t in base]
        free0 = CUBES - sum(base_filled)
        n_towers = len(comp.towers)
        kv = self.keep_value

        # which cards the block stops: the game's option blocked_cards
        reading = s.options.get("blocked_cards", "artisans")
        icons = {c: comp.cards[c].blocked for c in hand}

        def playable(c: int) -> bool:
            if blocked is None:
                return True
            if reading == "small_icon":
                return icons[c] != blocked
            return blocked not in arts[c] and (reading == "artisans" or icons[c] != blocked)

        def payable(c: int) -> bool:
            return not scope_any or playable(c)

        def place(row: list[int], card: int, t: int, free: int) -> tuple[list[int], int]:
            recipe = recipes[t]
            new = row.copy()
            added = 0
            for a in arts[card]:
                if added >= free:
                    break
                if new[a] < recipe[a]:
                    new[a] += 1
                    added += 1
            return new, added

        def payments(rest: list[int], count: int) -> tuple[list[int], float] | None:
            payers = sorted((c for c in rest if payable(c)), key=lambda c: (use[c], c))
            if len(payers) < count:
                return None
            paid = payers[:count]
            return paid, kv * sum(use[c] for c in rest if c not in paid)

        best_value = kv * sum(use.values())
        best_plan: list[tuple[int, int, int]] = []
        if firsts is not None:
            firsts[None] = best_value

        def note(first: tuple[int, int, int], v: float) -> None:
            if firsts is not None and v > firsts.get(first, float("-inf")):
                firsts[first] = v

        two = hires == 0
        for a1 in hand:
            if not playable(a1):
                continue
            rest1 = [c for c in hand if c != a1]
            single = payments(rest1, 1)
            for t1 in range(n_towers):
                row1, add1 = place(base[t1], a1, t1, free0)
                f1 = base_filled[t1] + add1
                d1 = pot[t1][f1] - pot[t1][base_filled[t1]]
                if single is not None:
                    v = d1 + single[1]
                    note((a1, single[0][0], t1), v)
                    if v > best_value + 1e-9:
                        best_value, best_plan = v, [(a1, single[0][0], t1)]
                if not two:
                    continue
                for a2 in rest1:
                    if not playable(a2):
                        continue
                    rest2 = [c for c in rest1 if c != a2]
                    double = payments(rest2, 2)
                    if double is None:
                        continue
                    (b1, b2), kept = double
                    for t2 in range(n_towers):
                        if t2 == t1:
                            _, add2 = place(row1, a2, t2, free0 - add1)
                            d = pot[t1][f1 + add2] - pot[t1][base_filled[t1]]
                        else:
                            _, add2 = place(base[t2], a2, t2, free0 - add1)
                            f2 = base_filled[t2]
                            d = d1 + pot[t2][f2 + add2] - pot[t2][f2]
                        v = d + kept
                        note((a1, b1, t1), v)
                        if v > best_value + 1e-9:
                            best_value, best_plan = v, [(a1, b1, t1), (a2, b2, t2)]
        return best_value, best_plan

    def first_hires(
        self, s: Any
    ) -> tuple[float, list[tuple[int, int, int]], list[tuple[tuple[int, int, int] | None, float]]]:
        """The best plan of this turn's hires (its value and its hires, each (card played,
        card paid, tower index)) and, best first, every first hire (``None``: stopping)
        with the value of the best plan that starts with it: the candidates of the
        searches over the planner."""
        firsts: dict[tuple[int, int, int] | None, float] = {}
        best, plan = self._best_plan(s, list(s.hand), s.hires, s.unblocked, firsts)
        return best, plan, sorted(firsts.items(), key=lambda kv: -kv[1])

    def _choose_hire(self, s: Any, legal: list[Move]) -> Move:
        _, plan = self._best_plan(s, list(s.hand), s.hires, s.unblocked)
        if not plan:
            return "done"
        a, b, t = plan[0]
        move = f"hire {a} {b} {s.comp.towers[t].id}"
        if move in legal:
            return move
        return "done"  # pragma: no cover - plans only use legal hires

    # ------------------------------------------------------------------ phase 3
    def _choose_unblock(self, s: Any, legal: list[Move]) -> Move:
        best_value, _ = self._best_plan(s, list(s.hand), s.hires, False)
        best_move: Move = "keep"
        for move in legal:
            if move == "keep":
                continue
            card = int(move.split()[1])
            hand = [c for c in s.hand if c != card]
            value, _ = self._best_plan(s, hand, s.hires, True)
            if value > best_value + 1e-9:
                best_value, best_move = value, move
        return best_move

    # ------------------------------------------------------------------ phase 4a
    def _choose_walk(self, s: Any, legal: list[Move]) -> Move:
        comp = s.comp
        n = comp.spaces
        values = self._book_values(s)
        left = self._turns_left(s)
        best: tuple[float, Move] = (0.0, "stay")
        here = comp.tower_at[s.librarian]
        if here is not None and s.tower_complete(here):
            return "stay"
        for t, tower in enumerate(comp.towers):
            if not s.tower_complete(t):
                continue
            d = (tower.space - s.librarian) % n
            for k, move in ((d, f"walk +{d}"), (n - d, f"walk -{n - d}")):
                if move not in legal:
                    continue
                if left > 0 and k > self.walk_limit:
                    continue
                lost = s.florins // FLORINS_PER_VP - (s.florins - k) // FLORINS_PER_VP
                cost = lost if left <= 0 else k / FLORINS_PER_VP
                gain = values[t] - cost
                if gain > best[0]:
                    best = (gain, move)
        return best[1]

    # ------------------------------------------------------------------ phase 4b
    def _choose_price(self, s: Any, legal: list[Move]) -> Move:
        if "redraw" not in legal:
            return "accept"
        cards = s.comp.cards
        # the icon that reads the next card's price: the first card's, or with the game's
        # option sale_redraw: chain, the icon of the card showing the price now
        chooser = s.sale[-1] if s.options.get("sale_redraw") == "chain" else s.sale[0]
        icon = cards[chooser].florin_icon
        pool = self._unseen(s)
        if not pool:
            return "accept"
        prices = sorted(cards[c].florins[icon] for c in pool)
        cost = self.day_value * FLORINS_PER_VP  # florins a day is worth
        # Optimal stopping with a fixed cost per draw: keep drawing while the price is
        # below the threshold x where E[max(X - x, 0)] = cost.
        threshold = _stopping_threshold(prices, cost)
        return "redraw" if s.price < threshold else "accept"

    # ------------------------------------------------------------------ prestige
    def _choose_prestige(self, s: Any, legal: list[Move]) -> Move:
        """Option ``prestige: choose``: the collection with the most VP per artisan its
        books need, times the share of distinct towers among them (a second book of one
        tower must wait for that tower to be rebuilt)."""
        comp = s.comp
        best = None
        for move in legal:
            card = comp.prestige[int(move.split()[1])]
            size = sum(comp.towers[b].size for b in card.books)
            spread = len(set(card.books)) / len(card.books)
            key = card.points[-1] / size * spread
            if best is None or key > best[0]:
                best = (key, move)
        return best[1] if best else legal[0]


def _stopping_threshold(prices: list[int], cost: float) -> float:
    """The x with mean(max(p - x, 0)) == cost (the price below which a paid draw pays)."""
    lo, hi = 0.0, float(max(prices))
    for _ in range(40):
        mid = (lo + hi) / 2
        gain = sum(p - mid for p in prices if p > mid) / len(prices)
        if gain > cost:
            lo = mid
        else:
            hi = mid
    return lo
