# cython: language_level=3
"""A strategy's decision, timed at C speed: the compiled half of the referee's think times
(``simcli/tournament/think.py``).

The referee times every decision of an in-process strategy in whole nanoseconds of
``time.perf_counter_ns``'s clock. Read from Python, that is two calls that each make an
integer of some 10**12 nanoseconds, a subtraction and an append: about a twentieth of a
game of random Libraria self-play. :func:`timed_call` reads the same clock
(``clock_gettime(CLOCK_MONOTONIC)``, where ``perf_counter`` reads it) around the call
itself and appends the difference. :data:`AGREES` says whether ``perf_counter`` reads
that clock on this interpreter; nothing uses it otherwise (``think.py``).
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
    cdef timespec now
    clock_gettime(CLOCK_MONOTONIC, &now)
    return <int64_t> now.tv_sec * 1000000000 + now.tv_nsec


def timed_call(list times, choose, view, moves):
    """``choose(view, moves)``, with the nanoseconds it took appended to ``times``
    (nothing appended when it raises: the exception passes through as it is)."""
    cdef int64_t started = now_ns()
    answer = choose(view, moves)
    PyList_Append(times, now_ns() - started)
    return answer


def _agrees():
    """Whether ``time.perf_counter`` reads ``clock_gettime(CLOCK_MONOTONIC)`` here, and a
    timed call returns its answer and appends one time of zero or more nanoseconds."""
    info = time.get_clock_info("perf_counter")
    if info.implementation != "clock_gettime(CLOCK_MONOTONIC)":
        return False
    times = []
    answer = timed_call(times, lambda view, moves: moves[0], None, ["a"])
    return answer == "a" and len(times) == 1 and type(times[0]) is int and times[0] >= 0


#: Checked once, when the module is loaded.
AGREES = _agrees()
