# Hardware loops and the address register they feed (issue 11; docs/semantics.md "Hardware loops").
# m.hwloop holds NUM_LOOPS rows of (index, count), innermost first; a level no loop occupies is (0, 0).
# The loader pairs each vloop with its endloop (ins.partner) and the assembler keeps branches from
# crossing a loop's boundary, so the levels follow the program's nesting.

cdef inline void shift_loops_out(Machine* m) noexcept nogil:
    """Entering a loop: every active loop moves one level out (the outermost of four would drop off,
    which the loader's nesting check rules out)."""
    memmove(&m.hwloop[2], &m.hwloop[0], (NUM_LOOPS - 1) * 2 * sizeof(int64_t))


cdef inline void shift_loops_in(Machine* m) noexcept nogil:
    """Leaving the innermost loop: the enclosing loops move one level in; the outermost level is free."""
    memmove(&m.hwloop[0], &m.hwloop[2], (NUM_LOOPS - 1) * 2 * sizeof(int64_t))
    m.hwloop[2 * (NUM_LOOPS - 1) + LOOP_INDEX] = 0
    m.hwloop[2 * (NUM_LOOPS - 1) + LOOP_COUNT] = 0


# vloop X  -- the count read once, 0..65535; 0 skips the body (to the row after the matching endloop)
cdef inline int k_loop(Machine* m, const Ins* ins, const Args_loop* a) noexcept nogil:
    cdef int64_t count = sval(&a.x)
    if count < 0 or count > MAX_LOOP_COUNT:
        return fault(m, STOP_LOOP_COUNT, count, MAX_LOOP_COUNT)
    if count == 0:
        m.next = m.code + ins.partner + 1
        return STOP_RUNNING
    shift_loops_out(m)
    m.hwloop[LOOP_INDEX] = 0
    m.hwloop[LOOP_COUNT] = count
    m.next = ins + 1
    return STOP_RUNNING


# endloop  -- the innermost loop's index + 1: below its count, back to the first row of the body
cdef inline int k_endloop(Machine* m, const Ins* ins, const Args_endloop* a) noexcept nogil:
    cdef int64_t index = m.hwloop[LOOP_INDEX] + 1
    if index < m.hwloop[LOOP_COUNT]:
        m.hwloop[LOOP_INDEX] = index
        m.next = m.code + ins.partner + 1
        return STOP_RUNNING
    shift_loops_in(m)
    m.next = ins + 1
    return STOP_RUNNING


# vag aD.bW, X0, [X1], [X2], [X3]  -- aD = (lidx0*X0 + lidx1*X1 + lidx2*X2 + lidx3*X3) * W bytes, modulo 2^32
cdef inline int k_iter_loops(Machine* m, const Ins* ins, const Args_iter_loops* a) noexcept nogil:
    cdef const int64_t* loop = m.hwloop
    cdef uint64_t elements = (<uint64_t>loop[0] * <uint64_t>sval(&a.x0) + <uint64_t>loop[2] * <uint64_t>sval(&a.x1)
                              + <uint64_t>loop[4] * <uint64_t>sval(&a.x2) + <uint64_t>loop[6] * <uint64_t>sval(&a.x3))
    m.areg[a.aD] = <uint32_t>(elements * <uint64_t>ins.tw)
    return STOP_RUNNING
