# C types of the hot loops of state.py for the compiled path (Cython "pure Python mode":
# the .py is the only source of the rules; this file only declares types).
import cython

@cython.locals(gap=cython.Py_ssize_t, d=cython.Py_ssize_t, nxt=cython.Py_ssize_t,
               first=cython.Py_ssize_t, owner=cython.Py_ssize_t, empty=cython.Py_ssize_t,
               h_gaps=cython.Py_ssize_t, left=cython.Py_ssize_t, up=cython.Py_ssize_t,
               next_gap=tuple, names=tuple)
cpdef list push_moves(list own, list walls)

@cython.locals(d=cython.Py_ssize_t, end=cython.Py_ssize_t, nxt=cython.Py_ssize_t,
               gap=cython.Py_ssize_t, wall=cython.Py_ssize_t, cell=cython.Py_ssize_t,
               empty=cython.Py_ssize_t, rays=tuple)
cpdef list roll_moves(Py_ssize_t sphere, Py_ssize_t forbid, list cells, list walls, object home,
                      list rolls)

@cython.locals(cell=cython.Py_ssize_t, gap=cython.Py_ssize_t, owner=cython.Py_ssize_t,
               walk=cython.ulonglong, hmask=cython.ulonglong, vmask=cython.ulonglong,
               one=cython.ulonglong, plates=list, gaps=list, wall_moves=list, own=list,
               pushes=list, push_bits=list, topples=list)
cpdef tuple derived(list cells, list walls, Py_ssize_t players)
