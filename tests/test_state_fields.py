"""Declared state fields (simcli/statefields.py) and listed chance outcomes: the derived
snapshot, clone, view and snapshot checks on hand-worked values, the conformance checks
that compare them with hand-written ones, and an exact expectimax over
``chance_outcomes()`` on a small High Roll position."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from simcli import statefields as sf
from simcli.conformance import chance_problem, fields_problem
from simcli.game import CHANCE, TERMINAL, IllegalMoveError, State
from simcli.games import get_game, load_game
from simcli.statefields import ALL, OWNER, Bool, Field, Int, Maybe, Record, Seq, StateFields

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "high_roll.py"
HIGH_ROLL = load_game(f"{EXAMPLE}:HighRoll")
HighRollState = sys.modules[type(HIGH_ROLL).__module__].HighRollState


def high_roll(secret, public, stopped, seat=0, rolling=False, bust=12) -> State:
    snap = {"secret": secret, "public": public, "stopped": stopped}
    snap |= {"seat": seat, "rolling": rolling}
    return HIGH_ROLL.state_from_snapshot(len(secret), {"bust": bust}, snap)


# ---------------------------------------------------------------- kinds


def test_kinds_check_json_values_against_their_bounds() -> None:
    limits = {"players": 3, "books": 5}
    assert Int(0, "books").decode(4, limits, False) == 4
    for bad in (5, -1, True, 2.0, "2", None):
        with pytest.raises(sf.Bad, match="an integer 0..4"):
            Int(0, "books").decode(bad, limits, False)
    assert Int(0, "books").decode(-1, limits, True) == -1  # the stand-in, where hidden
    assert Int(1, 7, unknown=None).decode(None, limits, True) is None
    with pytest.raises(sf.Bad):
        Int(1, 7, unknown=None).decode(-1, limits, True)
    assert Maybe(Int(0, 36), none=-1).decode(None, limits, False) == -1
    with pytest.raises(sf.Bad, match="null or an integer 0..35"):
        Maybe(Int(0, 36), none=-1).decode(36, limits, False)
    hands = Seq(Seq(Int(0, "books"), ordered=True), length="players")
    assert hands.decode([[0, 3], [], [4]], limits, False) == [[0, 3], [], [4]]
    with pytest.raises(sf.Bad, match="a list of 3 entries"):
        hands.decode([[0, 3], []], limits, False)
    with pytest.raises(sf.Bad, match="ascending"):
        Seq(Int(0, "books"), ordered=True).decode([3, 0], limits, False)
    assert Record((Int(0, "players"), Bool())).decode([2, False], limits, False) == (2, False)
    assert Seq(Int(), frozen=True).decode([1, 2], limits, False) == (1, 2)


def test_kinds_copy_encode_and_mask_by_shape() -> None:
    nested = Seq(Seq(Record((Int(), Int()))))
    value = [[(1, 2)], []]
    copied = nested.copy(value)
    assert copied == value and copied is not value and copied[0] is not value[0]
    assert nested.encode(value) == [[[1, 2]], []]
    assert nested.encoder()(value) == [[[1, 2]], []]
    assert Seq(Int()).mask([4, 5, 6]) == [-1, -1, -1]
    assert Seq(Int(1, 7, unknown=None)).mask([4]) == [None]
    frozen = Seq(Int(), frozen=True)
    assert frozen.copy(t := (1, 2)) is t  # immutable: shared


def test_a_declaration_refuses_its_own_mistakes() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        StateFields(Field("a", Int()), Field("b", Int(), key="a"))
    with pytest.raises(ValueError, match="per-seat Seq"):
        Field("secret", Int(), hidden=OWNER)
    with pytest.raises(ValueError, match="viewer"):
        StateFields(Field("a", Int()), viewer="who")


# ---------------------------------------------------------------- derived methods


def test_high_roll_derives_snapshot_view_and_clone_from_its_declaration() -> None:
    state = high_roll([2, 5, 6], [3, 0, 14], [False, False, True], seat=1)
    assert list(state.snapshot()) == ["secret", "public", "stopped", "seat", "rolling"]
    view = state.view(1)
    assert view.secret == [None, 5, None] and view.public == [3, 0, 14]
    copy = state.clone()
    copy.public[0] = 99
    assert state.public == [3, 0, 14]  # copied, not shared
    assert state.view(0).view(0).snapshot() == state.view(0).snapshot()


def test_load_checks_every_declared_key() -> None:
    snap = high_roll([2, 5], [3, 0], [False, False]).snapshot()
    for change, message in [
        ({"public": [3]}, "'public' must be a list of 2 entries"),
        ({"seat": 2}, "'seat' must be an integer 0..1"),
        ({"rolling": 1}, "'rolling' must be true or false"),
        ({"secret": [7, 1]}, "'secret' must be a list of 2 entries"),
        ({"extra": 0}, "unknown key 'extra'"),
    ]:
        with pytest.raises(IllegalMoveError, match=message):
            HIGH_ROLL.state_from_snapshot(2, {"bust": 12}, {**snap, **change})
    del snap["stopped"]
    with pytest.raises(IllegalMoveError, match="missing 'stopped'"):
        HIGH_ROLL.state_from_snapshot(2, {"bust": 12}, snap)


def test_ex_libris_views_hide_what_the_declaration_marks() -> None:
    game = get_game("ex_libris")
    options = game.resolve_options({})
    state = game.new_state(3, options, game.sample_setup(3, options, random.Random(5)))
    pick = random.Random(6)
    while state.round == 0 or state.current_player < 0:
        state.apply(pick.choice(state.legal_moves()))
    declared = type(state).state_fields
    assert {f.key for f in declared.fields if f.hidden == ALL} == {"deck", "stack", "chance"}
    assert {f.key for f in declared.fields if f.hidden == OWNER} == {"hands", "focus", "offered"}
    view = state.view(2)
    assert set(view.deck) == {-1} and len(view.deck) == len(state.deck)
    assert view.hands[2] == state.hands[2] and set(view.hands[0]) == {-1}
    assert view.focus == [-1, -1, state.focus[2]] and view.chance.key is None
    assert view.viewer == 2 and state.viewer is None
    # the full state may not show the stand-in where a view may
    snap = state.snapshot()
    with pytest.raises(IllegalMoveError, match="'deck' must be"):
        game.state_from_snapshot(3, options, {**snap, "deck": [-1] * len(state.deck)})
    again = game.state_from_snapshot(3, options, json.loads(json.dumps(view.snapshot())))
    assert again.snapshot() == view.snapshot()
    # a view after the library choice knows its own hand
    seen = view.snapshot()
    seen["hands"][2] = [-1] * len(seen["hands"][2])
    with pytest.raises(IllegalMoveError, match="'hands' must be the viewer's own cards"):
        game.state_from_snapshot(3, options, seen)


def test_library_declares_the_optional_walls_left_key() -> None:
    game = get_game("library")
    for options, has in (({}, False), ({"walls_per_player": 5}, True)):
        resolved = game.resolve_options(options)
        state = game.new_state(2, resolved, game.sample_setup(2, resolved, random.Random(1)))
        state.apply(state.legal_moves()[0])
        assert ("walls_left" in sf.snapshot(state)) is has
        assert list(sf.snapshot(state).items()) == list(state.snapshot().items())
        assert fields_problem(game, 2, resolved, state) is None


# ---------------------------------------------------------------- the conformance check


class _SlowView(HighRollState):
    def view(self, seat):  # by hand, and wrong: shows every secret
        return self.clone()


class _Reordered(HighRollState):
    def snapshot(self):
        return dict(reversed(sf.snapshot(self).items()))


def test_fields_problem_names_a_hand_written_method_that_differs() -> None:
    state = high_roll([2, 5], [3, 0], [False, False])
    assert fields_problem(HIGH_ROLL, 2, {"bust": 12}, state) is None
    state.__class__ = _SlowView
    assert "view(0).snapshot(): 'secret'" in fields_problem(HIGH_ROLL, 2, {"bust": 12}, state)
    state.__class__ = _Reordered
    assert "has the keys" in fields_problem(HIGH_ROLL, 2, {"bust": 12}, state)


def test_libraria_hand_written_methods_equal_the_declared_ones_through_a_game() -> None:
    game = get_game("libraria")
    options = game.resolve_options({})
    state = game.new_state(2, options, game.sample_setup(2, options, random.Random(3)))
    pick = random.Random(4)
    while True:
        assert fields_problem(game, 2, options, state) is None
        if state.is_terminal():
            break
        state.apply(pick.choice(state.legal_moves()))


# ---------------------------------------------------------------- chance outcomes


def test_high_roll_lists_the_six_faces() -> None:
    state = high_roll([2, 5], [3, 0], [False, False], rolling=True)
    assert state.current_player == CHANCE
    assert state.chance_outcomes() == [(face, 1 / 6) for face in range(1, 7)]
    assert chance_problem(state, random.Random(1)) is None


def test_chance_problem_catches_wrong_lists() -> None:
    state = high_roll([2, 5], [3, 0], [False, False], rolling=True)
    cases = [
        ([(face, 1 / 5) for face in range(1, 7)], "sum to"),
        ([(1, 1.0)], "does not list"),  # the die shows other faces too
        ([(1, 0.5), (1, 0.5)], "twice"),
        ([(7, 1.0)], "refused by apply"),
        ([], "no outcome"),
        ([(1, 1.5), (2, -0.5)], "not positive"),
    ]
    for listed, message in cases:
        state.chance_outcomes = lambda listed=listed: listed  # type: ignore[method-assign]
        assert message in chance_problem(state, random.Random(1))


def test_a_bibliogamo_view_lists_its_unseen_cards_with_their_copies() -> None:
    game = get_game("bibliogamo")
    options = game.resolve_options({})
    state = game.new_state(1, options, game.sample_setup(1, options, random.Random(2)))
    view = state.view(0)
    pick = random.Random(3)
    while view.current_player != CHANCE:
        view.apply(pick.choice(view.legal_moves()))
    listed = view.chance_outcomes()
    unseen = view.draw[view.known :]
    assert sum(p * len(unseen) for _, p in listed) == pytest.approx(len(unseen))
    assert {card for card, _ in listed} == set(unseen)
    assert chance_problem(view, random.Random(4)) is None


def test_the_gelatinous_cube_lists_each_card_of_the_hand() -> None:
    from simcli.games.ex_libris.assistants import RandomCard

    game = get_game("ex_libris")
    options = game.resolve_options({"mode": "advanced"})
    state = game.new_state(2, options, game.sample_setup(2, options, random.Random(8)))
    state.tasks = [RandomCard(1, 0)]
    names = [state.comps.books[c].name for c in state.hands[1]]
    listed = state.chance_outcomes()
    assert [name for name, _ in listed] == names
    assert all(p == 1 / len(names) for _, p in listed)
    assert chance_problem(state, random.Random(1)) is None
    assert state.view(0).chance_outcomes() is None  # seat 1's hand is hidden from seat 0


def expectimax(state: State, seat: int) -> float:
    """The value for ``seat`` (1 a sole win, 1/k a k-way shared one) under best play
    of ``seat``, the other seats having stopped, and exact chance."""
    player = state.current_player
    if player == TERMINAL:
        winners = state.outcome().winners
        return 1 / len(winners) if seat in winners else 0.0
    values = []
    if player == CHANCE:
        total = 0.0
        for outcome, p in state.chance_outcomes():
            child = state.clone()
            child.apply(outcome)
            total += p * expectimax(child, seat)
        return total
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        values.append(expectimax(child, seat))
    return max(values)


def test_exact_expectimax_on_a_small_high_roll_position() -> None:
    # Seat 1 held at 3 + 6 = 9; seat 0 has secret 2 and public 5 (bust above 12). By
    # hand, with V(q) the value at public q: V(8..12) = 1 (hold and win), V(13+) = 0;
    # V(7) = max(1/2 (hold: a tie), 5/6 (roll)); V(6) = (V(7) + 5) / 6 = 35/36;
    # V(5) = (V(6) + V(7) + 4) / 6 = 209/216, rolling.
    state = high_roll([2, 3], [5, 6], [False, True])
    assert expectimax(state, 0) == pytest.approx(209 / 216, abs=1e-12)
    hold = state.clone()
    hold.apply("hold")
    assert expectimax(hold, 0) == 0.0
