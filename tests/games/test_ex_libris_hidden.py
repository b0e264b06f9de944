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
                if state.round == 0:  # library choice: nothing of steps 6-8 is seen
                    assert snap["hands"][seat] == [UNKNOWN] * len(state.hands[seat])
                    assert snap["focus"][seat] == UNKNOWN
                else:
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


def test_library_choice_view_shows_only_what_is_dealt() -> None:
    # Advanced setup, 3 players: step 4 deals two library tiles per seat and the seats
    # choose in reverse turn order (2, 1, 0); the category cards (step 6-7) and the hands
    # (step 8) come later, so a choosing seat sees its own two tiles and the libraries
    # already chosen, and nothing else of the deal.
    comps = GAME.components(GAME.resolve_options({"mode": "advanced"}))
    names = [b.name for b in comps.books]
    libs = [lib.name for lib in comps.libraries]
    setup = {
        "start": 1,
        "locations": list(range(2, 19)),
        "libraries": [[libs[0], libs[1]], [libs[2], libs[3]], [libs[4], libs[5]]],
        "prominent": "C",
        "banned": "S",
        "focus": ["F", "H", "M"],
        "hands": [names[0:6], names[6:12], names[12:18]],
        "deck": names[18:],
    }
    state = GAME.new_state(3, GAME.resolve_options({"mode": "advanced"}), setup)
    assert state.current_player == 2 and state.round == 0
    view = state.view(2)
    assert view.offered == [[UNKNOWN, UNKNOWN], [UNKNOWN, UNKNOWN], [4, 5]]
    assert view.libraries == [UNKNOWN] * 3
    assert view.prominent == UNKNOWN and view.banned == UNKNOWN
    assert view.focus == [UNKNOWN] * 3  # not even its own focus card
    assert view.hands == [[UNKNOWN] * 6] * 3  # not even its own hand
    assert view.legal_moves() == [["library", libs[4]], ["library", libs[5]]]
    text = view.render()
    assert "not dealt yet" in text and "focus" not in text and "A1" not in text
    state.apply(["library", libs[5]])
    # seat 1 chooses next: it sees seat 2's choice (face up), its own two tiles, no more
    view = state.view(1)
    assert view.libraries == [UNKNOWN, UNKNOWN, 5]
    assert view.offered == [[UNKNOWN, UNKNOWN], [2, 3], []]
    assert (view.prominent, view.banned, view.focus) == (UNKNOWN, UNKNOWN, [UNKNOWN] * 3)
    assert all(card == UNKNOWN for hand in view.hands for card in hand)
    # a determinization of the choice view deals six distinct categories and 152 cards
    full = GAME.determinize(view, random.Random(5))
    assert sorted([full.prominent, full.banned, *full.focus]) == sorted(
        set([full.prominent, full.banned, *full.focus])
    )
    assert UNKNOWN not in [full.prominent, full.banned, *full.focus]
    assert all_cards(full) == list(range(len(comps.books)))
    assert full.libraries == [UNKNOWN, UNKNOWN, 5] and full.offered[1] == [2, 3]
    state.apply(["library", libs[2]])
    state.apply(["library", libs[1]])
    # round 1: the cards are dealt; seat 0 sees its focus, both categories and its hand
    assert state.round == 1
    view = state.view(0)
    assert view.libraries == [1, 2, 5]
    assert (view.prominent, view.banned) == (state.prominent, state.banned)
    assert view.focus[0] == state.focus[0] and view.focus[1:] == [UNKNOWN, UNKNOWN]
    assert view.hands[0] == state.hands[0]
