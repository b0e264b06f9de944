"""Random rollouts: the compiled draws equal Python's own, and every game's ``playout``
equals the contract's loop (``State.playout``) for the same generator.

These hold on whichever path runs (compiled, or ``SIMCLI_PURE=1``); .ci/run runs the
suite on the compiled path, and tests/test_compiled_path.py checks that the path is the
one built.
"""

from __future__ import annotations

import random

import pytest

from simcli import draws
from simcli.game import CHANCE, TERMINAL, State
from simcli.games import get_game
from simcli.games.libraria import SPOTS, place_randomly

GAMES = ("libraria", "library", "adas_library", "ex_libris", "bibliogamo")


def test_randbelow_draws_what_random_draws() -> None:
    ours, theirs = random.Random(7), random.Random(7)
    below = draws.randbelow_of(ours)
    # every bit length up to 32, the edges of each, then the fallback above 2**32
    bounds = [n for k in range(33) for n in (2**k - 1, 2**k, 2**k + 1) if n > 0]
    bounds += [2**32 + 5, 10**12, True]
    for n in bounds * 20:
        assert below(n) == theirs._randbelow(n), n
    assert ours.getstate() == theirs.getstate()


def test_shuffle_shuffles_as_random_does() -> None:
    ours, theirs = random.Random(11), random.Random(11)
    for size in (0, 1, 2, 25, 1000):
        a, b = list(range(size)), list(range(size))
        draws.shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
    assert ours.getstate() == theirs.getstate()


def test_a_subclass_of_random_keeps_its_own_draws() -> None:
    class Counting(random.Random):
        calls = 0

        def _randbelow(self, n: int) -> int:
            Counting.calls += 1
            return 0

    rng = Counting(1)
    assert draws.randbelow_of(rng)(10) == 0
    items = [1, 2, 3]
    draws.shuffle(rng, items)
    assert Counting.calls == 3  # one draw, and a shuffle of 3 draws 2 times


def positions(game_id: str, players: int, games: int, seed: int) -> list[State]:
    """Every position (decisions and chance turns) of ``games`` random games."""
    game = get_game(game_id)
    options = game.resolve_options({})
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.new_state(players, options, game.sample_setup(players, options, rng))
        while state.current_player != TERMINAL:
            out.append(state.clone())
            seat = state.current_player
            state.apply(
                state.sample_chance(rng) if seat == CHANCE else rng.choice(state.legal_moves())
            )
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_playout_equals_the_contract_loop(game_id: str) -> None:
    players = min(get_game(game_id).player_counts)
    everything = positions(game_id, players, 2, seed=5)
    for i, position in enumerate(everything[:: max(1, len(everything) // 40)]):
        fast, loop = position.clone(), position.clone()
        r1, r2 = random.Random(i), random.Random(i)
        fast.playout(r1, draws.randbelow_of(r1))
        State.playout(loop, r2, r2._randbelow)  # the contract's own loop, pure Python
        assert fast.snapshot() == loop.snapshot()
        assert r1.getstate() == r2.getstate()
        assert fast.current_player == TERMINAL


@pytest.mark.slow
def test_libraria_placement_loop_on_a_million_positions() -> None:
    """``place_randomly`` (the loop of Libraria's playout) against the placements of
    ``random_legal_move`` and ``apply_trusted``, from a random position of each of
    many random games, each continuation with a generator of its own, until both have
    passed through a million positions: the same spots, seats and draws."""
    game = get_game("libraria")
    options = game.resolve_options({})
    rng = random.Random(2026)
    checked = games = 0
    while checked < 1_000_000:
        state = game.new_state(2, options, game.sample_setup(2, options, rng))
        for _ in range(rng.randrange(SPOTS)):
            state.apply_trusted(state.random_legal_move(rng._randbelow))
        fast, slow = state.clone(), state.clone()
        r1, r2 = random.Random(games), random.Random(games)
        fast.ply = place_randomly(fast.board, fast._free, fast._order, state.ply, r1._randbelow)
        while slow.ply < SPOTS:
            slow.apply_trusted(slow.random_legal_move(r2._randbelow))
            checked += 1
        assert fast.board == slow.board and fast.ply == slow.ply == SPOTS and not fast._free
        assert r1.random() == r2.random()  # the same number of draws made
        games += 1
