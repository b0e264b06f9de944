# C types for the compiled path of tree.py (Cython's "pure Python mode"): the .py is the
# one source of the search; this file only declares the types of its nodes and loops.
import cython

cdef class Node:
    cdef public int seat, mover, n
    cdef public double w
    cdef public list untried, moves, kids
    cdef public object outcomes, solved, solved_move

cdef class ISNode:
    cdef public int mover, n, avail
    cdef public double w
    cdef public dict kids

@cython.locals(i=cython.Py_ssize_t, best_i=cython.Py_ssize_t, kid=Node, kn=cython.int,
               scale=cython.double, best_v=cython.double, mean=cython.double,
               v=cython.double)
cpdef Py_ssize_t ucb_pick(list kids, double explore, int seat, bint skip_losses,
                          bint scaled, double lo, double hi) except -1
