"""The round and its phases as tasks: the library choice of the advanced setup,
preparation (reveal locations, deal their cards), placement, resolution, cleanup, and the
final inspection (voluntary flips, then the score)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simcli.game import IllegalMoveError
from simcli.games.chance import keyed_order
from simcli.games.ex_libris import assistants, shelf
from simcli.games.ex_libris.effects import ReshuffleDeck, deal, effect_tasks
from simcli.games.ex_libris.state import HOME_SPACES, STANDARD_ADVANCED, STANDARD_BEGINNER
from simcli.games.ex_libris.tasks import Auto, Chance, Decision, Task

if TYPE_CHECKING:
    from simcli.games.ex_libris.state import ExLibrisState


@dataclass(frozen=True, slots=True)
class LibraryChoice(Decision):
    """Advanced setup: ``seat`` keeps one of its two offered library tiles:
    ``["library", NAME]``."""

    name = "library"
    seat: int

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        libraries = state.comps.libraries
        return [["library", libraries[i].name] for i in state.offered[self.seat]]

    def apply(self, state: ExLibrisState, move: Any) -> None:
        libraries = state.comps.libraries
        state.libraries[self.seat] = next(
            i for i in state.offered[self.seat] if libraries[i].name == move[1]
        )
        state.offered[self.seat] = []


# ---------------------------------------------------------------- preparation


@dataclass(frozen=True, slots=True)
class Round(Auto):
    """A new round: preparation, then placement from the first player."""

    name = "round"

    def run(self, state: ExLibrisState) -> None:
        state.round += 1
        state.push(Reveal(), Prep(), Place())
        state.turn = state.first


@dataclass(frozen=True, slots=True)
class Reveal(Auto):
    """Location tiles are revealed until there is one per player (permanent locations
    not counted); an empty stack is first rebuilt from the location discards."""

    name = "reveal"

    def run(self, state: ExLibrisState) -> None:
        while len(state.current) < state.players:
            if state.stack:
                state.current.append(state.stack.pop())
            elif state.loc_discard:
                state.push(ReshuffleLocs(), Reveal())
                return
            else:
                return


@dataclass(frozen=True, slots=True)
class Prep(Auto):
    """Every face-up tile with setup instructions gets its cards dealt, in tile order."""

    name = "prep"

    def run(self, state: ExLibrisState) -> None:
        fills: list[Task] = []
        for tile in state.face_up_tiles():
            n = state.loc(tile).setup_cards(state.players)
            if n:
                fills.append(Fill(tile, n))
        state.push(*fills)


@dataclass(frozen=True, slots=True)
class Fill(Auto):
    """``n`` cards off the deck into the card area of ``tile`` (reshuffling as a draw)."""

    name = "fill"
    tile: int
    n: int

    def run(self, state: ExLibrisState) -> None:
        owed = deal(state, self.n, state.area[self.tile].append)
        if owed and state.discard:
            state.push(ReshuffleDeck(), Fill(self.tile, owed))


@dataclass(frozen=True, slots=True)
class ReshuffleLocs(Chance):
    """The location discards are shuffled into a new stack; the outcome lists the tile
    numbers in reveal order."""

    name = "reshuffle_locs"

    def sample(self, state: ExLibrisState, stream: random.Random) -> Any:
        locations = state.comps.locations
        order = keyed_order(state.loc_discard, int, len(locations), stream)
        return [locations[t].number for t in order]

    def settle(self, state: ExLibrisState, outcome: Any) -> None:
        if not isinstance(outcome, list):
            raise IllegalMoveError("a location reshuffle outcome lists tile numbers")
        tiles = [state.comps.location_index(n) for n in outcome]
        if None in tiles or sorted(tiles) != sorted(state.loc_discard):  # type: ignore[type-var]
            raise IllegalMoveError("a location reshuffle must reorder the location discards")
        state.stack = tiles[::-1]  # type: ignore[assignment]
        state.loc_discard = []


# ---------------------------------------------------------------- placement


@dataclass(frozen=True, slots=True)
class Place(Decision):
    """The placement phase: the seat to play (``state.turn``, the next one clockwise with
    an assistant left) places one assistant on a location (``["loc", NUMBER]``) or a home
    space (``["home", ...]``); ``s`` before the kind for the special assistant. When
    nobody has one left, the resolution follows."""

    name = "place"

    def player(self, state: ExLibrisState) -> int:
        return state.turn

    def describe(self, state: ExLibrisState) -> str:
        return f"seat {state.turn} places an assistant"

    def has_choice(self, state: ExLibrisState) -> bool:
        n = state.players
        for i in range(n):
            seat = (state.turn + i) % n
            if state.standard[seat] or state.special[seat]:
                state.turn = seat
                return True
        return False

    def run(self, state: ExLibrisState) -> None:
        state.push(*[Resolve(t) for t in state.face_up_tiles()], Cleanup())

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        seat = state.turn
        moves: list[Any] = []
        tiles = state.face_up_tiles()
        positions = None  # the seat's open shelf positions, found once for both kinds
        for special, left in ((0, state.standard[seat]), (1, state.special[seat])):
            if not left:
                continue
            moves += self.location_moves(state, seat, special, tiles)
            if len(state.home[seat]) < HOME_SPACES:
                if positions is None:
                    positions = shelf.open_positions(state.shelves[seat])
                moves += assistants.home_moves(state, seat, special, positions)
        return moves

    @staticmethod
    def location_moves(
        state: ExLibrisState, seat: int, special: int, tiles: list[int]
    ) -> list[Any]:
        """The location moves of one kind of assistant: ``[KIND, NUMBER]``, KIND ``loc``
        (``sloc`` for the special assistant)."""
        kind = "sloc" if special else "loc"
        locations = state.comps.locations
        if state.advanced:
            return [
                [kind, locations[t].number]
                for t in tiles
                if assistants.may_visit(state, seat, t, special)
            ]
        # no abilities: a tile may be visited while it has an open space
        occupants, players = state.occupants, state.players
        return [
            [kind, locations[t].number]
            for t in tiles
            if len(occupants[t]) < locations[t].open_spaces(players)
        ]

    def apply(self, state: ExLibrisState, move: Any) -> None:
        seat = state.turn
        special = 1 if move[0].startswith("s") else 0
        if move[0].endswith("loc"):
            follow = self.visit(state, seat, state.comps.location_index(move[1]), special)
        else:
            follow = assistants.apply_home(state, seat, special, move)
            state.home[seat].append(special)
        if special:
            state.special[seat] -= 1
        else:
            state.standard[seat] -= 1
        state.turn = (seat + 1) % state.players
        state.push(*follow, self)  # the placement goes on after what the move set off

    @staticmethod
    def visit(state: ExLibrisState, seat: int, tile: int, special: int) -> list[Task]:
        """``seat``'s assistant arrives on ``tile``: the tasks it sets off now (an instant
        effect runs now; a delayed one only takes the bid)."""
        follow = assistants.before_place(state, seat, tile, special)
        state.occupants[tile].append((seat, special, 0))
        follow += effect_tasks(state, seat, tile, placing=True)
        if not state.loc(tile).delayed:
            follow += assistants.after_effect(state, seat, tile, special, resolution=False)
        return follow


# ---------------------------------------------------------------- resolution, cleanup


@dataclass(frozen=True, slots=True)
class Resolve(Auto):
    """``tile`` resolves: a delayed effect runs for each assistant there (in space order;
    with bids, the highest bid first, ties in space order), then the tile is cleared."""

    name = "resolve"
    tile: int

    def run(self, state: ExLibrisState) -> None:
        tile = self.tile
        loc = state.loc(tile)
        occupants = state.occupants[tile]
        order = list(range(len(occupants)))
        if loc.has_bid:
            order.sort(key=lambda i: (-occupants[i][2], i))
        todo: list[Task] = []
        for i in order:
            seat, special, bid = occupants[i]
            if loc.delayed:
                todo.extend(effect_tasks(state, seat, tile, bid))
            todo.extend(assistants.after_effect(state, seat, tile, special, resolution=True))
        todo.append(Clear(tile))
        state.push(*todo)


@dataclass(frozen=True, slots=True)
class Clear(Auto):
    """The cards left on ``tile`` go to the discard pile; its assistants go home."""

    name = "clear"
    tile: int

    def run(self, state: ExLibrisState) -> None:
        state.discard.extend(state.area[self.tile])
        state.area[self.tile] = []
        state.occupants[self.tile] = []


@dataclass(frozen=True, slots=True)
class Cleanup(Auto):
    """The end of a round: after the final round, the inspection. Else the lowest tile of
    the round becomes permanent, the others are discarded, the assistants come home, a
    shelf at the trigger size makes the next round the final one, and the next round (or,
    at the round limit, the inspection) follows."""

    name = "cleanup"

    def run(self, state: ExLibrisState) -> None:
        if state.final_round:
            state.push(Inspect())
            return
        if state.current:
            lowest = min(state.current)
            state.permanent.append(lowest)
            state.permanent.sort()
            state.loc_discard.extend(t for t in state.current if t != lowest)
            state.current = []
        standard = STANDARD_ADVANCED if state.advanced else STANDARD_BEGINNER
        for seat in range(state.players):
            state.home[seat] = []
            state.standard[seat] = standard
            state.special[seat] = 1 if state.advanced else 0
        if any(len(cells) >= state.trigger for cells in state.shelves):
            state.final_round = True
        if state.round >= state.max_rounds:
            state.termination = "move_limit"
            state.push(Inspect())
            return
        state.push(Round())


# ---------------------------------------------------------------- inspection


@dataclass(frozen=True, slots=True)
class Inspect(Auto):
    """Before the inspection every seat, from the first player on, may flip cards."""

    name = "inspect"

    def run(self, state: ExLibrisState) -> None:
        n = state.players
        state.push(*[Flip((state.first + i) % n) for i in range(n)], Score())


@dataclass(frozen=True, slots=True)
class Flip(Decision):
    """``seat`` flips face-up cards of its shelf face down, one at a time
    (``["flip", CARD]``), until ``"done"``."""

    name = "flip"
    seat: int

    def legal_moves(self, state: ExLibrisState) -> list[Any]:
        books = state.comps.books
        cells = state.shelves[self.seat]
        down = state.down[self.seat]
        return ["done"] + [
            ["flip", books[cells[pos]].name] for pos in sorted(cells) if pos not in down
        ]

    def apply(self, state: ExLibrisState, move: Any) -> None:
        if move == "done":
            return
        card = state.card_of(move[1])
        for pos, c in state.shelves[self.seat].items():
            if c == card:
                state.down[self.seat].add(pos)
                break
        state.push(self)  # flips on until done


@dataclass(frozen=True, slots=True)
class Score(Auto):
    """The inspection scores every shelf."""

    name = "score"

    def run(self, state: ExLibrisState) -> None:
        state.sheets = tuple(state.inspect())


TASKS: tuple[type[Task], ...] = (
    LibraryChoice,
    Round,
    Reveal,
    Prep,
    Fill,
    ReshuffleLocs,
    Place,
    Resolve,
    Clear,
    Cleanup,
    Inspect,
    Flip,
    Score,
)
