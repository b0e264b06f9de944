# C types of playout.py for the compiled path (Cython "pure Python mode": the .py is the
# only source; this file only declares types). The lists play_out starts from become C
# arrays of the sizes written here (MAX_BOOKS 64, MAX_PLAYERS 4, MAX_CARDS 256).
import cython

cdef dict CODES
cdef tuple KINDS
cdef tuple DISTANCES
cdef long ROW_PLAYS, MASTER_PLAYS, SWITCH_PLAYS, REVERSE_PLAY, EXCHANGE_PLAYS
cdef long LEFT_CODE, RIGHT_CODE

@cython.locals(i=cython.Py_ssize_t)
cdef int run_ends(int* items, Py_ssize_t start, Py_ssize_t size, int* ends) noexcept

@cython.locals(found=cython.Py_ssize_t, last=cython.Py_ssize_t, p=cython.Py_ssize_t,
               left=cython.bint, right=cython.bint)
cdef Py_ssize_t shift_play(int* ends, Py_ssize_t size, Py_ssize_t distance,
                           Py_ssize_t nth) noexcept

@cython.locals(found=cython.Py_ssize_t, i=cython.Py_ssize_t, j=cython.Py_ssize_t)
cdef Py_ssize_t pair_play(int* items, Py_ssize_t a, Py_ssize_t b, Py_ssize_t step,
                          Py_ssize_t count, Py_ssize_t nth) noexcept

@cython.locals(moved=cython.int, k=cython.Py_ssize_t)
cdef int shift_item(int* items, Py_ssize_t start, Py_ssize_t p, Py_ssize_t q) noexcept

@cython.locals(k=cython.Py_ssize_t, s=cython.Py_ssize_t, previous=cython.int, r=cython.int,
               base=cython.Py_ssize_t, i=cython.Py_ssize_t)
cdef Py_ssize_t first_sorted_seat(int* books, int* rank, Py_ssize_t players, Py_ssize_t size,
                                  Py_ssize_t seat) noexcept

@cython.locals(seen=cython.int[13], c=cython.Py_ssize_t, k=cython.Py_ssize_t,
               j=cython.Py_ssize_t)
cdef int keyed_pile(int* pile, Py_ssize_t count, double* keys, int* first, double* pile_keys,
                    int* order, int* out) noexcept

@cython.locals(n=cython.Py_ssize_t, k=cython.Py_ssize_t, code=cython.Py_ssize_t)
cdef bint card_codes(object cards, int* out, Py_ssize_t start, int* counts,
                     int* copies) except -1

@cython.locals(books=cython.int[256], master=cython.int[64], rank=cython.int[64],
               ends=cython.int[64], master_ends=cython.int[64], hands=cython.int[1024],
               held=cython.int[4], partners=cython.int[4], draw=cython.int[256],
               pile=cython.int[256], keys=cython.double[256], pile_keys=cython.double[256],
               order=cython.int[256], first=cython.int[13], copies=cython.int[13],
               counts=cython.int[13], kinds=cython.int[13], distances=cython.int[13],
               players=cython.Py_ssize_t, colours=cython.Py_ssize_t, size=cython.Py_ssize_t,
               c=cython.Py_ssize_t, s=cython.Py_ssize_t, i=cython.Py_ssize_t,
               j=cython.Py_ssize_t, k=cython.Py_ssize_t, u=cython.Py_ssize_t,
               colour=cython.Py_ssize_t, top=cython.Py_ssize_t, bottom=cython.Py_ssize_t,
               discarded=cython.Py_ssize_t, mirrored=cython.bint, turns=cython.Py_ssize_t,
               max_turns=cython.Py_ssize_t, winner=cython.Py_ssize_t, reshuffle=cython.bint,
               master_moved=cython.bint, played=cython.Py_ssize_t, seat=cython.Py_ssize_t,
               base=cython.Py_ssize_t, hand_at=cython.Py_ssize_t, cards=cython.long,
               other=cython.Py_ssize_t, start=cython.Py_ssize_t, step=cython.Py_ssize_t,
               total=cython.Py_ssize_t, types=cython.Py_ssize_t, kind=cython.long,
               n=cython.Py_ssize_t, nth=cython.Py_ssize_t, card=cython.Py_ssize_t,
               at=cython.Py_ssize_t, length=cython.Py_ssize_t, code=cython.Py_ssize_t,
               p=cython.Py_ssize_t, q=cython.Py_ssize_t, count=cython.Py_ssize_t,
               items=cython.p_int)
cpdef Py_ssize_t play_out(object state, object rng, object randbelow,
                          Py_ssize_t limit) except -2

@cython.locals(size=cython.Py_ssize_t, s=cython.Py_ssize_t, i=cython.Py_ssize_t,
               k=cython.Py_ssize_t)
cdef int write_back(object state, int* books, int* master, int* hands, int* held, int* draw,
                    Py_ssize_t top, Py_ssize_t bottom, int* pile,
                    Py_ssize_t discarded) except -1
