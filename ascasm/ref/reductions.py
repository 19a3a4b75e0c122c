"""Reductions: over the whole vector, per 32-byte block, and pairwise."""
from __future__ import annotations

import numpy as np

from .. import floats
from ..program import Insn
from ..state import VL
from .machine import Machine
from .values import saturated


def _canonical_nans(values: np.ndarray, etype) -> np.ndarray:
    if etype.kind == "float":
        values = np.where(np.isnan(values), floats.canonical_nan(etype), values)
    return values


def pairwise_sum(values: np.ndarray, dest_type):
    """(x0+x1), (x2+x3), ... then pairs of those, every partial rounded to T (integers wrap); the values are
    converted to T first (s16 -> s32 sign-extends, u16 zero-extends)."""
    level = values.astype(dest_type.np_dtype)
    with np.errstate(all="ignore"):
        while level.size > 1:
            level = _canonical_nans(level[0::2] + level[1::2], dest_type)        # numpy rounds each sum to T
    return level[0]


def _is_better(x, best, want_max: bool) -> bool:
    """x beats best: strictly larger (smaller); between zeros, +0 is above -0 (Reg::Reduce)."""
    if x == best and x == 0 and x.dtype.kind == "f":
        return bool(np.signbit(best) if want_max else np.signbit(x)) and np.signbit(x) != np.signbit(best)
    return bool(x > best) if want_max else bool(x < best)


def best_lane(source: np.ndarray, active: np.ndarray, want_max: bool, etype):
    """(value, index) of the max (min) of the active lanes: the first that no later one beats strictly; the
    first active NaN wins with its own bits; none active: the identity (-inf / the type's minimum for max)
    and index 0."""
    if etype.kind == "float":
        best = np.array(-np.inf if want_max else np.inf, etype.np_dtype)[()]
    else:
        limits = np.iinfo(etype.np_dtype)
        best = etype.np_dtype.type(limits.min if want_max else limits.max)
    best_index = 0
    found = False
    for lane in np.flatnonzero(active):
        x = source[lane]
        if etype.kind == "float" and np.isnan(x):     # the first NaN wins with its own bits
            best, best_index = x, int(lane)
            break
        if not found or _is_better(x, best, want_max):
            best, best_index, found = x, int(lane), True
    return best, best_index


def reduce_sum(m: Machine, insn: Insn):
    # vredsum vD.T, vS.U, pM  -- pairwise tree over all lanes, inactive = +0, each partial rounded to T
    dest_type, source_type = insn.types
    active = m.active_lanes(insn.operand("pM"), source_type.width)[:source_type.lanes]
    source = m.lanes(insn.operand("vS"), source_type)
    result = np.zeros(dest_type.lanes, dest_type.np_dtype)
    result[0] = pairwise_sum(np.where(active, source, 0), dest_type)
    result = saturated(m, result, dest_type)
    m.state.vreg[insn.operand("vD")] = result.view(np.uint8)


def reduce_maxmin(m: Machine, insn: Insn):
    # vredmax/vredmin vD.T, vS.T, pM  -- lane 0 = value, lane 1 = first index (raw bits), rest 0
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    best, best_index = best_lane(m.lanes(insn.operand("vS"), etype), active, insn.spec.sub == "max", etype)
    result = np.zeros(etype.lanes, etype.bits)
    result[0] = saturated(m, np.array([best], etype.np_dtype), etype).view(etype.bits)[0]
    result[1] = best_index
    m.state.vreg[insn.operand("vD")] = result.view(np.uint8)


BLOCK_BYTES = 32


def reduce_sum_block(m: Machine, insn: Insn):
    # vredsum.blk vD.T, vS.U, pM  -- lane k of vD = the pairwise sum of 32-byte block k's active lanes
    dest_type, source_type = insn.types
    active = m.active_lanes(insn.operand("pM"), source_type.width)[:source_type.lanes]
    values = np.where(active, m.lanes(insn.operand("vS"), source_type), 0)
    per_block = BLOCK_BYTES // source_type.width
    result = np.zeros(dest_type.lanes, dest_type.np_dtype)
    for k in range(VL // BLOCK_BYTES):
        result[k] = pairwise_sum(values[k * per_block:(k + 1) * per_block], dest_type)
    result = saturated(m, result, dest_type)
    m.state.vreg[insn.operand("vD")] = result.view(np.uint8)


def reduce_maxmin_block(m: Machine, insn: Insn):
    # vredmax.blk|vredmin.blk vD.T, vS.T, pM  -- lane k of vD = the max (min) of block k's active lanes
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    source = m.lanes(insn.operand("vS"), etype)
    per_block = BLOCK_BYTES // etype.width
    result = np.zeros(etype.lanes, etype.bits)
    for k in range(VL // BLOCK_BYTES):
        block = slice(k * per_block, (k + 1) * per_block)
        best, _ = best_lane(source[block], active[block], insn.spec.sub == "max", etype)
        result[k] = saturated(m, np.array([best], etype.np_dtype), etype).view(etype.bits)[0]
    m.state.vreg[insn.operand("vD")] = result.view(np.uint8)


def vpairsum(m: Machine, insn: Insn):
    # vpairsum vD.T, vS.T, pM  -- lane i = vS[2i] + vS[2i+1] (the active ones), upper half 0
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    source = m.lanes(insn.operand("vS"), etype)
    result = np.zeros(etype.lanes, etype.bits)
    for i in range(etype.lanes // 2):
        present = [source[k] for k in (2 * i, 2 * i + 1) if active[k]]
        if len(present) == 2:
            with np.errstate(invalid="ignore"):                # inf + -inf: NaN, made the hardware NaN
                present = [floats.round_to_type([float(present[0]) + float(present[1])], etype)[0]]
        if present:
            result[i] = saturated(m, np.array([present[0]], etype.np_dtype), etype).view(etype.bits)[0]
    m.state.vreg[insn.operand("vD")] = result.view(np.uint8)
