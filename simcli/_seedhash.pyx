# cython: language_level=3, boundscheck=False, wraparound=False
"""The seed of a path of labels at C speed: the compiled half of ``simcli/seeding.py``.

``seeding.path_seed(path)`` is the BLAKE2b hash with an 8-byte digest of the path's UTF-8
bytes, read as a big-endian integer and cut to 53 bits. The hash here follows RFC 7693
(BLAKE2b: the compression function ``F`` with its twelve rounds of ``G``, no key, the
digest length in the parameter block) over the bytes of one ``str``, without the hash
object, the buffer and the ``int.from_bytes`` call that ``hashlib`` costs three or four
times per game. :data:`AGREES` says whether it gives ``hashlib.blake2b``'s seeds on this
interpreter; nothing uses it otherwise (``simcli/seeding.py``).
"""

import hashlib

from libc.stdint cimport uint8_t, uint64_t
from libc.stdio cimport snprintf
from libc.string cimport memcpy, memset

cdef extern from "Python.h":
    const char *PyUnicode_AsUTF8AndSize(object text, Py_ssize_t *size) except NULL

cdef uint64_t IV[8]
IV[:] = [
    0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
    0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179,
]

#: The message schedule: which words each round's eight ``G`` take (rounds 10 and 11
#: take those of rounds 0 and 1).
cdef uint8_t SIGMA[160]
SIGMA[:] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3,
    11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4,
    7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8,
    9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13,
    2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9,
    12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11,
    13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10,
    6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5,
    10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0,
]

cdef enum:
    BLOCK = 128  # bytes of message per compression
    SEED_SHIFT = 11  # 64 - 53: seeds are exact in any JSON reader


cdef inline uint64_t rotr(uint64_t x, int n) noexcept nogil:
    return (x >> n) | (x << (64 - n))


cdef inline void mix(uint64_t *v, int a, int b, int c, int d, uint64_t x, uint64_t y) noexcept nogil:
    """The function ``G``."""
    v[a] = v[a] + v[b] + x
    v[d] = rotr(v[d] ^ v[a], 32)
    v[c] = v[c] + v[d]
    v[b] = rotr(v[b] ^ v[c], 24)
    v[a] = v[a] + v[b] + y
    v[d] = rotr(v[d] ^ v[a], 16)
    v[c] = v[c] + v[d]
    v[b] = rotr(v[b] ^ v[c], 63)


cdef inline uint64_t word(const uint8_t *p) noexcept nogil:
    """The little-endian 64-bit word at ``p``."""
    cdef uint64_t w = 0
    cdef int k
    for k in range(7, -1, -1):
        w = (w << 8) | p[k]
    return w


cdef void compress(uint64_t *h, const uint8_t *block, uint64_t counted, bint last) noexcept nogil:
    """The function ``F`` on one 128-byte block; ``counted``: bytes hashed so far, this
    block's included (the high word of the 128-bit counter stays 0 below 2**64 bytes)."""
    cdef uint64_t m[16]
    cdef uint64_t v[16]
    cdef const uint8_t *s
    cdef int i
    for i in range(16):
        m[i] = word(block + 8 * i)
    for i in range(8):
        v[i] = h[i]
        v[i + 8] = IV[i]
    v[12] ^= counted
    if last:
        v[14] = ~v[14]
    for i in range(12):
        s = SIGMA + 16 * (i % 10)
        mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]])
        mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]])
        mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]])
        mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]])
        mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]])
        mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]])
        mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]])
        mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]])
    for i in range(8):
        h[i] ^= v[i] ^ v[i + 8]


cdef uint64_t digest8(const uint8_t *data, Py_ssize_t size) noexcept nogil:
    """The first word of BLAKE2b's state after hashing ``data`` with an 8-byte digest, no
    key: the digest's 8 bytes, little-endian."""
    cdef uint64_t h[8]
    cdef uint8_t tail[BLOCK]
    cdef Py_ssize_t done = 0
    memcpy(h, IV, sizeof(h))
    h[0] ^= 0x01010000 ^ 8  # parameter block: depth 1, fanout 1, no key, digest 8 bytes
    while size - done > BLOCK:  # every block but the last, which is compressed as last
        compress(h, data + done, <uint64_t> (done + BLOCK), False)
        done += BLOCK
    memset(tail, 0, BLOCK)
    memcpy(tail, data + done, size - done)
    compress(h, tail, <uint64_t> size, True)
    return h[0]


cdef inline uint64_t byteswap(uint64_t x) noexcept nogil:
    cdef uint64_t out = 0
    cdef int k
    for k in range(8):
        out = (out << 8) | (x & 0xFF)
        x >>= 8
    return out


def path_seed(path):
    """``int.from_bytes(blake2b(path.encode(), digest_size=8).digest(), "big") >> 11``
    (hashed here for a ``str``; anything else goes through ``hashlib``, as before)."""
    cdef Py_ssize_t size
    cdef const char *data
    if type(path) is not str:
        return _reference(path)
    data = PyUnicode_AsUTF8AndSize(path, &size)
    return byteswap(digest8(<const uint8_t *> data, size)) >> SEED_SHIFT


def game_seeds(game_seed, players):
    """``[path_seed(f"{game_seed}/chance")]`` followed by ``path_seed(f"{game_seed}/seat/{s}")``
    for every seat ``s``, for an int ``game_seed``: the seeds of a game's generators
    (``seeding.game_rngs``), its paths written here rather than in four Python strings."""
    cdef bytes root = str(int(game_seed)).encode()
    cdef Py_ssize_t size = len(root)
    cdef char buf[96]
    cdef int seat, n
    # a path longer than buf, or players not a count: the Python way (and its errors)
    if size > 40 or type(players) is not int or not 0 <= players < 10**9:
        return [path_seed(f"{int(game_seed)}/chance")] + [
            path_seed(f"{int(game_seed)}/seat/{s}") for s in range(players)
        ]
    memcpy(buf, <const char *> root, size)
    memcpy(buf + size, b"/chance", 7)
    out = [byteswap(digest8(<const uint8_t *> buf, size + 7)) >> SEED_SHIFT]
    memcpy(buf + size, b"/seat/", 6)
    for seat in range(players):
        n = snprintf(buf + size + 6, 16, "%d", seat)
        out.append(byteswap(digest8(<const uint8_t *> buf, size + 6 + n)) >> SEED_SHIFT)
    return out


def _agrees():
    """Whether :func:`path_seed` gives ``hashlib``'s seeds here: texts of every length
    across three blocks (the edges of a block among them), and text beyond ASCII."""
    texts = ["", "0/chance", "7/seat/1", "é/ü/€/😀" * 9]
    texts += ["x" * n for n in (1, 111, 127, 128, 129, 255, 256, 257, 300)]
    for text in texts:
        if path_seed(text) != _reference(text):
            return False
    for game_seed, players in ((0, 1), (2**53 - 1, 4), (-7, 2), (10**45, 3), (12, 0)):
        paths = [f"{game_seed}/chance", *(f"{game_seed}/seat/{s}" for s in range(players))]
        if game_seeds(game_seed, players) != [_reference(path) for path in paths]:
            return False
    return True


def _reference(text):
    """``seeding.path_seed(text)`` through ``hashlib`` (``text.encode()``: a ``str``
    subclass too, and the same error for anything else)."""
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> SEED_SHIFT


#: Checked once, when the module is loaded.
AGREES = _agrees()
