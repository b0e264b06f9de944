# C types of the hot row functions of rows.py for the compiled path (Cython "pure Python
# mode": the .py is the only source of the rules; this file only declares types).
import cython

@cython.locals(bits=cython.long, bit=cython.long, previous=cython.long, item=cython.long,
               i=cython.Py_ssize_t)
cpdef long boundary_bits(list items) except -1

@cython.locals(found=cython.Py_ssize_t, i=cython.Py_ssize_t, j=cython.Py_ssize_t,
               x=cython.long, y=cython.long)
cpdef Py_ssize_t differences(list a, list b, Py_ssize_t start, Py_ssize_t step,
                             Py_ssize_t count) except -1

@cython.locals(i=cython.Py_ssize_t, j=cython.Py_ssize_t)
cpdef Py_ssize_t nth_difference(list a, list b, Py_ssize_t start, Py_ssize_t step,
                                Py_ssize_t nth) except -1

@cython.locals(position=cython.Py_ssize_t, rank=list)
cpdef list ranks(object master)
