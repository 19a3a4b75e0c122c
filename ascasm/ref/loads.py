"""Vector and mask loads: the aligned distribution modes, block broadcast, unpack4, and the whole-vector load
at any element-aligned address."""
from __future__ import annotations

import numpy as np

from ..program import Insn
from ..state import LOG_READ, VL
from .machine import Machine, wrap64

BLOCK = 32                # bytes in a block of the block-strided forms


def vld_norm(m: Machine, insn: Insn):
    # vld vD.T, [addr]  -- NORM: 256 contiguous bytes, 32-byte aligned
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.state.vreg[insn.operand("vD")] = m.read_span(address, VL, 32)
    m.log_access(LOG_READ, insn, address, etype.width, etype.lanes, etype.width, 0, "vD")


def vld_brc(m: Machine, insn: Insn):
    # vld.brc vD.T, [addr]  -- BRC: one element, broadcast to every lane
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    element = m.read_span(address, etype.width, etype.width)
    m.state.vreg[insn.operand("vD")] = np.tile(element, etype.lanes)
    m.log_access(LOG_READ, insn, address, etype.width, 1, etype.width, -1, "vD")


def vld_us(m: Machine, insn: Insn):
    # vld.us vD.T, [addr]  -- US: 128 bytes; dst[2i] = dst[2i+1] = src[i]
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    source = m.read_span(address, VL // 2, 32).view(etype.bits)
    m.state.vreg[insn.operand("vD")] = np.repeat(source, 2).view(np.uint8)
    m.log_access(LOG_READ, insn, address, VL // 2, 1, VL // 2, -1, "vD")


def vld_ds(m: Machine, insn: Insn):
    # vld.ds vD.T, [addr]  -- DS: 512 bytes; dst[i] = src[2i]
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    source = m.read_span(address, 2 * VL, 32).view(etype.bits)
    m.state.vreg[insn.operand("vD")] = np.ascontiguousarray(source[0::2]).view(np.uint8)
    m.log_access(LOG_READ, insn, address, 2 * VL, 1, 2 * VL, -1, "vD")


def vld_unpk(m: Machine, insn: Insn):
    # vld.unpk vD.T, [addr]  -- UNPK: 128 bytes of T, each zero-extended to twice T's width
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    source = m.read_span(address, VL // 2, 32).view(etype.bits)
    double_width = np.dtype(f"u{2 * etype.width}")
    m.state.vreg[insn.operand("vD")] = source.astype(double_width).view(np.uint8)
    m.log_access(LOG_READ, insn, address, VL // 2, 1, VL // 2, -1, "vD")


def vld_unpk4(m: Machine, insn: Insn):
    # vld.unpk4 vD.T, [addr]  -- 64 bytes, each zero-extended into a 32-bit lane
    address = m.address(insn.operand("[addr]"))
    m.state.vreg[insn.operand("vD")] = m.read_span(address, 64, 32).astype(np.uint32).view(np.uint8)
    m.log_access(LOG_READ, insn, address, 64, 1, 64, -1, "vD")


def vld_dintlv(m: Machine, insn: Insn):
    # vld.dintlv vD0.T, vD1.T, [addr]  -- DINTLV: 512 bytes; even elements -> vD0, odd -> vD1 (written last)
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    source = m.read_span(address, 2 * VL, 32).view(etype.bits)
    m.state.vreg[insn.operand("vD0")] = np.ascontiguousarray(source[0::2]).view(np.uint8)
    m.state.vreg[insn.operand("vD1")] = np.ascontiguousarray(source[1::2]).view(np.uint8)
    m.log_access(LOG_READ, insn, address, 2 * VL, 1, 2 * VL, -1, "vD0")


def vld_blk(m: Machine, insn: Insn):
    # vld.blk vD.T, [addr]  -- one 32-byte block, 8 times over
    address = m.address(insn.operand("[addr]"))
    m.state.vreg[insn.operand("vD")] = np.tile(m.read_span(address, 32, 32), VL // 32)
    m.log_access(LOG_READ, insn, address, 32, 1, 32, -1, "vD")


def strided_blocks(m: Machine, insn: Insn, active: np.ndarray) -> dict:
    """{block k: its address} of the blocks of a block-strided access holding an active lane: block k at
    addr + k * X0 * 32, X0 read as the pages' unsigned 32-bit block stride; addr 32-byte aligned."""
    base = m.address(insn.operand("[addr]"))
    m.check_aligned(base, BLOCK)
    stride = (m.value(insn.operand("X0")) % (1 << 32)) * BLOCK
    per_block = active.size // (VL // BLOCK)
    return {k: wrap64(base + k * stride) for k in range(VL // BLOCK)
            if active[k * per_block:(k + 1) * per_block].any()}


def vld_bs(m: Machine, insn: Insn):
    # vld.bs vD.T, [addr], X0, pM  -- DATA_BLOCK_COPY: block k of vD = the 32 bytes at addr + k*X0*32, read
    # whole when one of its lanes is active; a block with none active is 0, neither read nor checked
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    blocks = strided_blocks(m, insn, active)
    per_block = BLOCK // etype.width
    for k, address in blocks.items():
        m.check_block_in_ub(address, active[k * per_block:(k + 1) * per_block], etype.width, lane=k * per_block)
    m.check_hazards()
    loaded = np.zeros(VL, np.uint8)
    for k, address in blocks.items():
        loaded[k * BLOCK:(k + 1) * BLOCK] = m.state.ub[address:address + BLOCK]
    m.state.vreg[insn.operand("vD")] = loaded
    for k, address in blocks.items():
        m.log_access(LOG_READ, insn, address, BLOCK, 1, BLOCK, k * per_block, "vD")


def vld_e2b(m: Machine, insn: Insn):
    # vld.e2b vD.T, [addr]  -- 8 elements; element k fills block k (32 bytes)
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    elements = m.read_span(address, 8 * etype.width, 8 * etype.width).view(etype.bits)
    m.state.vreg[insn.operand("vD")] = np.repeat(elements, 32 // etype.width).view(np.uint8)
    m.log_access(LOG_READ, insn, address, 8 * etype.width, 1, 8 * etype.width, -1, "vD")


def vldu(m: Machine, insn: Insn):
    # vldu vD.T, [addr]  -- the 256 bytes at addr, element-aligned
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.state.vreg[insn.operand("vD")] = m.read_span(address, VL, etype.width)
    m.log_access(LOG_READ, insn, address, etype.width, etype.lanes, etype.width, 0, "vD")


def _ub_bits(raw: np.ndarray) -> np.ndarray:
    return np.unpackbits(raw, bitorder="little").astype(bool)


def mask_load_norm(m: Machine, insn: Insn):
    # vld pD, [addr]  -- 32 bytes -> 256 bits
    address = m.address(insn.operand("[addr]"))
    raw = m.read_span(address, VL // 8, 32)
    m.set_mask_bits(insn.operand("pD"), _ub_bits(raw))
    m.log_access(LOG_READ, insn, address, VL // 8, 1, VL // 8, -1, "pD")


def mask_load_us(m: Machine, insn: Insn):
    # vld.us pD, [addr]  -- 16 bytes; bit j -> bits 2j and 2j+1
    address = m.address(insn.operand("[addr]"))
    raw = m.read_span(address, VL // 16, 16)
    m.set_mask_bits(insn.operand("pD"), np.repeat(_ub_bits(raw), 2))
    m.log_access(LOG_READ, insn, address, VL // 16, 1, VL // 16, -1, "pD")


def mask_load_ds(m: Machine, insn: Insn):
    # vld.ds pD, [addr]  -- 64 bytes; bit 2j -> bit j
    address = m.address(insn.operand("[addr]"))
    raw = m.read_span(address, VL // 4, 32)
    m.set_mask_bits(insn.operand("pD"), _ub_bits(raw)[0::2])
    m.log_access(LOG_READ, insn, address, VL // 4, 1, VL // 4, -1, "pD")
