"""Kernels of the data moves between global memory and the UB, their loop and pad settings, the system
variables and the synchronisation flags (docs/semantics.md "Data moves", "Synchronisation"). A gm2ub
marks the UB bytes it writes as written since the latest wait, so a load or store of them before a
waitflag, pipebar or membar is a hazard; the data moves do not scan their own UB bytes.
"""
include "engine.pxi"


cdef enum:
    MAX_BURSTS = 4095
    MAX_BURST_LEN = 2097151
    MAX_LOOP_ITERATIONS = 256           # loop1 * loop2 of one data move (ascasm/state.py)
    # BAD_MOVE's first argument (ascasm/ref/datamove.py)
    BAD_COUNT = 0
    BAD_LENGTH = 1
    BAD_ELEMENT = 2
    BAD_LEFT = 3
    BAD_RIGHT = 4
    BAD_ITERATIONS = 5
    BAD_PIPE = 6
    BAD_EVENT = 7
    BAD_LOOP = 8
    BAD_UB_STRIDE_SETTING = 9
    BAD_GM_STRIDE_SETTING = 10
    BAD_UB_STRIDE = 11
    BAD_SIZE = 12
    BAD_CACHE_MODE = 13
    BAD_XPENDING = 14
    PIPE_S = 0
    PIPE_ALL = 6
    LOG_GM_READ = 2                     # write-log kinds of GM records (ascasm/state.py)
    LOG_GM_WRITE = 3

cdef int64_t LOOP_LIMIT = 1 << 21, UB_STRIDE_LIMIT = 1 << 21, GM_STRIDE_LIMIT = (<int64_t>1) << 40


cdef inline int64_t offset(int64_t base, int64_t extra, int64_t k, int64_t stride) noexcept nogil:
    """base + extra + k * stride in wrapping 64-bit arithmetic."""
    return <int64_t>(<uint64_t>base + <uint64_t>extra + <uint64_t>k * <uint64_t>stride)


cdef inline int64_t logged(int64_t n, int64_t stride) noexcept nogil:
    """The bursts a log record counts: n, or 1 when all touch the same bytes (stride 0; ref's _logged)."""
    return n if stride != 0 else 1


cdef inline int check_gm(Machine* m, int64_t addr, int64_t size) noexcept nogil:
    """Every byte of [addr, addr + size) inside one of GM's buffers."""
    if addr >= 0 and addr <= m.gm_size - size and in_sorted(m.gm_regions, m.n_gm_regions, addr, size):
        return STOP_RUNNING
    return fault(m, STOP_GM_RANGE, addr, size)


cdef inline int64_t epoch(Machine* m) noexcept nogil:
    """The cross-core waits this block has passed (ref's _epoch)."""
    cdef int64_t total = 0, k
    for k in range(XSYNC_COLUMNS):
        total += m.xsync[XSYNC_COLUMNS + k]
    return total


cdef inline int check_conflict(Machine* m, int64_t addr, int64_t size, bint writing) noexcept nogil:
    """GM bytes another block wrote with no cross-core synchronisation since (ref's _check_conflict);
    the span is inside GM (check_gm passed)."""
    cdef int64_t k, last = 0, entry, block, other = -1, first = -1
    cdef int64_t me = m.sysreg[0], now = epoch(m)
    if m.n_gm_writer == 0:
        return STOP_RUNNING
    for k in range(size):
        entry = m.gm_writer[addr + k]
        block = (entry & <int64_t>0xFFFFFFFF) - 1
        if entry != 0 and block != me and (entry >> 32) >= now:
            if first < 0:
                first, other = k, block
            elif block != other:
                break
            last = k
        elif first >= 0:
            break
    if first < 0:
        return STOP_RUNNING
    return fault(m, STOP_GM_CONFLICT, addr + first, addr + last + 1, other, writing)


cdef inline int check_bursts(Machine* m, int64_t n, int64_t length, int64_t ub_stride) noexcept nogil:
    if not 1 <= n <= MAX_BURSTS:
        return fault(m, STOP_BAD_MOVE, BAD_COUNT, n)
    if not 1 <= length <= MAX_BURST_LEN:
        return fault(m, STOP_BAD_MOVE, BAD_LENGTH, length)
    if ub_stride != length and ub_stride % 32:
        return fault(m, STOP_BAD_MOVE, BAD_UB_STRIDE, ub_stride)
    return STOP_RUNNING


cdef inline int iterations(Machine* m, int64_t first, int64_t* source, int64_t* destination,
                           int64_t* count) noexcept nogil:
    """The source and destination offsets of each loop iteration (loop2 outer) by the settings at
    mte[first] (first -1: one iteration at offset 0); their number in count."""
    cdef int64_t i, j
    cdef const int64_t* s
    if first < 0:
        source[0], destination[0], count[0] = 0, 0, 1
        return STOP_RUNNING
    s = m.mte + first
    # (the rows keep the counts below 2^21; a state set from outside is checked all the same)
    if not (0 <= s[0] < LOOP_LIMIT and 0 <= s[1] < LOOP_LIMIT) or s[0] * s[1] > MAX_LOOP_ITERATIONS:
        return fault(m, STOP_BAD_MOVE, BAD_ITERATIONS, s[0], s[1])
    count[0] = 0
    for j in range(s[1]):
        for i in range(s[0]):
            source[count[0]] = <int64_t>(<uint64_t>j * <uint64_t>s[4] + <uint64_t>i * <uint64_t>s[2])
            destination[count[0]] = <int64_t>(<uint64_t>j * <uint64_t>s[5] + <uint64_t>i * <uint64_t>s[3])
            count[0] += 1
    return STOP_RUNNING


cdef inline int move_from_gm(Machine* m, const Ins* ins, int64_t ub, int64_t gm, int64_t n, int64_t length,
                             int64_t gm_stride, int64_t ub_stride, int64_t width, bint padded, int64_t left,
                             int64_t right, bint constant) noexcept nogil:
    """gm2ub (padded false) and gm2ub.align: as ascasm/ref/datamove.py _move_from_gm, check for check."""
    cdef int64_t source[MAX_LOOP_ITERATIONS]
    cdef int64_t destination[MAX_LOOP_ITERATIONS]
    cdef int64_t count, it, k, b, g, u, size = length
    cdef uint8_t fill[4]
    cdef uint8_t* to
    cdef int status = check_bursts(m, n, length, ub_stride)
    if status:
        return status
    if padded:
        if length % width:
            return fault(m, STOP_BAD_MOVE, BAD_ELEMENT, length, width)
        # counts compared before multiplying: a huge count times the width would wrap into range
        if not 0 <= left <= 32 // width:
            return fault(m, STOP_BAD_MOVE, BAD_LEFT, left, width)
        if not 0 <= right <= 32 // width:
            return fault(m, STOP_BAD_MOVE, BAD_RIGHT, right, width)
        size = (left * width + length + right * width + 31) // 32 * 32
    status = check_align(m, ub, 32) or iterations(m, MTE_GM2UB if padded else -1, source, destination, &count)
    if status:
        return status
    for it in range(count):
        for k in range(n):
            status = check_gm(m, offset(gm, source[it], k, gm_stride), length) \
                or check_conflict(m, offset(gm, source[it], k, gm_stride), length, False) \
                or check_range(m, offset(ub, destination[it], k, ub_stride), size, -1, -1)
            if status:
                return status
    for b in range(width):
        fill[b] = <uint8_t>(m.mte[MTE_PAD] >> (8 * b))
    m.row = ins.row
    for it in range(count):
        for k in range(n):
            g, u = offset(gm, source[it], k, gm_stride), offset(ub, destination[it], k, ub_stride)
            to = m.ub + u
            if padded:
                for b in range(size):
                    to[b] = m.gm[g + b % width] if not constant else fill[b % width]
            memcpy(to + left * width, m.gm + g, length)
            wrote(m, u, size)               # in flight until a wait: a hazard to read before one
        log_span(m, LOG_GM_READ, offset(gm, source[it], 0, 0), length, logged(n, gm_stride), gm_stride,
                 -1, -1, -1)
        log_span(m, 1, offset(ub, destination[it], 0, 0), size, logged(n, ub_stride), ub_stride, -1, -1, -1)
    return STOP_RUNNING


# gm2ub [ub], [gm], sN, sLen, sGS, sUS
cdef inline int k_gm2ub(Machine* m, const Ins* ins, const Args_gm2ub* a) noexcept nogil:
    return move_from_gm(m, ins, address(&a.ub), address(&a.gm), m.sreg[a.sN], m.sreg[a.sLen], m.sreg[a.sGS],
                        m.sreg[a.sUS], 1, False, 0, 0, False)


# gm2ub.align.b8|b16|b32 [ub], [gm], sN, sLen, sLP, sRP, sC, sGS, sUS
cdef inline int k_gm2ub_align(Machine* m, const Ins* ins, const Args_gm2ub_align* a, gm2ub_align_sub* op) noexcept nogil:
    cdef int64_t width = 1 if gm2ub_align_sub is Op_b8 else 2 if gm2ub_align_sub is Op_b16 else 4
    return move_from_gm(m, ins, address(&a.ub), address(&a.gm), m.sreg[a.sN], m.sreg[a.sLen], m.sreg[a.sGS],
                        m.sreg[a.sUS], width, True, m.sreg[a.sLP], m.sreg[a.sRP], m.sreg[a.sC] != 0)


cdef inline int move_to_gm(Machine* m, const Ins* ins, int64_t gm, int64_t ub, int64_t n, int64_t length,
                           int64_t gm_stride, int64_t ub_stride, int64_t loops) noexcept nogil:
    """ub2gm (loops -1) and ub2gm.align (loops MTE_UB2GM): as ascasm/ref/datamove.py ub2gm."""
    cdef int64_t source[MAX_LOOP_ITERATIONS]
    cdef int64_t destination[MAX_LOOP_ITERATIONS]
    cdef int64_t count, it, k, g, b, mark
    cdef int status = check_bursts(m, n, length, ub_stride) or check_align(m, ub, 32) \
        or iterations(m, loops, source, destination, &count)
    if status:
        return status
    for it in range(count):
        for k in range(n):
            status = check_range(m, offset(ub, source[it], k, ub_stride), length, -1, -1) \
                or check_gm(m, offset(gm, destination[it], k, gm_stride), length) \
                or check_conflict(m, offset(gm, destination[it], k, gm_stride), length, True)
            if status:
                return status
    m.row = ins.row
    mark = (epoch(m) << 32) | (m.sysreg[0] + 1)
    for it in range(count):
        for k in range(n):
            g = offset(gm, destination[it], k, gm_stride)
            memcpy(m.gm + g, m.ub + offset(ub, source[it], k, ub_stride), length)
            if m.n_gm_writer:
                for b in range(length):
                    m.gm_writer[g + b] = mark
        log_span(m, 0, offset(ub, source[it], 0, 0), length, logged(n, ub_stride), ub_stride, -1, -1, -1)
        log_span(m, LOG_GM_WRITE, offset(gm, destination[it], 0, 0), length, logged(n, gm_stride), gm_stride,
                 -1, -1, -1)
    return STOP_RUNNING


# ub2gm|ub2gm.align [gm], [ub], sN, sLen, sGS, sUS  -- .align: in the ub2gm loops
cdef inline int k_ub2gm(Machine* m, const Ins* ins, const Args_ub2gm* a, ub2gm_sub* op) noexcept nogil:
    return move_to_gm(m, ins, address(&a.gm), address(&a.ub), m.sreg[a.sN], m.sreg[a.sLen], m.sreg[a.sGS],
                      m.sreg[a.sUS], MTE_UB2GM if ub2gm_sub is Op_loop else -1)


# gm2ub [ub], [gm], sSize  -- one burst, sSize a multiple of 32
cdef inline int k_gm2ub_size(Machine* m, const Ins* ins, const Args_gm2ub_size* a) noexcept nogil:
    cdef int64_t size = m.sreg[a.sSize]
    if size % 32:
        return fault(m, STOP_BAD_MOVE, BAD_SIZE, size)
    return move_from_gm(m, ins, address(&a.ub), address(&a.gm), 1, size, size, size, 1, False, 0, 0, False)


# ub2gm [gm], [ub], sSize  -- one burst, sSize a multiple of 32
cdef inline int k_ub2gm_size(Machine* m, const Ins* ins, const Args_ub2gm_size* a) noexcept nogil:
    cdef int64_t size = m.sreg[a.sSize]
    if size % 32:
        return fault(m, STOP_BAD_MOVE, BAD_SIZE, size)
    return move_to_gm(m, ins, address(&a.gm), address(&a.ub), 1, size, size, size, -1)


# sprset.gm2ub.loop|stride1|stride2 sA, sB (and sprset.ub2gm.*)
cdef inline int k_mte_set(Machine* m, const Ins* ins, const Args_mte_set* a, mte_set_sub* op) noexcept nogil:
    cdef int64_t x = m.sreg[a.sA], y = m.sreg[a.sB], gm_stride, ub_stride, at
    cdef bint to_ub = mte_set_sub is Op_gm2ub_loop or mte_set_sub is Op_gm2ub_stride1 or mte_set_sub is Op_gm2ub_stride2
    cdef int64_t first = MTE_GM2UB if to_ub else MTE_UB2GM
    if mte_set_sub is Op_gm2ub_loop or mte_set_sub is Op_ub2gm_loop:
        if not 0 <= x < LOOP_LIMIT:
            return fault(m, STOP_BAD_MOVE, BAD_LOOP, x)
        if not 0 <= y < LOOP_LIMIT:
            return fault(m, STOP_BAD_MOVE, BAD_LOOP, y)
        m.mte[first], m.mte[first + 1] = x, y
        return STOP_RUNNING
    gm_stride = x if to_ub else y               # the pair is (source, destination)
    ub_stride = y if to_ub else x
    if not 0 <= gm_stride < GM_STRIDE_LIMIT:
        return fault(m, STOP_BAD_MOVE, BAD_GM_STRIDE_SETTING, gm_stride)
    if not 0 <= ub_stride < UB_STRIDE_LIMIT or ub_stride % 32:
        return fault(m, STOP_BAD_MOVE, BAD_UB_STRIDE_SETTING, ub_stride)
    at = first + (2 if mte_set_sub is Op_gm2ub_stride1 or mte_set_sub is Op_ub2gm_stride1 else 4)
    m.mte[at], m.mte[at + 1] = x, y
    return STOP_RUNNING


cdef inline bint cache_mode_ok(int64_t mode, bint load) noexcept nogil:
    """asc_load_l2_cache_mode's values 0, 1, 2, 4, 5, 6; asc_store_l2_cache_mode's 0, 1, 2, 4."""
    return 0 <= mode <= (6 if load else 4) and mode != 3


# gm2ub.align.b8|b16|b32 [ub], [gm], sN, sLen, sLP, sRP, sC, X, sGS, sUS  -- X the L2 cache mode: no effect
cdef inline int k_gm2ub_align_cache(Machine* m, const Ins* ins, const Args_gm2ub_align_cache* a,
                                    gm2ub_align_cache_sub* op) noexcept nogil:
    cdef int64_t width = 1 if gm2ub_align_cache_sub is Op_b8 else 2 if gm2ub_align_cache_sub is Op_b16 else 4
    cdef int64_t mode = sval(&a.x)
    if not cache_mode_ok(mode, True):
        return fault(m, STOP_BAD_MOVE, BAD_CACHE_MODE, mode)
    return move_from_gm(m, ins, address(&a.ub), address(&a.gm), m.sreg[a.sN], m.sreg[a.sLen], m.sreg[a.sGS],
                        m.sreg[a.sUS], width, True, m.sreg[a.sLP], m.sreg[a.sRP], m.sreg[a.sC] != 0)


# ub2gm.align [gm], [ub], sN, sLen, X, sGS, sUS  -- X the L2 cache mode: no effect
cdef inline int k_ub2gm_cache(Machine* m, const Ins* ins, const Args_ub2gm_cache* a) noexcept nogil:
    cdef int64_t mode = sval(&a.x)
    if not cache_mode_ok(mode, False):
        return fault(m, STOP_BAD_MOVE, BAD_CACHE_MODE, mode)
    return move_to_gm(m, ins, address(&a.gm), address(&a.ub), m.sreg[a.sN], m.sreg[a.sLen], m.sreg[a.sGS],
                      m.sreg[a.sUS], MTE_UB2GM)


# sprset.pad sA
cdef inline int k_pad_set(Machine* m, const Ins* ins, const Args_pad_set* a) noexcept nogil:
    m.mte[MTE_PAD] = <int64_t>(<uint32_t>m.sreg[a.sA])      # the low 32 bits
    return STOP_RUNNING


# blkidx sD | blknum sD
cdef inline int k_sysvar(Machine* m, const Ins* ins, const Args_sysvar* a, sysvar_sub* op) noexcept nogil:
    m.sreg[a.sD] = m.sysreg[0 if sysvar_sub is Op_idx else 1]
    return STOP_RUNNING


cdef inline int check_pipe(Machine* m, int64_t pipe, bint barrier) noexcept nogil:
    """One of the pipes; PIPE_ALL only for a barrier, PIPE_S never there."""
    if not 0 <= pipe < NUM_PIPES or pipe == (PIPE_S if barrier else PIPE_ALL):
        return fault(m, STOP_BAD_MOVE, BAD_PIPE, pipe)
    return STOP_RUNNING


# setflag|waitflag X0, X1, X2  -- pipe, target pipe, event
cdef inline int k_sync_flag(Machine* m, const Ins* ins, const Args_sync_flag* a, sync_flag_sub* op) noexcept nogil:
    cdef int64_t source = sval(&a.x0), target = sval(&a.x1), event = sval(&a.x2)
    cdef int64_t* flag
    cdef int status = check_pipe(m, source, False) or check_pipe(m, target, False)
    if status:
        return status
    if not 0 <= event < NUM_EVENTS:
        return fault(m, STOP_BAD_MOVE, BAD_EVENT, event)
    flag = &m.flags[(source * NUM_PIPES + target) * NUM_EVENTS + event]
    if sync_flag_sub is Op_set:
        flag[0] += 1
    elif flag[0] == 0:
        return fault(m, STOP_SYNC_UNPAIRED, source, target, event)
    else:
        flag[0] -= 1
        end_hazard_window(m)
    return STOP_RUNNING


# pipebar X  -- a wait: it ends the hazard window as membar does
cdef inline int k_sync_pipe(Machine* m, const Ins* ins, const Args_sync_pipe* a) noexcept nogil:
    cdef int status = check_pipe(m, sval(&a.x), True)
    if status == STOP_RUNNING:
        end_hazard_window(m)
    return status


cdef inline int cross_wait(Machine* m, int64_t column) noexcept nogil:
    """Take one from this block's counter of a cross-core flag (column NUM_XFLAGS: SyncAll's), or stop
    WAITING with the pc on the wait (ref's _cross_wait)."""
    if m.xsync[2 * XSYNC_COLUMNS + column] <= m.xsync[XSYNC_COLUMNS + column]:
        return fault(m, STOP_WAITING, column)
    m.xsync[XSYNC_COLUMNS + column] += 1
    return STOP_RUNNING


# crossset X0, X1  -- from pipe X0, cross-core flag X1 (its low 4 bits)
cdef inline int k_cross_set(Machine* m, const Ins* ins, const Args_cross_set* a) noexcept nogil:
    cdef int64_t pipe = sval(&a.x0), flag = sval(&a.x1) & (NUM_XFLAGS - 1)
    if not 0 <= pipe < NUM_PIPES or pipe == PIPE_S or pipe == PIPE_ALL:
        return fault(m, STOP_BAD_MOVE, BAD_PIPE, pipe)
    if m.xsync[flag] - m.xsync[XSYNC_COLUMNS + flag] >= MAX_XPENDING:
        return fault(m, STOP_BAD_MOVE, BAD_XPENDING, flag)
    m.xsync[flag] += 1
    return STOP_RUNNING


# crosswait X  -- cross-core flag X (its low 4 bits)
cdef inline int k_cross_wait(Machine* m, const Ins* ins, const Args_cross_wait* a) noexcept nogil:
    return cross_wait(m, sval(&a.x) & (NUM_XFLAGS - 1))


# syncall  -- arrive once (not again when resumed from its wait), then wait for every block
cdef inline int k_sync_all(Machine* m, const Ins* ins, const Args_sync_all* a) noexcept nogil:
    if m.xsync[NUM_XFLAGS] == m.xsync[XSYNC_COLUMNS + NUM_XFLAGS]:
        m.xsync[NUM_XFLAGS] += 1
    return cross_wait(m, NUM_XFLAGS)


include "dispatch_datamove.pxi"      # generated: this module's kernels in the KERNELS table
