"""Mask registers: patterns, UpdateMask, mask logic, select, interleaves, pack/unpack, counting, copies to and
from vectors, and the legacy mask special register (docs/semantics.md "The mask special register")."""
from __future__ import annotations

import numpy as np

from ..program import Insn
from ..state import MASK_SPR_FAULT, MASK_SPR_HIGH, MASK_SPR_LOW, MASK_SPR_SET
from .machine import Fault, MASK_BITS, Machine


_VL_COUNTS = {"VL1": 1, "VL2": 2, "VL3": 3, "VL4": 4, "VL8": 8, "VL16": 16, "VL32": 32, "VL64": 64, "VL128": 128}


def pattern_active(pattern: str, lanes: int) -> np.ndarray:
    """Which of `lanes` elements a CreateMask pattern selects (docs/language.md §7)."""
    i = np.arange(lanes)
    if pattern in _VL_COUNTS:
        return i < _VL_COUNTS[pattern]        # VLn beyond the lane count selects every lane
    return {"ALL": i >= 0, "M3": i % 3 == 0, "M4": i % 4 == 0, "H": i < lanes // 2,
            "Q": i < lanes // 4, "ALLF": i < 0}[pattern]


def mask_pattern(m: Machine, insn: Insn):
    # mask pD.bW, PAT
    (width_type,) = insn.types
    active = pattern_active(insn.operand("PAT"), width_type.lanes)
    m.write_mask(insn.operand("pD"), active, width_type.width)


def mask_update(m: Machine, insn: Insn):
    # mask.upd pD.bW, sN  -- UpdateMask: i active iff i < sN, then sN -= lanes (not below 0)
    (width_type,) = insn.types
    lanes, counter = width_type.lanes, insn.operand("sN")
    remaining = m.sreg(counter)
    m.write_mask(insn.operand("pD"), np.arange(lanes) < remaining, width_type.width)
    m.set_sreg(counter, 0 if remaining < lanes else remaining - lanes)


MASK_LOGIC = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}


def mask_logic(m: Machine, insn: Insn):
    # pand/por/pxor pD, pA, pB, pG  -- pD = (pA op pB) where pG, else 0
    a, b = m.mask_bits(insn.operand("pA")), m.mask_bits(insn.operand("pB"))
    gate = m.mask_bits(insn.operand("pG"))
    m.set_mask_bits(insn.operand("pD"), MASK_LOGIC[insn.spec.sub](a, b) & gate)


def mask_not(m: Machine, insn: Insn):
    # pnot pD, pS, pG  -- pD = ~pS where pG, else 0
    source, gate = m.mask_bits(insn.operand("pS")), m.mask_bits(insn.operand("pG"))
    m.set_mask_bits(insn.operand("pD"), ~source & gate)


def mask_select(m: Machine, insn: Insn):
    # psel pD, pA, pB, pG  -- pA's bits where pG is set, pB's elsewhere
    a, b, select = (m.mask_bits(insn.operand(name)) for name in ("pA", "pB", "pG"))
    m.set_mask_bits(insn.operand("pD"), np.where(select, a, b))


def mask_move(m: Machine, insn: Insn):
    # pmov pD, pS
    m.set_mask_bits(insn.operand("pD"), m.mask_bits(insn.operand("pS")))


def mask_move_masked(m: Machine, insn: Insn):
    # pmov pD, pS, pM  -- bit k of pD = bit k of pS where bit k of pM is set, else 0 (Reg::Move, mask form:
    # the mask says which bits are copied)
    source, gate = m.mask_bits(insn.operand("pS")), m.mask_bits(insn.operand("pM"))
    m.set_mask_bits(insn.operand("pD"), source & gate)


def mask_from_vector(m: Machine, insn: Insn):
    # movvp pD, vS.T, BLOCK  -- asc_copy's vector-to-mask form: a 32/W-byte block of vS, each of its bits
    # repeated W times (W = 2 for 16-bit T, 4 for 32-bit T) to fill the 256 mask bits; BLOCK, an
    # immediate (checked when assembled) or a register, is checked before anything is written
    width = insn.types[0].width
    block_bytes = 32 // width
    block = m.value(insn.operand("BLOCK"))
    if not 0 <= block < 256 // block_bytes:
        raise Fault("BAD_COUNT", block, 256 // block_bytes - 1)
    raw = m.state.vreg[insn.operand("vS")][block * block_bytes:(block + 1) * block_bytes]
    bits = np.unpackbits(raw, bitorder="little").astype(bool)
    m.set_mask_bits(insn.operand("pD"), np.repeat(bits, width))


def _write_mask_pair(m: Machine, insn: Insn, bits: np.ndarray):
    m.set_mask_bits(insn.operand("pD0"), bits[:MASK_BITS])
    m.set_mask_bits(insn.operand("pD1"), bits[MASK_BITS:])          # written last


def mask_intlv(m: Machine, insn: Insn):
    # pintlv pD0.bW, pD1, pA, pB  -- W-bit groups A0 B0 A1 B1 ...: the first 256 bits -> pD0, the rest -> pD1
    (width_type,) = insn.types
    groups = [m.mask_bits(insn.operand(name)).reshape(-1, width_type.width) for name in ("pA", "pB")]
    _write_mask_pair(m, insn, np.stack(groups, axis=1).reshape(-1))


def mask_dintlv(m: Machine, insn: Insn):
    # pdintlv pD0.bW, pD1, pA, pB  -- W-bit groups of pA then pB: even groups -> pD0, odd groups -> pD1
    (width_type,) = insn.types
    both = np.concatenate([m.mask_bits(insn.operand(name)) for name in ("pA", "pB")])
    pairs = both.reshape(-1, 2, width_type.width)
    _write_mask_pair(m, insn, np.concatenate([pairs[:, 0].reshape(-1), pairs[:, 1].reshape(-1)]))


def mask_pack(m: Machine, insn: Insn):
    # ppack.lo|hi pD, pS  -- the even bits of pS -> the low (high) 128 bits of pD; the rest 0
    bits = np.zeros(MASK_BITS, bool)
    start = 0 if insn.spec.sub == "lo" else MASK_BITS // 2
    bits[start:start + MASK_BITS // 2] = m.mask_bits(insn.operand("pS"))[0::2]
    m.set_mask_bits(insn.operand("pD"), bits)


def mask_unpack(m: Machine, insn: Insn):
    # punpack.lo|hi pD, pS  -- the low (high) 128 bits of pS: bit j -> bit 2j of pD, odd bits 0
    start = 0 if insn.spec.sub == "lo" else MASK_BITS // 2
    bits = np.zeros(MASK_BITS, bool)
    bits[0::2] = m.mask_bits(insn.operand("pS"))[start:start + MASK_BITS // 2]
    m.set_mask_bits(insn.operand("pD"), bits)


def pcnt(m: Machine, insn: Insn):
    # pcnt sD, pM.bW  -- number of lanes i < 256/W with bit i*W set
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    m.set_sreg(insn.operand("sD"), int(np.count_nonzero(active)))


def mask_spr_set(m: Machine, insn: Insn):
    # sprset.mask sH, sL  -- MASK1 = sH, MASK0 = sL
    spr = m.state.mask_spr
    spr[MASK_SPR_LOW], spr[MASK_SPR_HIGH] = m.sreg(insn.operand("sL")), m.sreg(insn.operand("sH"))
    spr[MASK_SPR_SET] = 1


def mask_spr_read(m: Machine, insn: Insn):
    # movp pD.bW  -- bit j of {MASK1, MASK0} (b16: 128 bits; b32: MASK0's 64) repeated W times
    width = insn.types[0].width
    spr = m.state.mask_spr
    if not spr[MASK_SPR_SET]:
        raise Fault("SPR_UNSET", MASK_SPR_FAULT)
    value = (int(spr[MASK_SPR_HIGH]) % (1 << 64)) << 64 | int(spr[MASK_SPR_LOW]) % (1 << 64)
    bits = np.array([(value >> j) & 1 for j in range(MASK_BITS // width)], bool)
    m.set_mask_bits(insn.operand("pD"), np.repeat(bits, width))
