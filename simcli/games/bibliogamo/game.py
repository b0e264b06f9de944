"""The Bibliogamo game description: options, setup, evaluation and determinization."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from simcli import statefields
from simcli.errors import GameOptionError
from simcli.game import Facts, Game, IllegalMoveError, Option, State
from simcli.games.bibliogamo.components import Components, load_components
from simcli.games.bibliogamo.state import (
    BLOCKED_CARDS,
    FLORINS_PER_VP,
    SALE_REDRAW,
    BibliogamoState,
)
from simcli.games.chance import draw_key, setup_key
from simcli.games.compensation import drop_defaults

#: Value of one day on the time track, in VP, for :meth:`Bibliogamo.evaluate`: about
#: what an average turn earns, so a paid re-draw must raise the price by ~3 florins.
DAY_VALUE = 0.6
#: Expected price of a sale with the packaged cards (about 3.4 florins), in VP, used to
#: value a complete but unsold book.
EXPECTED_SALE_VP = 0.7
#: Share of a finished book's value credited to a fully built, unsold tower.
PROGRESS_WEIGHT = 0.6


class Bibliogamo(Game):
    id = "bibliogamo"
    title = "Bibliogamo"
    description = (
        "Solitaire: hire artisans into six towers and sell books to the Chief Librarian "
        "as he tours the city; 40 days."
    )
    player_counts = (1,)
    perfect_information = False
    options = {
        "components": Option(
            default=None,
            doc="YAML file with replacement components (track, towers, cards, prestige "
            "cards, starting florins); default: the packaged, partly reconstructed data",
        ),
        "prestige": Option(
            default="deal",
            choices=("deal", "choose"),
            doc="the Prestige Collection card is dealt at random in the setup, or chosen "
            "by the player as the first move",
        ),
        "last_cubes": Option(
            default="printed",
            choices=("printed", "choose"),
            doc="when fewer cubes are left than a hire would place: the card's artisans "
            "get them in printed order, or the player chooses which (hire CARD PAY TOWER "
            "LETTERS)",
        ),
        "block_scope": Option(
            default="hire",
            choices=("hire", "any"),
            doc="phase 3's blocked artisan stops cards from being played for artisans "
            "(they may still pay for a hire), or from any use in a hire",
        ),
        BLOCKED_CARDS: Option(
            default="artisans",
            choices=("artisans", "small_icon", "either"),
            doc="which cards phase 3's block stops: those that provide the blocked "
            "artisan, those whose small artisan icon shows it, or either",
        ),
        SALE_REDRAW: Option(
            default="first_icon",
            choices=("first_icon", "chain"),
            doc="after a sale's re-draw the price is the new card's value at the "
            "position the first card's florin icon shows (first_icon), or the icon of "
            "the card turned over before it (chain)",
        ),
    }

    def __init__(self) -> None:
        self._components: dict[str | None, Components] = {}

    # ------------------------------------------------------------------ options/data
    def components(self, path: str | None = None) -> Components:
        """The validated components from ``path`` (None: the packaged file), cached."""
        comp = self._components.get(path)
        if comp is None:
            comp = load_components(path)
            self._components[path] = comp
        return comp

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        resolved = super().resolve_options(given)
        path = resolved["components"]
        if path is not None and (not isinstance(path, str) or not path.strip()):
            raise GameOptionError(
                f"game 'bibliogamo': option 'components' must be a file path, got {path!r}"
            )
        self.components(path)  # load and validate now, so a bad file fails early
        # the options of the other readings at their defaults are left out: records of
        # the default reading stay as they were (simcli/games/compensation.py)
        return drop_defaults(self.options, resolved, (BLOCKED_CARDS, SALE_REDRAW))

    # ------------------------------------------------------------------ setup
    def sample_setup(
        self, players: int, options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        opts = self.resolve_options(options)
        comp = self.components(opts["components"])
        deck = comp.card_ids
        rng.shuffle(deck)
        prestige = rng.choice(sorted(comp.prestige)) if opts["prestige"] == "deal" else None
        key = draw_key(rng)  # the key of the chance streams, the setup's last draw
        return {"deck": deck, "prestige": prestige, "components": comp.digest, "chance_key": key}

    def new_state(
        self, players: int, options: Mapping[str, Any], setup: Mapping[str, Any]
    ) -> BibliogamoState:
        self.check_players(players)
        opts = self.resolve_options(options)
        comp = self.components(opts["components"])
        if not isinstance(setup, Mapping):
            raise IllegalMoveError("a Bibliogamo setup is an object with 'deck' and 'prestige'")
        digest = setup.get("components")
        if digest != comp.digest:
            raise IllegalMoveError(
                f"setup.components is {digest!r} but the components in use ({comp.source}) "
                f"have digest {comp.digest!r}: the setup was made with other data"
            )
        deck = setup.get("deck")
        if (
            not isinstance(deck, list)
            or any(isinstance(c, bool) or not isinstance(c, int) for c in deck)
            or sorted(deck) != comp.card_ids
        ):
            raise IllegalMoveError(
                f"setup.deck must list each of the {len(comp.cards)} card ids once (top card first)"
            )
        prestige = setup.get("prestige")
        if opts["prestige"] == "deal":
            if isinstance(prestige, bool) or prestige not in comp.prestige:
                ids = ", ".join(map(str, comp.prestige))
                raise IllegalMoveError(
                    f"setup.prestige must be a prestige card id ({ids}); got {prestige!r}"
                )
        elif prestige is not None:
            raise IllegalMoveError(
                "setup.prestige must be null with option prestige: choose (the player chooses)"
            )
        key = setup_key(setup.get("chance_key"), "Bibliogamo setup")
        return BibliogamoState(self, opts, comp, list(deck), prestige, key)

    def state_from_snapshot(
        self, players: int, options: Mapping[str, Any], snapshot: Mapping[str, Any]
    ) -> BibliogamoState:
        """The state, or the view, whose :meth:`BibliogamoState.snapshot` is ``snapshot``
        (a view's draw pile is sorted and its ``known`` is 0: the order stays hidden),
        checked as ``BibliogamoState.state_fields`` declares."""
        self.check_players(players)
        return statefields.load(self, BibliogamoState, players, options, snapshot)  # type: ignore[return-value]

    def render_svg(self, state: State, seat: int | None = None) -> str:
        from simcli.games.bibliogamo.svg import render_svg

        return render_svg(state)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ search helpers
    def evaluate(self, state: State, seat: int) -> float:
        """Points now (florins not rounded down) + a pending sale's price and book (or
        the expected ones when a complete book stands under the librarian) + progress of
        each tower (squared share built, so nearly finished towers count most; scaled by
        what its book would earn including prestige) - days bought with re-draws."""
        s: BibliogamoState = state  # type: ignore[assignment]
        if s.is_terminal():
            return float(s.score())
        comp = s.comp
        value = s.books + s.florins / FLORINS_PER_VP + s.prestige_points()
        card = comp.prestige.get(s.prestige) if s.prestige is not None else None
        total_marks = sum(s.marks)

        def prestige_gain(t: int) -> float:
            if card is None or s.marks[t] >= card.wanted(t):
                return 0.0
            return float(card.points[total_marks + 1] - card.points[total_marks])

        price = s.price
        here = s.tower_here()
        if price is not None:
            value += 1 + price / FLORINS_PER_VP + prestige_gain(here)  # type: ignore[arg-type]
        elif s.step == "sell":  # a complete book under the librarian: sold at once
            value += 1 + EXPECTED_SALE_VP + prestige_gain(here)  # type: ignore[arg-type]
        for t, tower in enumerate(comp.towers):
            if t == here and (price is not None or s.step == "sell"):
                continue
            share = sum(s.towers[t]) / tower.size
            value += PROGRESS_WEIGHT * share * share * (1 + EXPECTED_SALE_VP + prestige_gain(t))
        value -= DAY_VALUE * (s.time - s.turn)
        return value

    def facts(self, state: State) -> Facts:
        """Turns started and the parts of the score: books, florin points (florins / 5,
        rounded down) and prestige points."""
        if not isinstance(state, BibliogamoState):
            raise TypeError(f"not a {self.title} state: {type(state).__name__}")
        parts = {
            "books": state.books,
            "florin_points": state.florins // FLORINS_PER_VP,
            "prestige_points": state.prestige_points(),
        }
        return Facts(game={"turns": state.turn}, seats=(parts,))

    def determinize(self, view: State, rng: random.Random) -> BibliogamoState:
        """A full state: the unseen part of the draw pile in an order sampled from ``rng``."""
        if not isinstance(view, BibliogamoState):
            raise TypeError(f"not a Bibliogamo state: {type(view).__name__}")
        full = view.clone()
        unseen = full.draw[full.known :]
        rng.shuffle(unseen)
        full.draw[full.known :] = unseen
        full.known = len(full.draw)
        full._run()
        return full
