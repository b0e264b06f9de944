"""Libraria (Marcello Bertocchi, XV Games 2018): majorities on a 5x5 bookshelf.

Notation (fixed so that logs stay comparable):

* ``setup.tiles``: the 25 tile values row-major, row 0 on top; values are the books on
  the tile (0-3) or -1 for a mouse.
* Spots are the 36 intersections of the 6x6 grid, numbered 0..35 row-major.
* A move is a spot number. Who places it follows from the turn order: seat 0 places one
  counter, seat 1 then places two in a row (option ``opening: one_counter`` makes it one),
  then the seats alternate until all 36 spots are filled.

The option ``komi`` (default 0, the rules as written) adds ``komi`` points to seat 1's
final score (seat ``s`` gets ``s * komi``): the outcome's scores include it, and the
winner and the ``tiebreak`` are decided on those scores.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from simcli.draws import shuffle
from simcli.frozen import FrozenDict, freeze
from simcli.game import TERMINAL, Game, IllegalMoveError, Option, Outcome, State
from simcli.games.compensation import KOMI, drop_defaults, komi_option, with_komi
from simcli.statefields import Field, Int, Seq, StateFields

try:
    import cython

    COMPILED: bool = cython.compiled
except ImportError:  # Cython is needed to build, not to run
    COMPILED = False

SIZE = 5  # tiles per side
SPOTS_PER_SIDE = SIZE + 1
SPOTS = SPOTS_PER_SIDE * SPOTS_PER_SIDE
TILE_SET = (0,) * 5 + (1,) * 5 + (2,) * 5 + (3,) * 5 + (-1,) * 5
_SORTED_TILES = sorted(TILE_SET)
EMPTY = -1

#: The four corner spots of each tile, tile index row-major.
TILE_CORNERS: tuple[tuple[int, int, int, int], ...] = tuple(
    (
        r * SPOTS_PER_SIDE + c,
        r * SPOTS_PER_SIDE + c + 1,
        (r + 1) * SPOTS_PER_SIDE + c,
        (r + 1) * SPOTS_PER_SIDE + c + 1,
    )
    for r in range(SIZE)
    for c in range(SIZE)
)


def seat_for_ply(ply: int, opening: str) -> int:
    """The seat that makes placement number ``ply`` (0-based)."""
    if opening == "two_counters":
        if ply == 0:
            return 0
        if ply <= 2:
            return 1
        return (ply - 3) % 2
    return ply % 2


#: Every spot, increasing: a new state's empty spots are a copy of it.
_ALL_SPOTS = list(range(SPOTS))

#: Seat of every placement (then TERMINAL) per opening, so that whose turn it is costs
#: one lookup.
TURN_ORDER: dict[str, tuple[int, ...]] = {
    opening: (*(seat_for_ply(n, opening) for n in range(SPOTS)), TERMINAL)
    for opening in ("two_counters", "one_counter")
}


def tile_points(value: int, mine: int, theirs: int) -> int:
    """Points for the holder of ``mine`` counters against ``theirs`` on a tile of ``value``.

    Majority (more counters) earns the books, or -1 for a mouse; total control (only
    your counters on the corners) adds 1 to the magnitude. No majority earns nothing.
    """
    if mine <= theirs:
        return 0
    if theirs == 0:  # total control
        return value + 1 if value >= 0 else value - 1
    return value


def _points_table(value: int) -> tuple[tuple[int, ...], ...]:
    """:func:`tile_points` of a tile of ``value`` as ``table[mine][theirs]``."""
    return tuple(tuple(tile_points(value, m, t) for t in range(5)) for m in range(5))


#: The tables of the rulebook's tile values; rules variants with other values (a
#: plug-in game may change ``tiles``) are scored through :func:`tile_points` directly.
_POINTS = FrozenDict((value, _points_table(value)) for value in set(TILE_SET))


def score_board(tiles: list[int] | tuple[int, ...], board: list[int]) -> list[int]:
    """Points of both seats for the counters on ``board`` (empty spots count for nobody)."""
    a_total = b_total = 0
    for value, (p, q, r, s) in zip(tiles, TILE_CORNERS, strict=True):
        corners = (board[p], board[q], board[r], board[s])
        a = corners.count(0)
        b = corners.count(1)
        if a > b:
            table = _POINTS.get(value)
            a_total += table[a][b] if table else tile_points(value, a, b)
        elif b > a:
            table = _POINTS.get(value)
            b_total += table[b][a] if table else tile_points(value, b, a)
    return [a_total, b_total]


#: The top-left corner spot of each tile, tile index row-major (its other corners are the
#: next spot, and the two below them: ``+ 6`` and ``+ 7``).
_TOP_LEFT = tuple(corners[0] for corners in TILE_CORNERS)


def score_full_board(tiles, board):  # noqa: ANN001,ANN201 - C types in libraria.pxd
    """:func:`score_board` for a board without empty spots (the end of the game), from
    the number of seat 1's counters on each tile (``ones``): 0 or 1 give seat 0 the
    majority (0: total control), 3 or 4 give it to seat 1 (4: total control), 2 to
    nobody."""
    a_total = b_total = 0
    j = 0
    for value in tiles:
        p = _TOP_LEFT[j]
        j += 1
        # one name per corner: C integers on the compiled path
        c0 = board[p]
        c1 = board[p + 1]
        c2 = board[p + 6]
        c3 = board[p + 7]
        ones = c0 + c1 + c2 + c3
        if ones < 2:
            if ones:
                a_total += value
            elif value >= 0:
                a_total += value + 1
            else:
                a_total += value - 1
        elif ones > 2:
            if ones == 3:
                b_total += value
            elif value >= 0:
                b_total += value + 1
            else:
                b_total += value - 1
    return [a_total, b_total]


def place_randomly(board, free, order, ply, randbelow):  # noqa: ANN001,ANN201 - C types: .pxd
    """Fill the ``free`` spots of ``board`` (increasing order, emptied) from placement
    ``ply`` on, each spot drawn as ``free[randbelow(len(free))]`` and taken by
    ``order[ply]``; returns the final ply (:data:`SPOTS`)."""
    spots = SPOTS
    while ply < spots:
        spot = free.pop(randbelow(spots - ply))
        board[spot] = order[ply]
        ply += 1
    return ply


def take_spot(free, spot):  # noqa: ANN001,ANN201 - C types in libraria.pxd
    """``free.remove(spot)`` with the spots compared as C integers (the compiled path's
    :meth:`LibrariaState.apply_trusted`; the pure one calls ``remove`` itself)."""
    n = len(free)
    i = 0
    while i < n:
        s = free[i]
        if s == spot:
            del free[i]
            return
        i += 1
    free.remove(spot)  # not there: the list's own error


def checked_tiles(tiles: Any, where: str) -> tuple[int, ...]:
    """``tiles`` (25 tile values) as a tuple; :class:`IllegalMoveError` if they are not
    the game's tiles."""
    if isinstance(tiles, list) and len(tiles) == SIZE * SIZE:
        for value in tiles:
            if type(value) is not int:
                break
        else:
            if sorted(tiles) == _SORTED_TILES:
                return tuple(tiles)
    raise IllegalMoveError(f"{where} must list 25 tiles: five each of 0, 1, 2, 3 and -1 (mouse)")


def snapshot_tiles(tiles: Any) -> tuple[int, ...]:
    """A snapshot's ``tiles`` as a tuple: 25 integers, any values (a rules variant may
    rewrite them; the setup of a record is still checked by :func:`checked_tiles`)."""
    if (
        not isinstance(tiles, list)
        or len(tiles) != SIZE * SIZE
        or {type(v) for v in tiles} != {int}
    ):
        raise IllegalMoveError("snapshot.tiles must list 25 tile values (integers)")
    return tuple(tiles)


#: The read-only options of every combination of option values, built once.
_FROZEN_OPTIONS = FrozenDict(
    ((opening, tiebreak), freeze({"opening": opening, "tiebreak": tiebreak}))
    for opening in ("two_counters", "one_counter")
    for tiebreak in ("none", "first_player")
)


def _frozen(options: Mapping[str, Any]) -> Mapping[str, Any]:
    """``freeze(options)``, shared between states for the usual two options."""
    if len(options) == 2:
        frozen = _FROZEN_OPTIONS.get((options.get("opening"), options.get("tiebreak")))
        if frozen is not None:
            return frozen
    return freeze(options)


def decided(a: Any, b: Any, tiebreak: str) -> Outcome:
    """The outcome of final scores ``a`` (seat 0) and ``b`` (seat 1), komi included."""
    if a > b:
        winners: tuple[int, ...] = (0,)
    elif b > a:
        winners = (1,)
    elif tiebreak == "first_player":
        winners = (0,)
    else:
        winners = ()
    return Outcome((a, b), winners)  # scores, winners: positional, the cheaper call


#: The outcome of every (seat 0's points, seat 1's points, tiebreak) met without komi:
#: an :class:`Outcome` is frozen, so the games that end alike share one (building it
#: costs more than scoring the board).
_OUTCOMES: dict[tuple[int, int, str], Outcome] = {}


class LibrariaState(State):
    """``board`` and ``ply`` are the position; ``_free`` (the empty spots in increasing
    order) is kept up to date by every placement, so that :meth:`legal_moves` is one list
    copy instead of a scan of the 36 spots. Build positions through
    :meth:`Libraria.state_from_snapshot` (or by playing moves), never by writing
    ``board`` directly, or ``_free`` goes stale."""

    __slots__ = (
        "game",
        "players",
        "options",
        "tiles",
        "board",
        "ply",
        "current_player",
        "_order",
        "_free",
    )

    #: The snapshot, declared (simcli/statefields.py): the hand-written snapshot, clone
    #: and state_from_snapshot below are the fast ones, proven equal by check-game.
    state_fields = StateFields(
        Field("tiles", Seq(Int(), length=SIZE * SIZE, frozen=True)),
        Field("board", Seq(Int(EMPTY, 2), length=SPOTS)),
        Field("ply", Int(0, SPOTS + 1)),
        label="Libraria snapshot",
    )

    def __init__(self, game: Libraria, options: Mapping[str, Any], tiles: tuple[int, ...]):
        self.game = game
        self.players = 2
        self.options = freeze(options)
        self.tiles = tiles
        self.board = [EMPTY] * SPOTS
        self.ply = 0
        self._order = TURN_ORDER[options["opening"]]
        self._free = _ALL_SPOTS.copy()
        #: the seat to move, kept up to date by every placement (``_order[ply]``)
        self.current_player = self._order[0]

    def legal_moves(self) -> list[int]:
        return self._free.copy()

    def random_legal_move(self, randbelow: Callable[[int], int]) -> int:
        free = self._free  # legal_moves() without the copy
        return free[randbelow(len(free))]

    def playout(self, rng: random.Random, randbelow: Callable[[int], int]) -> None:
        """:meth:`State.playout` in one loop: the spots drawn as :meth:`random_legal_move`
        draws them, placed as :meth:`apply_trusted` places them (``pop`` keeps ``_free``
        in increasing order, as ``remove`` does)."""
        order = self._order
        self.ply = ply = place_randomly(self.board, self._free, order, self.ply, randbelow)
        self.current_player = order[ply]

    def apply(self, move: Any) -> None:
        if self.ply >= SPOTS:
            raise IllegalMoveError("the game is over")
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError(f"a Libraria move is a spot number 0..35, not {move!r}")
        if not 0 <= move < SPOTS:
            raise IllegalMoveError(f"spot {move} is off the board (spots are 0..35)")
        if self.board[move] != EMPTY:
            raise IllegalMoveError(f"spot {move} is already taken")
        self.apply_trusted(move)

    def apply_trusted(self, move: Any) -> None:
        """:meth:`apply` without the checks, for a spot from :meth:`legal_moves`."""
        ply = self.ply
        order = self._order
        self.board[move] = order[ply]
        self.ply = ply + 1
        self.current_player = order[ply + 1]
        if COMPILED:
            take_spot(self._free, move)
        else:
            self._free.remove(move)

    def is_terminal(self) -> bool:
        return self.ply >= SPOTS

    def scores(self) -> list[int]:
        if self.ply == SPOTS:
            return score_full_board(self.tiles, self.board)
        return score_board(self.tiles, self.board)

    def outcome(self) -> Outcome:
        if self.ply < SPOTS:
            raise IllegalMoveError("the game is not over")
        options = self.options
        komi = options.get(KOMI, 0)
        if komi:  # seat 1's komi added to the counters' points
            a, b = with_komi(self.scores(), komi)
            return decided(a, b, options["tiebreak"])
        # the rules as written: integer points, so the outcome of a pair of them is shared
        a, b = score_full_board(self.tiles, self.board)
        key = (a, b, options["tiebreak"])
        outcome = _OUTCOMES.get(key)
        if outcome is None:
            outcome = _OUTCOMES[key] = decided(a, b, options["tiebreak"])
        return outcome

    def snapshot(self) -> dict[str, Any]:
        return {"tiles": list(self.tiles), "board": list(self.board), "ply": self.ply}

    def clone(self) -> LibrariaState:
        new = LibrariaState.__new__(LibrariaState)
        new.game = self.game
        new.players = 2
        new.options = self.options
        new.tiles = self.tiles
        new.board = self.board.copy()
        new.ply = self.ply
        new.current_player = self.current_player
        new._order = self._order
        new._free = self._free.copy()
        return new

    def render(self) -> str:
        """Spots as ``X`` (seat 0), ``O`` (seat 1) or ``.``; tile values between them,
        ``M`` for a mouse. Spot numbers are ``6 * row + column``."""
        marks = {EMPTY: ".", 0: "X", 1: "O"}
        lines = ["      " + "    ".join(str(c) for c in range(SPOTS_PER_SIDE))]
        for r in range(SPOTS_PER_SIDE):
            row = [marks[self.board[r * SPOTS_PER_SIDE + c]] for c in range(SPOTS_PER_SIDE)]
            lines.append(f"{r * SPOTS_PER_SIDE:>3}   " + " -- ".join(row))
            if r < SIZE:
                cells = []
                for c in range(SIZE):
                    value = self.tiles[r * SIZE + c]
                    cells.append(f"{'M' if value < 0 else value:^4}")
                lines.append("      |" + "|".join(cells) + "|")
        a, b = self.scores()
        if self.ply < SPOTS:
            turn = f"placement {self.ply + 1} of 36, seat {self.current_player} to place"
        else:
            turn = "game over"
        komi = self.options.get(KOMI, 0)
        bonus = f" {komi:+g} komi" if komi else ""
        lines.append(f"X = seat 0: {a} points   O = seat 1: {b} points{bonus}   ({turn})")
        return "\n".join(lines)


class Libraria(Game):
    id = "libraria"
    title = "Libraria"
    description = "Place counters on the corners of a 5x5 bookshelf; majorities score books."
    player_counts = (2,)
    scalar_moves = True  # a move is a spot number
    options = {
        "opening": Option(
            default="two_counters",
            choices=("two_counters", "one_counter"),
            doc="seat 1's first turn places two counters (rulebook) or one",
        ),
        "tiebreak": Option(
            default="none",
            choices=("none", "first_player"),
            doc="equal totals are a draw (rulebook) or a win for the starting player",
        ),
        KOMI: komi_option(60, "no board gives a margin above 60"),
    }

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """The options with defaults filled in; ``komi`` at its default 0 is left out (see
        ``simcli/games/compensation.py``: records of the rules as written stay as they
        were)."""
        return drop_defaults(self.options, super().resolve_options(given), (KOMI,))

    def sample_setup(
        self, players: int, options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        tiles = list(TILE_SET)
        shuffle(rng, tiles)  # rng.shuffle(tiles), compiled where it can be
        return {"tiles": tiles}

    def new_state(
        self, players: int, options: Mapping[str, Any], setup: Mapping[str, Any]
    ) -> LibrariaState:
        self.check_players(players)
        is_mapping = type(setup) is dict or isinstance(setup, Mapping)
        tiles = setup.get("tiles") if is_mapping else None
        return LibrariaState(self, _frozen(options), checked_tiles(tiles, "setup.tiles"))

    def state_from_snapshot(
        self, players: int, options: Mapping[str, Any], snapshot: Mapping[str, Any]
    ) -> LibrariaState:
        """The position whose :meth:`LibrariaState.snapshot` is ``snapshot`` (a view is
        the full state: nothing is hidden)."""
        self.check_players(players)
        try:
            tiles, board, ply = snapshot["tiles"], snapshot["board"], snapshot["ply"]
        except (KeyError, TypeError):
            raise IllegalMoveError(
                "a Libraria snapshot is an object with 'tiles', 'board' and 'ply'"
            ) from None
        state = LibrariaState(self, _frozen(options), snapshot_tiles(tiles))
        if (
            not isinstance(board, list)
            or len(board) != SPOTS
            or any(type(owner) is not int or not EMPTY <= owner <= 1 for owner in board)
        ):
            raise IllegalMoveError(
                "snapshot.board must list the 36 spots: -1 (empty), 0 or 1 (the seat's counter)"
            )
        order = state._order
        if type(ply) is not int or not 0 <= ply <= SPOTS:
            raise IllegalMoveError(f"snapshot.ply must be a count 0..36, got {ply!r}")
        for seat in (0, 1):
            if board.count(seat) != order[:ply].count(seat):
                raise IllegalMoveError(
                    f"snapshot: seat {seat} has {board.count(seat)} counters on the board, "
                    f"but {order[:ply].count(seat)} after {ply} placements"
                )
        state.board = list(board)
        state.ply = ply
        state.current_player = order[ply]
        state._free = [spot for spot in range(SPOTS) if board[spot] == EMPTY]
        return state

    def render_svg(self, state: State, seat: int | None = None) -> str:
        from simcli.games.libraria_svg import render_svg

        return render_svg(state, SIZE, SPOTS_PER_SIDE, EMPTY)  # type: ignore[arg-type]

    def evaluate(self, state: State, seat: int) -> float:
        """Score difference for ``seat`` if the game ended with the counters now placed
        (seat 1's komi included)."""
        a, b = score_board(state.tiles, state.board)  # type: ignore[attr-defined]
        margin = a - b - state.options.get(KOMI, 0)
        return float(margin if seat == 0 else -margin)
