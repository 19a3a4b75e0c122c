"""Vector and mask stores: the aligned distribution modes and the store of a vector's low lanes at any element-
aligned address."""
from __future__ import annotations

import numpy as np

from ..program import Insn
from ..state import LOG_WRITE, VL
from .loads import BLOCK, strided_blocks
from .machine import Fault, Machine


def _store_lane_slots(m: Machine, insn: Insn, slot_size: int):
    """NORM/PACK/PACKV2 shape: active lane i's low `slot_size` bytes -> slot i of the region at addr.
    With --store-inactive zero, inactive lanes' slots are written with 0 (docs/language.md §7)."""
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, 32)
    lanes = m.state.vreg[insn.operand("vS")].reshape(etype.lanes, etype.width)
    slots = lanes[:, :slot_size].copy()                   # little-endian: the low bytes come first
    if m.zero_inactive:
        slots[~active] = 0
        active = np.ones_like(active)
    m.write_slots(insn, address, slots, active)


def vsta_norm(m: Machine, insn: Insn):
    # vsta [addr], vS.T, pM  -- NORM: active lane i -> addr + i*W
    _store_lane_slots(m, insn, insn.types[0].width)


def vsta_pack(m: Machine, insn: Insn):
    # vsta.pack [addr], vS.T, pM  -- PACK: low half of active lane i -> slot i of width W/2
    _store_lane_slots(m, insn, insn.types[0].width // 2)


def vsta_packv2(m: Machine, insn: Insn):
    # vsta.packv2 [addr], vS.T, pM  -- PACKV2: low byte of active (32-bit) lane i -> byte slot i
    _store_lane_slots(m, insn, 1)


def vsta_bs(m: Machine, insn: Insn):
    # vsta.bs [addr], vS.T, X0, pM  -- DATA_BLOCK_COPY: the active lanes of block k of vS -> addr + k*X0*32 +
    # their offset in the block; a block with no active lane is neither written nor checked
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    blocks = strided_blocks(m, insn, active)
    per_block = BLOCK // etype.width
    lanes = m.state.vreg[insn.operand("vS")].reshape(etype.lanes, etype.width).copy()
    if m.zero_inactive:                   # --store-inactive zero: whole blocks, inactive lanes as 0
        lanes[~active] = 0
        active = np.repeat([k in blocks for k in range(VL // BLOCK)], per_block)
    written = [(int(i), blocks[i // per_block] + (i % per_block) * etype.width) for i in np.flatnonzero(active)]
    for i, address in written:
        m.check_in_ub(address, etype.width, lane=i)
    m.check_hazards()
    for i, address in written:
        m.write_ub(address, lanes[i])
        m.log_access(LOG_WRITE, insn, address, etype.width, 1, etype.width, i, "vS")


def vsta_first(m: Machine, insn: Insn):
    # vsta.1st [addr], vS.T  -- FIRST: lane 0 only, mask ignored, element-aligned
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, etype.width)
    m.check_in_ub(address, etype.width)
    m.check_hazards()
    m.write_ub(address, m.state.vreg[insn.operand("vS")][:etype.width])
    m.log_access(LOG_WRITE, insn, address, etype.width, 1, etype.width, 0, "vS")


def vsta_intlv(m: Machine, insn: Insn):
    # vsta.intlv [addr], vS0.T, vS1.T  -- INTLV: addr + 2i*W <- S0[i], addr + (2i+1)*W <- S1[i]
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, 32)
    m.check_in_ub(address, 2 * VL)
    m.check_hazards()
    interleaved = np.empty(2 * etype.lanes, etype.bits)
    interleaved[0::2] = m.state.vreg[insn.operand("vS0")].view(etype.bits)
    interleaved[1::2] = m.state.vreg[insn.operand("vS1")].view(etype.bits)
    m.write_ub(address, interleaved.view(np.uint8))
    m.log_access(LOG_WRITE, insn, address, etype.width, etype.lanes, 2 * etype.width, 0, "vS0")
    m.log_access(LOG_WRITE, insn, address + etype.width, etype.width, etype.lanes, 2 * etype.width, 0, "vS1")


def _store_low_lanes(m: Machine, insn: Insn, count: int):
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, etype.width)
    m.check_in_ub(address, count * etype.width)
    m.check_hazards()
    m.write_ub(address, m.state.vreg[insn.operand("vS")][:count * etype.width].copy())
    m.log_access(LOG_WRITE, insn, address, etype.width, count, etype.width, 0, "vS")


def vstu(m: Machine, insn: Insn):
    # vstu [addr], vS.T  -- every lane of vS at addr
    _store_low_lanes(m, insn, insn.types[0].lanes)


def vstu_count(m: Machine, insn: Insn):
    # vstu [addr], vS.T, X  -- the low X lanes (1..256/W)
    count = m.value(insn.operand("X"))
    if not 1 <= count <= insn.types[0].lanes:
        raise Fault("BAD_COUNT", count, insn.types[0].lanes)
    _store_low_lanes(m, insn, count)


def mask_store_norm(m: Machine, insn: Insn):
    # vsta [addr], pS  -- 256 bits -> 32 bytes
    bits = m.mask_bits(insn.operand("pS"))
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, 32)
    m.check_in_ub(address, VL // 8)
    m.check_hazards()
    m.write_ub(address, np.packbits(bits, bitorder="little"))
    m.log_access(LOG_WRITE, insn, address, VL // 8, 1, VL // 8, -1, "pS")


def mask_store_pack(m: Machine, insn: Insn):
    # vsta.pack [addr], pS  -- the even bits (bit 2j -> bit j) -> 16 bytes
    bits = m.mask_bits(insn.operand("pS"))
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, 16)
    m.check_in_ub(address, VL // 16)
    m.check_hazards()
    m.write_ub(address, np.packbits(bits[0::2], bitorder="little"))
    m.log_access(LOG_WRITE, insn, address, VL // 16, 1, VL // 16, -1, "pS")
