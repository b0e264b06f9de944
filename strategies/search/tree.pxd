# C types for the compiled path of tree.py (Cython's "pure Python mode"): the .py is the
# one source of the search; this file only declares the types of its nodes and loops.
import cython

cdef class Node:
    cdef public int seat, mover, n
    cdef public double sqrt_n, w
    cdef public list untried, moves, kids
    cdef public object outcomes, solved, solved_move

cdef class ISNode:
    cdef public int mover, n, avail
    cdef public double w
    cdef public dict kids

@cython.locals(i=cython.Py_ssize_t, best_i=cython.Py_ssize_t, kid=Node,
               scale=cython.double, best_v=cython.double, mean=cython.double,
               v=cython.double)
cpdef Py_ssize_t ucb_pick(list kids, double explore, int seat, bint skip_losses,
                          bint scaled, double lo, double hi) except -1

@cython.locals(node=Node, kid=Node, nd=Node, path=list, untried=list, kids=list,
               i=cython.Py_ssize_t, best_i=cython.Py_ssize_t, done=cython.long,
               lo=cython.double, hi=cython.double, c=cython.double,
               iterate_score=cython.bint, plain=cython.bint, skip_losses=cython.bint, seat=cython.int)
cpdef long uct_iterations(object search, object state, Node root) except? -1
