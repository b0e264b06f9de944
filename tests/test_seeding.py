"""Seeds and the per-game RNGs: stable values, and the fast constructor is exactly
``random.Random(seed)``."""

from __future__ import annotations

import hashlib
import random

import pytest

from simcli.seeding import SEED_BITS, chance_rng, derive_seed, seat_rng, seeded_random


@pytest.mark.parametrize("seed", [0, 1, 2, 12345, 2**32 - 1, 2**32, 2**53 - 1, 7 * 10**15])
def test_seeded_random_is_random_random(seed: int) -> None:
    fast, slow = seeded_random(seed), random.Random(seed)
    assert type(fast) is random.Random
    assert fast.getstate() == slow.getstate()
    assert [fast.random() for _ in range(50)] == [slow.random() for _ in range(50)]
    assert fast.gauss(0, 1) == slow.gauss(0, 1)  # gauss_next starts empty in both
    assert fast.gauss(0, 1) == slow.gauss(0, 1)


def test_derive_seed_is_blake2b_of_the_path() -> None:
    # By hand: the path "7/seat/1", BLAKE2b with an 8-byte digest, top 53 bits.
    digest = hashlib.blake2b(b"7/seat/1", digest_size=8).digest()
    assert derive_seed(7, "seat", 1) == int.from_bytes(digest, "big") >> (64 - SEED_BITS)
    assert 0 <= derive_seed(7, "seat", 1) < 2**SEED_BITS
    assert derive_seed(7, "seat", 1) != derive_seed(7, "seat", 0)


def test_game_rngs_are_seeded_from_their_labels() -> None:
    assert chance_rng(99).getstate() == random.Random(derive_seed(99, "chance")).getstate()
    assert seat_rng(99, 1).getstate() == random.Random(derive_seed(99, "seat", 1)).getstate()
