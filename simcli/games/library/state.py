# cython: annotation_typing=False, boundscheck=False, wraparound=False
"""The position of a Library game and the rules that change it."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping
from itertools import compress, repeat
from operator import and_
from typing import TYPE_CHECKING, Any

from simcli import statefields
from simcli.frozen import FrozenDict, freeze
from simcli.game import TERMINAL, Game, IllegalMoveError, Outcome, State
from simcli.games.library.board import (
    CELLS,
    CLOCKWISE,
    DIRECTIONS,
    EMPTY,
    FALL,
    FOUNTAIN,
    FOUNTAIN_MARK,
    GAP_BIT,
    GAP_CELLS,
    GAPS,
    H_GAPS,
    LEFT,
    LINE_NEXT,
    MANHATTAN,
    PARSE,
    PASS,
    PLATE_MOVES,
    PUSH_BITS,
    PUSH_DIRS,
    PUSH_PAIRS,
    PUSH_WALL_MOVES,
    RAY,
    SIDE_NEXT,
    SIZE,
    SPHERE_MOVES,
    STEP,
    TOPPLE_DIRS,
    TOPPLE_PAIRS,
    TURN_ORDERS,
    UP,
    WALL_MOVES,
    cell_name,
    entrances,
    gap_name,
    line_through,
)
from simcli.games.library.playout import play_out
from simcli.native import runs_compiled
from simcli.statefields import Field, Int, Maybe, Seq, StateFields

if TYPE_CHECKING:
    import random

    from simcli.games.library.game import Library

NO_MOVES: list[str] = []  # (never changed)
NO_CELL = -1  # "no forbidden cell" / "no winner"
#: The seat compensation option (``simcli/games/compensation.py``).
EXTRA_ACTIONS = "extra_actions"
#: The options of the text's other readings (issue 37). Each is left out of the resolved
#: options at its default, so records of the default reading stay as they were; the
#: rules read them with ``options.get(name, default)``.
TURN_ORDER = "turn_order"
PUSH_WALL = "push_wall"  # "along" (default), "sideways", "both"
TOPPLE_CHAIN = "topple_chain"  # "behind" (default), "line"
SPHERE_PUSH = "sphere_push"  # "any" (default), "toward_own"
WALLS_PER_PLAYER = "walls_per_player"  # 0 (default): no limit
READING_DEFAULTS = {
    TURN_ORDER: CLOCKWISE,
    PUSH_WALL: "along",
    TOPPLE_CHAIN: "behind",
    SPHERE_PUSH: "any",
    WALLS_PER_PLAYER: 0,
}
#: (players, turn_order) -> {entrance cell: seat whose entrance it is} (read-only:
#: states share it)
ENTRANCE_OF = {
    (players, order): FrozenDict(
        {cell: seat for seat, cell in enumerate(entrances(players, order))}
    )
    for players in (2, 4)
    for order in TURN_ORDERS
}


#: Move kinds of :data:`CODES`: a plate and a sphere push are the two that can roll the
#: sphere onto an entrance (``kind <= ROLL``).
PLATE, ROLL, WALL, PUSH, TOPPLE, PASS_KIND = range(6)
_KINDS = {"P": PLATE, "S": ROLL, "W": WALL, "M": PUSH, "T": TOPPLE, "pass": PASS_KIND}
#: Every move string -> (kind, first argument, second argument or 0): ``board.PARSE``
#: with the kind as a small int, for :meth:`LibraryState.apply_trusted`.
CODES: dict[str, tuple[int, int, int]] = {
    move: (_KINDS[parsed[0]], *parsed[1:], *(0,) * (3 - len(parsed)))
    for move, parsed in PARSE.items()
}
#: PULL[sphere][cell]: the direction from the sphere's cell to its neighbour ``cell``,
#: or -1 where ``cell`` is no neighbour (a plate there pulls the sphere that way).
PULL: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        next((d for d in range(4) if STEP[s][d] is not None and STEP[s][d][0] == c), -1)
        for c in range(CELLS)
    )
    for s in range(CELLS)
)


#: NEXT_GAP[4 * gap + d]: :data:`board.LINE_NEXT` flat, -1 past the edge.
NEXT_GAP: tuple[int, ...] = tuple(-1 if nxt is None else nxt for row in LINE_NEXT for nxt in row)


def push_moves(own: list[int], walls: list[int]) -> list[str]:
    """The pushes along their line of the walls on the gaps ``own`` (increasing), in
    that order: a push needs an empty gap somewhere ahead of the wall before the edge.
    The compiled path's loop (C types); the pure path takes the bit masks kept in the
    state (``LibraryState._push_bits``), for the same list."""
    out = []
    next_gap, names = NEXT_GAP, PUSH_WALL_MOVES
    empty, h_gaps, left, up = EMPTY, H_GAPS, LEFT, UP
    for gap in own:
        first = left if gap < h_gaps else up  # the two directions along its line
        for d in range(first, first + 2):
            nxt = next_gap[4 * gap + d]
            while nxt >= 0:
                owner = walls[nxt]
                if owner == empty:
                    out.append(names[gap][d])
                    break
                nxt = next_gap[4 * nxt + d]
    return out


def roll_moves(
    sphere: int,
    forbid: int,
    cells: list[int],
    walls: list[int],
    home: tuple[int, ...] | None,
    rolls: list[str],
) -> list[str]:
    """``rolls`` with the sphere pushes appended (up, down, left, right): the sphere rolls
    over plates and the fountain and stops before an empty cell, a wall or the edge; it
    must move, not end on ``forbid`` and, with ``home`` (option sphere_push: the Manhattan
    distances to the pusher's entrance), end closer to it."""
    rays = RAY[sphere]
    empty = EMPTY
    for d in range(4):
        end = sphere
        for nxt, gap in rays[d]:
            wall = walls[gap]
            if wall != empty:
                break
            cell = cells[nxt]
            if cell == empty:
                break
            end = nxt
        if end != sphere and end != forbid and (home is None or home[end] < home[sphere]):
            rolls.append(SPHERE_MOVES[d])
    return rolls


def derived(cells: list[int], walls: list[int], players: int) -> tuple:
    """What a :class:`LibraryState` keeps beside ``cells`` and ``walls``, built from them:
    ``walk``, ``hmask``, ``vmask``, ``_plates``, ``_gaps``, ``_walls`` and, per seat,
    ``_own``, ``_pushes``, ``_push_bits`` and ``_topples`` (in gap order)."""
    one = 1  # (64 bits on the compiled path: the masks have 49)
    walk = 0
    plates = []
    for cell in range(CELLS):
        if cells[cell] == EMPTY:
            plates.append(PLATE_MOVES[cell])
        else:
            walk |= one << cell
    gaps = []
    wall_moves = []
    own: list[list[int]] = [[] for _ in range(players)]
    pushes: list[list[str]] = [[] for _ in range(players)]
    push_bits: list[list[int]] = [[] for _ in range(players)]
    topples: list[list[str]] = [[] for _ in range(players)]
    hmask = vmask = 0
    for gap in range(GAPS):  # in gap order: each seat's lists in order
        owner = walls[gap]
        if owner == EMPTY:
            gaps.append(gap)
            wall_moves.append(WALL_MOVES[gap])
            continue
        if gap < H_GAPS:
            hmask |= one << GAP_CELLS[gap][0]
        else:
            vmask |= one << GAP_CELLS[gap][0]
        own[owner].append(gap)
        pushes[owner] += PUSH_PAIRS[gap]
        push_bits[owner] += PUSH_BITS[gap]
        topples[owner] += TOPPLE_PAIRS[gap]
    return walk, hmask, vmask, plates, gaps, wall_moves, own, pushes, push_bits, topples


#: Whether the playout kernel runs compiled (on the pure path the contract loop of
#: ``State.playout`` is faster than the kernel's bit masks in Python).
COMPILED_PLAYOUT = runs_compiled(play_out)
#: Whether this module runs compiled (then :func:`push_moves` is C, faster than the
#: pure path's bit masks).
COMPILED_LOOPS = runs_compiled(push_moves)


def opening_order(players: int, extra_actions: int) -> tuple[int, ...]:
    """The seats of the first round's actions when seat ``s`` takes ``1 + s *
    extra_actions`` actions on its first turn: ``()`` without extra actions (the seats
    simply take turns); ``(0, 1, 1)`` for 2 players and 1 extra action."""
    if not extra_actions:
        return ()
    return tuple(seat for seat in range(players) for _ in range(1 + seat * extra_actions))


class LibraryState(State):
    """One Library position.

    ``cells[i]`` is :data:`EMPTY`, :data:`FOUNTAIN_MARK` (cell d4 only) or the seat whose
    plate lies there; ``walls[g]`` is :data:`EMPTY` or the seat owning the wall on gap
    ``g``. ``forbid`` is the cell the sphere may not be pushed back to this turn (or -1),
    ``winner`` the winning seat (or -1). ``walk``, ``hmask`` and ``vmask`` are bit masks
    derived from ``cells`` and ``walls`` for the route searches. ``_plates`` (the plate
    moves of the empty cells, cell order), ``_gaps`` (the empty gaps, increasing) and
    ``_walls`` (their wall moves, same order), ``_own`` (per seat, the gaps of its walls,
    increasing) and, in the same order, two entries per wall, ``_pushes`` (its push
    moves), ``_push_bits`` (the gaps beyond each push, see ``board.PUSH_OPTIONS``) and
    ``_topples`` (its topple moves) are kept up to date by every move, so that
    :meth:`legal_moves` copies them instead of scanning the board.
    """

    __slots__ = (
        "game",
        "players",
        "options",
        "cells",
        "walls",
        "sphere",
        "turn",
        "forbid",
        "winner",
        "walk",
        "hmask",
        "vmask",
        "entrances",
        "entrance_of",
        "walls_left",
        "_plates",
        "_gaps",
        "_walls",
        "_own",
        "_pushes",
        "_push_bits",
        "_topples",
        "_pull",
        "_only_mover",
        "_any_roll",
        "_max_turns",
        "_lead",
        "_opening",
        "_push_mode",
        "_line_topple",
        "_toward_own",
    )

    #: The snapshot, declared (simcli/statefields.py): ``Library.state_from_snapshot``
    #: loads and checks a snapshot by it (:meth:`field_limits` gives the named bounds,
    #: :meth:`loaded` checks what spans fields and rebuilds the move lists); the
    #: hand-written snapshot and clone below are the fast ones, proven equal by check-game.
    state_fields = StateFields(
        Field("players", Int("players", "players_end")),
        Field("cells", Seq(Int(FOUNTAIN_MARK, "players"), length=CELLS)),
        Field("walls", Seq(Int(EMPTY, "players"), length=GAPS)),
        Field("sphere", Int(0, CELLS)),
        Field("turn", Int(0)),
        Field("forbid", Maybe(Int(0, CELLS), none=NO_CELL)),
        Field("winner", Maybe(Int(0, "players"), none=NO_CELL)),
        Field("walls_left", Seq(Int(0, "stock_end"), length="players"), optional=True),
        label="Library snapshot",
    )

    def __init__(self, game: Library, players: int, options: Mapping[str, Any]):
        self.game = game
        self.players = players
        self.options = freeze(options)
        self.cells = [EMPTY] * CELLS
        self.cells[FOUNTAIN] = FOUNTAIN_MARK
        self.walls = [EMPTY] * GAPS
        self.sphere = FOUNTAIN
        self.turn = 0
        self.forbid = NO_CELL
        self.winner = NO_CELL
        self.walk = 1 << FOUNTAIN
        self.hmask = 0
        self.vmask = 0
        order = options.get(TURN_ORDER, CLOCKWISE)
        #: the entrance cell of each seat, and cell -> seat whose entrance it is
        self.entrances = entrances(players, order)
        self.entrance_of = ENTRANCE_OF[players, order]
        #: per seat, the walls it may still lay (option walls_per_player), or None
        stock = options.get(WALLS_PER_PLAYER, 0)
        self.walls_left: list[int] | None = [stock] * players if stock else None
        self._plates = [PLATE_MOVES[c] for c in range(CELLS) if c != FOUNTAIN]
        self._gaps = list(range(GAPS))
        self._walls = [WALL_MOVES[g] for g in range(GAPS)]
        self._own: list[list[int]] = [[] for _ in range(players)]
        self._pushes: list[list[str]] = [[] for _ in range(players)]
        self._push_bits: list[list[int]] = [[] for _ in range(players)]
        self._topples: list[list[str]] = [[] for _ in range(players)]
        self._pull = bool(options["plate_pulls_sphere"])
        self._only_mover = bool(options["only_mover_wins"])
        self._any_roll = options["no_push_back"] == "after_any_roll"
        self._max_turns = int(options["max_turns"])
        #: the seats of the first round's actions (seat s takes 1 + s x extra_actions;
        #: empty at the default 0) and their number; then the seats take turns
        self._opening = opening_order(players, options.get(EXTRA_ACTIONS, 0))
        self._lead = len(self._opening)
        #: the other readings (options push_wall, topple_chain, sphere_push)
        self._push_mode = options.get(PUSH_WALL, "along")
        self._line_topple = options.get(TOPPLE_CHAIN, "behind") == "line"
        self._toward_own = options.get(SPHERE_PUSH, "any") == "toward_own"

    # -- queries ------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.winner != NO_CELL or self.turn >= self._max_turns:
            return TERMINAL
        return self.seat_to_move()

    def seat_to_move(self) -> int:
        """The seat whose action number ``turn`` is (also in a finished game): seats take
        turns, one action each, after the first round's extra actions (option
        ``extra_actions``)."""
        turn = self.turn
        if turn < self._lead:
            return self._opening[turn]
        return (turn - self._lead) % self.players

    def is_terminal(self) -> bool:
        return self.winner != NO_CELL or self.turn >= self._max_turns

    def slide(self, start: int, d: int) -> int:
        """Where the sphere comes to rest when it rolls from ``start`` in direction ``d``:
        it crosses plates and the fountain and stops before an empty cell, a wall or the
        edge (``start`` itself if it cannot move at all)."""
        cells, walls = self.cells, self.walls
        pos = start
        for nxt, gap in RAY[start][d]:
            if walls[gap] != EMPTY or cells[nxt] == EMPTY:
                break
            pos = nxt
        return pos

    def pull_direction(self, cell: int) -> int | None:
        """The direction in which a plate laid on empty ``cell`` pulls the sphere, or None
        (not adjacent, a wall in between, or the option is off)."""
        if not self._pull:
            return None
        sphere = self.sphere
        for d in range(4):
            step = STEP[sphere][d]
            if step is not None and step[0] == cell:
                return d if self.walls[step[1]] == EMPTY else None
        return None

    def wall_push_target(self, gap: int, d: int) -> int | None:
        """The empty gap the run of walls starting at ``gap`` moves into when pushed in
        direction ``d`` (along the line), or None if the edge blocks it."""
        walls = self.walls
        pos: int | None = gap
        while pos is not None and walls[pos] != EMPTY:
            pos = LINE_NEXT[pos][d]
        return pos

    def sphere_push_end(self, d: int) -> int | None:
        """Where a Push Sphere in direction ``d`` leaves the sphere, or None if illegal
        (it would not move, or it would end on the no-push-back cell)."""
        end = self.slide(self.sphere, d)
        if end == self.sphere or end == self.forbid or not self._closer(self.sphere, end):
            return None
        return end

    def _closer(self, start: int, end: int) -> bool:
        """Whether a Push Sphere from ``start`` to ``end`` is allowed by option
        ``sphere_push``: always (``any``), or (``toward_own``) only when the sphere ends
        closer (Manhattan distance) to the pusher's own entrance than it started."""
        if not self._toward_own:
            return True
        home = MANHATTAN[self.entrances[self.seat_to_move()]]
        return home[end] < home[start]

    def sideways_target(self, gap: int, d: int) -> list[int] | None:
        """The line of walls through ``gap`` (see ``board.line_through``) if it can be
        pushed one step across its line in direction ``d`` (option ``push_wall``): every
        wall of it needs an empty parallel gap there; None if the edge or a wall blocks
        it."""
        walls = self.walls
        line = line_through(walls, gap)
        for pos in line:
            dest = SIDE_NEXT[pos][d]
            if dest is None or walls[dest] != EMPTY:
                return None
        return line

    def _pass_only(self) -> bool:
        """True when no action is possible: no empty cell, no empty gap and no wall of
        the player to move (then every gap holds a wall and the sphere cannot move).
        With the other readings' options (a wall stock, sphere pushes only toward
        one's own entrance) empty gaps and sphere moves may be left: no legal action."""
        if self.walls_left is not None or self._toward_own:
            return self.legal_moves() == [PASS]
        seat = self.seat_to_move()
        return EMPTY not in self.cells and EMPTY not in self.walls and seat not in self.walls

    def legal_moves(self) -> list[str]:
        """Plates (cell order), walls (gap order), wall pushes, topples, sphere pushes
        (up, down, left, right); ``["pass"]`` only when nothing else is possible."""
        turn = self.turn
        if self.winner != NO_CELL or turn >= self._max_turns:  # self.is_terminal()
            return []
        seat = self._opening[turn] if turn < self._lead else (turn - self._lead) % self.players
        if self.walls_left is None or self.walls_left[seat] > 0:
            moves = self._plates + self._walls
        else:  # option walls_per_player: this seat has laid all its walls
            moves = self._plates.copy()
        if self._own[seat]:  # this seat's walls may be pushed (to an empty gap further
            # along the line: PUSH_OPTIONS) and toppled
            push_mode = self._push_mode
            if push_mode != "sideways":
                free = ~(self.hmask | self.vmask << CELLS)
                moves += compress(
                    self._pushes[seat], map(and_, self._push_bits[seat], repeat(free))
                )
            if push_mode != "along":  # option push_wall: the line pushed across itself
                for gap in self._own[seat]:
                    for d in TOPPLE_DIRS[gap]:
                        if self.sideways_target(gap, d) is not None:
                            moves.append(PUSH_WALL_MOVES[gap][d])
            moves += self._topples[seat]
        home = MANHATTAN[self.entrances[seat]] if self._toward_own else None
        roll_moves(self.sphere, self.forbid, self.cells, self.walls, home, moves)
        if not moves:
            moves.append(PASS)
        return moves

    def random_legal_move(self, randbelow: Callable[[int], int]) -> str:
        """``legal_moves()[randbelow(len(legal_moves()))]`` without that list: the moves
        of each kind are counted (in :meth:`legal_moves` order) and only the drawn one is
        taken. Sideways wall pushes (option ``push_wall``) are listed as there."""
        turn = self.turn
        if self.winner != NO_CELL or turn >= self._max_turns or self._push_mode != "along":
            return State.random_legal_move(self, randbelow)
        seat = self._opening[turn] if turn < self._lead else (turn - self._lead) % self.players
        plates = self._plates
        left = self.walls_left
        walls = self._walls if left is None or left[seat] > 0 else NO_MOVES
        pushes = topples = NO_MOVES
        own = self._own[seat]
        if own:
            if COMPILED_LOOPS:
                pushes = push_moves(own, self.walls)
            else:
                free = ~(self.hmask | self.vmask << CELLS)
                pushes = list(
                    compress(self._pushes[seat], map(and_, self._push_bits[seat], repeat(free)))
                )
            topples = self._topples[seat]
        home = MANHATTAN[self.entrances[seat]] if self._toward_own else None
        rolls = roll_moves(self.sphere, self.forbid, self.cells, self.walls, home, [])
        n = len(plates) + len(walls) + len(pushes) + len(topples) + len(rolls)
        if not n:
            randbelow(1)
            return PASS
        r = randbelow(n)
        for part in (plates, walls, pushes, topples):
            if r < len(part):
                return part[r]
            r -= len(part)
        return rolls[r]

    def playout(self, rng: random.Random, randbelow: Callable[[int], int]) -> None:
        """:meth:`State.playout`: on the compiled path in one loop on bit masks
        (``playout.play_out``, the same draws and moves); the contract's loop on the pure
        path, with sideways wall pushes (option ``push_wall``) and in a subclass (a
        variant's own rules)."""
        if COMPILED_PLAYOUT and self._push_mode == "along" and type(self) is LibraryState:
            if self.winner == NO_CELL and self.turn < self._max_turns:
                play_out(self, randbelow, -1)
            return
        State.playout(self, rng, randbelow)

    # -- applying a move ----------------------------------------------------------------

    def apply(self, move: Any) -> None:
        """Check ``move`` and play it (:meth:`apply_trusted`). A plate or a wall is checked
        here; the rarer kinds by :meth:`_check`."""
        turn = self.turn
        if self.winner != NO_CELL or turn >= self._max_turns:  # self.is_terminal()
            raise IllegalMoveError("the game is over")
        code = CODES.get(move) if isinstance(move, str) else None
        if code is None:
            raise IllegalMoveError(
                f"not a Library move: {move!r} (examples: 'P d3', 'W d4-d5', "
                f"'M d4-d5 left', 'T c4-d4 right', 'S up')"
            )
        kind, a, b = code
        if kind == PLATE:
            if self.cells[a] != EMPTY:
                what = "the fountain" if a == FOUNTAIN else "a plate"
                raise IllegalMoveError(f"'P {cell_name(a)}': that cell already holds {what}")
        elif kind == WALL:
            if self.walls[a] != EMPTY:
                raise IllegalMoveError(f"{move!r}: gap {gap_name(a)} already holds a wall")
            if self.walls_left is not None:
                seat = self.seat_to_move()
                if self.walls_left[seat] <= 0:
                    raise IllegalMoveError(f"{move!r}: seat {seat} has laid all its walls")
        else:
            self._check(kind, a, b, self.seat_to_move(), move)
        self.apply_trusted(move)

    def _check(self, kind: int, a: int, b: int, seat: int, move: str) -> None:
        """Raise :class:`IllegalMoveError` unless ``move`` (a wall push, a topple, a sphere
        push or a pass: ``CODES[move]`` is ``kind, a, b``) is legal for ``seat`` (the seat
        to move) here."""
        if kind == PUSH or kind == TOPPLE:
            if self.walls[a] != seat:
                raise IllegalMoveError(f"{move!r}: {gap_name(a)} is not a wall of seat {seat}")
            if kind == PUSH:
                self._check_push(a, b, move)
        elif kind == ROLL:
            start = self.sphere
            end = self.slide(start, a)
            if end == start:
                raise IllegalMoveError(f"{move!r}: the sphere cannot roll {DIRECTIONS[a]}")
            if end == self.forbid:
                raise IllegalMoveError(
                    f"{move!r}: the sphere may not be pushed straight back to "
                    f"{cell_name(end)}, where it was before the last push"
                )
            if not self._closer(start, end):
                raise IllegalMoveError(
                    f"{move!r}: the push must bring the sphere closer to seat {seat}'s "
                    f"entrance {cell_name(self.entrances[seat])} (option sphere_push)"
                )
        elif not self._pass_only():
            raise IllegalMoveError("'pass' is only allowed when no action is possible")

    def _check_push(self, gap: int, d: int, move: str) -> None:
        """Push Wall of the seat's own wall on ``gap`` in direction ``d``: along its line
        (the run in front of it needs an empty gap before the edge) or, by option
        ``push_wall``, across it (:meth:`sideways_target`)."""
        if d not in PUSH_DIRS[gap]:
            if self._push_mode == "along":
                raise IllegalMoveError(
                    f"{move!r}: a wall is pushed along its own line "
                    f"({' or '.join(DIRECTIONS[x] for x in PUSH_DIRS[gap])})"
                )
            if self.sideways_target(gap, d) is None:
                raise IllegalMoveError(f"{move!r}: the board's edge or a wall blocks the push")
            return
        if self._push_mode == "sideways":
            raise IllegalMoveError(
                f"{move!r}: walls are pushed across their line only (option push_wall)"
            )
        if self.wall_push_target(gap, d) is None:
            raise IllegalMoveError(f"{move!r}: the board's edge blocks the push")

    def apply_trusted(self, move: Any) -> None:
        """:meth:`apply` without its checks, for a move of :meth:`legal_moves`."""
        kind, a, b = CODES[move]
        turn = self.turn
        seat = self._opening[turn] if turn < self._lead else (turn - self._lead) % self.players
        start = self.sphere
        if kind == PLATE:
            self.cells[a] = seat
            self._plates.remove(PLATE_MOVES[a])
            self.walk |= 1 << a
            if self._pull:
                d = PULL[start][a]
                if d >= 0 and self.walls[STEP[start][d][1]] == EMPTY:  # type: ignore[index]
                    self.sphere = self.slide(start, d)
        elif kind == WALL:
            if self.walls_left is not None:
                self.walls_left[seat] -= 1
            self.walls[a] = seat
            if a < H_GAPS:
                self.hmask |= GAP_BIT[a]
            else:
                self.vmask |= GAP_BIT[a]
            self._fill_gap(a)
            self._own_add(seat, a)
        elif kind == PUSH:
            if b in PUSH_DIRS[a]:
                self._push_wall(a, b)
            else:
                self._push_sideways(a, b)
        elif kind == TOPPLE:
            self._topple(a, b, seat)
        elif kind == ROLL:
            self.sphere = self.slide(start, a)
        end = self.sphere
        if kind == ROLL:
            self.forbid = start
        elif end != start and self._any_roll:
            self.forbid = start
        else:
            self.forbid = NO_CELL
        if end != start and kind <= ROLL:
            owner = self.entrance_of.get(end)
            if owner is not None and (not self._only_mover or owner == seat):
                self.winner = owner
        self.turn = turn + 1

    def _push_wall(self, gap: int, d: int) -> None:
        """The run of walls from ``gap`` moves one gap along its line in direction ``d``."""
        walls = self.walls
        run = [gap]
        nxt = LINE_NEXT[gap][d]
        while walls[nxt] != EMPTY:  # type: ignore[index]  # legal: an empty gap ahead
            run.append(nxt)  # type: ignore[arg-type]
            nxt = LINE_NEXT[nxt][d]  # type: ignore[index]
        dest = nxt
        for pos in reversed(run):  # every wall of the run moves one gap along the line
            owner = walls[pos]
            walls[nxt] = owner  # type: ignore[index]
            self._own_remove(owner, pos)
            self._own_add(owner, nxt)  # type: ignore[arg-type]
            nxt = pos
        walls[gap] = EMPTY
        self._set_gap_bit(gap, False)
        self._set_gap_bit(dest, True)  # type: ignore[arg-type]
        self._fill_gap(dest)  # type: ignore[arg-type]
        self._empty_gap(gap)

    def _push_sideways(self, gap: int, d: int) -> None:
        """Option ``push_wall: sideways`` or ``both``: the connected straight line of
        walls through ``gap`` slides one step across its own line, as one."""
        walls = self.walls
        for pos in line_through(walls, gap):
            owner = walls[pos]
            dest = SIDE_NEXT[pos][d]
            walls[pos] = EMPTY
            self._own_remove(owner, pos)
            self._set_gap_bit(pos, False)
            self._empty_gap(pos)
            walls[dest] = owner  # type: ignore[index]
            self._own_add(owner, dest)  # type: ignore[arg-type]
            self._set_gap_bit(dest, True)  # type: ignore[arg-type]
            self._fill_gap(dest)  # type: ignore[arg-type]

    def _topple(self, gap: int, d: int, seat: int) -> None:
        walls = self.walls
        if self._line_topple:  # option topple_chain: the connected line falls as one
            for pos in line_through(walls, gap):
                self._fell(pos, FALL[pos][d][0], seat)  # type: ignore[index]
            return
        pos: int | None = gap
        while pos is not None and walls[pos] != EMPTY:
            target, behind = FALL[pos][d]  # type: ignore[misc]
            self._fell(pos, target, seat)
            pos = behind

    def _fell(self, pos: int, target: int, seat: int) -> None:
        """The wall on gap ``pos`` falls onto cell ``target`` as a plate of ``seat``."""
        walls, cells = self.walls, self.cells
        self._own_remove(walls[pos], pos)
        walls[pos] = EMPTY
        self._set_gap_bit(pos, False)
        self._empty_gap(pos)
        if target != FOUNTAIN:  # a wall falling on the fountain leaves it as it is
            if cells[target] == EMPTY:
                self._plates.remove(PLATE_MOVES[target])
            cells[target] = seat
            self.walk |= 1 << target
            if target == self.sphere:  # crushed: back to the fountain
                self.sphere = FOUNTAIN

    def _own_add(self, owner: int, gap: int) -> None:
        """Enter a wall of ``owner`` on ``gap`` in its sorted gaps and, at the same
        place, its two pushes (with their bits) and its two topples."""
        mine = self._own[owner]
        i = bisect_left(mine, gap)
        mine.insert(i, gap)
        j = 2 * i
        self._pushes[owner][j:j] = PUSH_PAIRS[gap]
        self._push_bits[owner][j:j] = PUSH_BITS[gap]
        self._topples[owner][j:j] = TOPPLE_PAIRS[gap]

    def _own_remove(self, owner: int, gap: int) -> None:
        """Take the wall of ``owner`` on ``gap`` out of what :meth:`_own_add` keeps."""
        mine = self._own[owner]
        i = bisect_left(mine, gap)
        del mine[i]
        j = 2 * i
        del self._pushes[owner][j : j + 2]
        del self._push_bits[owner][j : j + 2]
        del self._topples[owner][j : j + 2]

    def _fill_gap(self, gap: int) -> None:
        """Take the newly walled ``gap`` out of the empty gaps."""
        i = bisect_left(self._gaps, gap)
        del self._gaps[i]
        del self._walls[i]

    def _empty_gap(self, gap: int) -> None:
        """Put the newly emptied ``gap`` back among the empty gaps, in order."""
        i = bisect_left(self._gaps, gap)
        self._gaps.insert(i, gap)
        self._walls.insert(i, WALL_MOVES[gap])

    def _set_gap_bit(self, gap: int, on: bool) -> None:
        bit = GAP_BIT[gap]
        if gap < H_GAPS:
            self.hmask = self.hmask | bit if on else self.hmask & ~bit
        else:
            self.vmask = self.vmask | bit if on else self.vmask & ~bit

    # -- results and copies ---------------------------------------------------------------

    def outcome(self) -> Outcome:
        if not self.is_terminal():
            raise IllegalMoveError("the game is not over")
        if self.winner != NO_CELL:
            scores = tuple(1.0 if s == self.winner else 0.0 for s in range(self.players))
            return Outcome(scores=scores, winners=(self.winner,), termination="normal")
        return Outcome(scores=(0.0,) * self.players, winners=(), termination="move_limit")

    def snapshot(self) -> dict[str, Any]:
        snap = {
            "players": self.players,
            "cells": list(self.cells),
            "walls": list(self.walls),
            "sphere": self.sphere,
            "turn": self.turn,
            "forbid": self.forbid if self.forbid != NO_CELL else None,
            "winner": self.winner if self.winner != NO_CELL else None,
        }
        if self.walls_left is not None:  # only with option walls_per_player
            snap["walls_left"] = list(self.walls_left)
        return snap

    def clone(self) -> LibraryState:
        new = LibraryState.__new__(LibraryState)
        new.game = self.game
        new.players = self.players
        new.options = self.options
        new.cells = self.cells.copy()
        new.walls = self.walls.copy()
        new.sphere = self.sphere
        new.turn = self.turn
        new.forbid = self.forbid
        new.winner = self.winner
        new.walk = self.walk
        new.hmask = self.hmask
        new.vmask = self.vmask
        new.entrances = self.entrances
        new.entrance_of = self.entrance_of
        new.walls_left = None if self.walls_left is None else self.walls_left.copy()
        new._plates = self._plates.copy()
        new._gaps = self._gaps.copy()
        new._walls = self._walls.copy()
        new._own = [mine.copy() for mine in self._own]
        new._pushes = [mine.copy() for mine in self._pushes]
        new._push_bits = [mine.copy() for mine in self._push_bits]
        new._topples = [mine.copy() for mine in self._topples]
        new._pull = self._pull
        new._only_mover = self._only_mover
        new._any_roll = self._any_roll
        new._max_turns = self._max_turns
        new._lead = self._lead
        new._opening = self._opening
        new._push_mode = self._push_mode
        new._line_topple = self._line_topple
        new._toward_own = self._toward_own
        return new

    def render(self) -> str:
        return render(self)

    @classmethod
    def from_snapshot(
        cls, game: Library, options: Mapping[str, Any], snap: Mapping[str, Any]
    ) -> LibraryState:
        """Rebuild a position from :meth:`snapshot` with raw ``options`` (resolved here;
        for tests, analysis and hand-built positions). Raises :class:`IllegalMoveError`
        for a snapshot no game can reach."""
        players = snap.get("players") if isinstance(snap, Mapping) else None
        if players not in game.player_counts or type(players) is not int:
            raise IllegalMoveError(f"Library is played by 2 or 4 players, not {players!r}")
        return statefields.load(game, cls, players, game.resolve_options(options), snap)  # type: ignore[return-value]

    # -- loading a snapshot (statefields.load) ----------------------------------------------

    @classmethod
    def empty(cls, game: Game, players: int, options: Mapping[str, Any]) -> LibraryState:
        """The position before the first move, for :func:`statefields.load` to fill in."""
        return cls(game, players, options)  # type: ignore[arg-type]

    @classmethod
    def field_limits(cls, game: Game, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """``players`` is the game's player count; a seat's walls left are at most the
        stock of option ``walls_per_player`` (no bound without it: the key is refused)."""
        stock = options.get(WALLS_PER_PLAYER, 0)
        return {
            "players": players,
            "players_end": players + 1,
            "stock_end": stock + 1 if stock else None,
        }

    def loaded(self, snap: Mapping[str, Any]) -> None:
        """Check what spans fields (the fountain, the sphere on a plate or the fountain,
        the wall stock against the walls on the board) and rebuild the bit masks and move
        lists from ``cells`` and ``walls``."""
        cells = self.cells
        if cells[FOUNTAIN] != FOUNTAIN_MARK or cells.count(FOUNTAIN_MARK) != 1:
            raise _bad("cells", f"the fountain ({FOUNTAIN_MARK}) on d4 and on no other cell")
        if cells[self.sphere] == EMPTY:
            raise _bad(
                "sphere", f"on a plate or the fountain, not on empty {cell_name(self.sphere)}"
            )
        self._check_stock()
        self._derive()

    def _derive(self) -> None:
        """Rebuild the bit masks and move lists from ``cells`` and ``walls``."""
        (
            self.walk,
            self.hmask,
            self.vmask,
            self._plates,
            self._gaps,
            self._walls,
            self._own,
            self._pushes,
            self._push_bits,
            self._topples,
        ) = derived(self.cells, self.walls, self.players)

    def _check_stock(self) -> None:
        """``walls_left`` is there exactly with option ``walls_per_player``, and no seat
        has more walls on the board than it has laid."""
        stock = self.options.get(WALLS_PER_PLAYER, 0)
        left = self.walls_left
        if left is None:
            if stock:
                raise IllegalMoveError(
                    "Library snapshot: missing 'walls_left' (option walls_per_player)"
                )
            return
        if not stock:
            raise IllegalMoveError(
                "Library snapshot: 'walls_left' needs the option walls_per_player"
            )
        for seat, n in enumerate(left):
            laid = self.walls.count(seat)
            if stock - n < laid:
                raise _bad(
                    "walls_left",
                    f"at most {stock - laid} for seat {seat} ({laid} of its {stock} walls "
                    "are on the board)",
                    n,
                )


def _bad(key: str, what: str, got: Any = None) -> IllegalMoveError:
    """The one-line message of a snapshot whose ``key`` must be ``what``."""
    tail = "" if got is None else f", got {got!r}"
    return IllegalMoveError(f"Library snapshot: '{key}' must be {what}{tail}")


WALL_MARKS = "ABCD"
_H_LINE = "+---"


def render(state: LibraryState) -> str:
    """A text picture. Cells: ``.`` empty, ``0``-``3`` a plate of that seat, ``~`` the
    fountain, ``( )`` around the cell holding the sphere. Walls: the letter of their owner
    (``A`` = seat 0 ... ``D`` = seat 3) on the gap. The frame shows each seat's number
    next to its entrance."""
    ent = {cell: seat for seat, cell in enumerate(state.entrances)}
    cells, walls = state.cells, state.walls

    def cell_text(cell: int) -> str:
        v = cells[cell]
        mark = "." if v == EMPTY else "~" if v == FOUNTAIN_MARK else str(v)
        return f"({mark})" if cell == state.sphere else f" {mark} "

    def frame_row(row: int) -> str:  # the top (row 0) or bottom (row 6) border
        parts = []
        for c in range(SIZE):
            cell = row * SIZE + c
            parts.append(f"+-{ent[cell]}-" if cell in ent else _H_LINE)
        return "     " + "".join(parts) + "+"

    files = "       " + "   ".join("abcdefg")
    lines = [files, frame_row(0)]
    for r in range(SIZE):
        rank = SIZE - r
        left, right = r * SIZE, r * SIZE + SIZE - 1
        text = f"  {rank}  " + (str(ent[left]) if left in ent else "|")
        for c in range(SIZE):
            cell = r * SIZE + c
            text += cell_text(cell)
            if c < SIZE - 1:
                owner = walls[H_GAPS + r * (SIZE - 1) + c]
                text += " " if owner == EMPTY else WALL_MARKS[owner]
        text += (str(ent[right]) if right in ent else "|") + f"  {rank}"
        lines.append(text)
        if r < SIZE - 1:
            gaps = []
            for c in range(SIZE):
                owner = walls[r * SIZE + c]
                gaps.append("+   " if owner == EMPTY else f"+{WALL_MARKS[owner] * 3}")
            lines.append("     " + "".join(gaps) + "+")
    lines.append(frame_row(SIZE - 1))
    lines.append(files)
    seats = ", ".join(f"seat {s} {cell_name(c)}" for s, c in enumerate(state.entrances))
    lines.append(f"entrances: {seats}; walls A-D = seats 0-3")
    if state.walls_left is not None:
        left = ", ".join(f"seat {s} {n}" for s, n in enumerate(state.walls_left))
        lines.append(f"walls left to lay: {left}")
    if state.winner != NO_CELL:
        status = f"seat {state.winner} wins (sphere on {cell_name(state.sphere)})"
    elif state.is_terminal():
        status = f"draw: move limit of {state._max_turns} turns reached"
    else:
        status = f"turn {state.turn + 1}, seat {state.current_player} to move"
        if state.turn < state._lead and state._opening.count(state.current_player) > 1:
            done = state._opening[: state.turn].count(state.current_player)
            status += f" (action {done + 1} of {state._opening.count(state.current_player)})"
        if state.forbid != NO_CELL:
            status += f"; the sphere may not be pushed back to {cell_name(state.forbid)}"
    lines.append(status)
    return "\n".join(lines)
