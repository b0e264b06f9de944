# cython: language_level=3, boundscheck=False, wraparound=False
"""The final-state hash at C speed: the compiled half of ``simcli.game.state_hash``.

A record's ``final_hash`` is the first 16 hexadecimal digits of SHA-256 (FIPS 180-4) over
the canonical JSON of ``[game_id, snapshot]``. :func:`hash16` computes them from the
JSON's UTF-8 bytes in one call: the compression runs on the processor's SHA extensions
where it has them (x86-64 SHA-NI, chosen when the module is loaded), else in portable C,
and only the 16 digits are written, without the hash object, the full hex digest and
its slice that ``hashlib`` or ``_sha256`` cost once per game. :data:`AGREES` says whether
both ways give ``hashlib.sha256``'s digits on this machine; nothing uses the module
otherwise (``simcli/game.py``).
"""

import hashlib

from libc.stdint cimport uint8_t, uint32_t

cdef extern from "Python.h":
    object PyUnicode_FromStringAndSize(const char *text, Py_ssize_t size)
    char *PyBytes_AS_STRING(object data)
    Py_ssize_t PyBytes_GET_SIZE(object data)

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>

    static const uint32_t simcli_sha_k[64] = {
        0x428a2f98U, 0x71374491U, 0xb5c0fbcfU, 0xe9b5dba5U, 0x3956c25bU, 0x59f111f1U,
        0x923f82a4U, 0xab1c5ed5U, 0xd807aa98U, 0x12835b01U, 0x243185beU, 0x550c7dc3U,
        0x72be5d74U, 0x80deb1feU, 0x9bdc06a7U, 0xc19bf174U, 0xe49b69c1U, 0xefbe4786U,
        0x0fc19dc6U, 0x240ca1ccU, 0x2de92c6fU, 0x4a7484aaU, 0x5cb0a9dcU, 0x76f988daU,
        0x983e5152U, 0xa831c66dU, 0xb00327c8U, 0xbf597fc7U, 0xc6e00bf3U, 0xd5a79147U,
        0x06ca6351U, 0x14292967U, 0x27b70a85U, 0x2e1b2138U, 0x4d2c6dfcU, 0x53380d13U,
        0x650a7354U, 0x766a0abbU, 0x81c2c92eU, 0x92722c85U, 0xa2bfe8a1U, 0xa81a664bU,
        0xc24b8b70U, 0xc76c51a3U, 0xd192e819U, 0xd6990624U, 0xf40e3585U, 0x106aa070U,
        0x19a4c116U, 0x1e376c08U, 0x2748774cU, 0x34b0bcb5U, 0x391c0cb3U, 0x4ed8aa4aU,
        0x5b9cca4fU, 0x682e6ff3U, 0x748f82eeU, 0x78a5636fU, 0x84c87814U, 0x8cc70208U,
        0x90befffaU, 0xa4506cebU, 0xbef9a3f7U, 0xc67178f2U,
    };

    static const uint32_t simcli_sha_iv[8] = {
        0x6a09e667U, 0xbb67ae85U, 0x3c6ef372U, 0xa54ff53aU,
        0x510e527fU, 0x9b05688cU, 0x1f83d9abU, 0x5be0cd19U,
    };

    #define SIMCLI_ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

    /* FIPS 180-4, section 6.2.2: the compression of n 64-byte blocks into state */
    static void simcli_sha_blocks_c(uint32_t *state, const uint8_t *p, size_t n)
    {
        uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
        int t;
        for (; n; n--, p += 64) {
            for (t = 0; t < 16; t++)
                w[t] = (uint32_t) p[4 * t] << 24 | (uint32_t) p[4 * t + 1] << 16
                       | (uint32_t) p[4 * t + 2] << 8 | (uint32_t) p[4 * t + 3];
            for (t = 16; t < 64; t++) {
                uint32_t s0 = SIMCLI_ROTR(w[t - 15], 7) ^ SIMCLI_ROTR(w[t - 15], 18) ^ (w[t - 15] >> 3);
                uint32_t s1 = SIMCLI_ROTR(w[t - 2], 17) ^ SIMCLI_ROTR(w[t - 2], 19) ^ (w[t - 2] >> 10);
                w[t] = w[t - 16] + s0 + w[t - 7] + s1;
            }
            a = state[0]; b = state[1]; c = state[2]; d = state[3];
            e = state[4]; f = state[5]; g = state[6]; h = state[7];
            for (t = 0; t < 64; t++) {
                t1 = h + (SIMCLI_ROTR(e, 6) ^ SIMCLI_ROTR(e, 11) ^ SIMCLI_ROTR(e, 25))
                     + ((e & f) ^ (~e & g)) + simcli_sha_k[t] + w[t];
                t2 = (SIMCLI_ROTR(a, 2) ^ SIMCLI_ROTR(a, 13) ^ SIMCLI_ROTR(a, 22))
                     + ((a & b) ^ (a & c) ^ (b & c));
                h = g; g = f; f = e; e = d + t1;
                d = c; c = b; b = a; a = t1 + t2;
            }
            state[0] += a; state[1] += b; state[2] += c; state[3] += d;
            state[4] += e; state[5] += f; state[6] += g; state[7] += h;
        }
    }

    #if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    #include <cpuid.h>
    #include <immintrin.h>
    #define SIMCLI_SHA_NI 1

    /* The same compression on the SHA extensions: the state as the two halves the
       round instruction takes (ABEF, CDGH), four rounds per group of message words. */
    __attribute__((target("sha,sse4.1,ssse3")))
    static void simcli_sha_blocks_ni(uint32_t *state, const uint8_t *p, size_t n)
    {
        const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
        __m128i dcba = _mm_loadu_si128((const __m128i *) state);
        __m128i hgfe = _mm_loadu_si128((const __m128i *) (state + 4));
        __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
        __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
        __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
        __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
        __m128i w[16], m, abef0, cdgh0;
        int g;
        for (; n; n--, p += 64) {
            abef0 = abef;
            cdgh0 = cdgh;
            for (g = 0; g < 16; g++) {
                if (g < 4) {
                    w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *) (p + 16 * g)), swap);
                } else {
                    m = _mm_sha256msg1_epu32(w[g - 4], w[g - 3]);
                    m = _mm_add_epi32(m, _mm_alignr_epi8(w[g - 1], w[g - 2], 4));
                    w[g] = _mm_sha256msg2_epu32(m, w[g - 1]);
                }
                m = _mm_add_epi32(w[g], _mm_loadu_si128((const __m128i *) (simcli_sha_k + 4 * g)));
                cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);
                abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(m, 0x0E));
            }
            abef = _mm_add_epi32(abef, abef0);
            cdgh = _mm_add_epi32(cdgh, cdgh0);
        }
        {
            __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
            __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
            _mm_storeu_si128((__m128i *) state, _mm_blend_epi16(feba, dchg, 0xF0));
            _mm_storeu_si128((__m128i *) (state + 4), _mm_alignr_epi8(dchg, feba, 8));
        }
    }

    static int simcli_sha_ni_present(void)
    {
        unsigned int a, b, c, d;
        if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1U << 19)) || !(c & (1U << 9)))
            return 0;  /* SSE4.1, SSSE3 */
        if (__get_cpuid_max(0, 0) < 7)
            return 0;
        __cpuid_count(7, 0, a, b, c, d);
        return (b >> 29) & 1U;  /* SHA */
    }
    #else
    #define SIMCLI_SHA_NI 0
    static void simcli_sha_blocks_ni(uint32_t *state, const uint8_t *p, size_t n)
    {
        simcli_sha_blocks_c(state, p, n);
    }
    static int simcli_sha_ni_present(void) { return 0; }
    #endif

    /* the first two words of SHA-256(data) (FIPS 180-4, 5.1.1: the padding) */
    static void simcli_sha_first2(const uint8_t *data, size_t len, int ni, uint32_t *out)
    {
        uint32_t state[8];
        uint8_t tail[128];
        size_t full = len / 64, rest = len % 64, size = rest < 56 ? 64 : 128;
        uint64_t bits = (uint64_t) len * 8;
        int k;
        void (*blocks)(uint32_t *, const uint8_t *, size_t) =
            ni ? simcli_sha_blocks_ni : simcli_sha_blocks_c;
        memcpy(state, simcli_sha_iv, sizeof state);
        blocks(state, data, full);
        memset(tail, 0, sizeof tail);
        memcpy(tail, data + 64 * full, rest);
        tail[rest] = 0x80;
        for (k = 0; k < 8; k++)
            tail[size - 1 - k] = (uint8_t) (bits >> (8 * k));
        blocks(state, tail, size / 64);
        out[0] = state[0];
        out[1] = state[1];
    }
    """
    bint SIMCLI_SHA_NI
    int simcli_sha_ni_present() nogil
    void simcli_sha_first2(const uint8_t *data, size_t size, int ni, uint32_t *out) nogil

cdef const char *HEX = b"0123456789abcdef"

#: Whether this processor has the SHA extensions (and the module their code).
SHA_NI = bool(SIMCLI_SHA_NI and simcli_sha_ni_present())
cdef int _ni = SHA_NI


cdef object _hash16(bytes data, int ni):
    cdef uint32_t words[2]
    cdef char text[16]
    cdef int k
    simcli_sha_first2(<const uint8_t *> PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data), ni, words)
    for k in range(8):
        text[k] = HEX[(words[0] >> (28 - 4 * k)) & 15]
        text[8 + k] = HEX[(words[1] >> (28 - 4 * k)) & 15]
    return PyUnicode_FromStringAndSize(text, 16)


def hash16(bytes data not None):
    """``hashlib.sha256(data).hexdigest()[:16]``."""
    return _hash16(data, _ni)


def hash16_portable(bytes data not None):
    """:func:`hash16` computed in portable C, whatever the processor has (for the checks)."""
    return _hash16(data, 0)


def _agrees():
    """Whether :func:`hash16` and :func:`hash16_portable` give ``hashlib``'s digits here:
    every length across three blocks and the padding's edges (55, 56, 63, 64 bytes of a
    block), and every byte value."""
    samples = [bytes(range(n % 256)) * (1 + n // 256) for n in range(0, 200)]
    samples += [bytes([n % 251 for n in range(size)]) for size in (1000, 4096, 10001)]
    for data in samples:
        expected = hashlib.sha256(data).hexdigest()[:16]
        if hash16(data) != expected or hash16_portable(data) != expected:
            return False
    return True


#: Checked once, when the module is loaded.
AGREES = _agrees()
