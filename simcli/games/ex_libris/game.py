"""The Ex Libris game: options, data loading, setup, evaluation and determinization."""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from simcli.errors import GameOptionError
from simcli.game import Game, IllegalMoveError, Option, State
from simcli.games.chance import ChanceStreams, draw_key, setup_key
from simcli.games.compensation import KOMI, drop_defaults, komi_option
from simcli.games.ex_libris.assistants import HOME_ACTION
from simcli.games.ex_libris.components import Components, load_components
from simcli.games.ex_libris.inspection import PROMINENT_TIES
from simcli.games.ex_libris.observed import observed_move
from simcli.games.ex_libris.phases import LibraryChoice, Round
from simcli.games.ex_libris.snapshot import rebuild
from simcli.games.ex_libris.state import HAND_SIZE, UNKNOWN, ExLibrisState

if TYPE_CHECKING:
    from simcli.game import Facts

DEFAULT_TRIGGER = MappingProxyType({"2": 13, "3": 12, "4": 11})
PLAYER_COUNTS = (2, 3, 4)


class ExLibris(Game):
    id = "ex_libris"
    title = "Ex Libris"
    description = (
        "Send assistants around town for rare books and shelve them in alphabetical order; "
        "a six-part inspection scores the shelves."
    )
    player_counts = PLAYER_COUNTS
    perfect_information = False
    options = {
        "mode": Option(
            default="beginner",
            choices=("beginner", "advanced"),
            doc="beginner: basic libraries, 3 standard assistants; advanced: library choice, "
            "2 standard assistants and a special assistant",
        ),
        "final_round_trigger": Option(
            default="auto",
            doc="shelved cards that trigger the final round: 'auto' (13/12/11 for 2/3/4 "
            "players), an integer, or a mapping player count -> integer",
        ),
        "prominent_ties": Option(
            default="next_place",
            choices=PROMINENT_TIES,
            doc="Prominent Works ties: next_place = the tied place's prize plus the next "
            "lower place's, split (the text); pooled = the prizes of every place the tied "
            "players occupy, split",
        ),
        "max_rounds": Option(
            default=20,
            kind=int,
            minimum=1,
            doc="safety net: after this many rounds the game is scored as it stands "
            "(termination move_limit)",
        ),
        "books_file": Option(default=None, doc="replacement book-card YAML file (null: built in)"),
        "locations_file": Option(
            default=None, doc="replacement location-tile YAML file (null: built in)"
        ),
        "libraries_file": Option(
            default=None, doc="replacement library-tile YAML file (null: built in)"
        ),
        KOMI: komi_option(50, "games between equal players are won by far less"),
        HOME_ACTION: Option(
            default="required",
            choices=("required", "optional"),
            doc="a home space's action: required = draw a card or shelve one; optional = "
            "the player may also do neither ('puedes', you may)",
        ),
    }

    def __init__(self) -> None:
        self._components: dict[tuple, Components] = {}

    # ------------------------------------------------------------------ options

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        resolved = super().resolve_options(given)
        resolved["final_round_trigger"] = _check_trigger(resolved["final_round_trigger"])
        self.components(resolved)  # load and validate the data files now
        # komi and home_action at their defaults are left out: records of the rules as
        # written stay as they were (simcli/games/compensation.py)
        return drop_defaults(self.options, resolved, (KOMI, HOME_ACTION))

    def components(self, options: Mapping[str, Any]) -> Components:
        key = (options["books_file"], options["locations_file"], options["libraries_file"])
        comps = self._components.get(key)
        if comps is None:
            comps = load_components(*key)
            self._components[key] = comps
        return comps

    # ------------------------------------------------------------------ setup

    def sample_setup(
        self, players: int, options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        self.check_players(players)
        comps = self.components(options)
        start = next(loc for loc in comps.locations if loc.start)
        stack = [loc.number for loc in comps.locations if not loc.start]
        rng.shuffle(stack)
        libs = [lib.name for lib in comps.libraries]
        rng.shuffle(libs)
        per_seat = 2 if options["mode"] == "advanced" else 1
        libraries = [libs[i * per_seat : (i + 1) * per_seat] for i in range(players)]
        cats = [c.code for c in comps.categories]
        rng.shuffle(cats)
        cards = [b.name for b in comps.books]
        rng.shuffle(cards)
        hands = [
            sorted(cards[i * HAND_SIZE : (i + 1) * HAND_SIZE], key=comps.book_index)
            for i in range(players)
        ]
        return {
            "start": start.number,
            "locations": stack,
            "libraries": libraries,
            "prominent": cats[0],
            "banned": cats[1],
            "focus": cats[2 : 2 + players],
            "hands": hands,
            "deck": cards[players * HAND_SIZE :],
            "chance_key": draw_key(rng),  # the key of the chance streams, the last draw
        }

    def new_state(
        self, players: int, options: Mapping[str, Any], setup: Mapping[str, Any]
    ) -> ExLibrisState:
        self.check_players(players)
        comps = self.components(options)
        state = ExLibrisState(self, players, options, comps)
        _load_setup(state, comps, players, setup)
        if state.advanced:
            state.push(*[LibraryChoice(seat) for seat in reversed(range(players))], Round())
        else:
            state.push(Round())
        state.run()
        return state

    def state_from_snapshot(
        self, players: int, options: Mapping[str, Any], snapshot: Mapping[str, Any]
    ) -> ExLibrisState:
        """The state, or the seat's view, whose :meth:`ExLibrisState.snapshot` is
        ``snapshot`` (hidden cards stay hidden)."""
        self.check_players(players)
        return rebuild(self, players, options, snapshot)

    def observed_move(self, state: State, actor: int, move: Any, seat: int) -> Any:
        """What ``seat`` sees of ``move`` (``Strategy.observe``): see observed.py."""
        return observed_move(state, actor, move, seat)

    def render_svg(self, state: State, seat: int | None = None) -> str:
        from simcli.games.ex_libris.svg import render_svg

        return render_svg(state)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ strategy support

    def evaluate(self, state: State, seat: int) -> float:
        """Projected final score of ``seat``: its inspection total if the game ended now,
        plus one point per card in hand (a card not yet shelved), plus its komi."""
        st: ExLibrisState = state  # type: ignore[assignment]
        komi = seat * st.options.get(KOMI, 0)
        if st.is_terminal() and st.sheets is not None:
            return float(st.sheets[seat].total) + komi
        sheets = st.inspect()
        return float(sheets[seat].total) + 1.0 * len(st.hands[seat]) + komi

    def facts(self, state: State) -> Facts:
        """Rounds played and, once the game is scored, each seat's inspection parts
        (stability, prominent, banned, variety, focus; face-up books, banned books and
        cards flipped by the alphabetical check)."""
        from simcli.game import Facts

        if not isinstance(state, ExLibrisState):
            raise TypeError(f"not a {self.title} state: {type(state).__name__}")
        sheets = state.sheets or ()
        parts = tuple(
            {
                "stability": s.stability,
                "prominent": s.prominent,
                "banned": s.banned,
                "variety": s.variety,
                "focus": s.focus,
                "books": s.books,
                "banned_books": s.banned_books,
                "flipped": len(s.flipped),
            }
            for s in sheets
        )
        return Facts(game={"rounds": state.round}, seats=parts)

    def determinize(self, view: State, rng: random.Random) -> ExLibrisState:
        """Fill the unknown parts of ``view`` (other hands, other focus cards, the deck
        order, the location stack, other seats' library offers) at random, consistently
        with everything the view shows."""
        st: ExLibrisState = view.clone()  # type: ignore[assignment]
        comps = st.comps
        known: set[int] = set()
        for hand in st.hands:
            known.update(c for c in hand if c != UNKNOWN)
        for cells in st.shelves:
            known.update(cells.values())
        for tomb in st.entombed:
            known.update(tomb)
        known.update(st.discard)
        for area in st.area:
            known.update(area)
        known.update(c for c in st.deck if c != UNKNOWN)
        pool = [c for c in range(len(comps.books)) if c not in known]
        rng.shuffle(pool)
        for seat, hand in enumerate(st.hands):
            missing = sum(1 for c in hand if c == UNKNOWN)
            if missing:
                st.hands[seat] = sorted([c for c in hand if c != UNKNOWN] + pool[:missing])
                del pool[:missing]
        st.deck = [pool.pop() if c == UNKNOWN else c for c in st.deck]
        used_cats = {c for c in (st.prominent, st.banned, *st.focus) if c != UNKNOWN}
        free_cats = [c for c in range(len(comps.categories)) if c not in used_cats]
        rng.shuffle(free_cats)
        if st.prominent == UNKNOWN:  # a library-choice view: no category is dealt yet
            st.prominent = free_cats.pop()
            st.banned = free_cats.pop()
        st.focus = [free_cats.pop() if f == UNKNOWN else f for f in st.focus]
        seen_tiles = set(st.permanent) | set(st.current) | set(st.loc_discard)
        seen_tiles.update(t for t in st.stack if t != UNKNOWN)
        free_tiles = [t for t in range(len(comps.locations)) if t not in seen_tiles]
        rng.shuffle(free_tiles)
        st.stack = [free_tiles.pop() if t == UNKNOWN else t for t in st.stack]
        if any(UNKNOWN in offer for offer in st.offered):
            seen_libs = {lib for lib in st.libraries if lib != UNKNOWN}
            for offer in st.offered:
                seen_libs.update(x for x in offer if x != UNKNOWN)
            free_libs = [i for i in range(len(comps.libraries)) if i not in seen_libs]
            rng.shuffle(free_libs)
            st.offered = [[free_libs.pop() if x == UNKNOWN else x for x in o] for o in st.offered]
        st.viewer = None
        return st


def _check_trigger(value: Any) -> Any:
    if value == "auto":
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 1:
            raise GameOptionError(
                f"game 'ex_libris': option 'final_round_trigger' must be at least 1; got {value}"
            )
        return value
    if isinstance(value, Mapping):
        out = {}
        for key, n in value.items():
            if str(key) not in ("2", "3", "4") or not (
                isinstance(n, int) and not isinstance(n, bool) and n >= 1
            ):
                raise GameOptionError(
                    "game 'ex_libris': option 'final_round_trigger' maps player counts "
                    f"2, 3, 4 to positive integers; got {key!r}: {n!r}"
                )
            out[str(key)] = n
        return {**DEFAULT_TRIGGER, **out}
    raise GameOptionError(
        "game 'ex_libris': option 'final_round_trigger' must be 'auto', an integer or a "
        f"mapping player count -> integer; got {value!r}"
    )


def _fail(what: str) -> None:
    raise IllegalMoveError(f"ex_libris setup: {what}")


def _load_setup(
    state: ExLibrisState, comps: Components, players: int, setup: Mapping[str, Any]
) -> None:
    if not isinstance(setup, Mapping):
        _fail("must be a JSON object")
    needed = ("start", "locations", "libraries", "prominent", "banned", "focus", "hands", "deck")
    for key in needed:
        if key not in setup:
            _fail(f"missing '{key}'")
    # locations
    start = comps.location_index(setup["start"])
    if start is None or not comps.locations[start].start:
        _fail(f"start must be the number of the start tile, got {setup['start']!r}")
    stack_numbers = setup["locations"]
    if not isinstance(stack_numbers, list):
        _fail("locations must list tile numbers")
    stack = [comps.location_index(n) for n in stack_numbers]
    if None in stack or sorted(stack) != [i for i in range(len(comps.locations)) if i != start]:  # type: ignore[type-var]
        _fail("locations must list every tile number except the start tile, once each")
    state.stack = stack[::-1]  # type: ignore[assignment]
    state.current = [start]  # type: ignore[list-item]
    # libraries
    libs = setup["libraries"]
    per_seat = 2 if state.advanced else 1
    names = {lib.name: i for i, lib in enumerate(comps.libraries)}
    if (
        not isinstance(libs, list)
        or len(libs) != players
        or not all(isinstance(o, list) and len(o) == per_seat for o in libs)
    ):
        _fail(f"libraries must give {per_seat} library name(s) per seat")
    flat = [names.get(n) if isinstance(n, str) else None for o in libs for n in o]
    if None in flat or len(set(flat)) != len(flat):
        _fail("libraries must name distinct library tiles")
    if state.advanced:
        state.offered = [[names[n] for n in o] for o in libs]
    else:
        state.libraries = [names[o[0]] for o in libs]
    # categories
    cats = [comps.category_index(setup["prominent"]), comps.category_index(setup["banned"])]
    focus = setup["focus"]
    if not isinstance(focus, list) or len(focus) != players:
        _fail("focus must give one category code per seat")
    cats += [comps.category_index(f) for f in focus]
    if None in cats or len(set(cats)) != len(cats):
        _fail("prominent, banned and the focus cards must be distinct category codes")
    state.prominent, state.banned = cats[0], cats[1]  # type: ignore[assignment]
    state.focus = cats[2:]  # type: ignore[assignment]
    # cards
    hands = setup["hands"]
    deck = setup["deck"]
    if not isinstance(hands, list) or len(hands) != players or not isinstance(deck, list):
        _fail("hands must give one list per seat and deck a list of card names")
    if not all(isinstance(h, list) and len(h) == HAND_SIZE for h in hands):
        _fail(f"every hand must hold {HAND_SIZE} cards")
    all_names = [n for h in hands for n in h] + deck
    cards = [comps.book_index(n) for n in all_names]
    if None in cards or sorted(cards) != list(range(len(comps.books))):  # type: ignore[type-var]
        _fail("hands and deck together must hold every book card exactly once")
    state.hands = [sorted(comps.book_index(n) for n in h) for h in hands]  # type: ignore[misc]
    state.deck = [comps.book_index(n) for n in deck][::-1]  # type: ignore[misc]
    state.chance = ChanceStreams(setup_key(setup.get("chance_key"), "ex_libris setup"))
