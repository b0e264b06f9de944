"""Ada's Library (Zach and Amanda Greenvoss; Gameology/Playte): the Game description.

Setup JSON (see ``docs/games/adas_library.md``)::

    {"master": [6 colour names, left to right],
     "rows": [[books of seat 0, left to right], ...],
     "hands": [[5 card types of seat 0], ...],
     "draw": [the rest of the deck, top card first],
     "redeals": 0}
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from simcli import statefields
from simcli.errors import GameOptionError
from simcli.frozen import FrozenDict, freeze
from simcli.game import Facts, Game, IllegalMoveError, Option, State
from simcli.games.adas_library.components import (
    CARD_TYPES,
    UNKNOWN,
    Components,
    load_file,
    parse,
)
from simcli.games.adas_library.rows import is_sorted, out_of_order, ranks
from simcli.games.adas_library.state import (
    EXCHANGE_POSITION,
    PARTNER_MODES,
    POSITION_MODES,
    AdasState,
)
from simcli.games.chance import ChanceStreams, draw_key, setup_key
from simcli.games.compensation import drop_defaults

#: Evaluation of a won (lost) game, far beyond any count of books out of order.
WIN_VALUE = 100.0
#: Re-deals allowed before the setup gives up (only a degenerate data file gets close).
MAX_REDEALS = 10_000
SETUP_KEYS = ("master", "rows", "hands", "draw", "redeals")
OPTIONAL_SETUP_KEYS = ("chance_key",)  # drawn last by sample_setup; absent: drawn lazily
#: The seat compensation option (``simcli/games/compensation.py``).
EXTRA_CARDS = "extra_cards"
#: repr of resolved options -> (the options frozen, their :class:`Components`): what
#: every setup and new state needs of options met before, without validating the
#: component data again (a repr tells JSON values apart: ``True`` from ``1``, ``5.0``
#: from ``5``). Emptied when full.
RESOLVED: dict[str, tuple[Mapping[str, Any], Components]] = {}
RESOLVED_LIMIT = 64


def hand_sizes(hand_size: int, players: int, extra_cards: int) -> list[int]:
    """The cards each seat holds: ``hand_size`` plus ``seat * extra_cards``."""
    return [hand_size + seat * extra_cards for seat in range(players)]


class AdasLibrary(Game):
    id = "adas_library"
    title = "Ada's Library"
    description = (
        "Sort your row of books into the master order with Move, Switch, Reverse, "
        "Master Modify and Exchange cards; hidden hands"
    )
    player_counts = (2, 4)
    perfect_information = False
    options = {
        "max_turns": Option(
            default=400,
            kind=int,
            minimum=1,
            doc="player turns (plays and discards, all seats together) before a draw",
        ),
        "exchange_partner": Option(
            default="facing",
            choices=PARTNER_MODES,
            doc="with 4 players, whom an Exchange trades with: facing = the seat directly "
            "opposite when two sit on each side (0<->3, 1<->2, the rule text); diagonal = "
            "0<->2, 1<->3",
        ),
        EXCHANGE_POSITION: Option(
            default="same_index",
            choices=POSITION_MODES,
            doc="which of the partner's books an Exchange takes for yours at position i: "
            "same_index = the partner's book at i (the text's example, 'in the same "
            "location'); mirrored = at size-1-i, the book directly across the table",
        ),
        "data_file": Option(
            default="",
            doc="replacement component file (YAML or JSON: card split, tiles, colours); "
            "empty = the built-in simcli/games/data/adas_library.yaml",
        ),
        "components": Option(
            default=None,
            doc="the component data itself; filled in from data_file when options are "
            "resolved (so records replay without the file); may be given inline instead",
        ),
        EXTRA_CARDS: Option(
            default=0,
            kind=int,
            minimum=0,
            maximum=3,
            doc="seat compensation: seat s is dealt and keeps s x extra_cards cards more "
            "than the hand size (2 players: the second player holds 5 + extra_cards); "
            "0 = the rules as written; at most 3 (4 players then hold 38 of the 45 cards)",
        ),
    }

    # -- options --------------------------------------------------------------------

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        resolved = super().resolve_options(given)
        path = resolved["data_file"]
        if not isinstance(path, str):
            raise GameOptionError(
                f"game '{self.id}': option 'data_file' must be a file path, got {path!r}"
            )
        if resolved["components"] is None:
            comp = load_file(path)
        else:
            comp = parse(resolved["components"], "option 'components'")
        resolved["components"] = comp.to_json()
        extra = resolved[EXTRA_CARDS]
        for players in comp.players:
            dealt = sum(hand_sizes(comp.hand_size, players, extra))
            if dealt > comp.deck_size:
                raise GameOptionError(
                    f"game '{self.id}': option '{EXTRA_CARDS}' {extra} deals {dealt} cards to "
                    f"{players} players, but the deck holds {comp.deck_size}"
                )
        # extra_cards and exchange_position at their defaults are left out: records of
        # the rules as written stay as they were (simcli/games/compensation.py)
        return drop_defaults(self.options, resolved, (EXTRA_CARDS, EXCHANGE_POSITION))

    def components(self, options: Mapping[str, Any]) -> Components:
        """The validated component data named by (resolved or raw) ``options``."""
        return self.resolved(options)[1]

    def resolved(self, options: Mapping[str, Any]) -> tuple[Mapping[str, Any], Components]:
        """(``options`` resolved and frozen, their component data), kept in
        :data:`RESOLVED` for resolved options (raw ones may name a file, read anew)."""
        resolved = options.get("components") is not None and "max_turns" in options
        key = repr(options) if resolved and type(options) in (dict, FrozenDict) else ""
        found = RESOLVED.get(key) if key else None
        if found is None:
            if not resolved:
                options = self.resolve_options(options)
            found = freeze(options), parse(options["components"], "option 'components'")
            if key:
                if len(RESOLVED) >= RESOLVED_LIMIT:
                    RESOLVED.clear()
                RESOLVED[key] = found
        return found

    # -- setup ----------------------------------------------------------------------

    def sample_setup(
        self, players: int, options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        """Shuffle the master cards, then the deck (hands are dealt from its top, seat
        by seat), then draw every row from the bag (seat 0 first). A row that is already
        sorted sends all books back to the bag for a re-deal, counted in ``redeals``."""
        self.check_players(players)
        comp = self.components(options)
        colours = len(comp.colours)
        master = list(range(colours))
        rng.shuffle(master)
        deck = comp.deck()
        rng.shuffle(deck)
        sizes = hand_sizes(comp.hand_size, players, options.get(EXTRA_CARDS, 0))
        ends = [sum(sizes[: s + 1]) for s in range(players)]
        hands = [deck[end - size : end] for size, end in zip(sizes, ends, strict=True)]
        draw = deck[ends[-1] :]
        rank = ranks(master)
        books = comp.books_each(players)
        redeals = -1
        rows: list[list[int]] = []
        while not rows or any(is_sorted(row, rank) for row in rows):
            redeals += 1
            if redeals == MAX_REDEALS:
                raise GameOptionError(
                    f"game '{self.id}': {MAX_REDEALS} deals in a row gave a sorted row; "
                    "check the tile counts of the data file"
                )
            bag = comp.bag(players)
            rng.shuffle(bag)
            rows = [bag[s * books : (s + 1) * books] for s in range(players)]
        names = comp.colours
        return {
            "master": [names[c] for c in master],
            "rows": [[names[c] for c in row] for row in rows],
            "hands": hands,
            "draw": draw,
            "redeals": redeals,
            "chance_key": draw_key(rng),  # the key of the chance streams, the last draw
        }

    def new_state(
        self, players: int, options: Mapping[str, Any], setup: Mapping[str, Any]
    ) -> AdasState:
        self.check_players(players)
        options, comp = self.resolved(options)

        def bad(problem: str) -> IllegalMoveError:
            return IllegalMoveError(f"Ada's Library setup: {problem}")

        if not isinstance(setup, Mapping) or sorted(
            k for k in setup if k not in OPTIONAL_SETUP_KEYS
        ) != sorted(SETUP_KEYS):
            raise bad(
                f"must be an object with exactly the keys {', '.join(SETUP_KEYS)} "
                f"(and optionally {', '.join(OPTIONAL_SETUP_KEYS)})"
            )
        key = setup_key(setup.get("chance_key"), "Ada's Library setup")
        index = {name: i for i, name in enumerate(comp.colours)}
        master = setup["master"]
        if not isinstance(master, list) or sorted(map(str, master)) != sorted(comp.colours):
            raise bad(f"master must list each of the colours {', '.join(comp.colours)} once")
        master_ids = [index[name] for name in master]
        rows = setup["rows"]
        books = comp.books_each(players)
        if not isinstance(rows, list) or len(rows) != players:
            raise bad(f"rows must hold {players} rows")
        row_ids: list[list[int]] = []
        for s, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != books:
                raise bad(f"row {s} must hold {books} books")
            for name in row:
                if not isinstance(name, str) or name not in index:
                    raise bad(f"row {s} holds {name!r}, which is not a colour")
            row_ids.append([index[name] for name in row])
        per_colour = comp.bag_counts[players]
        drawn = Counter(c for row in row_ids for c in row)
        for c, n in drawn.items():
            if n > per_colour.get(c, 0):
                raise bad(f"the rows hold {n} {comp.colours[c]} books; the bag has {per_colour[c]}")
        rank = ranks(master_ids)
        for s, row in enumerate(row_ids):
            if is_sorted(row, rank):
                raise bad(f"row {s} is already sorted (such a deal is re-dealt)")
        hands = setup["hands"]
        if not isinstance(hands, list) or len(hands) != players:
            raise bad(f"hands must hold {players} hands")
        sizes = hand_sizes(comp.hand_size, players, options.get(EXTRA_CARDS, 0))
        for s, hand in enumerate(hands):
            if not isinstance(hand, list) or len(hand) != sizes[s]:
                raise bad(f"hand {s} must hold {sizes[s]} cards")
        draw = setup["draw"]
        if not isinstance(draw, list):
            raise bad("draw must be a list of cards")
        cards = [card for hand in hands for card in hand] + draw
        if any(not isinstance(card, str) for card in cards) or Counter(cards) != comp.deck_counts:
            raise bad("hands and draw together must be exactly the deck of the data file")
        redeals = setup["redeals"]
        if isinstance(redeals, bool) or not isinstance(redeals, int) or redeals < 0:
            raise bad(f"redeals must be a count, not {redeals!r}")
        state = AdasState(
            self,
            players,
            options,
            comp,
            master_ids,
            row_ids,
            [list(hand) for hand in hands],
            list(draw),
        )
        state.chance = ChanceStreams(key)
        return state

    def state_from_snapshot(
        self, players: int, options: Mapping[str, Any], snapshot: Mapping[str, Any]
    ) -> AdasState:
        """The state, or the seat's view, whose :meth:`AdasState.snapshot` is ``snapshot``
        (unknown cards stay ``"?"``), checked as ``AdasState.state_fields`` declares."""
        self.check_players(players)
        return statefields.load(self, AdasState, players, options, snapshot)  # type: ignore[return-value]

    def render_svg(self, state: State, seat: int | None = None) -> str:
        from simcli.games.adas_library.svg import render_svg

        return render_svg(state)  # type: ignore[arg-type]

    # -- strategies' helpers ------------------------------------------------------------

    def evaluate(self, state: State, seat: int) -> float:
        """Minus the number of ``seat``'s books out of order (see ``rows.out_of_order``);
        +-100 for a won or lost game. The generic ``greedy`` strategy maximises this."""
        if not isinstance(state, AdasState):
            raise TypeError(f"not an Ada's Library state: {type(state).__name__}")
        if state.winner is not None:
            return WIN_VALUE if state.winner == seat else -WIN_VALUE
        return -float(out_of_order(state.rows[seat], state.rank))

    def facts(self, state: State) -> Facts:
        """Player turns completed (a turn may take several plies: discards, reshuffles)."""
        if not isinstance(state, AdasState):
            raise TypeError(f"not a {self.title} state: {type(state).__name__}")
        return Facts(game={"turns": state.turns})

    def determinize(self, view: State, rng: random.Random) -> AdasState:
        """A full state consistent with ``view``: the cards the viewer has not seen (the
        deck minus every known card) are shuffled into the unknown slots: other hands
        first (seat order), then the draw pile."""
        if not isinstance(view, AdasState):
            raise IllegalMoveError("determinize needs a view of an Ada's Library state")
        state = view.clone()
        state.viewer = None
        known = Counter(card for hand in state.hands for card in hand)
        known.update(state.draw)
        known.update(state.discard)
        slots = known.pop(UNKNOWN, 0)
        unseen = Counter(state.comp.deck())
        unseen.subtract(known)
        if any(n < 0 for n in unseen.values()) or sum(unseen.values()) != slots:
            raise IllegalMoveError("the view's known cards do not fit the deck")
        pool = [card for card in CARD_TYPES for _ in range(unseen[card])]
        rng.shuffle(pool)
        cards = iter(pool)
        for hand in state.hands:
            for i, card in enumerate(hand):
                if card == UNKNOWN:
                    hand[i] = next(cards)
        state.draw = [next(cards) if card == UNKNOWN else card for card in state.draw]
        return state
