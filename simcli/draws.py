"""Random draws for the engines' hot loops: ``rng._randbelow``, ``rng.choice`` and
``rng.shuffle``, and the seeding of the per-game generators, at C speed where the compiled
path is built.

:func:`randbelow_of`, :func:`picker_of`, :func:`shuffle`, :func:`seeded_random` and
:func:`seeded_randoms` give exactly what ``random.Random`` gives (the same numbers, the
same state of the generator afterwards), so that records do not depend on the path. The
compiled half (``simcli/_mt.pyx``) reads and writes the generator's own Mersenne Twister
state; it draws only for a plain ``random.Random`` (a subclass may draw differently), and
is used only when the engines are not forced pure (``SIMCLI_PURE=1``) and when it has
compared itself with ``random.Random`` on this interpreter (its ``AGREES``).
"""

from __future__ import annotations

import _random
import random
from collections.abc import Callable, Iterable

from simcli import native

KERNEL = "simcli._mt"


_KERNEL = native.load_kernel(KERNEL)


def compiled() -> bool:
    """Whether the compiled draws are in use."""
    return _KERNEL is not None


def randbelow_of(rng: random.Random) -> Callable[[int], int]:
    """A function equal to ``rng._randbelow`` (``randrange(n)`` without its checks)."""
    if _KERNEL is not None and type(rng) is random.Random:
        return _KERNEL.Below(rng).draw
    return getattr(rng, "_randbelow", None) or rng.randrange


def picker_of(rng: random.Random) -> Callable[[object, list], object] | None:
    """A function ``(view, moves) -> rng.choice(moves)`` drawing at C speed (the signature
    of a strategy's ``choose``), or ``None`` where the draws are not compiled."""
    if _KERNEL is not None and type(rng) is random.Random:
        return _KERNEL.Below(rng).pick
    return None


def shuffle(rng: random.Random, items: list) -> None:
    """``rng.shuffle(items)``."""
    if _KERNEL is not None and type(rng) is random.Random and type(items) is list:
        _KERNEL.shuffle(rng, items)
    else:
        rng.shuffle(items)


def _seeded_random(seed: int) -> random.Random:
    """``random.Random(seed)`` without the Python-level ``__init__`` and ``seed`` wrappers."""
    rng = random.Random.__new__(random.Random)
    _random.Random.seed(rng, seed)
    rng.gauss_next = None
    return rng


#: ``random.Random(seed)`` for an int ``seed``: the same state, the same stream, no Gaussian
#: pending. The compiled one mixes a seed below 2**53 from a table computed once.
seeded_random: Callable[[int], random.Random] = (
    _KERNEL.seeded_random if _KERNEL is not None else _seeded_random
)


def _seeded_randoms(seeds: Iterable[int]) -> list[random.Random]:
    return [_seeded_random(seed) for seed in seeds]


#: ``[seeded_random(seed) for seed in seeds]``; the compiled one seeds three generators in
#: about the time of one, and up to 24 at once in vector lanes where it has them.
seeded_randoms: Callable[[Iterable[int]], list[random.Random]] = (
    _KERNEL.seeded_randoms if _KERNEL is not None else _seeded_randoms
)
