"""Hardware loops and the address registers (docs/semantics.md "Hardware loops").

state.hwloop holds one (index, count) row per active loop, innermost first; a free level is (0, 0)."""
from __future__ import annotations

from ..program import Insn
from ..state import LOOP_COUNT, LOOP_INDEX, MAX_LOOP_COUNT
from .machine import Fault, Machine


def loop(m: Machine, insn: Insn):
    # vloop X  -- the count is read once, here; a count of 0 runs the body no time at all
    count = m.value(insn.operand("X"))
    if not 0 <= count <= MAX_LOOP_COUNT:
        raise Fault("LOOP_COUNT", count, MAX_LOOP_COUNT)
    pc = m.state.pc
    if count == 0:
        return m.loop_partner[pc] + 1
    levels = m.state.hwloop
    levels[1:] = levels[:-1].copy()          # the enclosing loops are now one level further out
    levels[0] = (0, count)
    return None


def endloop(m: Machine, insn: Insn):
    # endloop  -- the innermost loop's next index; while below its count the body runs again
    levels = m.state.hwloop
    index, count = int(levels[0, LOOP_INDEX]) + 1, int(levels[0, LOOP_COUNT])
    if index < count:
        levels[0, LOOP_INDEX] = index
        return m.loop_partner[m.state.pc] + 1
    levels[:-1] = levels[1:].copy()          # the loop is over: the enclosing ones move back in
    levels[-1] = (0, 0)
    return None


def iter_set(m: Machine, insn: Insn):
    # iter aD.bW, X  -- aD = X * W bytes, a 32-bit register
    (width_type,) = insn.types
    m.state.areg[insn.operand("aD")] = (m.value(insn.operand("X")) * width_type.width) % (1 << 32)


def iter_scaled(m: Machine, insn: Insn):
    # iter aD.bW, sI, X  -- aD = sI * X * W bytes, modulo 2^32 (the page's uint32_t stride: a negative
    # register wraps, and the access that adds aD to its base faults when it leaves the UB)
    (width_type,) = insn.types
    offset = m.sreg(insn.operand("sI")) * m.value(insn.operand("X")) * width_type.width
    m.state.areg[insn.operand("aD")] = offset % (1 << 32)


def iter_loops(m: Machine, insn: Insn):
    # vag aD.bW, X0, [X1], [X2], [X3]  -- asc_update_addr_reg: offset = sum of index_k * stride_k elements,
    # stride k bound to the k-th enclosing loop counted from the innermost; a stride left out is 0
    (width_type,) = insn.types
    strides = [m.value(insn.operand(name)) if insn.operand(name) is not None else 0 for name in ("X0", "X1", "X2", "X3")]
    indices = m.state.hwloop[:, LOOP_INDEX].tolist()
    elements = sum(index * stride for index, stride in zip(indices, strides))
    m.state.areg[insn.operand("aD")] = (elements * width_type.width) % (1 << 32)
