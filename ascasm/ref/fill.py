"""Data fill and index: duplicates of a value or of a lane (zeroing and merging), and aranges."""
from __future__ import annotations

import numpy as np

from .. import floats
from ..program import Insn
from .machine import Machine
from .values import merge_lanes, saturated, typed_value, widened, zeroed


def vdup(m: Machine, insn: Insn):
    # vdup vD.T, X.T  -- every lane = X
    (etype,) = insn.types
    m.lanes(insn.operand("vD"), etype)[:] = np.repeat(typed_value(m, insn.operand("X"), etype), etype.lanes)


def vdup_masked(m: Machine, insn: Insn):
    # vdup vD.T, X.T, pM  -- active lanes = X; inactive lanes 0
    (etype,) = insn.types
    lanes = np.repeat(typed_value(m, insn.operand("X"), etype), etype.lanes)
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    m.lanes(insn.operand("vD"), etype)[:] = zeroed(active, lanes)


def vdup_merge(m: Machine, insn: Insn):
    # vdup.merge vD.T, X.T, pM  -- active lanes = X, inactive lanes keep vD
    (etype,) = insn.types
    merge_lanes(m, insn, typed_value(m, insn.operand("X"), etype).view(etype.bits)[0])


def vdup_lane(m: Machine, insn: Insn):
    # vdup.v vD.T, vA.T, pM  -- lane 0 of vA in every active lane, inactive lanes 0
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    first = m.state.vreg[insn.operand("vA")].view(etype.bits)[0]
    m.state.vreg[insn.operand("vD")].view(etype.bits)[:] = np.where(active, first, etype.bits.type(0))


def vdup_lane_merge(m: Machine, insn: Insn):
    # vdup.v.merge vD.T, vA.T, pM  -- lane 0 of vA in the active lanes, inactive lanes keep vD
    (etype,) = insn.types
    merge_lanes(m, insn, m.state.vreg[insn.operand("vA")].view(etype.bits)[0].copy())


def round_ties_up(values: np.ndarray, etype) -> np.ndarray:
    """float64 values rounded once to f16/f32, to nearest with ties toward +inf (the Arange table 38:
    -65504 + i in half gives 16/32/32/32/16 lanes per value)."""
    nearest = floats.round_to_type(values, etype)
    with np.errstate(over="ignore", invalid="ignore"):          # beside the largest value: inf, never a tie
        up = np.nextafter(nearest, np.array(np.inf, etype.np_dtype))
        tie = (widened(nearest) < values) & (widened(up) - values == values - widened(nearest))
    return np.where(tie, up, nearest)


def arange(x: np.ndarray, offsets: np.ndarray, etype) -> np.ndarray:
    """X + each offset: integers wrap; floats rounded once, ties toward +inf (exact in double wherever a
    tie is possible, |X| < 2^31)."""
    if etype.kind == "float":
        return round_ties_up(widened(x) + offsets, etype)
    with np.errstate(all="ignore"):
        return x + offsets.astype(etype.np_dtype)                 # wraps modulo 2^W


def vci(m: Machine, insn: Insn):
    # vci vD.T, X.T  -- lane i = X + i (integers wrap; floats: X + i rounded once, ties toward +inf)
    (etype,) = insn.types
    lanes = arange(typed_value(m, insn.operand("X"), etype), np.arange(etype.lanes), etype)
    m.lanes(insn.operand("vD"), etype)[:] = saturated(m, lanes, etype)


def vci_desc(m: Machine, insn: Insn):
    # vci.desc vD.T, X.T  -- lane i = X + (lanes - 1 - i)
    (etype,) = insn.types
    offsets = np.arange(etype.lanes)[::-1].copy()
    m.lanes(insn.operand("vD"), etype)[:] = saturated(m, arange(typed_value(m, insn.operand("X"), etype), offsets, etype),
                                                       etype)
