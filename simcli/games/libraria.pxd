# C types for the compiled path of libraria.py (Cython's "pure Python mode"): the .py is
# the one source of the rules; this file only declares the types of its hot loops.
import cython

cdef bint COMPILED
cdef tuple _TOP_LEFT
cdef dict _OUTCOMES

@cython.locals(a_total=cython.long, b_total=cython.long, j=cython.Py_ssize_t,
               value=cython.long, p=cython.Py_ssize_t, c0=cython.long, c1=cython.long,
               c2=cython.long, c3=cython.long, ones=cython.long)
cpdef list score_full_board(object tiles, list board)

@cython.locals(spot=cython.Py_ssize_t, spots=cython.Py_ssize_t)
cpdef Py_ssize_t place_randomly(list board, list free, tuple order, Py_ssize_t ply,
                                object randbelow) except -1

@cython.locals(n=cython.Py_ssize_t, i=cython.Py_ssize_t, s=cython.Py_ssize_t)
cpdef take_spot(list free, Py_ssize_t spot)
