# cython: language_level=3, boundscheck=False, wraparound=False
"""Python's own random draws at C speed: the compiled half of ``simcli/draws.py``.

A ``random.Random`` keeps its Mersenne Twister state in its C object. The functions here
advance that very state with the reference MT19937 step and reproduce what
``Random._randbelow`` and ``Random.shuffle`` return, number for number, so that Python
code and compiled code can share one generator and one sequence of draws; they seed new
generators as ``random.Random(seed)`` does, several at once (three interleaved, or up to 24
in AVX2 vector lanes: a worker seeds the generators of its next games together). The layout of
the object is CPython's (``Modules/_randommodule.c``): :data:`AGREES` says whether the
functions here draw and seed as ``random.Random`` does on this interpreter, and nothing
uses them otherwise (``simcli/draws.py``).
"""

import _random
import random

from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.object cimport PyObject
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy

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


cdef extern from *:
    """
    /* init_by_array for WIDE generators side by side, one in each lane of three vectors
       of eight 32-bit words: AVX2's multiply runs eight of the dependent steps at once.
       GCC on x86-64 glibc builds an AVX2 clone and a plain one, and picks one when the
       module is loaded; the wide path is used only where the AVX2 clone runs (elsewhere
       the 32-bit multiplies are emulated, slower than three generators interleaved:
       simcli_wide_fast). */
    #define SIMCLI_WIDE 24
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) \
        && defined(__GLIBC__)  /* target_clones needs the loader's ifunc */
    typedef uint32_t simcli_v8 __attribute__((vector_size(32)));
    #define SIMCLI_CLONES __attribute__((target_clones("avx2", "default")))
    static int simcli_wide_fast(void)
    {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2");
    }

    /* word i of lane l: simcli_wide_words[i * SIMCLI_WIDE + l] */
    static uint32_t simcli_wide_words[624 * SIMCLI_WIDE];

    #define SIMCLI_LOAD(v, i, k) memcpy(&(v), simcli_wide_words + (i) * SIMCLI_WIDE + 8 * (k), 32)
    #define SIMCLI_STORE(i, k, v) memcpy(simcli_wide_words + (i) * SIMCLI_WIDE + 8 * (k), &(v), 32)
    #define SIMCLI_SPREAD(x) ((x) ^ ((x) >> 30))

    /* one step of lane vector k: the word w mixed into the previous word p of its lanes,
       stored as word i */
    #define SIMCLI_MIX(p, w, mul, add, i, k) \
        do { p = ((w) ^ (SIMCLI_SPREAD(p) * (mul))) + (add); SIMCLI_STORE(i, k, p); } while (0)

    SIMCLI_CLONES
    static void simcli_mix_wide(const uint32_t *genrand, const uint32_t *even, const uint32_t *odd)
    {
        /* The steps of seed_state, lane by lane: even[l] and odd[l] are key[j] + j at
           the even and odd steps j; words 1..623 of each state end in the table. */
        simcli_v8 e0, e1, e2, o0, o1, o2, p0, p1, p2, w0, w1, w2;
        const uint32_t a = 1664525U, b = 1566083941U;
        int i;
        memcpy(&e0, even, 32); memcpy(&e1, even + 8, 32); memcpy(&e2, even + 16, 32);
        memcpy(&o0, odd, 32); memcpy(&o1, odd + 8, 32); memcpy(&o2, odd + 16, 32);
        p0 = p1 = p2 = (simcli_v8){0} + genrand[0];
        for (i = 1; i < 623; i += 2) {
            SIMCLI_MIX(p0, genrand[i], a, e0, i, 0);
            SIMCLI_MIX(p1, genrand[i], a, e1, i, 1);
            SIMCLI_MIX(p2, genrand[i], a, e2, i, 2);
            SIMCLI_MIX(p0, genrand[i + 1], a, o0, i + 1, 0);
            SIMCLI_MIX(p1, genrand[i + 1], a, o1, i + 1, 1);
            SIMCLI_MIX(p2, genrand[i + 1], a, o2, i + 1, 2);
        }
        SIMCLI_MIX(p0, genrand[623], a, e0, 623, 0);
        SIMCLI_MIX(p1, genrand[623], a, e1, 623, 1);
        SIMCLI_MIX(p2, genrand[623], a, e2, 623, 2);
        /* step j = 623, at index 1 again */
        SIMCLI_LOAD(w0, 1, 0); SIMCLI_LOAD(w1, 1, 1); SIMCLI_LOAD(w2, 1, 2);
        SIMCLI_MIX(p0, w0, a, o0, 1, 0);
        SIMCLI_MIX(p1, w1, a, o1, 1, 1);
        SIMCLI_MIX(p2, w2, a, o2, 1, 2);
        for (i = 2; i < 624; i++) {
            SIMCLI_LOAD(w0, i, 0); SIMCLI_LOAD(w1, i, 1); SIMCLI_LOAD(w2, i, 2);
            SIMCLI_MIX(p0, w0, b, -(uint32_t) i, i, 0);
            SIMCLI_MIX(p1, w1, b, -(uint32_t) i, i, 1);
            SIMCLI_MIX(p2, w2, b, -(uint32_t) i, i, 2);
        }
        SIMCLI_LOAD(w0, 1, 0); SIMCLI_LOAD(w1, 1, 1); SIMCLI_LOAD(w2, 1, 2);
        SIMCLI_MIX(p0, w0, b, -1U, 1, 0);
        SIMCLI_MIX(p1, w1, b, -1U, 1, 1);
        SIMCLI_MIX(p2, w2, b, -1U, 1, 2);
    }
    #else  /* elsewhere the generators are mixed three at a time */
    static uint32_t simcli_wide_words[624 * SIMCLI_WIDE];
    static void simcli_mix_wide(const uint32_t *genrand, const uint32_t *even, const uint32_t *odd) {}
    static int simcli_wide_fast(void) { return 0; }
    #endif

    static void simcli_lane_to(uint32_t *state, int lane)
    {
        /* the state of one lane, as seed_state leaves it */
        const uint32_t *word = simcli_wide_words + lane;
        int i;
        state[0] = 0x80000000U;
        for (i = 1; i < 624; i++)
            state[i] = word[i * SIMCLI_WIDE];
    }
    """
    int SIMCLI_WIDE
    int simcli_wide_fast() nogil
    void simcli_mix_wide(const uint32_t *genrand, const uint32_t *even, const uint32_t *odd) nogil
    void simcli_lane_to(uint32_t *state, int lane) nogil


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

    def __cinit__(self, rng):
        self.rng = rng  # keeps the generator alive

    def draw(self, n):
        """``rng._randbelow(n)`` (a bound method: called without an argument tuple)."""
        if type(n) is int and 0 < n < 4294967296:
            return below(<simcli_mt_object *> <PyObject *> self.rng, <uint32_t> n)
        return self.rng._randbelow(n)

    def pick(self, view, moves):
        """``rng.choice(moves)`` for a non-empty ``moves`` (``moves[rng._randbelow(n)]``);
        ``view`` is not read: this is the signature of a strategy's ``choose``, so that a
        uniformly random strategy's ``choose`` can be this very method."""
        cdef Py_ssize_t n
        if type(moves) is list:
            n = PyList_GET_SIZE(moves)
            if 0 < n < 4294967296:
                return <object> PyList_GET_ITEM(
                    moves, below(<simcli_mt_object *> <PyObject *> self.rng, <uint32_t> n)
                )
        elif len(moves):
            return moves[self.draw(len(moves))]
        return self.rng.choice(moves)


def shuffle(rng, list x):
    """``rng.shuffle(x)`` for a list ``x`` (shorter than 2**32)."""
    cdef Py_ssize_t i, j
    cdef simcli_mt_object *mt = <simcli_mt_object *> <PyObject *> rng
    for i in range(len(x) - 1, 0, -1):
        j = below(mt, <uint32_t> (i + 1))
        x[i], x[j] = x[j], x[i]


cdef uint32_t GENRAND[624]


cdef void fill_genrand() noexcept nogil:
    """``init_genrand(19650218)``: the first step of every ``init_by_array``, whatever
    the key."""
    cdef int k
    GENRAND[0] = 19650218U
    for k in range(1, 624):
        GENRAND[k] = 1812433253U * (GENRAND[k - 1] ^ (GENRAND[k - 1] >> 30)) + <uint32_t> k


fill_genrand()


cdef inline uint32_t spread(uint32_t x) noexcept nogil:
    return x ^ (x >> 30)


cdef inline uint32_t mix(uint32_t *mt, int i, uint32_t prev, uint32_t key) noexcept nogil:
    """One step of the first pass of ``init_by_array``: ``key`` is ``key[j] + j``."""
    prev = (mt[i] ^ (spread(prev) * 1664525U)) + key
    mt[i] = prev
    return prev


cdef inline uint32_t remix(uint32_t *mt, int i, uint32_t prev) noexcept nogil:
    """One step of its second pass."""
    prev = (mt[i] ^ (spread(prev) * 1566083941U)) - <uint32_t> i
    mt[i] = prev
    return prev


cdef inline uint32_t odd_key(uint64_t seed) noexcept nogil:
    """``key[j] + j`` at the odd steps j (``seed`` < 2**64): ``key[1] + 1`` for a key of
    two words, ``key[0]`` again for one."""
    return <uint32_t> (seed >> 32) + 1U if seed >> 32 else <uint32_t> seed


cdef void seed_state(simcli_mt_object *rng, uint64_t seed) noexcept nogil:
    """``init_by_array`` with the key CPython's ``random_seed`` makes of ``seed`` < 2**64:
    its 32-bit words from the lowest, one word for 0. The table of ``init_genrand`` is
    copied, then the two mixing passes run over it: 624 steps from index 1 (j counts the
    steps from 0; the index wraps from 623 to 1), then 623 more."""
    cdef uint32_t *mt = rng.state
    cdef uint32_t even = <uint32_t> seed, odd = odd_key(seed)
    cdef uint32_t prev = GENRAND[0]
    cdef int i
    memcpy(mt, GENRAND, sizeof(GENRAND))
    for i in range(1, 623, 2):
        prev = mix(mt, i, prev, even)
        prev = mix(mt, i + 1, prev, odd)
    prev = mix(mt, 623, prev, even)
    prev = mix(mt, 1, prev, odd)  # step j = 623: mt[0] is mt[623], held in prev
    for i in range(2, 624):
        prev = remix(mt, i, prev)
    remix(mt, 1, prev)
    mt[0] = 0x80000000U
    rng.index = 624


cdef void seed_three(simcli_mt_object **rng, uint64_t *seed) noexcept nogil:
    """:func:`seed_state` for three generators at once: their steps interleaved, so that
    the processor runs the three chains of dependent steps side by side."""
    cdef uint32_t *a = rng[0].state
    cdef uint32_t *b = rng[1].state
    cdef uint32_t *c = rng[2].state
    cdef uint32_t a_even = <uint32_t> seed[0], a_odd = odd_key(seed[0])
    cdef uint32_t b_even = <uint32_t> seed[1], b_odd = odd_key(seed[1])
    cdef uint32_t c_even = <uint32_t> seed[2], c_odd = odd_key(seed[2])
    cdef uint32_t pa = GENRAND[0], pb = GENRAND[0], pc = GENRAND[0]
    cdef int i
    memcpy(a, GENRAND, sizeof(GENRAND))
    memcpy(b, GENRAND, sizeof(GENRAND))
    memcpy(c, GENRAND, sizeof(GENRAND))
    for i in range(1, 623, 2):
        pa = mix(a, i, pa, a_even)
        pb = mix(b, i, pb, b_even)
        pc = mix(c, i, pc, c_even)
        pa = mix(a, i + 1, pa, a_odd)
        pb = mix(b, i + 1, pb, b_odd)
        pc = mix(c, i + 1, pc, c_odd)
    pa = mix(a, 1, mix(a, 623, pa, a_even), a_odd)
    pb = mix(b, 1, mix(b, 623, pb, b_even), b_odd)
    pc = mix(c, 1, mix(c, 623, pc, c_even), c_odd)
    for i in range(2, 624):
        pa = remix(a, i, pa)
        pb = remix(b, i, pb)
        pc = remix(c, i, pc)
    remix(a, 1, pa)
    remix(b, 1, pb)
    remix(c, 1, pc)
    a[0] = b[0] = c[0] = 0x80000000U
    rng[0].index = rng[1].index = rng[2].index = 624


cdef object Random = random.Random
cdef object new_random = random.Random.__new__
cdef object seed_random = _random.Random.seed


def seeded_random(seed):
    """``random.Random(seed)`` for an int ``seed``: the same state, the same stream and no
    Gaussian pending. A seed 0 <= seed < 2**53 is mixed here; any other goes through
    ``random.Random``'s own seeding."""
    rng = new_random(Random)
    if mixable(seed):
        seed_state(<simcli_mt_object *> <PyObject *> rng, <uint64_t> seed)
    else:
        seed_random(rng, seed)
    rng.gauss_next = None
    return rng


cdef inline bint mixable(seed):
    return type(seed) is int and 0 <= seed < 9007199254740992


cdef enum:
    WIDE = 24  # SIMCLI_WIDE, for the arrays below (checked equal at load)


#: Whether :func:`seeded_randoms` mixes five or more generators in vector lanes (the AVX2
#: clone of the kernel is built and runs here), rather than three at a time.
WIDE_LANES = bool(simcli_wide_fast())
cdef bint _wide = WIDE_LANES
assert SIMCLI_WIDE == WIDE


def _use_wide(flag):
    """Mix in vector lanes (``True``, where :data:`WIDE_LANES`) or three at a time: for
    the tests, which seed both ways on a machine with the lanes."""
    global _wide
    _wide = bool(flag) and WIDE_LANES


cdef void seed_wide(simcli_mt_object **rng, uint64_t *seed, int n) noexcept nogil:
    """:func:`seed_state` for ``n`` <= ``WIDE`` generators at once, one to a vector lane
    (the lanes left over are mixed for nothing)."""
    cdef uint32_t even[WIDE]
    cdef uint32_t odd[WIDE]
    cdef int lane
    for lane in range(WIDE):
        even[lane] = <uint32_t> seed[lane] if lane < n else 0
        odd[lane] = odd_key(seed[lane]) if lane < n else 0
    simcli_mix_wide(GENRAND, even, odd)
    for lane in range(n):
        simcli_lane_to(rng[lane].state, lane)
        rng[lane].index = 624


# From this many generators on, seeded_randoms mixes them in vector lanes: about the time
# of six generators mixed three at a time, whatever their number up to 24 (measured)
cdef int WIDE_FROM = 5


cdef void seed_some(simcli_mt_object **rng, uint64_t *seed, int n) noexcept nogil:
    """:func:`seed_state` for ``n`` <= ``WIDE`` generators, the fastest way here."""
    cdef int lane = 0
    if _wide and n >= WIDE_FROM:
        seed_wide(rng, seed, n)
        return
    while lane + 3 <= n:
        seed_three(rng + lane, seed + lane)
        lane += 3
    while lane < n:
        seed_state(rng[lane], seed[lane])
        lane += 1


def seeded_randoms(seeds):
    """``[seeded_random(seed) for seed in seeds]``, the seeds that are mixed here several
    at a time: up to 24 in vector lanes (:data:`WIDE_LANES`), or three in the time of
    one."""
    cdef simcli_mt_object *rng[WIDE]
    cdef uint64_t key[WIDE]
    cdef int lanes = 0
    out = []
    for seed in seeds:
        if not mixable(seed):
            out.append(seeded_random(seed))
            continue
        made = new_random(Random)
        made.gauss_next = None
        out.append(made)
        rng[lanes] = <simcli_mt_object *> <PyObject *> made
        key[lanes] = <uint64_t> seed
        lanes += 1
        if lanes == WIDE:
            seed_some(rng, key, lanes)
            lanes = 0
    seed_some(rng, key, lanes)
    return out


def _seeds_agree():
    """Whether :func:`seeded_random` gives ``random.Random(seed)`` here, and
    :func:`seeded_randoms` the same generators, for seeds of one and two words and seeds
    left to ``random.Random``: the whole state for one seed, and for every seed the type,
    the empty Gaussian slot and the next 624 outputs (the first twist reads every word)."""
    sample = random.Random(20261203)
    seeds = [0, 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**53 - 1, 2**53, -5]
    seeds += [sample.getrandbits(bits) for bits in (16, 32, 33, 53) for _ in range(2)]
    if seeded_random(2**53 - 1).getstate() != random.Random(2**53 - 1).getstate():
        return False
    expected = [random.Random(seed).getrandbits(19968) for seed in seeds]
    for rngs in ([seeded_random(seed) for seed in seeds], seeded_randoms(seeds)):
        if any(type(rng) is not Random or rng.gauss_next is not None for rng in rngs):
            return False
        if [rng.getrandbits(19968) for rng in rngs] != expected:
            return False
    return True


def _agrees():
    """Whether :class:`Below` (``draw`` and ``pick``) and :func:`shuffle` draw what
    ``random.Random`` draws here (bounds across the 32 bits, choices, a shuffle, and the
    state afterwards), and
    :func:`seeded_random` seeds as it does."""
    if not _seeds_agree():
        return False
    ours, theirs = random.Random(20261203), random.Random(20261203)
    below = Below(ours).draw
    for n in (1, 2, 3, 5, 36, 1000, 2**16 + 1, 2**31, 2**32 - 1) * 300:
        if below(n) != theirs._randbelow(n):
            return False
    pick = Below(ours).pick
    for n in (1, 2, 3, 36, 1000) * 50:
        if pick(None, list(range(n))) != theirs.choice(range(n)):
            return False
    a, b = list(range(50)), list(range(50))
    shuffle(ours, a)
    theirs.shuffle(b)
    return a == b and ours.getstate() == theirs.getstate()


#: Checked once, when the module is loaded.
AGREES = _agrees()
