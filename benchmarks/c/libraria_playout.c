/* Libraria random playouts in plain C: the physical limit the engine loop is measured against.
 *
 *     libraria_playout GAMES SEED   ->   prints "<seconds> <checksum>"
 *
 * The same work as the engine loop of benchmarks/bench_engines.py, draw for draw: Python's
 * random.Random(SEED) (MT19937 seeded by init_by_array, getrandbits, _randbelow by
 * rejection), the tiles shuffled as random.shuffle does, each placement on a spot drawn
 * uniformly from the free spots kept in increasing order (legal_moves()), the rulebook's
 * opening (seat 1 places two counters first) and scoring. The checksum (the sum over the
 * games of seat 0's score minus seat 1's, plus 1000 times seat 0's wins) equals the
 * engine's for the same seed: the two loops play the same games.
 *
 * Built by bench_engines.py with gcc -O2 on first use (into a cache folder, never
 * committed). Single-threaded; one core.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
} mt_state;

static void init_genrand(mt_state *s, uint32_t seed) {
    s->mt[0] = seed;
    for (int i = 1; i < MT_N; i++)
        s->mt[i] = 1812433253u * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + (uint32_t)i;
    s->index = MT_N;
}

/* CPython's seed of a non-negative int below 2**32: init_by_array with one key word */
static void seed_like_python(mt_state *s, uint32_t seed) {
    uint32_t key[1] = {seed};
    int key_length = 1;
    init_genrand(s, 19650218u);
    int i = 1, j = 0;
    for (int k = MT_N > key_length ? MT_N : key_length; k; k--) {
        s->mt[i] = (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * 1664525u)) + key[j] + j;
        i++;
        j++;
        if (i >= MT_N) {
            s->mt[0] = s->mt[MT_N - 1];
            i = 1;
        }
        if (j >= key_length) j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        s->mt[i] = (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * 1566083941u)) - i;
        i++;
        if (i >= MT_N) {
            s->mt[0] = s->mt[MT_N - 1];
            i = 1;
        }
    }
    s->mt[0] = 0x80000000u;
    s->index = MT_N;
}

static uint32_t genrand_uint32(mt_state *s) {
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t y;
    if (s->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (s->mt[kk] & 0x80000000u) | (s->mt[kk + 1] & 0x7fffffffu);
            s->mt[kk] = s->mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1u];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (s->mt[kk] & 0x80000000u) | (s->mt[kk + 1] & 0x7fffffffu);
            s->mt[kk] = s->mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1u];
        }
        y = (s->mt[MT_N - 1] & 0x80000000u) | (s->mt[0] & 0x7fffffffu);
        s->mt[MT_N - 1] = s->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1u];
        s->index = 0;
    }
    y = s->mt[s->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

/* random.Random._randbelow(n) for 0 < n < 2**32: getrandbits(n.bit_length()) until < n */
static uint32_t randbelow(mt_state *s, uint32_t n) {
    int k = 32 - __builtin_clz(n);
    uint32_t r;
    do {
        r = genrand_uint32(s) >> (32 - k);
    } while (r >= n);
    return r;
}

static int tile_points(int value, int mine, int theirs) {
    if (mine <= theirs) return 0;
    if (theirs == 0) return value >= 0 ? value + 1 : value - 1;
    return value;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s GAMES SEED\n", argv[0]);
        return 2;
    }
    long games = atol(argv[1]);
    mt_state rng;
    seed_like_python(&rng, (uint32_t)atol(argv[2]));

    static const int tile_set[25] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2,
                                     2, 2, 3, 3, 3, 3, 3, -1, -1, -1, -1, -1};
    int corners[25][4];
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 5; c++) {
            int *t = corners[r * 5 + c];
            t[0] = r * 6 + c, t[1] = r * 6 + c + 1, t[2] = (r + 1) * 6 + c, t[3] = (r + 1) * 6 + c + 1;
        }
    int order[36]; /* seat 0 places one, seat 1 two, then they alternate */
    order[0] = 0, order[1] = 1, order[2] = 1;
    for (int n = 3; n < 36; n++) order[n] = (n - 3) % 2;
    int full[7][5][2]; /* (seat 0's, seat 1's) points of a full tile of value v-1 by ones */
    for (int v = -1; v <= 3; v++)
        for (int ones = 0; ones <= 4; ones++) {
            full[v + 1][ones][0] = tile_points(v, 4 - ones, ones);
            full[v + 1][ones][1] = tile_points(v, ones, 4 - ones);
        }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long long checksum = 0;
    for (long g = 0; g < games; g++) {
        int tiles[25], board[36], free_spots[36];
        for (int i = 0; i < 25; i++) tiles[i] = tile_set[i];
        for (int i = 24; i > 0; i--) { /* random.shuffle */
            int j = (int)randbelow(&rng, (uint32_t)(i + 1));
            int t = tiles[i];
            tiles[i] = tiles[j], tiles[j] = t;
        }
        for (int i = 0; i < 36; i++) free_spots[i] = i;
        int nfree = 36;
        for (int ply = 0; ply < 36; ply++) {
            int i = (int)randbelow(&rng, (uint32_t)nfree);
            board[free_spots[i]] = order[ply];
            for (int k = i + 1; k < nfree; k++) free_spots[k - 1] = free_spots[k]; /* list.remove */
            nfree--;
        }
        int a = 0, b = 0;
        for (int t = 0; t < 25; t++) {
            const int *q = corners[t];
            int ones = board[q[0]] + board[q[1]] + board[q[2]] + board[q[3]];
            a += full[tiles[t] + 1][ones][0];
            b += full[tiles[t] + 1][ones][1];
        }
        checksum += (a - b) + (a > b ? 1000 : 0);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("%.9f %lld\n", seconds, checksum);
    return 0;
}
