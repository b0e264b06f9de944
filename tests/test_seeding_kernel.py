"""The seeding of the per-game generators: compiled or pure, ``draws.seeded_random`` is
``random.Random(seed)``, state for state and draw for draw, and every seed of a path of
labels (``seeding.path_seed``, ``seeding.game_seeds``) is the BLAKE2b hash ``hashlib``
gives."""

from __future__ import annotations

import hashlib
import importlib
import os
import random
from collections.abc import Callable
from types import ModuleType

import pytest

from simcli import draws, native, seeding

# The edges of the key CPython makes of a seed (one 32-bit word up to 2**32 - 1, two words
# up to the 53 bits of a path seed), and seeds of every length drawn from a fixed generator.
_SAMPLE = random.Random(1234)
SEEDS = [0, 1, 2, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**52, 2**53 - 1]
SEEDS += [_SAMPLE.getrandbits(bits) for bits in range(1, 54) for _ in range(2)]
# Seeds the compiled mixing leaves to random.Random's own seeding.
OTHER_SEEDS = [-1, -(2**40), 2**53, 2**64 + 3, 2**200 + 1, True]


def _kernel(name: str = draws.KERNEL) -> ModuleType:
    """The compiled kernel ``name``, where it is built from its current source (also under
    SIMCLI_PURE=1, which only keeps the engines from using it)."""
    if name not in native.select().current:
        if os.environ.get("SIMCLI_REQUIRE_COMPILED", "") not in ("", "0"):
            pytest.fail(f"{name} is not built from its current source")
        pytest.skip(f"{name} is not built from its current source")
    return importlib.import_module(name)


def _kernel_seeded_random() -> Callable[[int], random.Random]:
    return _kernel().seeded_random


def _assert_is_random_random(fast: random.Random, seed: int) -> None:
    slow = random.Random(seed)
    assert type(fast) is random.Random
    assert fast.getstate() == slow.getstate()
    assert fast.gauss_next is None
    assert [fast.getrandbits(32) for _ in range(700)] == [slow.getrandbits(32) for _ in range(700)]
    assert fast.gauss(0, 1) == slow.gauss(0, 1)


def test_the_reference_stream_is_pinned() -> None:
    # Python's documented generator: random.Random(0).random() on every CPython since 3.2.
    assert seeding.seeded_random(0).random() == 0.8444218515250481


@pytest.mark.parametrize("name", ["active", "pure", "compiled"])
def test_every_path_seeds_as_random_random(name: str) -> None:
    seeded = {
        "active": lambda: seeding.seeded_random,
        "pure": lambda: draws._seeded_random,
        "compiled": _kernel_seeded_random,
    }[name]()
    for seed in SEEDS + OTHER_SEEDS:
        _assert_is_random_random(seeded(seed), seed)


def test_the_compiled_seeding_writes_the_whole_state() -> None:
    """Two seeds in a row and a seed after a generator's draws: nothing of an earlier
    state is left in the table or the index."""
    seeded = _kernel_seeded_random()
    for seed in (2**53 - 1, 0, 2**32 + 5, 7):
        rng = seeded(seed)
        assert rng.getstate()[1][-1] == 624  # the index: the next draw twists
        assert rng.getstate()[1][0] == 0x80000000
        _assert_is_random_random(rng, seed)


def test_the_seeding_in_use_is_the_compiled_one_where_the_draws_are() -> None:
    expected = draws._KERNEL.seeded_random if draws.compiled() else draws._seeded_random
    assert seeding.seeded_random is draws.seeded_random is expected
    if native.select().forced:
        assert draws.seeded_random is draws._seeded_random


def test_the_game_generators_use_it() -> None:
    seed = 2**52 + 99
    chance = seeding.path_seed(f"{seed}/chance")
    seat = seeding.path_seed(f"{seed}/seat/1")
    assert seeding.chance_rng(seed).getstate() == random.Random(chance).getstate()
    assert seeding.seat_rng(seed, 1).getstate() == random.Random(seat).getstate()
    event = seeding.derive_seed(seed, "deal", 3)
    assert seeding.event_random(seed, "deal", 3).getstate() == random.Random(event).getstate()


@pytest.mark.parametrize("name", ["active", "pure", "compiled"])
def test_a_batch_is_seeded_as_one_by_one(name: str) -> None:
    """Batches of every length up to 7 (three at a time, and what is left one by one),
    with a seed left to random.Random's own seeding in the middle of a group of three."""
    seeded = {
        "active": lambda: draws.seeded_randoms,
        "pure": lambda: draws._seeded_randoms,
        "compiled": lambda: _kernel().seeded_randoms,
    }[name]()
    seeds = SEEDS[-7:]
    for count in range(8):
        batch = seeds[:count]
        rngs = seeded(iter(batch))
        assert [rng.getstate() for rng in rngs] == [random.Random(s).getstate() for s in batch]
    mixed = [SEEDS[0], -7, SEEDS[-1], 2**53, SEEDS[5]]
    rngs = seeded(mixed)
    for rng, seed in zip(rngs, mixed, strict=True):
        _assert_is_random_random(rng, seed)


@pytest.mark.parametrize("name", ["active", "pure", "compiled", "compiled, three at a time"])
def test_wide_batches_are_seeded_as_one_by_one(name: str) -> None:
    """Batches long enough for the vector lanes (from 5 generators; 24 a pass), at every
    length across two passes and a remainder, each lane with its own seed; and seeds left
    to random.Random's own seeding among them. The compiled kernel both ways: in vector
    lanes where the machine has them, and three at a time."""
    wide = name != "compiled, three at a time"
    seeded = {
        "active": lambda: draws.seeded_randoms,
        "pure": lambda: draws._seeded_randoms,
        "compiled": lambda: _kernel().seeded_randoms,
        "compiled, three at a time": lambda: _kernel().seeded_randoms,
    }[name]()
    if name.startswith("compiled"):
        _kernel()._use_wide(wide)
    try:
        for count in (5, 6, 9, 23, 24, 25, 47, 48, 53):
            batch = (SEEDS * 2)[3 * count : 4 * count]  # a different slice for each length
            rngs = seeded(batch)
            expected = [random.Random(s).getstate() for s in batch]
            assert [rng.getstate() for rng in rngs] == expected
        mixed = SEEDS[:10] + [-7, 2**53] + SEEDS[10:30] + [2**64 + 3] + SEEDS[30:35]
        rngs = seeded(mixed)
        for rng, seed in zip(rngs, mixed, strict=True):
            _assert_is_random_random(rng, seed)
    finally:
        if name.startswith("compiled"):
            _kernel()._use_wide(True)


def test_the_generators_of_many_games_are_each_games_own() -> None:
    """many_game_rngs: for games of different sizes, each game's generators are the ones
    game_rngs makes alone, fresh."""
    games = [(2**40 + 3, 4), (7, 2), (2**52 + 1, 1), (99, 3), (5, 0), (123456789, 2)] * 3
    made = seeding.many_game_rngs(games)
    assert len(made) == len(games)
    for (seed, players), (chance, seats) in zip(games, made, strict=True):
        alone, alone_seats = seeding.game_rngs(seed, players)
        assert chance.getstate() == alone.getstate()
        assert [rng.getstate() for rng in seats] == [rng.getstate() for rng in alone_seats]
    assert len({id(rng) for chance, seats in made for rng in [chance, *seats]}) == sum(
        1 + players for _, players in games
    )
    assert seeding.many_game_rngs([]) == []


def test_the_generators_of_a_game_are_its_chance_and_seat_ones() -> None:
    chance, seats = seeding.game_rngs(2**40 + 3, 4)
    assert chance.getstate() == seeding.chance_rng(2**40 + 3).getstate()
    assert len(seats) == 4
    for seat, rng in enumerate(seats):
        assert rng.getstate() == seeding.seat_rng(2**40 + 3, seat).getstate()
    assert seeding.game_rngs(5, 0)[1] == []


def _hashlib_seed(path: str) -> int:
    """What a path seed is (docs/records.md): BLAKE2b with an 8-byte digest of the path's
    UTF-8 bytes, big-endian, cut to 53 bits; through hashlib, not the code under test."""
    return int.from_bytes(hashlib.blake2b(path.encode(), digest_size=8).digest(), "big") >> 11


# Paths of every length across three 128-byte blocks (a block's edges among them), and
# text of one to four UTF-8 bytes a character, drawn from a fixed generator.
_TEXT = random.Random(77)
PATHS = ["", "0/chance", "7/seat/1", "-3/v:é/round/0"]
PATHS += ["y" * n for n in (1, 63, 64, 111, 112, 127, 128, 129, 255, 256, 257, 384, 1000)]
PATHS += [
    "".join(
        chr(_TEXT.choice([0x41, 0xE9, 0x20AC, 0x1F600]) + _TEXT.randrange(20)) for _ in range(n)
    )
    for n in range(0, 140, 7)
]


def _seeding(name: str, attr: str) -> Callable[..., object]:
    """``seeding``'s function ``attr``: the one in use (``active``), the pure one, or the
    compiled kernel's."""
    if name == "active":
        return getattr(seeding, attr)
    if name == "pure":
        return getattr(seeding, "_" + attr)
    return getattr(_kernel(seeding.KERNEL), attr)


@pytest.mark.parametrize("name", ["active", "pure", "compiled"])
def test_every_path_seed_is_blake2b_of_the_path(name: str) -> None:
    seed_of = _seeding(name, "path_seed")
    assert [seed_of(path) for path in PATHS] == [_hashlib_seed(path) for path in PATHS]
    # pinned, so that a change to both ways would show: derive_seed(7, "seat", 1)
    assert seed_of("7/seat/1") == 1854167874662482 == seeding.derive_seed(7, "seat", 1)
    with pytest.raises(UnicodeEncodeError):  # a lone surrogate has no UTF-8, as in str.encode
        seed_of("7/\ud800")

    class Label(str):
        pass

    assert seed_of(Label("7/seat/1")) == 1854167874662482  # a str subclass hashes as its text
    with pytest.raises(AttributeError):  # what path.encode() raises for anything else
        seed_of(None)


@pytest.mark.parametrize("name", ["active", "pure", "compiled"])
def test_the_seeds_of_a_game_are_its_chance_and_seat_paths(name: str) -> None:
    seeds_of = _seeding(name, "game_seeds")
    # 53-bit game seeds, 0, negative, and one too long for the kernel's buffer
    for game_seed in (0, 1, 2**53 - 1, 5441932115276537, -12, 10**60 + 1):
        for players in range(0, 12):
            paths = [f"{game_seed}/chance", *(f"{game_seed}/seat/{s}" for s in range(players))]
            assert seeds_of(game_seed, players) == [_hashlib_seed(path) for path in paths]
    with pytest.raises(TypeError):  # a count of seats is an int, on every path
        seeds_of(5, 2.0)


def test_the_seeding_in_use_is_the_compiled_one_where_it_is_built() -> None:
    current = seeding.KERNEL in native.select().current and not native.select().forced
    assert (seeding.path_seed is not seeding._path_seed) == current
    assert (seeding.game_seeds is not seeding._game_seeds) == current
