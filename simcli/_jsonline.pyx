# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compact JSON text into one C buffer: the compiled half of ``simcli/jsonline.py``.

``json``'s C encoder makes a string for every number and every piece of punctuation and
joins them at the end; for the short lines written once per game that is most of its
time. :class:`Encoder` writes the same text straight into one growing buffer: the
settings ``separators=(",", ":")``, no indent, no cycle check, with or without
``sort_keys`` and ``ensure_ascii``. It writes only what it knows ``json`` writes the same
way (plain ``dict``/``list``/``tuple`` and their subclasses, exact ``str``, ``int``,
``float``, ``bool`` and ``None``); on anything else (a key that is not a ``str``, a
subclass of ``int`` or ``str``, text that cannot be UTF-8, deep nesting) it hands the whole
value to the encoder's own ``encode``, so the text is always the encoder's.
:data:`AGREES` says whether it writes what ``json`` writes on this interpreter; nothing
uses it otherwise (``simcli/jsonline.py``).
"""

import json

from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.dict cimport PyDict_Keys, PyDict_Next, PyDict_Size
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE, PyList_Sort
from cpython.object cimport PyObject, PyTypeObject
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

cdef extern from "Python.h":
    PyTypeObject PyUnicode_Type
    PyTypeObject PyLong_Type
    PyTypeObject PyFloat_Type
    PyTypeObject PyList_Type
    PyTypeObject PyTuple_Type
    PyTypeObject PyDict_Type
    PyObject *Py_None
    PyObject *Py_True
    PyObject *Py_False
    PyTypeObject *Py_TYPE(PyObject *o)
    bint PyList_Check(PyObject *o)
    bint PyTuple_Check(PyObject *o)
    bint PyDict_Check(PyObject *o)
    bint PyUnicode_CheckExact(PyObject *o)
    Py_ssize_t PyDict_GET_SIZE(PyObject *o)
    PyObject *PyDict_GetItemWithError(PyObject *d, PyObject *key)
    PyObject *PyErr_Occurred()
    bint PyUnicode_IS_ASCII(PyObject *o)
    int PyUnicode_KIND(PyObject *o)
    void *PyUnicode_DATA(PyObject *o)
    Py_ssize_t PyUnicode_GET_LENGTH(PyObject *o)
    unsigned int PyUnicode_READ(int kind, void *data, Py_ssize_t i)
    long long PyLong_AsLongLongAndOverflow(PyObject *o, int *overflow) except? -1
    double PyFloat_AS_DOUBLE(PyObject *o)
    bint Py_IS_FINITE(double x)
    bint Py_IS_NAN(double x)
    char *PyOS_double_to_string(double val, char format_code, int precision, int flags,
                                int *type) except NULL
    int Py_DTSF_ADD_DOT_0
    void PyMem_Free(void *p)
    object PyUnicode_DecodeUTF8(const char *s, Py_ssize_t size, const char *errors)
    object PyUnicode_DecodeASCII(const char *s, Py_ssize_t size, const char *errors)


cdef enum:
    MAX_DEPTH = 200  # nesting beyond this is left to json (it has its own recursion limit)

cdef const char *HEX = b"0123456789abcdef"

#: What follows a backslash for each ASCII code: 0 none (written as is), 'u' for
#: ``\u00XX``. ``ASCII_TABLE`` escapes DEL too, as ``ensure_ascii`` does.
cdef char TEXT_TABLE[128]
cdef char ASCII_TABLE[128]


cdef void _fill_tables():
    cdef int c
    for c in range(128):
        TEXT_TABLE[c] = b'u' if c < 0x20 else 0
    TEXT_TABLE[ord('"')] = b'"'
    TEXT_TABLE[ord('\\')] = b'\\'
    TEXT_TABLE[ord('\n')] = b'n'
    TEXT_TABLE[ord('\r')] = b'r'
    TEXT_TABLE[ord('\t')] = b't'
    TEXT_TABLE[ord('\b')] = b'b'
    TEXT_TABLE[ord('\f')] = b'f'
    for c in range(128):
        ASCII_TABLE[c] = TEXT_TABLE[c]
    ASCII_TABLE[0x7f] = b'u'


_fill_tables()


cdef struct Out:
    char *buf
    Py_ssize_t len
    Py_ssize_t cap
    const char *table
    bint ascii
    bint sort_keys
    bint allow_nan


cdef int _grow(Out *out, Py_ssize_t extra) except -1:
    cdef Py_ssize_t cap = out.cap * 2
    cdef char *buf
    if cap < out.len + extra:
        cap = out.len + extra
    buf = <char *>realloc(out.buf, cap)
    if buf == NULL:
        raise MemoryError()
    out.buf = buf
    out.cap = cap
    return 0


cdef inline int _reserve(Out *out, Py_ssize_t extra) except -1:
    if out.len + extra > out.cap:
        return _grow(out, extra)
    return 0


cdef inline int _put(Out *out, const char *text, Py_ssize_t n) except -1:
    _reserve(out, n)
    memcpy(out.buf + out.len, text, n)
    out.len += n
    return 0


cdef inline Py_ssize_t _u4(char *p, unsigned int c) noexcept:
    """``\\uXXXX`` for ``c`` below 0x10000, lowercase hex as ``json`` writes it."""
    p[0] = b'\\'
    p[1] = b'u'
    p[2] = HEX[(c >> 12) & 15]
    p[3] = HEX[(c >> 8) & 15]
    p[4] = HEX[(c >> 4) & 15]
    p[5] = HEX[c & 15]
    return 6


cdef inline Py_ssize_t _ascii(char *p, unsigned int c, const char *table) noexcept:
    """An ASCII code point as ``json`` writes it: itself, ``\\uXXXX``, or a backslash and
    its letter (``table``)."""
    cdef char e = table[c]
    if e == 0:
        p[0] = <char>c
        return 1
    if e == b'u':
        return _u4(p, c)
    p[0] = b'\\'
    p[1] = e
    return 2


cdef int _str(Out *out, PyObject *s) except -1:
    """A ``str`` in quotes; 1 (nothing written that counts) for a lone surrogate in UTF-8."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(s)
    cdef int kind = PyUnicode_KIND(s)
    cdef void *data = PyUnicode_DATA(s)
    cdef const unsigned char *ascii
    cdef const char *table = out.table
    cdef Py_ssize_t i
    cdef unsigned int c
    cdef char *p
    # worst case per code point: 6 bytes (\u00XX), 12 for an astral one with ensure_ascii
    _reserve(out, 2 + n * (12 if kind == 4 else 6))
    p = out.buf + out.len
    p[0] = b'"'
    p += 1
    if PyUnicode_IS_ASCII(s):
        ascii = <const unsigned char *>data
        for i in range(n):
            p += _ascii(p, ascii[i], table)
    else:
        for i in range(n):
            c = PyUnicode_READ(kind, data, i)
            if c < 0x80:
                p += _ascii(p, c, table)
            elif out.ascii:
                if c < 0x10000:
                    p += _u4(p, c)
                else:
                    c -= 0x10000
                    p += _u4(p, 0xd800 | (c >> 10))
                    p += _u4(p, 0xdc00 | (c & 0x3ff))
            elif c < 0x800:
                p[0] = <char>(0xc0 | (c >> 6))
                p[1] = <char>(0x80 | (c & 0x3f))
                p += 2
            elif c < 0x10000:
                if 0xd800 <= c <= 0xdfff:
                    return 1  # not UTF-8: json writes it into the str as it is
                p[0] = <char>(0xe0 | (c >> 12))
                p[1] = <char>(0x80 | ((c >> 6) & 0x3f))
                p[2] = <char>(0x80 | (c & 0x3f))
                p += 3
            else:
                p[0] = <char>(0xf0 | (c >> 18))
                p[1] = <char>(0x80 | ((c >> 12) & 0x3f))
                p[2] = <char>(0x80 | ((c >> 6) & 0x3f))
                p[3] = <char>(0x80 | (c & 0x3f))
                p += 4
    p[0] = b'"'
    out.len = p + 1 - out.buf
    return 0


cdef int _int(Out *out, PyObject *obj) except -1:
    """An exact ``int``: its decimal text (``int.__repr__`` past 64 bits)."""
    cdef int overflow = 0
    cdef long long v = PyLong_AsLongLongAndOverflow(obj, &overflow)
    cdef unsigned long long u
    cdef char digits[24]
    cdef int k = 24
    cdef bytes text
    if overflow:
        try:
            text = repr(<object>obj).encode("ascii")
        except ValueError:  # past sys.get_int_max_str_digits(): json raises it
            return 1
        return _put(out, text, len(text))
    u = (0ULL - <unsigned long long>v) if v < 0 else <unsigned long long>v
    while True:
        k -= 1
        digits[k] = <char>(48 + u % 10)
        u //= 10
        if u == 0:
            break
    if v < 0:
        k -= 1
        digits[k] = b'-'
    return _put(out, digits + k, 24 - k)


cdef int _float(Out *out, PyObject *obj) except -1:
    """An exact ``float``: ``float.__repr__``, or json's ``NaN``/``Infinity``/``-Infinity``."""
    cdef double x = PyFloat_AS_DOUBLE(obj)
    cdef char *text
    cdef Py_ssize_t n = 0
    if not Py_IS_FINITE(x):
        if not out.allow_nan:
            return 1  # json raises its own ValueError
        if Py_IS_NAN(x):
            return _put(out, b"NaN", 3)
        return _put(out, b"Infinity", 8) if x > 0 else _put(out, b"-Infinity", 9)
    text = PyOS_double_to_string(x, b'r', 0, Py_DTSF_ADD_DOT_0, NULL)
    try:
        while text[n]:
            n += 1
        _put(out, text, n)
    finally:
        PyMem_Free(text)
    return 0


cdef object DICT_ITEMS = dict.items


cdef int _dict(Out *out, PyObject *obj, int depth) except -1:
    """A dict with ``str`` keys, in its own order or sorted by code point."""
    cdef Py_ssize_t pos = 0
    cdef PyObject *key
    cdef PyObject *value
    cdef list keys
    cdef Py_ssize_t i, n
    if PyDict_GET_SIZE(obj) == 0:
        return _put(out, b"{}", 2)
    if Py_TYPE(obj) is not &PyDict_Type and getattr(type(<object>obj), "items") is not DICT_ITEMS:
        return 1  # json writes what its own items() gives
    _put(out, b"{", 1)
    if not out.sort_keys:
        while PyDict_Next(<object>obj, &pos, &key, &value):
            if not PyUnicode_CheckExact(key) or _str(out, key) or _put(out, b":", 1):
                return 1
            if _value(out, value, depth) or _put(out, b",", 1):
                return 1
    else:
        keys = PyDict_Keys(<object>obj)
        n = PyList_GET_SIZE(keys)
        for i in range(n):
            if not PyUnicode_CheckExact(PyList_GET_ITEM(keys, i)):
                return 1
        PyList_Sort(keys)  # str against str: by code point, no Python code runs
        for i in range(n):
            key = PyList_GET_ITEM(keys, i)
            value = PyDict_GetItemWithError(obj, key)
            if value == NULL:
                if PyErr_Occurred() != NULL:
                    return -1
                return 1
            if _str(out, key) or _put(out, b":", 1):
                return 1
            if _value(out, value, depth) or _put(out, b",", 1):
                return 1
    out.buf[out.len - 1] = b'}'
    return 0


cdef int _list(Out *out, PyObject *obj, int depth) except -1:
    """A list or tuple (or a subclass: json writes their items as they are stored)."""
    cdef Py_ssize_t i, n
    cdef bint is_list = PyList_Check(obj)
    n = PyList_GET_SIZE(<object>obj) if is_list else PyTuple_GET_SIZE(<object>obj)
    if n == 0:
        return _put(out, b"[]", 2)
    _put(out, b"[", 1)
    for i in range(n):
        if is_list:
            if _value(out, PyList_GET_ITEM(<object>obj, i), depth):
                return 1
        elif _value(out, PyTuple_GET_ITEM(<object>obj, i), depth):
            return 1
        _put(out, b",", 1)
    out.buf[out.len - 1] = b']'
    return 0


cdef int _value(Out *out, PyObject *obj, int depth) except -1:
    """Write ``obj``; 0 when written, 1 when it is left to json (the text is then void)."""
    cdef PyTypeObject *t = Py_TYPE(obj)
    if t is &PyUnicode_Type:
        return _str(out, obj)
    if t is &PyLong_Type:
        return _int(out, obj)
    if obj is Py_None:
        return _put(out, b"null", 4)
    if obj is Py_True:
        return _put(out, b"true", 4)
    if obj is Py_False:
        return _put(out, b"false", 5)
    if t is &PyFloat_Type:
        return _float(out, obj)
    if depth >= MAX_DEPTH:
        return 1
    if t is &PyList_Type or t is &PyTuple_Type or PyList_Check(obj) or PyTuple_Check(obj):
        return _list(out, obj, depth + 1)
    if PyDict_Check(obj):
        return _dict(out, obj, depth + 1)
    return 1


cdef class Encoder:
    """``encode(value)`` gives ``fallback(value)``: the text (or, with ``as_bytes``, its
    UTF-8 bytes) of a JSON encoder with ``separators=(",", ":")``, no indent, no cycle
    check, and these ``sort_keys``, ``ensure_ascii`` and ``allow_nan``; ``fallback`` is
    that encoder's own function, called for what this one does not write."""

    cdef object fallback
    cdef bint sort_keys, ensure_ascii, allow_nan, as_bytes
    cdef Py_ssize_t hint

    def __init__(self, fallback, bint sort_keys, bint ensure_ascii, bint allow_nan=True,
                 bint as_bytes=False):
        self.fallback = fallback
        self.sort_keys = sort_keys
        self.ensure_ascii = ensure_ascii
        self.allow_nan = allow_nan
        self.as_bytes = as_bytes
        self.hint = 256

    cdef int _start(self, Out *out) except -1:
        out.cap = self.hint
        out.len = 0
        out.buf = <char *>malloc(out.cap)
        if out.buf == NULL:
            raise MemoryError()
        out.table = TEXT_TABLE
        if self.ensure_ascii:
            out.table = ASCII_TABLE
        out.ascii = self.ensure_ascii
        out.sort_keys = self.sort_keys
        out.allow_nan = self.allow_nan
        return 0

    def covers(self, value):
        """Whether :meth:`encode` writes ``value`` itself (else it calls the fallback)."""
        cdef Out out
        self._start(&out)
        try:
            return _value(&out, <PyObject *>value, 0) == 0
        finally:
            free(out.buf)

    def encode(self, value):
        cdef Out out
        cdef int status
        self._start(&out)
        try:
            status = _value(&out, <PyObject *>value, 0)
            if status:
                return self.fallback(value)
            if out.len > self.hint:
                self.hint = out.len + (out.len >> 3)
            if self.as_bytes:
                return PyBytes_FromStringAndSize(out.buf, out.len)
            if self.ensure_ascii:
                return PyUnicode_DecodeASCII(out.buf, out.len, NULL)
            return PyUnicode_DecodeUTF8(out.buf, out.len, NULL)
        finally:
            free(out.buf)


class _Key(str):
    pass


def _agrees():
    """Whether :class:`Encoder` writes what ``json`` writes here, for both settings of
    ``sort_keys`` and ``ensure_ascii``: itself on values of every kind it writes, through
    ``json`` on some it leaves to it."""
    written = [
        {"b": [0, -1, 2**63 - 1, -2**63, 2**64, -2**70, True, False, None], "a": {}, "": []},
        ["\"\\\n\r\t\b\f\x00\x1f\x7f \xe9\u2028\U0001f600", (1, (2,)), [[], {}]],
        [0.0, -0.0, 1.5, 1e16, 1e-7, 1e300, -2.5e-300, float("nan"), float("inf"), -float("inf")],
        {"z": 1, "a": {"\xe9": 2, "e": 3, "\U0001f600": 4, "\uffff": 5, "E": 6}},
    ]
    left = [{1: 2}, [_Key("k")], {"a": [True, 1, 1.0, "\ud800"], "b": {"c": [2**100]}}]
    for sort_keys in (False, True):
        for ensure_ascii in (False, True):
            encoder = json.JSONEncoder(
                separators=(",", ":"),
                sort_keys=sort_keys,
                ensure_ascii=ensure_ascii,
                check_circular=False,
            )
            ours = Encoder(encoder.encode, sort_keys, ensure_ascii)
            if not all(ours.covers(value) for value in written):
                return False
            for value in (written, *written, *left):
                if ours.encode(value) != encoder.encode(value):
                    return False
    return True


#: Checked once, when the module is loaded.
AGREES = _agrees()
