# cython: language_level=3, boundscheck=False, wraparound=False
"""Python's own random draws at C speed: the compiled half of ``simcli/draws.py``.

A ``random.Random`` keeps its Mersenne Twister state in its C object. The functions here
advance that very state with the reference MT19937 step and reproduce what
``Random._randbelow`` and ``Random.shuffle`` return, number for number, so that Python
code and compiled code can share one generator and one sequence of draws. The layout of
the object is CPython's (``Modules/_randommodule.c``): :data:`AGREES` says whether the
functions here draw what ``random.Random`` draws on this interpreter, and nothing uses
them otherwise (``simcli/draws.py``).
"""

import random

from cpython.object cimport PyObject
from libc.stdint cimport uint32_t

cdef extern from *:
    """
    typedef struct {
        PyObject_HEAD
        int index;
        uint32_t state[624];
    } simcli_mt_object;
    """
    ctypedef struct simcli_mt_object:
        int index
        uint32_t state[624]


cdef inline uint32_t next32(simcli_mt_object *rng) noexcept nogil:
    """The next 32-bit output of MT19937 (Matsumoto and Nishimura, 1998)."""
    cdef uint32_t *mt = rng.state
    cdef uint32_t y
    cdef int k
    if rng.index >= 624:
        for k in range(624 - 397):
            y = (mt[k] & 0x80000000U) | (mt[k + 1] & 0x7fffffffU)
            mt[k] = mt[k + 397] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        for k in range(624 - 397, 623):
            y = (mt[k] & 0x80000000U) | (mt[k + 1] & 0x7fffffffU)
            mt[k] = mt[k + 397 - 624] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU)
        mt[623] = mt[396] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        rng.index = 0
    y = mt[rng.index]
    rng.index += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680U
    y ^= (y << 15) & 0xefc60000U
    y ^= y >> 18
    return y


cdef inline int bit_length(uint32_t n) noexcept nogil:
    cdef int k = 0
    while n:
        n >>= 1
        k += 1
    return k


cdef inline uint32_t below(simcli_mt_object *rng, uint32_t n) noexcept nogil:
    """``Random._randbelow_with_getrandbits(n)`` for 1 <= n < 2**32: ``getrandbits(k)``
    (the top ``k`` bits of one output) until it is below ``n``."""
    cdef int shift = 32 - bit_length(n)
    cdef uint32_t r = next32(rng) >> shift
    while r >= n:
        r = next32(rng) >> shift
    return r


cdef class Below:
    """Draws of one ``random.Random`` as its ``_randbelow`` makes them: the same numbers,
    the same state."""

    cdef object rng
    cdef object fallback

    def __cinit__(self, rng):
        self.rng = rng  # keeps the generator alive
        self.fallback = rng._randbelow

    def draw(self, n):
        """``rng._randbelow(n)`` (a bound method: called without an argument tuple)."""
        if type(n) is int and 0 < n < 4294967296:
            return below(<simcli_mt_object *> <PyObject *> self.rng, <uint32_t> n)
        return self.fallback(n)


def shuffle(rng, list x):
    """``rng.shuffle(x)`` for a list ``x`` (shorter than 2**32)."""
    cdef Py_ssize_t i, j
    cdef simcli_mt_object *mt = <simcli_mt_object *> <PyObject *> rng
    for i in range(len(x) - 1, 0, -1):
        j = below(mt, <uint32_t> (i + 1))
        x[i], x[j] = x[j], x[i]


def _agrees():
    """Whether :class:`Below` and :func:`shuffle` draw what ``random.Random`` draws here
    (bounds across the 32 bits, a shuffle, and the state afterwards)."""
    ours, theirs = random.Random(20261203), random.Random(20261203)
    below = Below(ours).draw
    for n in (1, 2, 3, 5, 36, 1000, 2**16 + 1, 2**31, 2**32 - 1) * 300:
        if below(n) != theirs._randbelow(n):
            return False
    a, b = list(range(50)), list(range(50))
    shuffle(ours, a)
    theirs.shuffle(b)
    return a == b and ours.getstate() == theirs.getstate()


#: Checked once, when the module is loaded.
AGREES = _agrees()
