# C types of playout.py for the compiled path (Cython "pure Python mode": the .py is the
# only source; this file only declares types).
import cython

ctypedef unsigned long long mask
ctypedef long long num

cdef num SIZE, CELLS, FOUNTAIN, LINE_GAPS, EMPTY, FOUNTAIN_MARK
cdef num PLATE, ROLL, WALL, PUSH, TOPPLE, PASS_KIND
cdef mask ONE, ALL_CELLS, ALL_GAPS, M_1, M_2, M_4, M_BYTES, M_64
cdef mask K_LOW_1, K_LOW_2, K_LOW_4, K_HIGH_1, K_HIGH_2, K_HIGH_4

cdef num popcount(mask x) noexcept
cdef num nth_bit(mask x, num n) noexcept
@cython.locals(a=mask)
cdef mask h_after(mask e) noexcept
@cython.locals(a=mask)
cdef mask h_before(mask e) noexcept
@cython.locals(a=mask)
cdef mask v_after(mask e) noexcept
@cython.locals(a=mask)
cdef mask v_before(mask e) noexcept

@cython.locals(kept=mask)
cdef mask moved(mask plane, mask run, num step) noexcept


cdef class Board:
    cdef num players, sphere, turn, forbid, winner, max_turns, lead
    cdef num opening[32]
    cdef num entrance[49]
    cdef num left[4]
    cdef bint stock, pull, only_mover, any_roll, line_topple, toward_own
    cdef mask walk, c0, c1, hocc, h0, h1, vocc, v0, v1
    cdef num empty_cells, empty_gaps

    cdef void add_wall(self, bint horizontal, num pos, num owner) noexcept
    @cython.locals(cell=num, gap=num)
    cdef store(self, object state)
    @cython.locals(pos=num, nxt=num, col=num, blocked=mask, walk=mask)
    cdef num slide(self, num start, num d) noexcept
    @cython.locals(s=num)
    cdef void pull_sphere(self, num cell) noexcept
    cdef num distance(self, num a, num b) noexcept
    @cython.locals(s=num, out=mask, d=num, end=num, home=num)
    cdef mask rolls(self, num seat) noexcept
    @cython.locals(cell=num)
    cdef num entrance_cell(self, num seat) noexcept
    @cython.locals(keep=mask, bit=mask)
    cdef void fell(self, bint horizontal, num pos, num target, num seat) noexcept
    @cython.locals(occ=mask, step=num, start=num, first=num, last=num, col=num)
    cdef void topple(self, bint horizontal, num pos, num side, num seat) noexcept
    cdef num fall_target(self, bint horizontal, num pos, num side) noexcept
    @cython.locals(step=num, occ=mask, run=mask, end=num)
    cdef void push(self, bint horizontal, num pos, bint inc) noexcept
    cdef num seat_to_move(self) noexcept
    @cython.locals(seat=num, odd=mask, high=mask, own_h=mask, own_v=mask, empty_h=mask,
                   empty_v=mask, dec_h=mask, inc_h=mask, dec_v=mask, inc_v=mask, walls=num,
                   pushes=num, own=num, rolls=mask, n=num, start=num, kind=num, end=num,
                   owner=num)
    cdef play(self, object randbelow, num plies)
    @cython.locals(cell=num, bit=mask, empty_h=mask, count=num, pushes=mask,
                   horizontal=bint, pos=num, d=num)
    cdef num play_drawn(self, num r, num seat, num walls, mask dec_h, mask inc_h, mask dec_v,
                        mask inc_v, mask own_h, mask own_v, mask rolls) noexcept


@cython.locals(board=Board)
cpdef play_out(object state, object randbelow, num plies)
