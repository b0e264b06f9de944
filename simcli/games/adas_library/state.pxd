# C types of the hot loops of state.py for the compiled path (Cython "pure Python mode":
# the .py is the only source of the rules; this file only declares types).
import cython

@cython.locals(size=cython.Py_ssize_t, bits=cython.long, master_bits=cython.long,
               start=cython.Py_ssize_t, step=cython.Py_ssize_t, common=cython.Py_ssize_t,
               total=cython.Py_ssize_t, count=cython.Py_ssize_t, i=cython.Py_ssize_t,
               e=cython.Py_ssize_t, kind=cython.int, arg=cython.Py_ssize_t, lists=tuple,
               master_lists=tuple, counts=list)
cpdef object draw_play(tuple draws, tuple discards, list row, list master, list other,
                       bint mirrored, object randbelow)

@cython.locals(players=cython.Py_ssize_t, k=cython.Py_ssize_t, s=cython.Py_ssize_t,
               previous=cython.long, r=cython.long, i=cython.Py_ssize_t, colour=cython.Py_ssize_t,
               row=list)
cpdef Py_ssize_t first_sorted(list rows, list rank, Py_ssize_t seat) except -2
