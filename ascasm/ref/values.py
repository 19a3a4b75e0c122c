"""Lane and operand values shared by the areas: an X.T operand as T, float lanes widened exactly, zeroing and
merging of inactive lanes, the saturation mode of computed lanes."""
from __future__ import annotations

import numpy as np

from .. import floats
from ..isa import dtypes
from ..program import Insn, SVal
from ..state import CTRL_FLOAT_NO_SAT, CTRL_GLOBAL_SAT, CTRL_INT_NO_SAT
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


def ctrl_bit(m: Machine, bit: int) -> bool:
    return bool(int(m.state.ctrlreg[0]) >> bit & 1)


def compute_saturates(m: Machine, etype) -> bool:
    """Whether a compute instruction's results of T take the saturation mode (docs/semantics.md "The CTRL
    register"): global mode (CTRL[60]) and CTRL[48] = 0 for f16, CTRL[59] = 0 for s16/s32; never for
    other types."""
    if etype.name not in ("f16", "s16", "s32") or not ctrl_bit(m, CTRL_GLOBAL_SAT):
        return False
    return not ctrl_bit(m, CTRL_FLOAT_NO_SAT if etype.name == "f16" else CTRL_INT_NO_SAT)


def saturated(m: Machine, values: np.ndarray, etype) -> np.ndarray:
    """Computed lanes of T as the saturation mode gives them when CTRL selects it: an f16 +-inf becomes
    +-max, a NaN +0 (integer lanes saturate in the operation itself: clamped_lanes)."""
    if etype.name != "f16" or not compute_saturates(m, etype):
        return values
    wide = widened(values)
    largest = np.copysign(float(dtypes.finfo(etype).max), wide)
    return np.where(np.isnan(wide), 0.0, np.where(np.isinf(wide), largest, wide)).astype(etype.np_dtype)
