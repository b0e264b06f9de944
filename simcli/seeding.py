"""Seeds derived from a root seed and a path of labels, stable on every machine.

``hashlib`` (never Python's salted ``hash``) turns the parts into a 53-bit integer: small
enough to survive any JSON reader (JavaScript numbers are exact below 2**53).
"""

from __future__ import annotations

import random
from hashlib import blake2b

from simcli import draws, native

SEED_BITS = 53
_SHIFT = 64 - SEED_BITS
#: BLAKE2b with an 8-byte digest, of nothing yet: a copy of it is cheaper to make than a
#: new one (no parameters to read), and is the same hash.
_EMPTY_DIGEST = blake2b(digest_size=8)
#: The compiled path seed (``simcli/_seedhash.pyx``), or ``None`` (see ``native.py``).
KERNEL = "simcli._seedhash"
_KERNEL = native.load_kernel(KERNEL)


def derive_seed(root: int, *parts: object) -> int:
    return path_seed("/".join([str(int(root)), *map(str, parts)]))


def _path_seed(path: str) -> int:
    digest = _EMPTY_DIGEST.copy()
    digest.update(path.encode())
    return int.from_bytes(digest.digest(), "big") >> _SHIFT


#: The seed of a path of labels already joined (``"7/seat/1"``): what :func:`derive_seed`
#: gives for its parts (``derive_seed(7, "seat", 1)``). The compiled one hashes without a
#: hash object: the same seeds, about four times a game.
path_seed = _KERNEL.path_seed if _KERNEL is not None else _path_seed


#: ``random.Random(seed)`` for an int ``seed``, without the Python-level ``__init__`` and
#: ``seed`` wrappers, and compiled where the draws are: three of these are made per game.
#: Same state, same stream (``simcli/draws.py``).
seeded_random = draws.seeded_random


def chance_rng(game_seed: int) -> random.Random:
    """The RNG of the game itself: setup and chance events."""
    # derive_seed(game_seed, "chance"), without the generic join (tests pin the equality)
    return seeded_random(path_seed(f"{int(game_seed)}/chance"))


def seat_rng(game_seed: int, seat: int) -> random.Random:
    """The RNG of the strategy sitting in ``seat``."""
    # derive_seed(game_seed, "seat", seat), without the generic join (tests pin the equality)
    return seeded_random(path_seed(f"{int(game_seed)}/seat/{int(seat)}"))


def event_random(key: int, kind: str, occurrence: int) -> random.Random:
    """The RNG of one chance event: the ``occurrence``-th event of ``kind`` (0 first) of
    the game whose chance events have the key ``key`` (see ``games/chance.py``)."""
    return seeded_random(derive_seed(key, kind, occurrence))


def game_rngs(game_seed: int, players: int) -> tuple[random.Random, list[random.Random]]:
    """``chance_rng(game_seed)`` and the ``seat_rng(game_seed, seat)`` of every seat, made
    together: where the draws are compiled, three generators are seeded in about the time
    of one."""
    chance, *seats = draws.seeded_randoms(game_seeds(game_seed, players))
    return chance, seats


#: Generators :func:`many_game_rngs` seeds at once: as many as the compiled draws mix side
#: by side (``simcli/_mt.pyx``), about four times as fast a generator as one game's three.
BATCH_RNGS = 24


def many_game_rngs(
    games: list[tuple[int, int]],
) -> list[tuple[random.Random, list[random.Random]]]:
    """``[game_rngs(seed, players) for seed, players in games]``, seeded together."""
    seeds: list[int] = []
    for seed, players in games:
        seeds += game_seeds(seed, players)
    made = draws.seeded_randoms(seeds)
    out = []
    at = 0
    for _, players in games:
        out.append((made[at], made[at + 1 : at + 1 + players]))
        at += 1 + players
    return out


def _game_seeds(game_seed: int, players: int) -> list[int]:
    game = int(game_seed)
    paths = [f"{game}/chance", *(f"{game}/seat/{seat}" for seat in range(players))]
    return [path_seed(path) for path in paths]


#: The seeds :func:`game_rngs` seeds: ``derive_seed(game_seed, "chance")``, then
#: ``derive_seed(game_seed, "seat", seat)`` for every seat (compiled: the paths written in
#: C, without Python strings).
game_seeds = _KERNEL.game_seeds if _KERNEL is not None else _game_seeds
