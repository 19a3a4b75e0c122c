"""Lane and operand values shared by the areas: an X.T operand as T, float lanes widened exactly, zeroing and
merging of inactive lanes."""
from __future__ import annotations

import numpy as np

from .. import floats
from ..program import Insn, SVal
from .machine import Machine


def typed_value(m: Machine, x: SVal, etype) -> np.ndarray:
    """An X.T operand as a one-element array of T. Immediates already hold T's bits, and so does a
    register written with T's suffix (its low W bits); a register without a suffix is converted now:
    integers keep its low W bits, floats take its int64 value rounded once to T."""
    if x.is_reg and not x.raw and etype.kind == "float":
        return floats.round_to_type([floats.exact_float64(m.sreg(x.value))], etype)
    raw = m.sreg(x.value) if x.is_reg else x.value
    return np.array([raw % (1 << (8 * etype.width))], etype.bits).view(etype.np_dtype)


def widened(lanes: np.ndarray) -> np.ndarray:
    """Float lanes as float64, exactly (numpy warns when the bits are a signalling NaN; it stays a NaN)."""
    with np.errstate(invalid="ignore"):
        return lanes.astype(np.float64)


def zeroed(active: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Active lanes keep their value, inactive lanes become 0 (all bits clear)."""
    return np.where(active, values, np.zeros_like(values))


def trunc_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def merge_lanes(m: Machine, insn: Insn, value_bits):
    """Active lanes of vD get `value_bits` (T's bits), inactive lanes keep vD's bits."""
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    dest = m.state.vreg[insn.operand("vD")].view(etype.bits)
    dest[:] = np.where(active, value_bits, dest)
