"""Seeds derived from a root seed and a path of labels, stable on every machine.

``hashlib`` (never Python's salted ``hash``) turns the parts into a 53-bit integer: small
enough to survive any JSON reader (JavaScript numbers are exact below 2**53).
"""

from __future__ import annotations

import hashlib
import random

SEED_BITS = 53


def derive_seed(root: int, *parts: object) -> int:
    text = "/".join([str(int(root)), *map(str, parts)])
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def chance_rng(game_seed: int) -> random.Random:
    """The RNG of the game itself: setup and chance events."""
    return random.Random(derive_seed(game_seed, "chance"))


def seat_rng(game_seed: int, seat: int) -> random.Random:
    """The RNG of the strategy sitting in ``seat``."""
    return random.Random(derive_seed(game_seed, "seat", seat))
