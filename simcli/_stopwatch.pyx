# cython: language_level=3
"""A seat's think times at C speed: the compiled half of ``simcli/tournament/think.py``'s
:class:`SeatClock`.

The referee times every decision of an in-process strategy in whole nanoseconds of
``time.perf_counter_ns``'s clock, from just before its ``choose`` is called until its
answer has been checked. Read from Python, that is two calls that each make an integer
of some 10**12 nanoseconds, a subtraction and an append: about a twentieth of a game of
random Libraria self-play. This :class:`SeatClock` reads the same clock and keeps each
decision's length in C until ``times`` is read, once a game.

Where the kernel itself keeps that clock on the processor's time-stamp counter (Linux's
clock source ``tsc``, an invariant counter: one rate on every core, whatever the power
state), the decisions are read from the counter directly (``rdtsc``, a few nanoseconds
where ``clock_gettime`` takes about twenty) and turned into nanoseconds when ``times``
is read, at the counter's rate measured against ``clock_gettime`` since the module was
loaded. Elsewhere it reads ``clock_gettime(CLOCK_MONOTONIC)``. :data:`AGREES` says
whether ``perf_counter`` reads that clock on this interpreter and this class times as
the Python one does; nothing uses it otherwise (``think.py``).
"""

import time

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from libc.stdint cimport int64_t, uint64_t

cdef extern from "<time.h>" nogil:
    ctypedef long time_t
    struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clock, timespec *now)
    int CLOCK_MONOTONIC

cdef extern from *:
    """
    #if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    #include <cpuid.h>
    #include <x86intrin.h>
    static inline unsigned long long simcli_ticks(void) { return __rdtsc(); }
    static int simcli_invariant_tsc(void)
    {
        unsigned int a, b, c, d;
        if (__get_cpuid_max(0x80000000U, 0) < 0x80000007U)
            return 0;
        __cpuid(0x80000007U, a, b, c, d);
        return (d >> 8) & 1U;  /* invariant TSC */
    }
    #else
    static inline unsigned long long simcli_ticks(void) { return 0; }
    static int simcli_invariant_tsc(void) { return 0; }
    #endif
    """
    unsigned long long simcli_ticks() nogil
    int simcli_invariant_tsc() nogil


cdef inline int64_t now_ns() noexcept nogil:
    cdef timespec reading
    clock_gettime(CLOCK_MONOTONIC, &reading)
    return <int64_t> reading.tv_sec * 1000000000 + reading.tv_nsec


def _clock_source():
    """Linux's current clock source, or ``""``."""
    try:
        with open("/sys/devices/system/clocksource/clocksource0/current_clocksource") as f:
            return f.read().strip()
    except OSError:
        return ""


#: Whether decisions are read from the time-stamp counter (see the module's doc).
COUNTER = bool(simcli_invariant_tsc()) and _clock_source() == "tsc"
cdef bint _counter = COUNTER
cdef int64_t _base_ns = 0
cdef uint64_t _base_ticks = 0
cdef double _load_rate = 1.0


cdef void paired(int64_t *ns, uint64_t *ticks) noexcept nogil:
    """The clock and the counter read together: of five tries, the one whose counter
    readings around the clock's are closest (an interrupt in between spoils one try)."""
    cdef uint64_t before, after, best = <uint64_t> -1
    cdef int64_t reading_ns
    cdef int k
    for k in range(5):
        before = simcli_ticks()
        reading_ns = now_ns()
        after = simcli_ticks()
        if after >= before and after - before < best:
            best = after - before
            ns[0] = reading_ns
            ticks[0] = before + (after - before) // 2


cdef void calibrate() noexcept nogil:
    """The counter's rate against the clock over 50 µs, and the start of the longer
    measurement :func:`ns_per_reading` makes."""
    global _base_ns, _base_ticks, _load_rate
    cdef int64_t ns
    cdef uint64_t ticks
    paired(&_base_ns, &_base_ticks)
    while now_ns() - _base_ns < 50000:
        pass
    paired(&ns, &ticks)
    if ticks > _base_ticks and ns > _base_ns:
        _load_rate = <double> (ns - _base_ns) / <double> (ticks - _base_ticks)


if _counter:
    calibrate()


cdef inline int64_t reading() noexcept nogil:
    """The counter, where it is read, else the clock in nanoseconds."""
    if _counter:
        return <int64_t> simcli_ticks()
    return now_ns()


cdef double ns_per_reading() noexcept nogil:
    """Nanoseconds per unit of :func:`reading`: the counter's rate over the time since
    the module was loaded, unless that strays by more than 1% from the rate measured at
    load (a counter stopped or reset in a suspend), then that one (1 where the clock is
    read)."""
    cdef int64_t ns
    cdef uint64_t ticks
    cdef double rate
    if not _counter:
        return 1.0
    ns = now_ns() - _base_ns
    ticks = simcli_ticks() - _base_ticks
    if 0 < ticks < (<uint64_t> 1) << 62 and ns > 0:
        rate = <double> ns / <double> ticks
        if 0.99 < rate / _load_rate < 1.01:
            return rate
    return _load_rate


def _use_counter(flag):
    """Read the counter (``True``, where :data:`COUNTER`) or the clock: for the tests,
    which time both ways on a machine that has the counter."""
    global _counter
    _counter = bool(flag) and COUNTER
    if _counter:
        calibrate()


cdef class SeatClock:
    """One seat's moves in one game (``think.SeatClock``, compiled): :meth:`start` just
    before the seat's ``choose`` is called, :meth:`stop` once its answer is checked;
    :meth:`add` takes seconds (a seat's moves are timed one way or the other). ``times``
    are whole nanoseconds; :meth:`packed`, what the parent is sent."""

    cdef list added
    cdef int64_t started
    cdef int64_t *lengths
    cdef Py_ssize_t count, room

    def __cinit__(self):
        self.added = []
        self.started = 0
        self.lengths = NULL
        self.count = self.room = 0

    def __dealloc__(self):
        PyMem_Free(self.lengths)

    def start(self):
        self.started = reading()

    def stop(self):
        cdef int64_t length = reading() - self.started
        cdef int64_t *grown
        if length < 0:  # never on one clock; a counter may differ a little between cores
            length = 0
        if self.count == self.room:
            grown = <int64_t *> PyMem_Realloc(self.lengths, (self.room * 2 + 32) * sizeof(int64_t))
            if grown == NULL:
                raise MemoryError
            self.lengths = grown
            self.room = self.room * 2 + 32
        self.lengths[self.count] = length
        self.count += 1

    def add(self, seconds):
        self.added.append(round(seconds * 1_000_000_000))

    @property
    def times(self):
        """The moves' lengths in whole nanoseconds, in order."""
        cdef double scale = ns_per_reading()
        cdef Py_ssize_t k
        return [to_ns(self.lengths[k], scale) for k in range(self.count)] + self.added

    def packed(self):
        """``think.pack(self.times)``, written here from the lengths kept in C."""
        cdef double scale = ns_per_reading()
        cdef Py_ssize_t k, n = self.count, added = len(self.added)
        data = PyBytes_FromStringAndSize(NULL, 8 * (n + added))
        cdef unsigned char *out = <unsigned char *> PyBytes_AS_STRING(data)
        for k in range(n):
            put_le(out + 8 * k, to_ns(self.lengths[k], scale))
        for k in range(added):
            put_le(out + 8 * (n + k), self.added[k])
        return data


cdef inline int64_t to_ns(int64_t length, double scale) noexcept nogil:
    """A length read by :func:`reading`, in whole nanoseconds."""
    return <int64_t> (length * scale + 0.5)


cdef inline void put_le(unsigned char *out, int64_t value) noexcept nogil:
    """``value`` as 8 little-endian bytes, whatever this machine's order."""
    cdef int byte
    for byte in range(8):
        out[byte] = <unsigned char> ((<uint64_t> value) >> (8 * byte))


def _agrees():
    """Whether ``time.perf_counter`` reads ``clock_gettime(CLOCK_MONOTONIC)`` here, and a
    start and a stop give the nanoseconds between them (within the time read around them,
    measured on that clock)."""
    info = time.get_clock_info("perf_counter")
    if info.implementation != "clock_gettime(CLOCK_MONOTONIC)":
        return False
    for _ in range(5):  # a preemption between the readings is no disagreement
        clock = SeatClock()
        before = time.perf_counter_ns()
        clock.start()
        sum(range(2000))
        clock.stop()
        took = time.perf_counter_ns() - before
        times = clock.times
        packed = clock.packed()
        clock.add(0.5)
        times += clock.times[1:]
        if (
            len(times) == 2
            and type(times[0]) is int
            and 0 <= times[0] <= took
            and times[1] == 500_000_000
            and len(packed) == 8
            and abs(int.from_bytes(packed, "little", signed=True) - times[0]) <= 1
            and clock.packed()[8:] == (500_000_000).to_bytes(8, "little")
        ):
            return True
    return False


#: Checked once, when the module is loaded.
AGREES = _agrees()
