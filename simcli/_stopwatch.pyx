# cython: language_level=3
"""A seat's think times at C speed: the compiled half of ``simcli/tournament/think.py``'s
:class:`SeatClock`.

The referee times every decision of an in-process strategy in whole nanoseconds of
``time.perf_counter_ns``'s clock, from just before its ``choose`` is called until its
answer has been checked. Read from Python, that is two calls that each make an integer
of some 10**12 nanoseconds, a subtraction and an append: about a twentieth of a game of
random Libraria self-play. This :class:`SeatClock` reads the same clock
(``clock_gettime(CLOCK_MONOTONIC)``, where ``perf_counter`` reads it), keeps the start in
C and appends only the difference. :data:`AGREES` says whether ``perf_counter`` reads
that clock on this interpreter and this class times as the Python one does; nothing
uses it otherwise (``think.py``).
"""

import time

from cpython.list cimport PyList_Append
from libc.stdint cimport int64_t

cdef extern from "<time.h>" nogil:
    ctypedef long time_t
    struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clock, timespec *now)
    int CLOCK_MONOTONIC


cdef inline int64_t now_ns() noexcept nogil:
    cdef timespec reading
    clock_gettime(CLOCK_MONOTONIC, &reading)
    return <int64_t> reading.tv_sec * 1000000000 + reading.tv_nsec


cdef class SeatClock:
    """One seat's moves in one game (``think.SeatClock``, compiled): :meth:`start` just
    before the seat's ``choose`` is called, :meth:`stop` once its answer is checked;
    :meth:`add` takes seconds. ``times`` (whole nanoseconds) is what the parent is sent."""

    cdef public list times
    cdef int64_t started

    def __cinit__(self):
        self.times = []
        self.started = 0

    def start(self):
        self.started = now_ns()

    def stop(self):
        PyList_Append(self.times, now_ns() - self.started)

    def add(self, seconds):
        self.times.append(round(seconds * 1_000_000_000))


def _agrees():
    """Whether ``time.perf_counter`` reads ``clock_gettime(CLOCK_MONOTONIC)`` here, and a
    start and a stop append the nanoseconds between them."""
    info = time.get_clock_info("perf_counter")
    if info.implementation != "clock_gettime(CLOCK_MONOTONIC)":
        return False
    clock = SeatClock()
    before = time.perf_counter_ns()
    clock.start()
    clock.stop()
    took = time.perf_counter_ns() - before
    clock.add(0.5)
    times = clock.times
    return (
        len(times) == 2
        and type(times[0]) is int
        and 0 <= times[0] <= took
        and times[1] == 500_000_000
    )


#: Checked once, when the module is loaded.
AGREES = _agrees()
