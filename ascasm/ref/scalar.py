"""Scalar registers and control flow: moves, integer and float arithmetic, scalar loads and stores, branches,
membar, halt (docs/semantics.md "Scalars", "Scalar registers holding floats")."""
from __future__ import annotations

import numpy as np

from .. import floats
from ..program import Insn
from ..state import LOG_READ, LOG_WRITE
from .compute import ARITHMETIC
from .machine import Fault, HALT, Machine
from .values import trunc_div, typed_value, widened


SCALAR_OPS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": trunc_div,
    "rem": lambda a, b: a - b * trunc_div(a, b),
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "shl": lambda a, b: a << (b & 63),
    "shr": lambda a, b: a >> (b & 63),   # Python's >> on a signed int is arithmetic
}


BRANCH_TESTS = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
}


def scalar_mov(m: Machine, insn: Insn):
    # mov sD, X
    m.set_sreg(insn.operand("sD"), m.value(insn.operand("X")))


def scalar_alu(m: Machine, insn: Insn):
    # add/sub/.../shr sD, sA, X  -- 64-bit two's complement, wrapping
    a, b = m.sreg(insn.operand("sA")), m.value(insn.operand("X"))
    if insn.spec.sub in ("div", "rem") and b == 0:
        raise Fault("DIV_ZERO")
    m.set_sreg(insn.operand("sD"), SCALAR_OPS[insn.spec.sub](a, b))


def scalar_load(m: Machine, insn: Insn):
    # ld sD.T, [addr]  -- signed types sign-extend, unsigned and raw types zero-extend
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, etype.width)
    m.check_in_ub(address, etype.width)
    m.check_hazards()
    element = m.state.ub[address:address + etype.width].view(etype.np_dtype)[0]
    raw_bits = int(m.state.ub[address:address + etype.width].view(etype.bits)[0])
    m.set_sreg(insn.operand("sD"), int(element) if etype.kind == "int" else raw_bits)
    m.log_access(LOG_READ, insn, address, etype.width, 1, etype.width, -1, "sD")


def scalar_store(m: Machine, insn: Insn):
    # st [addr], sS.T  -- the low W bytes of sS
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, etype.width)
    m.check_in_ub(address, etype.width)
    m.check_hazards()
    low_bits = m.sreg(insn.operand("sS")) % (1 << (8 * etype.width))
    m.write_ub(address, np.array([low_bits], etype.bits).view(np.uint8))
    m.log_access(LOG_WRITE, insn, address, etype.width, 1, etype.width, -1, "sS")


def _sreg_as(m: Machine, number: int, etype) -> np.ndarray:
    """The low W bits of a scalar register as a one-element array of T."""
    return np.array([m.sreg(number) % (1 << (8 * etype.width))], etype.bits).view(etype.np_dtype)


def _set_sreg_bits(m: Machine, number: int, value: np.ndarray, etype):
    """A one-element array of T into a scalar register as its bits, zero-extended."""
    m.set_sreg(number, int(value.view(etype.bits)[0]))


def scalar_fmov(m: Machine, insn: Insn):
    # fmov sD.T, X.T  -- sD = X's bits as T (typed_value: immediates and sN.T as they are, sN rounded once)
    (etype,) = insn.types
    _set_sreg_bits(m, insn.operand("sD"), typed_value(m, insn.operand("X"), etype), etype)


def scalar_falu(m: Machine, insn: Insn):
    # fadd|fsub|fmul|fdiv sD.T, sA.T, X.T  -- exact in float64 (innocuous for T of at most 24 bits), rounded once
    (etype,) = insn.types
    a = widened(_sreg_as(m, insn.operand("sA"), etype))
    b = widened(typed_value(m, insn.operand("X"), etype))
    with np.errstate(all="ignore"):
        exact = ARITHMETIC[insn.spec.sub](a, b)
    _set_sreg_bits(m, insn.operand("sD"), floats.round_to_type(exact, etype), etype)


def scalar_fcvt(m: Machine, insn: Insn):
    # fcvt sD.T, sA.U  -- U's exact value rounded once to T
    dest, source = insn.types
    value = widened(_sreg_as(m, insn.operand("sA"), source))
    _set_sreg_bits(m, insn.operand("sD"), floats.round_to_type(value, dest), dest)


def scalar_ftoi(m: Machine, insn: Insn):
    # fcvt.trunc sD.T, sA.U  -- toward zero, saturated to T's range, NaN 0 (C's float-to-integer conversion)
    dest, source = insn.types
    value = float(widened(_sreg_as(m, insn.operand("sA"), source))[0])
    bits = 8 * dest.width
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if dest.kind == "int" else (0, (1 << bits) - 1)
    if value != value:
        result = 0
    elif value in (float("inf"), float("-inf")):
        result = high if value > 0 else low
    else:
        result = min(max(int(value), low), high)       # int() truncates toward zero, exactly
    m.set_sreg(insn.operand("sD"), result)


def scalar_fcmp(m: Machine, insn: Insn):
    # fcmp.eq|ne|lt|le|gt|ge sD, sA.T, X.T  -- 1 or 0; IEEE comparison (NaN unordered, -0 == +0)
    (etype,) = insn.types
    a = float(widened(_sreg_as(m, insn.operand("sA"), etype))[0])
    b = float(widened(typed_value(m, insn.operand("X"), etype))[0])
    m.set_sreg(insn.operand("sD"), int(BRANCH_TESTS[insn.spec.sub](a, b)))


def branch(m: Machine, insn: Insn):
    # b LABEL
    return insn.operand("LABEL")


def cond_branch(m: Machine, insn: Insn):
    # beq/bne/blt/ble/bgt/bge sA, X, LABEL  -- signed comparison
    a, b = m.sreg(insn.operand("sA")), m.value(insn.operand("X"))
    if BRANCH_TESTS[insn.spec.sub](a, b):
        return insn.operand("LABEL")
    return None


def membar(m: Machine, insn: Insn):
    # membar [KIND]  -- ascasm executes in program order; the barrier ends the hazard window
    m.end_hazard_window()


def halt(m: Machine, insn: Insn):
    return HALT
