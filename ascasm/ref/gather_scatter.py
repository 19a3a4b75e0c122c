"""Gather and scatter: lanes addressed by a base plus an index vector, and the block gather."""
from __future__ import annotations

import numpy as np

from ..program import Insn
from ..state import LOG_READ, LOG_WRITE, VL
from .machine import Fault, Machine, wrap64


def _indexed_lanes(m: Machine, insn: Insn, base_name: str, base_align: int):
    """Shared shape of gather and scatter: the lane pitch is the wider of data and index
    (b8 data rides in 16-bit lanes), the mask is read at that pitch, and active lane i addresses
    base + idx[i] * sizeof(data). Returns (pitch, [(lane, index, address)] of active lanes)."""
    data_type, index_type = insn.types
    pitch = max(data_type.width, index_type.width)
    active = m.active_lanes(insn.operand("pM"), pitch)[:VL // pitch]
    base = m.address(insn.operand(base_name))
    m.check_aligned(base, base_align)
    indices = m.state.vreg[insn.operand("vI")].view(index_type.bits)
    requests = []
    for lane in np.flatnonzero(active):
        index = int(indices[lane])
        address = wrap64(base + index * data_type.width)
        m.check_in_ub(address, data_type.width, lane=int(lane), index=wrap64(index))   # as the int64 it is stored as
        requests.append((int(lane), index, address))
    m.check_hazards()
    return pitch, requests


def vgat(m: Machine, insn: Insn):
    # vgat vD.T, [base], vI.U, pM  -- active lane i <- element at base + idx[i]*W; inactive lanes 0
    data_type, _ = insn.types
    # the base need only be element-aligned (docs/semantics.md "Gather and scatter")
    pitch, requests = _indexed_lanes(m, insn, "[base]", data_type.width)
    gathered = np.zeros(VL // pitch, np.dtype(f"u{pitch}"))   # b8 data: zero-extended into 16-bit lanes
    for lane, _index, address in requests:
        gathered[lane] = m.state.ub[address:address + data_type.width].view(data_type.bits)[0]
    m.state.vreg[insn.operand("vD")] = gathered.view(np.uint8)
    for lane, index, address in requests:
        m.log_access(LOG_READ, insn, address, data_type.width, 1, data_type.width, lane, "vD", wrap64(index))


def vgatb(m: Machine, insn: Insn):
    # vgatb vD.T, [base], vI.U, pM  -- asc_gather_datablock: block k = the 32 bytes at base + vI[k] (byte
    # offsets) when pM's b32 lane k (bit 4k) is set, whatever T; a block whose bit is clear is 0, not read
    etype = insn.types[0]
    blocks = np.flatnonzero(m.active_lanes(insn.operand("pM"), 4)[:8])
    base = m.address(insn.operand("[base]"))
    m.check_aligned(base, 32)
    offsets = m.state.vreg[insn.operand("vI")].view(np.uint32)[:8].copy()     # vD may be vI
    per_block = 32 // etype.width
    whole = np.ones(per_block, bool)
    for k in blocks:
        address = wrap64(base + int(offsets[k]))
        m.check_aligned(address, 32)
        m.check_block_in_ub(address, whole, etype.width, lane=k * per_block, index=int(offsets[k]))
    m.check_hazards()
    gathered = np.zeros(VL, np.uint8)
    for k in blocks:
        address = base + int(offsets[k])
        gathered[32 * k:32 * k + 32] = m.state.ub[address:address + 32]
    m.state.vreg[insn.operand("vD")] = gathered
    for k in blocks:
        m.log_access(LOG_READ, insn, base + int(offsets[k]), 32, 1, 32, k * per_block, "vD", int(offsets[k]))


def vsct(m: Machine, insn: Insn):
    # vsct [base], vS.T, vI.U, pM  -- for active lane i: base + vI[i]*W <- vS[i] (element indices);
    # b8 data: request i stores source byte 2i (its 16-bit lane's low byte)
    data_type, _ = insn.types
    width = data_type.width
    pitch, requests = _indexed_lanes(m, insn, "[base]", 32)
    first_lane_at = {}
    duplicate = None
    for lane, _index, address in requests:
        if address in first_lane_at and duplicate is None:
            duplicate = (first_lane_at[address], lane, address)
        first_lane_at.setdefault(address, lane)
    if duplicate is not None:
        if m.strict:
            raise Fault("DUP_INDEX", *duplicate)
        record = m.state.dup_warn[m.state.pc]
        if record[0] == 0:
            record[1:] = duplicate
        record[0] += 1
    source = m.state.vreg[insn.operand("vS")]
    for lane, _index, address in requests:        # lane order: the highest duplicate lane wins
        m.write_ub(address, source[lane * pitch:lane * pitch + width])
    for lane, index, address in requests:
        m.log_access(LOG_WRITE, insn, address, width, 1, width, lane, "vS", wrap64(index))
