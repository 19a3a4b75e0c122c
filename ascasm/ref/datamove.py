"""Data moves between global memory and the UB, their loop and pad settings, the system variables and
the synchronisation flags (docs/semantics.md "Data moves", "Synchronisation")."""
from __future__ import annotations

import numpy as np

from ..program import Insn
from ..state import (GM_WRITER_BLOCK_BITS, LOG_GM_READ, LOG_GM_WRITE, LOG_READ, LOG_WRITE, MAX_LOOP_ITERATIONS,
                     MAX_XPENDING, MTE_GM2UB, MTE_L1_DST, MTE_L1_SRC, MTE_L2_DST, MTE_L2_SRC, MTE_LOOP1, MTE_LOOP2,
                     MTE_PAD, MTE_UB2GM, NUM_EVENTS, NUM_PIPES, NUM_XFLAGS, PIPE_ALL, PIPES, SYS_BLOCK_IDX,
                     SYS_BLOCK_NUM, XSYNC_ROUNDS, XSYNC_SETS, XSYNC_SYNCALL, XSYNC_WAITS)
from .machine import Fault, Machine, wrap64

# BAD_MOVE's first argument: which rule a data move, a setting or a flag broke (vm.fault_message words them)
(BAD_COUNT, BAD_LENGTH, BAD_ELEMENT, BAD_LEFT, BAD_RIGHT, BAD_ITERATIONS, BAD_PIPE, BAD_EVENT, BAD_LOOP,
 BAD_UB_STRIDE_SETTING, BAD_GM_STRIDE_SETTING, BAD_UB_STRIDE, BAD_SIZE, BAD_CACHE_MODE, BAD_XPENDING) = range(15)
MAX_BURSTS, MAX_BURST_LEN = 4095, 2097151
LOOP_LIMIT, UB_STRIDE_LIMIT, GM_STRIDE_LIMIT = 1 << 21, 1 << 21, 1 << 40
LOAD_CACHE_MODES, STORE_CACHE_MODES = (0, 1, 2, 4, 5, 6), (0, 1, 2, 4)   # asc_load/store_l2_cache_mode's values


def _bursts(m: Machine, insn: Insn) -> tuple[int, int, int, int]:
    """The burst count, length and GM and UB strides, checked (the pages' ranges; a UB stride other than
    the length 32-byte aligned); the size form's one burst."""
    if insn.spec.form == "size":                # one burst of sSize bytes, a multiple of 32 (the pages' rule)
        size = m.sreg(insn.operand("sSize"))
        if size % 32:
            raise Fault("BAD_MOVE", BAD_SIZE, size)
        n, length, gm_stride, ub_stride = 1, size, size, size
    else:
        n, length, gm_stride, ub_stride = (m.sreg(insn.operand(name)) for name in ("sN", "sLen", "sGS", "sUS"))
    if not 1 <= n <= MAX_BURSTS:
        raise Fault("BAD_MOVE", BAD_COUNT, n)
    if not 1 <= length <= MAX_BURST_LEN:
        raise Fault("BAD_MOVE", BAD_LENGTH, length)
    if ub_stride != length and ub_stride % 32:
        raise Fault("BAD_MOVE", BAD_UB_STRIDE, ub_stride)
    return n, length, gm_stride, ub_stride


def _iterations(m: Machine, first: int | None) -> list[tuple[int, int]]:
    """(source offset, destination offset) of each loop iteration of a data move, loop2 outer; `first`
    the index of its direction's settings in mte, None for a move without loops."""
    if first is None:
        return [(0, 0)]
    mte = [int(x) for x in m.state.mte[first:first + 6]]
    loop1, loop2 = mte[MTE_LOOP1], mte[MTE_LOOP2]        # (a state set from outside is checked too)
    if not (0 <= loop1 < LOOP_LIMIT and 0 <= loop2 < LOOP_LIMIT) or loop1 * loop2 > MAX_LOOP_ITERATIONS:
        raise Fault("BAD_MOVE", BAD_ITERATIONS, mte[MTE_LOOP1], mte[MTE_LOOP2])
    return [(j * mte[MTE_L2_SRC] + i * mte[MTE_L1_SRC], j * mte[MTE_L2_DST] + i * mte[MTE_L1_DST])
            for j in range(mte[MTE_LOOP2]) for i in range(mte[MTE_LOOP1])]


def _logged(n: int, stride: int) -> int:
    """The bursts a log record counts: all n, or one when they all touch the same bytes (stride 0, which
    a record's pitch would read as "contiguous")."""
    return n if stride else 1


def _epoch(m: Machine) -> int:
    """The cross-core waits this block has passed: a GM access is ordered after another block's write
    when the accessing block has passed more of them than the writer had (docs/semantics.md "Several cores")."""
    return int(m.state.xsync[XSYNC_WAITS].sum())


def _check_conflict(m: Machine, address: int, size: int, writing: bool):
    """In a run of several blocks: GM bytes of [address, address + size) that another block wrote with
    no cross-core synchronisation since fault, naming the first run of them that one block wrote."""
    writer = m.state.gm_writer
    if writer.size == 0:
        return
    span = writer[address:address + size]
    block = (span & ((1 << GM_WRITER_BLOCK_BITS) - 1)) - 1
    bad = (span != 0) & (block != int(m.state.sysreg[SYS_BLOCK_IDX])) & ((span >> GM_WRITER_BLOCK_BITS) >= _epoch(m))
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        other = int(block[first])
        same = bad & (block == other)
        last = first
        while last + 1 < size and same[last + 1]:
            last += 1
        raise Fault("GM_CONFLICT", address + first, address + last + 1, other, int(writing))


def _move_from_gm(m: Machine, insn: Insn, width: int, padded: bool):
    """gm2ub and gm2ub.align: the counts, then every burst checked (its GM source, then its UB destination,
    in order), then each written: left padding, the burst, right padding and filler to a 32-byte multiple
    (`padded`: gm2ub.align, with loops; else the burst alone)."""
    n, length, gm_stride, ub_stride = _bursts(m, insn)
    left = right = constant = 0
    if padded:
        left, right, constant = (m.sreg(insn.operand(name)) for name in ("sLP", "sRP", "sC"))
        if length % width:
            raise Fault("BAD_MOVE", BAD_ELEMENT, length, width)
        if not 0 <= left <= 32 // width:
            raise Fault("BAD_MOVE", BAD_LEFT, left, width)
        if not 0 <= right <= 32 // width:
            raise Fault("BAD_MOVE", BAD_RIGHT, right, width)
    ub, gm = m.address(insn.operand("[ub]")), m.address(insn.operand("[gm]"))
    m.check_aligned(ub, 32)
    iterations = _iterations(m, MTE_GM2UB if padded else None)
    size = -(-(left * width + length + right * width) // 32) * 32 if padded else length
    for source, destination in iterations:
        for k in range(n):
            m.check_gm(wrap64(gm + source + k * gm_stride), length)
            _check_conflict(m, wrap64(gm + source + k * gm_stride), length, False)
            m.check_range(wrap64(ub + destination + k * ub_stride), size)
    pad = np.frombuffer(int(m.state.mte[MTE_PAD]).to_bytes(8, "little")[:width], np.uint8)
    for source, destination in iterations:
        for k in range(n):
            g, u = wrap64(gm + source + k * gm_stride), wrap64(ub + destination + k * ub_stride)
            data = m.state.gm[g:g + length]
            block = np.resize(pad if constant else data[:width], size)    # padding and filler: whole elements
            block[left * width:left * width + length] = data
            m.write_ub(u, block)        # in flight until a wait: a hazard to read before one
        m.log_access(LOG_GM_READ, insn, wrap64(gm + source), length, _logged(n, gm_stride), gm_stride, -1, None)
        m.log_access(LOG_WRITE, insn, wrap64(ub + destination), size, _logged(n, ub_stride), ub_stride, -1, None)


def gm2ub(m: Machine, insn: Insn):
    # gm2ub [ub], [gm], sN, sLen, sGS, sUS  -- sN bursts of sLen bytes from GM to the UB
    _move_from_gm(m, insn, 1, False)


gm2ub_size = gm2ub          # gm2ub [ub], [gm], sSize: one burst (_bursts reads the form)


def gm2ub_align(m: Machine, insn: Insn):
    # gm2ub.align.bW [ub], [gm], sN, sLen, sLP, sRP, sC, sGS, sUS  -- padded bursts, in loops
    _move_from_gm(m, insn, {"b8": 1, "b16": 2, "b32": 4}[insn.spec.sub], True)


def ub2gm(m: Machine, insn: Insn):
    # ub2gm[.align] [gm], [ub], sN, sLen, sGS, sUS  -- sN bursts of sLen bytes from the UB to GM
    n, length, gm_stride, ub_stride = _bursts(m, insn)
    gm, ub = m.address(insn.operand("[gm]")), m.address(insn.operand("[ub]"))
    m.check_aligned(ub, 32)
    iterations = _iterations(m, MTE_UB2GM if insn.spec.sub == "loop" or insn.spec.family == "ub2gm_cache" else None)
    for source, destination in iterations:
        for k in range(n):
            m.check_range(wrap64(ub + source + k * ub_stride), length)
            m.check_gm(wrap64(gm + destination + k * gm_stride), length)
            _check_conflict(m, wrap64(gm + destination + k * gm_stride), length, True)
    mark = (_epoch(m) << GM_WRITER_BLOCK_BITS) | (int(m.state.sysreg[SYS_BLOCK_IDX]) + 1)
    for source, destination in iterations:
        for k in range(n):
            u, g = wrap64(ub + source + k * ub_stride), wrap64(gm + destination + k * gm_stride)
            m.write_gm(g, m.state.ub[u:u + length])
            if m.state.gm_writer.size:
                m.state.gm_writer[g:g + length] = mark
        m.log_access(LOG_READ, insn, wrap64(ub + source), length, _logged(n, ub_stride), ub_stride, -1, None)
        m.log_access(LOG_GM_WRITE, insn, wrap64(gm + destination), length, _logged(n, gm_stride), gm_stride, -1, None)


ub2gm_size = ub2gm          # ub2gm [gm], [ub], sSize: one burst


def _check_cache_mode(m: Machine, insn: Insn, modes: tuple):
    mode = m.value(insn.operand("X"))
    if mode not in modes:
        raise Fault("BAD_MOVE", BAD_CACHE_MODE, mode)


def gm2ub_align_cache(m: Machine, insn: Insn):
    # gm2ub.align.bW [ub], [gm], sN, sLen, sLP, sRP, sC, X, sGS, sUS  -- X the L2 cache mode: checked, no effect
    _check_cache_mode(m, insn, LOAD_CACHE_MODES)
    gm2ub_align(m, insn)


def ub2gm_cache(m: Machine, insn: Insn):
    # ub2gm.align [gm], [ub], sN, sLen, X, sGS, sUS  -- X the L2 cache mode: checked, no effect
    _check_cache_mode(m, insn, STORE_CACHE_MODES)
    ub2gm(m, insn)


def mte_set(m: Machine, insn: Insn):
    # sprset.gm2ub.loop|stride1|stride2 sA, sB (and ub2gm)  -- the loop settings of the .align moves
    way, what = insn.spec.sub.split("_")
    a, b = m.sreg(insn.operand("sA")), m.sreg(insn.operand("sB"))
    first = MTE_GM2UB if way == "gm2ub" else MTE_UB2GM
    if what == "loop":
        for count in (a, b):
            if not 0 <= count < LOOP_LIMIT:
                raise Fault("BAD_MOVE", BAD_LOOP, count)
        m.state.mte[first + MTE_LOOP1:first + MTE_LOOP2 + 1] = (a, b)
        return
    gm_stride, ub_stride = (a, b) if way == "gm2ub" else (b, a)      # (source, destination)
    if not 0 <= gm_stride < GM_STRIDE_LIMIT:
        raise Fault("BAD_MOVE", BAD_GM_STRIDE_SETTING, gm_stride)
    if not 0 <= ub_stride < UB_STRIDE_LIMIT or ub_stride % 32:
        raise Fault("BAD_MOVE", BAD_UB_STRIDE_SETTING, ub_stride)
    at = first + (MTE_L1_SRC if what == "stride1" else MTE_L2_SRC)
    m.state.mte[at:at + 2] = (a, b)


def pad_set(m: Machine, insn: Insn):
    # sprset.pad sA  -- the pad value's bits
    m.state.mte[MTE_PAD] = m.sreg(insn.operand("sA")) & 0xFFFFFFFF


def sysvar(m: Machine, insn: Insn):
    # blkidx sD | blknum sD
    m.set_sreg(insn.operand("sD"), int(m.state.sysreg[SYS_BLOCK_IDX if insn.spec.sub == "idx" else SYS_BLOCK_NUM]))


def _pipe(m: Machine, value: int, barrier: bool) -> int:
    """A pipe operand, checked: one of PIPES; PIPE_ALL only for a barrier, PIPE_S never there."""
    if not 0 <= value < NUM_PIPES or value == (PIPES["PIPE_S"] if barrier else PIPE_ALL):
        raise Fault("BAD_MOVE", BAD_PIPE, value)
    return value


def sync_flag(m: Machine, insn: Insn):
    # setflag|waitflag X0, X1, X2  -- pipe, target pipe, event
    source, target = (_pipe(m, m.value(insn.operand(name)), False) for name in ("X0", "X1"))
    event = m.value(insn.operand("X2"))
    if not 0 <= event < NUM_EVENTS:
        raise Fault("BAD_MOVE", BAD_EVENT, event)
    flags = m.state.flags
    if insn.spec.sub == "set":
        flags[source, target, event] += 1
    elif flags[source, target, event] == 0:
        raise Fault("SYNC_UNPAIRED", source, target, event)
    else:
        flags[source, target, event] -= 1
        m.end_hazard_window()


def sync_pipe(m: Machine, insn: Insn):
    # pipebar X  -- in program order already: the operand is checked, and it ends the hazard window
    _pipe(m, m.value(insn.operand("X")), True)
    m.end_hazard_window()


def _cross_wait(m: Machine, column: int):
    """Take one from this block's counter of a cross-core flag (column NUM_XFLAGS: SyncAll's), or stop
    WAITING with the pc on the wait: the run's scheduler resumes the block once it can pass."""
    xsync = m.state.xsync
    if xsync[XSYNC_ROUNDS, column] <= xsync[XSYNC_WAITS, column]:
        raise Fault("WAITING", column)
    xsync[XSYNC_WAITS, column] += 1


def cross_set(m: Machine, insn: Insn):
    # crossset X0, X1  -- from pipe X0, cross-core flag X1 (its low 4 bits)
    pipe = m.value(insn.operand("X0"))
    if not 0 <= pipe < NUM_PIPES or pipe in (PIPES["PIPE_S"], PIPE_ALL):
        raise Fault("BAD_MOVE", BAD_PIPE, pipe)
    flag = m.value(insn.operand("X1")) % NUM_XFLAGS
    xsync = m.state.xsync
    if xsync[XSYNC_SETS, flag] - xsync[XSYNC_WAITS, flag] >= MAX_XPENDING:
        raise Fault("BAD_MOVE", BAD_XPENDING, flag)
    xsync[XSYNC_SETS, flag] += 1


def cross_wait(m: Machine, insn: Insn):
    # crosswait X  -- cross-core flag X (its low 4 bits)
    _cross_wait(m, m.value(insn.operand("X")) % NUM_XFLAGS)


def sync_all(m: Machine, insn: Insn):
    # syncall  -- arrive (once: not again when resumed from its wait), then wait for every block
    xsync = m.state.xsync
    if xsync[XSYNC_SETS, XSYNC_SYNCALL] == xsync[XSYNC_WAITS, XSYNC_SYNCALL]:
        xsync[XSYNC_SETS, XSYNC_SYNCALL] += 1
    _cross_wait(m, XSYNC_SYNCALL)
