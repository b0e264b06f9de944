"""Ex Libris hidden information: views, determinization, render of a view."""

from __future__ import annotations

import json
import random

from simcli.game import CHANCE
from simcli.games import get_game
from simcli.games.ex_libris.state import UNKNOWN, ExLibrisState

GAME = get_game("ex_libris")


def play_some(players: int, steps: int, seed: int, **options) -> ExLibrisState:
    rng = random.Random(seed)
    opts = GAME.resolve_options(options)
    state = GAME.new_state(players, opts, GAME.sample_setup(players, opts, rng))
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_moves()))
    return state


def all_cards(state: ExLibrisState) -> list[int]:
    cards = [c for h in state.hands for c in h] + state.deck + state.discard
    cards += [c for cells in state.shelves for c in cells.values()]
    cards += [c for a in state.area for c in a] + [c for t in state.entombed for c in t]
    return sorted(cards)


def test_view_never_contains_other_hands_or_focus() -> None:
    for players in (2, 3, 4):
        for steps in (0, 25, 70):
            state = play_some(players, steps, seed=players * 100 + steps, mode="advanced")
            for seat in range(players):
                view = state.view(seat)
                snap = view.snapshot()
                assert snap["hands"][seat] == state.snapshot()["hands"][seat]
                assert snap["focus"][seat] == state.focus[seat]
                for other in range(players):
                    if other != seat:
                        assert snap["hands"][other] == [UNKNOWN] * len(state.hands[other])
                        assert snap["focus"][other] == UNKNOWN
                        assert set(snap["offered"][other]) <= {UNKNOWN}
                assert set(snap["deck"]) <= {UNKNOWN} and len(snap["deck"]) == len(state.deck)
                assert set(snap["stack"]) <= {UNKNOWN}
                # public parts are all there
                assert snap["shelves"] == state.snapshot()["shelves"]
                assert snap["discard"] == state.snapshot()["discard"]
                assert snap["area"] == state.snapshot()["area"]
                json.dumps(snap)


def test_render_of_a_view_shows_only_own_hand() -> None:
    state = play_some(3, 0, seed=1)
    text = state.view(0).render()
    for card in state.hands[0]:
        assert state.comps.books[card].name + ":" in text
    for other in (1, 2):
        for card in state.hands[other]:
            assert state.comps.books[card].name + ":" not in text
        assert f"Seat {other}" in text
    assert "hand: 6 cards" in text
    focus = state.comps.categories[state.focus[1]].name
    assert f"focus: {state.comps.categories[state.focus[1]].code} {focus}" not in text


def test_determinize_is_consistent_with_the_view() -> None:
    state = play_some(4, 60, seed=9)
    view = state.view(2)
    a = GAME.determinize(view, random.Random(1))
    b = GAME.determinize(view, random.Random(1))
    c = GAME.determinize(view, random.Random(2))
    assert a == b and a != c
    for det in (a, c):
        assert det.viewer is None
        assert det.hands[2] == state.hands[2]
        assert [len(h) for h in det.hands] == [len(h) for h in state.hands]
        assert det.shelves == state.shelves and det.discard == state.discard
        assert all_cards(det) == list(range(152))
        assert UNKNOWN not in det.focus and len(set(det.focus)) == 4
        assert det.focus[2] == state.focus[2]
        assert {state.prominent, state.banned}.isdisjoint(det.focus)
        assert sorted(det.stack + det.permanent + det.current + det.loc_discard) == list(range(18))
        # the sampled state plays on
        rng = random.Random(3)
        while not det.is_terminal():
            if det.current_player == CHANCE:
                det.apply(det.sample_chance(rng))
            else:
                det.apply(rng.choice(det.legal_moves()))


def test_view_supports_own_moves() -> None:
    state = play_some(3, 0, seed=4)
    seat = state.current_player
    view = state.view(seat)
    assert view.legal_moves() == state.legal_moves()
    move = next(m for m in view.legal_moves() if m[:2] == ["home", "shelve"])
    view.apply(move)
    state.apply(move)
    assert view.snapshot() == state.view(seat).snapshot()
