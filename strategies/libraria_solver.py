"""``libraria_solver``: alpha-beta for Libraria, exact in the endgame.

Values are from seat 0's point of view: the *margin* is seat 0's points minus seat 1's
(the counters' points, before the option ``komi``), the *result* is +1 / 0 / -1 (win /
draw / loss of the final scores, seat 1's komi included; with ``tiebreak: first_player``
equal final scores are a win for seat 0). The result is a non-decreasing function of the
margin, so a margin-optimal move is also result-optimal; the result search is much faster
because its window is narrow.

Exact search (the endgame):

* Incremental bounds. Every tile keeps the range of contributions (to the margin) it can
  still make given the counters on its corners; the sums of the minima and maxima bound
  the final margin. Full tiles have an exact contribution, so at the end the bounds meet.
  A node whose bounds decide it (or fall outside the alpha-beta window) returns at once.
* A transposition table keyed by a Zobrist hash of the board (the board fixes the ply and
  so the seat to move), storing value, bound type and best move; it is kept for the
  whole game (positions recur as the game goes on).
* Move ordering: the table's move first, then the history heuristic.

Phases: with at most ``exact_from`` empty spots the game is solved exactly (result). A
won position: a winning move. A drawn or lost one (every value-keeping move is as good
as another against perfect play): with at most ``swindle_from`` empty spots the
value-keeping move after which the opponent has the most losing replies, else (lost)
the move that loses by the least margin. Before that, a ``depth``-ply alpha-beta on a
static evaluation (:data:`EVALUATIONS`; default: the expected final margin if every empty
corner went to either seat with probability 1/2), moves ordered by their immediate
change of the evaluation.

Moves of equal value are ordered by the strategy's seeded RNG at the root, so games are
reproducible for a seed but not all identical.
"""

from __future__ import annotations

import random
from math import comb, sqrt

from simcli.game import Move, State
from simcli.games.libraria import (
    EMPTY,
    SPOTS,
    TILE_CORNERS,
    LibrariaState,
    seat_for_ply,
)
from simcli.strategy import Strategy

TILES = len(TILE_CORNERS)
EXACT, LOWER, UPPER = 0, 1, 2
BIG = 10**6
INF = float("inf")

#: SPOT_TILES[spot]: the tiles whose corner the spot is.
SPOT_TILES: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t, corners in enumerate(TILE_CORNERS) if spot in corners) for spot in range(SPOTS)
)

# Fixed Zobrist keys (a constant table: the same in every process and run).
_zrng = random.Random(20180913)
ZOBRIST: tuple[tuple[int, int], ...] = tuple(
    (_zrng.getrandbits(64), _zrng.getrandbits(64)) for _ in range(SPOTS)
)
del _zrng


def tile_margin(value: int, mine: int) -> int:
    """Contribution to seat 0's margin of a full tile on which seat 0 has ``mine`` of the
    four counters."""
    control = value + 1 if value >= 0 else value - 1
    return (control, value, 0, -value, -control)[4 - mine]


def _range_table(value: int) -> tuple[list[int], list[int]]:
    """Indexed by ``5 * a + b`` (a, b: counters of seat 0 / seat 1 on the tile): the least
    and the greatest contribution the tile can still end with."""
    lows = [0] * 25
    highs = [0] * 25
    for a in range(5):
        for b in range(5 - a):
            finals = [tile_margin(value, x) for x in range(a, 4 - b + 1)]
            lows[5 * a + b] = min(finals)
            highs[5 * a + b] = max(finals)
    return lows, highs


_RANGES = {v: _range_table(v) for v in (-1, 0, 1, 2, 3)}


def _estimate_table(value: int, kind: str) -> list[float]:
    """Indexed by ``5 * a + b``: the estimated final contribution of a tile.

    ``expected``: its mean if every empty corner went to either seat with probability
    1/2; ``midpoint``: the middle of its possible range; ``variance``: the variance of the
    contribution in the coin-flip model of ``expected``."""
    table = [0.0] * 25
    for a in range(5):
        for b in range(5 - a):
            free = 4 - a - b
            if kind == "midpoint":
                lows, highs = _RANGES[value]
                table[5 * a + b] = (lows[5 * a + b] + highs[5 * a + b]) / 2
                continue
            weights = [comb(free, k) / 2**free for k in range(free + 1)]
            values = [tile_margin(value, a + k) for k in range(free + 1)]
            mean = sum(w * x for w, x in zip(weights, values, strict=True))
            if kind == "variance":
                mean = sum(w * (x - mean) ** 2 for w, x in zip(weights, values, strict=True))
            table[5 * a + b] = mean
    return table


#: ESTIMATES[kind][tile value][5 * a + b]
ESTIMATES = {
    kind: {v: _estimate_table(v, kind) for v in (-1, 0, 1, 2, 3)}
    for kind in ("expected", "midpoint", "variance")
}
#: The heuristic evaluations: (mean table, variance table or None).
EVALUATIONS = {
    "expected": ("expected", None),
    "midpoint": ("midpoint", None),
    "winprob": ("expected", "variance"),
}


class Position:
    """A Libraria board prepared for search: counters per tile, bound sums, hash."""

    __slots__ = (
        "tiles",
        "board",
        "codes",
        "lows",
        "highs",
        "lo",
        "hi",
        "key",
        "empty",
        "seats",
        "first_wins",
        "komi",
    )

    def __init__(self, state: LibrariaState):
        self.tiles = state.tiles
        self.board = list(state.board)
        self.lows = [_RANGES[v][0] for v in state.tiles]
        self.highs = [_RANGES[v][1] for v in state.tiles]
        self.codes = [0] * TILES
        for t, corners in enumerate(TILE_CORNERS):
            a = sum(1 for s in corners if self.board[s] == 0)
            b = sum(1 for s in corners if self.board[s] == 1)
            self.codes[t] = 5 * a + b
        self.lo = sum(self.lows[t][self.codes[t]] for t in range(TILES))
        self.hi = sum(self.highs[t][self.codes[t]] for t in range(TILES))
        key = 0
        for s, owner in enumerate(self.board):
            if owner != EMPTY:
                key ^= ZOBRIST[s][owner]
        self.key = key
        self.empty = sum(1 for x in self.board if x == EMPTY)
        opening = state.options["opening"]
        self.seats = tuple(seat_for_ply(p, opening) for p in range(SPOTS))
        self.first_wins = state.options["tiebreak"] == "first_player"
        self.komi = state.options.get("komi", 0)

    def seat(self) -> int:
        return self.seats[SPOTS - self.empty]


def result_of(margin: int, first_wins: bool, komi: float = 0) -> int:
    """The result for seat 0 of a final ``margin`` (before seat 1's ``komi``)."""
    margin -= komi
    if margin > 0:
        return 1
    if margin < 0:
        return -1
    return 1 if first_wins else 0


class Searcher:
    """Alpha-beta over a :class:`Position` (changed in place and restored)."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[int, tuple[int, int, int]]] = {"result": {}, "margin": {}}
        self.history = [[0] * SPOTS, [0] * SPOTS]
        self.nodes = 0

    def solve(
        self, pos: Position, objective: str = "result", order: list[int] | None = None
    ) -> tuple[int, int]:
        """(exact value, best move) of ``pos`` (not terminal). ``order``: the root moves
        in the order to try (default: ascending spots)."""
        if objective not in ("result", "margin"):
            raise ValueError(f"objective must be 'result' or 'margin', got {objective!r}")
        table = self.tables[objective]
        first_wins, komi = pos.first_wins, pos.komi
        if objective == "result":

            def f(m: int) -> int:
                return result_of(m, first_wins, komi)

            lo_v, hi_v = -1, 1
        else:

            def f(m: int) -> int:
                return m

            lo_v, hi_v = -BIG, BIG
        board = pos.board
        codes = pos.codes
        lows = pos.lows
        highs = pos.highs
        seats = pos.seats
        history = self.history
        zob = ZOBRIST
        spot_tiles = SPOT_TILES

        def search(empties: list[int], alpha: int, beta: int) -> tuple[int, int]:
            self.nodes += 1
            vlo = f(pos.lo)
            vhi = f(pos.hi)
            if vlo == vhi or vhi <= alpha:
                return vhi, -1
            if vlo >= beta:
                return vlo, -1
            key = pos.key
            entry = table.get(key)
            tt_move = -1
            if entry is not None:
                value, flag, tt_move = entry
                if flag == EXACT:
                    return value, tt_move
                if flag == LOWER:
                    if value >= beta:
                        return value, tt_move
                    if value > alpha:
                        alpha = value
                elif value <= alpha:
                    return value, tt_move
                elif value < beta:
                    beta = value
                if alpha >= beta:
                    return value, tt_move
            a0, b0 = alpha, beta
            seat = seats[SPOTS - len(empties)]
            hist = history[seat]
            moves = sorted(empties, key=hist.__getitem__, reverse=True)
            if tt_move >= 0:
                moves.remove(tt_move)
                moves.insert(0, tt_move)
            step = 5 if seat == 0 else 1
            zs = 0 if seat == 0 else 1
            maximise = seat == 0
            best = -BIG - 1 if maximise else BIG + 1
            best_move = moves[0]
            for s in moves:
                # make
                board[s] = seat
                pos.key ^= zob[s][zs]
                lo, hi = pos.lo, pos.hi
                for t in spot_tiles[s]:
                    old = codes[t]
                    new = old + step
                    codes[t] = new
                    lt, ht = lows[t], highs[t]
                    lo += lt[new] - lt[old]
                    hi += ht[new] - ht[old]
                saved_lo, saved_hi = pos.lo, pos.hi
                pos.lo, pos.hi = lo, hi
                rest = [x for x in empties if x != s]
                if rest:
                    value, _ = search(rest, alpha, beta)
                else:
                    value = f(lo)
                # unmake
                pos.lo, pos.hi = saved_lo, saved_hi
                for t in spot_tiles[s]:
                    codes[t] -= step
                pos.key ^= zob[s][zs]
                board[s] = EMPTY
                if maximise:
                    if value > best:
                        best, best_move = value, s
                        if value > alpha:
                            alpha = value
                else:
                    if value < best:
                        best, best_move = value, s
                        if value < beta:
                            beta = value
                if alpha >= beta:
                    hist[s] += len(empties) * len(empties)
                    break
            if best <= a0:
                flag = UPPER
            elif best >= b0:
                flag = LOWER
            else:
                flag = EXACT
            table[key] = (best, flag, best_move)
            return best, best_move

        empties = [s for s in range(SPOTS) if board[s] == EMPTY]
        if not empties:
            raise ValueError("the position is terminal")
        if order is None:
            order = empties
        # The root tries the moves in the given order; the first best one is returned.
        return self._root(pos, empties, order, search, f, lo_v - 1, hi_v + 1)

    def _root(self, pos, empties, order, search, f, alpha, beta):
        """Root search in a given move order with full-window re-search of each candidate
        that improves (so the returned move is the first best one in ``order``)."""
        board, codes, lows, highs = pos.board, pos.codes, pos.lows, pos.highs
        seat = pos.seat()
        maximise = seat == 0
        step = 5 if maximise else 1
        zs = seat
        best = None
        best_move = order[0]
        for s in order:
            board[s] = seat
            pos.key ^= ZOBRIST[s][zs]
            lo, hi = pos.lo, pos.hi
            for t in SPOT_TILES[s]:
                old = codes[t]
                codes[t] = old + step
                lo += lows[t][old + step] - lows[t][old]
                hi += highs[t][old + step] - highs[t][old]
            saved = pos.lo, pos.hi
            pos.lo, pos.hi = lo, hi
            rest = [x for x in empties if x != s]
            if rest:
                value, _ = search(rest, alpha, beta)
            else:
                value = f(lo)
            pos.lo, pos.hi = saved
            for t in SPOT_TILES[s]:
                codes[t] -= step
            pos.key ^= ZOBRIST[s][zs]
            board[s] = EMPTY
            if best is None or (value > best if maximise else value < best):
                best, best_move = value, s
                if maximise:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
            if alpha >= beta or best == (f(pos.hi) if maximise else f(pos.lo)):
                break  # nothing better is possible
        return best, best_move

    def heuristic(
        self, pos: Position, depth: int, order: list[int], evaluation: str = "expected"
    ) -> tuple[float, int]:
        """``depth``-ply alpha-beta on a static evaluation (see :data:`EVALUATIONS`):
        the estimated final margin ``m`` (a sum of per-tile tables), or for ``winprob``
        the z-score ``m / sqrt(v + 1)`` where ``v`` sums the tiles' variances (the normal
        approximation of seat 0's chance to finish ahead). Exact margins where the game
        ends within the horizon. Returns (value for seat 0, best move)."""
        board, codes, seats = pos.board, pos.codes, pos.seats
        mean_kind, var_kind = EVALUATIONS[evaluation]
        est = [ESTIMATES[mean_kind][v] for v in pos.tiles]
        var = [ESTIMATES[var_kind][v] for v in pos.tiles] if var_kind else None
        spot_tiles = SPOT_TILES

        if var is None:

            def score(m: float, v: float) -> float:
                return m

        else:

            def score(m: float, v: float) -> float:
                return m / sqrt(v + 1.0)

        def children(empties: list[int], step: int, m: float, v: float) -> list[tuple]:
            """(static value, mean, variance, spot) after each placement of the seat to
            move."""
            out = []
            for s in empties:
                cm, cv = m, v
                for t in spot_tiles[s]:
                    c = codes[t]
                    e = est[t]
                    cm += e[c + step] - e[c]
                    if var is not None:
                        w = var[t]
                        cv += w[c + step] - w[c]
                out.append((score(cm, cv), cm, cv, s))
            return out

        def search(empties: list[int], d: int, m: float, v: float, alpha: float, beta: float):
            self.nodes += 1
            if d == 0 or not empties:
                return score(m, v)
            seat = seats[SPOTS - len(empties)]
            step = 5 if seat == 0 else 1
            maximise = seat == 0
            moves = children(empties, step, m, v)
            if d == 1:  # the children are leaves: their static values are known
                self.nodes += len(moves)
                return max(moves)[0] if maximise else min(moves)[0]
            moves.sort(reverse=maximise)  # the best-looking placement first
            best = -INF if maximise else INF
            for _, cm, cv, s in moves:
                board[s] = seat
                for t in spot_tiles[s]:
                    codes[t] += step
                value = search([x for x in empties if x != s], d - 1, cm, cv, alpha, beta)
                for t in spot_tiles[s]:
                    codes[t] -= step
                board[s] = EMPTY
                if maximise:
                    if value > best:
                        best = value
                        if value > alpha:
                            alpha = value
                elif value < best:
                    best = value
                    if value < beta:
                        beta = value
                if alpha >= beta:
                    break
            return best

        empties = [s for s in range(SPOTS) if board[s] == EMPTY]
        m0 = sum(est[t][codes[t]] for t in range(TILES))
        v0 = sum(var[t][codes[t]] for t in range(TILES)) if var is not None else 0.0
        seat = pos.seat()
        step = 5 if seat == 0 else 1
        maximise = seat == 0
        after = {s: (key, cm, cv) for key, cm, cv, s in children(empties, step, m0, v0)}
        # best-looking first; equal values keep the given (seeded) order
        order = sorted(order, key=lambda s: after[s][0], reverse=maximise)
        best = None
        best_move = order[0]
        alpha, beta = -INF, INF
        for s in order:
            _, cm, cv = after[s]
            board[s] = seat
            for t in spot_tiles[s]:
                codes[t] += step
            rest = [x for x in empties if x != s]
            value = search(rest, depth - 1, cm, cv, alpha, beta)
            for t in spot_tiles[s]:
                codes[t] -= step
            board[s] = EMPTY
            if best is None or (value > best if maximise else value < best):
                best, best_move = value, s
                if maximise:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
        return best, best_move


class LibrariaSolver(Strategy):
    description = (
        "Libraria: alpha-beta with a transposition table, exact with at most exact_from "
        "empty spots, depth-ply heuristic before; params: exact_from, depth, swindle_from"
    )
    games = ("libraria",)

    def __init__(
        self,
        exact_from: int = 15,
        depth: int = 4,
        objective: str = "result",
        evaluation: str = "expected",
        swindle_from: int = 12,
    ):
        if (
            isinstance(exact_from, bool)
            or not isinstance(exact_from, int)
            or not (0 <= exact_from <= SPOTS)
        ):
            raise ValueError(f"exact_from must be an integer 0..36, got {exact_from!r}")
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise ValueError(f"depth must be an integer >= 1, got {depth!r}")
        if objective not in ("result", "margin"):
            raise ValueError(f"objective must be 'result' or 'margin', got {objective!r}")
        if evaluation not in EVALUATIONS:
            raise ValueError(
                f"evaluation must be one of {', '.join(EVALUATIONS)}, got {evaluation!r}"
            )
        if isinstance(swindle_from, bool) or not isinstance(swindle_from, int) or swindle_from < 0:
            raise ValueError(f"swindle_from must be an integer >= 0, got {swindle_from!r}")
        self.evaluation = evaluation
        self.exact_from = exact_from
        self.depth = depth
        self.objective = objective
        self.swindle_from = swindle_from
        self.last_value: float | None = None
        self.last_exact = False
        self.searcher = Searcher()

    def start_game(self, game, seat, rng) -> None:
        super().start_game(game, seat, rng)
        self.searcher = Searcher()

    def choose(self, view: State, legal_moves: list[Move]) -> Move:
        if not isinstance(view, LibrariaState):
            raise TypeError("libraria_solver only plays the game 'libraria'")
        pos = Position(view)
        order = list(legal_moves)
        self.rng.shuffle(order)
        searcher = self.searcher
        if pos.empty <= self.exact_from:
            self.last_exact = True
            value, move = searcher.solve(pos, self.objective, order)
            self.last_value = value
            won = value > 0 if self.seat == 0 else value < 0
            if self.objective == "result" and not won and pos.empty > 1:
                if pos.empty <= self.swindle_from:
                    move = self._swindle(view, order, value)
                elif value != 0:  # lost: lose by as little as possible
                    _, move = searcher.solve(pos, "margin", order)
            return move
        self.last_exact = False
        value, move = searcher.heuristic(pos, self.depth, order, self.evaluation)
        self.last_value = value
        return move

    def _result(self, state: LibrariaState) -> int:
        if state.is_terminal():
            a, b = state.scores()
            first_wins = state.options["tiebreak"] == "first_player"
            return result_of(a - b, first_wins, state.options.get("komi", 0))
        return self.searcher.solve(Position(state), "result")[0]

    def _swindle(self, view: LibrariaState, order: list[int], value: int) -> int:
        """Among the moves that keep the exact ``value`` of a drawn or lost position, the
        one after which the most replies of the opponent are mistakes (replies that
        give this seat a better result). Exact, so it never spoils the value."""
        me = self.seat
        best_move, best_errors = None, -1
        for move in order:
            after = view.clone()
            after.apply_trusted(move)
            if self._result(after) != value:
                continue
            errors = 0
            if not after.is_terminal() and after.current_player != me:
                for reply in after.legal_moves():
                    nxt = after.clone()
                    nxt.apply_trusted(reply)
                    r = self._result(nxt)
                    if (r > value) if me == 0 else (r < value):
                        errors += 1
            if errors > best_errors:
                best_move, best_errors = move, errors
        assert best_move is not None  # the solved move keeps the value
        return best_move
