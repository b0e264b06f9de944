"""Ada's Library's playout kernel (``playout.play_out``) against the reference: the loop of
``random_legal_move`` and ``apply_trusted`` (``sample_chance`` on chance turns), which
tests/test_adas_speed_paths.py checks against ``legal_moves`` and ``apply``.

The kernel must call ``randbelow`` with the same ``n`` (the number of legal moves) in the
same order, reach the same states and outcomes and leave the generators alike. The tests
call ``play_out`` itself, so they check its source on either path (compiled, or run as
Python with ``SIMCLI_PURE=1``); ``AdasState.playout`` uses it where it is compiled.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from simcli import draws
from simcli.game import CHANCE, TERMINAL
from simcli.games import get_game
from simcli.games.adas_library import AdasState
from simcli.games.adas_library.playout import play_out

GAME = get_game("adas_library")

#: Three colours, rows of 4 books and a deck of 20: rows get sorted (games end by a win),
#: the draw pile runs out every few turns, and with 4 players the hands hold the whole
#: deck, so every draw reshuffles the one card just played.
SMALL = {
    "colours": ["yellow", "teal", "gray"],
    "hand_size": 5,
    "deck_size": 20,
    "cards": {
        **{f"move{n}": 2 for n in range(1, 5)},
        "move_end": 1,
        **{f"switch{n}": 1 for n in range(1, 5)},
        "reverse": 2,
        "master1": 1,
        "master2": 1,
        "exchange": 3,
    },
    "players": {"2": {"tiles": 12, "books_each": 4}, "4": {"tiles": 18, "books_each": 4}},
}
#: Rows of 14 books: longer than the reference's tables (rows.TABLE_MAX_LENGTH), so
#: there the reference lists every legal move.
LONG = {
    **GAME.resolve_options({})["components"],
    "players": {"2": {"tiles": 30, "books_each": 14}, "4": {"tiles": 36, "books_each": 9}},
}


def recording(randbelow: Callable[[int], int], seen: list[int]) -> Callable[[int], int]:
    """``randbelow``, noting every ``n`` it is called with in ``seen``."""

    def below(n: int) -> int:
        seen.append(n)
        return randbelow(n)

    return below


def reference(state: AdasState, rng: random.Random, below: Callable[[int], int], plies: int) -> int:
    """The contract's loop for at most ``plies`` turns (< 0: to the end); the turns played."""
    apply, sample, pick = state.apply_trusted, state.sample_chance, state.random_legal_move
    played = 0
    while played != plies:
        seat = state.current_player
        if seat == TERMINAL:
            break
        apply(sample(rng) if seat == CHANCE else pick(below))
        played += 1
    return played


def dealt(players: int, given: dict[str, Any], seed: int) -> AdasState:
    return deal(players, GAME.resolve_options(given), random.Random(seed))


def deal(players: int, options: dict[str, Any], rng: random.Random) -> AdasState:
    return GAME.new_state(players, options, GAME.sample_setup(players, options, rng))


def same_position(a: AdasState, b: AdasState) -> bool:
    """The fields the kernel writes (cheaper than two snapshots)."""
    return (
        a.rows == b.rows
        and a.master == b.master
        and a.rank == b.rank
        and a.hands == b.hands
        and a.draw == b.draw
        and a.discard == b.discard
        and (a.turns, a.winner, a.reshuffle) == (b.turns, b.winner, b.reshuffle)
        and a.chance.counts == b.chance.counts
        and a.chance.key == b.chance.key
    )


def compare(state: AdasState, seed: int, plies: int = -1) -> int:
    """The kernel and the reference from ``state`` with generators of ``seed``: the same
    ``n`` at every decision, the same state and generator at the end. Returns the turns
    played."""
    fast, slow = state.clone(), state.clone()
    r1, r2 = random.Random(seed), random.Random(seed)
    seen1: list[int] = []
    seen2: list[int] = []
    played = play_out(fast, r1, recording(draws.randbelow_of(r1), seen1), plies)
    assert played == reference(slow, r2, recording(draws.randbelow_of(r2), seen2), plies)
    assert seen1 == seen2
    assert fast.snapshot() == slow.snapshot() and fast.rank == slow.rank
    assert r1.getstate() == r2.getstate()
    if plies < 0:
        assert fast.current_player == TERMINAL
        assert fast.outcome() == slow.outcome()
    return played


# -- a hand-worked position ---------------------------------------------------------

Y, T, G, M, B, R = "yellow", "teal", "gray", "magenta", "blue", "red"
HAND_0 = ["move_end", "switch4", "reverse", "reverse", "master1"]
HAND_1 = ["move1", "move1", "move2", "move3", "exchange"]


def hand_worked(draw_pile: bool = True) -> AdasState:
    """Master Y T G M B R; seat 0 to move with row T Y Y Y Y T G G M M (runs T, YYYY, T,
    GG, MM) and HAND_0; seat 1's row G G T T M M B B R R, sorted once T and G trade
    places in the master order. The draw pile is the rest of the deck in card order
    (``draw_pile`` false: it is empty, the rest is the discard pile)."""
    state = dealt(2, {}, seed=1)
    rest = Counter(state.comp.deck_counts)
    rest.subtract(HAND_0 + HAND_1)
    pile = [
        card for card in GAME.resolve_options({})["components"]["cards"] for _ in range(rest[card])
    ]
    snap = state.snapshot()
    snap.update(
        master=[Y, T, G, M, B, R],
        rows=[[T, Y, Y, Y, Y, T, G, G, M, M], [G, G, T, T, M, M, B, B, R, R]],
        hands=[HAND_0, HAND_1],
        draw=pile if draw_pile else [],
        discard=[] if draw_pile else pile,
    )
    return GAME.state_from_snapshot(2, state.options, snap)


def one_turn(state: AdasState, choice: int) -> list[int]:
    """Play one turn of ``state`` with ``randbelow`` giving ``choice``; the ``n`` seen."""
    seen: list[int] = []

    def below(n: int) -> int:
        seen.append(n)
        return choice

    assert play_out(state, random.Random(0), below, 1) == 1
    return seen


def test_the_hand_worked_position_has_38_moves() -> None:
    # Move to End: L from 1..9, R from 0..7 (8 and 9 already end the row's last run): 17;
    # Switch 4: pairs (0,4) (1,5) (2,6) (3,7) (4,8) (5,9) all differ: 6; Reverse: T, M: 1;
    # Master 1: six distinct cards, 5 L and 5 R: 10; discards of 4 card types: 38
    state = hand_worked()
    assert one_turn(state.clone(), 0) == [38]
    assert len(state.legal_moves()) == 38


def test_a_switch_that_sorts_the_own_row_wins_at_once() -> None:
    state = hand_worked()
    one_turn(state, 17)  # the first Switch 4: books 0 and 4
    assert state.rows[0] == [0, 0, 0, 0, 1, 1, 2, 2, 3, 3]  # Y Y Y Y T T G G M M
    assert state.winner == 0 and state.current_player == TERMINAL
    assert state.hands[0] == ["move_end", "reverse", "reverse", "master1"]  # no draw
    assert state.discard == ["switch4"] and state.turns == 0
    assert state.outcome().winners == (0,)


def test_a_master_change_that_sorts_the_other_row_loses() -> None:
    state = hand_worked()
    one_turn(state, 26)  # Master 1: 24 is 0 R, 25 is 1 L, 26 is 1 R (teal after gray)
    assert state.master == [0, 2, 1, 3, 4, 5] and state.rank == [0, 2, 1, 3, 4, 5]
    assert state.winner == 1 and state.outcome().winners == (1,)


def test_a_discard_draws_the_top_card() -> None:
    state = hand_worked()
    one_turn(state, 36)  # discards 34..37: move_end, switch4, reverse, master1
    assert state.hands[0] == ["move_end", "switch4", "reverse", "master1", "move1"]
    assert state.discard == ["reverse"] and len(state.draw) == 34
    assert state.turns == 1 and state.current_player == 1


def test_an_empty_draw_pile_is_reshuffled_with_the_card_just_played() -> None:
    state = hand_worked(draw_pile=False)
    before = Counter(state.discard) + Counter(["reverse"])
    one_turn(state, 36)
    assert state.reshuffle and state.current_player == CHANCE and state.turns == 0
    expected = state.clone()
    expected.apply_trusted(expected.sample_chance(random.Random(5)))
    assert play_out(state, random.Random(5), random.Random(5)._randbelow, 1) == 1
    assert state.snapshot() == expected.snapshot()
    assert state.chance.counts == {"reshuffle": 1} and not state.discard
    assert Counter(state.draw) + Counter([state.hands[0][-1]]) == before
    assert state.turns == 1 and state.current_player == 1


def test_the_turn_limit_ends_in_a_draw() -> None:
    state = dealt(2, {"max_turns": 3}, seed=4)
    assert compare(state, seed=9) == 3
    assert state.turns == 0  # compare played clones
    played = state.clone()
    play_out(played, random.Random(9), random.Random(9)._randbelow, -1)
    assert played.turns == 3 and played.outcome().termination == "move_limit"


def test_a_limit_of_no_turns_changes_nothing() -> None:
    state = dealt(4, {}, seed=2)
    before = state.snapshot()
    assert play_out(state, random.Random(1), random.Random(1)._randbelow, 0) == 0
    assert state.snapshot() == before


def test_a_view_is_refused_untouched() -> None:
    """A view's unknown cards ("?") are not the kernel's: AdasState.playout would play
    the contract's loop (a view cannot be played to the end: it sees no moves of the
    other seats)."""
    view = dealt(2, {}, seed=3).view(0)
    before = view.snapshot()
    assert play_out(view, random.Random(1), random.Random(1)._randbelow, -1) == -1
    assert view.snapshot() == before


BIG_DECK = {**SMALL, "deck_size": 260, "cards": {**SMALL["cards"], "exchange": 243}}
LONG_ROWS = {
    **SMALL,
    "players": {"2": {"tiles": 132, "books_each": 65}, "4": {"tiles": 18, "books_each": 4}},
}


@pytest.mark.parametrize("components", [BIG_DECK, LONG_ROWS], ids=["260 cards", "65 books"])
def test_a_state_beyond_the_arrays_is_left_to_the_contract_loop(components) -> None:
    state = dealt(2, {"components": components, "max_turns": 6}, seed=2)
    before = state.snapshot()
    assert play_out(state, random.Random(1), random.Random(1)._randbelow, -1) == -1
    assert state.snapshot() == before
    fast, slow = state.clone(), state.clone()
    r1, r2 = random.Random(3), random.Random(3)
    fast.playout(r1, r1._randbelow)
    reference(slow, r2, r2._randbelow, -1)
    assert fast.snapshot() == slow.snapshot() and fast.turns == 6


def test_a_subclass_plays_the_contract_loop() -> None:
    """A variant subclass may change the rules: its playout goes through its own
    apply_trusted, move by move."""
    applied: list[Any] = []

    class Variant(AdasState):
        __slots__ = ()

        def apply_trusted(self, move: Any) -> None:
            applied.append(move)
            super().apply_trusted(move)

    state = dealt(2, {"max_turns": 10}, seed=1)
    state.__class__ = Variant
    state.playout(random.Random(1), random.Random(1)._randbelow)
    assert len(applied) == 10 and state.turns == 10


def test_a_state_without_a_chance_key_takes_it_from_the_generator() -> None:
    game_state = dealt(2, {"components": SMALL}, seed=6)
    state = GAME.determinize(game_state.view(0), random.Random(6))
    assert state.chance.key is None
    compare(state, seed=7)


@pytest.mark.parametrize(
    ("players", "given"),
    [
        (2, {}),
        (4, {"exchange_partner": "diagonal", "exchange_position": "mirrored"}),
        (2, {"extra_cards": 2, "exchange_position": "mirrored"}),
        (2, {"components": SMALL}),
        (4, {"components": SMALL}),
        (2, {"components": LONG, "max_turns": 40}),
    ],
)
def test_seeded_games_equal_the_reference(players: int, given: dict[str, Any]) -> None:
    for seed in range(3):
        state = dealt(players, given, seed)
        compare(state, seed=seed, plies=25)  # a limit part way
        compare(state, seed=seed)


# -- a million positions ------------------------------------------------------------

#: (players, options, games in each round): the default rules and their options, the
#: short rows that end in wins, and the long rows the reference scans.
CONFORMANCE = [
    (2, {}, 3),
    (4, {}, 2),
    (4, {"exchange_partner": "diagonal", "exchange_position": "mirrored"}, 1),
    (2, {"exchange_position": "mirrored", "extra_cards": 2}, 1),
    (4, {"extra_cards": 1, "max_turns": 150}, 1),
    (2, {"components": SMALL, "max_turns": 60}, 2),
    (4, {"components": SMALL, "max_turns": 60}, 2),
    (2, {"components": LONG, "max_turns": 40}, 1),
]
CHUNKS = (1, 2, 5, 30, 200, -1)


@pytest.mark.slow
def test_the_kernel_equals_the_reference_on_a_million_positions() -> None:
    """Random games of every rules variant above, played by the reference; the kernel
    plays from the reference's positions for a random number of turns at a time
    (sometimes one, sometimes to the end), and each stretch must give the reference's
    draws and state. Some games start from a dealt view (no chance key)."""
    rng = random.Random(2026)
    variants = [(players, GAME.resolve_options(given), n) for players, given, n in CONFORMANCE]
    checked = games = wins = reshuffles = 0
    while checked < 1_000_000:
        for players, options, count in variants:
            for _ in range(count):
                state = deal(players, options, rng)
                if rng.random() < 0.1:
                    state = GAME.determinize(state.view(0), rng)
                r1, r2 = random.Random(games), random.Random(games)
                seen1: list[int] = []
                seen2: list[int] = []
                below1 = recording(draws.randbelow_of(r1), seen1)
                below2 = recording(draws.randbelow_of(r2), seen2)
                while state.current_player != TERMINAL:
                    fast = state.clone()
                    plies = rng.choice(CHUNKS)
                    played = play_out(fast, r1, below1, plies)
                    assert played == reference(state, r2, below2, plies) >= 1
                    assert seen1 == seen2 and same_position(fast, state)
                    checked += played
                    seen1.clear()
                    seen2.clear()
                assert fast.snapshot() == state.snapshot() and fast.outcome() == state.outcome()
                assert r1.getstate() == r2.getstate()
                games += 1
                wins += state.winner is not None
                reshuffles += state.chance.counts.get("reshuffle", 0)
    assert wins > 500 and reshuffles > 10_000  # the edges were met often
