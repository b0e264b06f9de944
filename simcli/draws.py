"""Random draws for the engines' hot loops: ``rng._randbelow`` and ``rng.shuffle``, at C
speed where the compiled path is built.

:func:`randbelow_of` and :func:`shuffle` give exactly what ``random.Random`` gives (the
same numbers, the same state of the generator afterwards), so that records do not depend
on the path. The compiled half (``simcli/_mt.pyx``) advances the generator's own
Mersenne Twister state; it is used only for a plain ``random.Random`` (a subclass may
draw differently), only when the engines are not forced pure (``SIMCLI_PURE=1``), and
only when it has compared itself with ``random.Random`` on this interpreter (its ``AGREES``).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import ModuleType

from simcli import native

KERNEL = "simcli._mt"


def _load() -> ModuleType | None:
    """The compiled kernel, or None: not built, stale, forced pure, or not agreeing."""
    if not native.kernel_current(KERNEL):
        return None
    try:
        kernel = importlib.import_module(KERNEL)
    except ImportError:
        return None
    return kernel if kernel.AGREES else None


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
