"""Random draws for the engines' hot loops: ``rng._randbelow`` and ``rng.shuffle``, at C
speed where the compiled path is built.

:func:`randbelow_of` and :func:`shuffle` give exactly what ``random.Random`` gives (the
same numbers, the same state of the generator afterwards), so that records do not depend
on the path. The compiled half (``simcli/_mt.pyx``) advances the generator's own
Mersenne Twister state; it is used only for a plain ``random.Random`` (a subclass may
draw differently), only when the engines are not forced pure (``SIMCLI_PURE=1``), and
only after :func:`_agrees` has compared it with ``random.Random`` on this interpreter.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import ModuleType

from simcli import native

KERNEL = "simcli._mt"


def _agrees(kernel: ModuleType) -> bool:
    """Whether the kernel draws what ``random.Random`` draws here (bounds across the 32
    bits, a shuffle, and the state afterwards)."""
    ours, theirs = random.Random(20261203), random.Random(20261203)
    below = kernel.Below(ours).draw
    for n in (1, 2, 3, 5, 36, 1000, 2**16 + 1, 2**31, 2**32 - 1) * 300:
        if below(n) != theirs._randbelow(n):
            return False
    a, b = list(range(50)), list(range(50))
    kernel.shuffle(ours, a)
    theirs.shuffle(b)
    return a == b and ours.getstate() == theirs.getstate()


def _load() -> ModuleType | None:
    """The compiled kernel, or None: not built, stale, forced pure, or not agreeing."""
    if not native.kernel_current(KERNEL):
        return None
    try:
        kernel = importlib.import_module(KERNEL)
    except ImportError:
        return None
    return kernel if _agrees(kernel) else None


_KERNEL = _load()


def compiled() -> bool:
    """Whether the compiled draws are in use."""
    return _KERNEL is not None


def randbelow_of(rng: random.Random) -> Callable[[int], int]:
    """A function equal to ``rng._randbelow`` (``randrange(n)`` without its checks)."""
    if _KERNEL is not None and type(rng) is random.Random:
        return _KERNEL.Below(rng).draw
    return getattr(rng, "_randbelow", None) or rng.randrange


def shuffle(rng: random.Random, items: list) -> None:
    """``rng.shuffle(items)``."""
    if _KERNEL is not None and type(rng) is random.Random and type(items) is list:
        _KERNEL.shuffle(rng, items)
    else:
        rng.shuffle(items)
