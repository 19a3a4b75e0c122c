"""Data rearrangement: interleave, deinterleave, unpack, pack and register gather of vector registers."""
from __future__ import annotations

import numpy as np

from ..program import Insn
from .machine import Machine


def _write_pair(m: Machine, insn: Insn, elements: np.ndarray):
    """The first half of `elements` (raw bits, 2 * lanes) -> vD0, the second -> vD1 (written last)."""
    half = elements.size // 2
    m.state.vreg[insn.operand("vD0")] = np.ascontiguousarray(elements[:half]).view(np.uint8)
    m.state.vreg[insn.operand("vD1")] = np.ascontiguousarray(elements[half:]).view(np.uint8)


def vintlv(m: Machine, insn: Insn):
    # vintlv vD0.T, vD1.T, vA.T, vB.T  -- A0 B0 A1 B1 ...: the first VL bytes -> vD0, the rest -> vD1
    (etype,) = insn.types
    both = np.empty(2 * etype.lanes, etype.bits)
    both[0::2] = m.state.vreg[insn.operand("vA")].view(etype.bits)
    both[1::2] = m.state.vreg[insn.operand("vB")].view(etype.bits)
    _write_pair(m, insn, both)


def vdintlv(m: Machine, insn: Insn):
    # vdintlv vD0.T, vD1.T, vA.T, vB.T  -- the elements of vA then vB: even ones -> vD0, odd ones -> vD1
    (etype,) = insn.types
    both = np.concatenate([m.state.vreg[insn.operand(name)].view(etype.bits) for name in ("vA", "vB")])
    _write_pair(m, insn, np.concatenate([both[0::2], both[1::2]]))


def vgatr(m: Machine, insn: Insn):
    # vgatr vD.T, vA.T, vI.U  -- lane i of vD = lane vI[i] mod lanes of vA (raw bits); every lane written
    etype, index_type = insn.types
    index = m.state.vreg[insn.operand("vI")].view(index_type.bits).astype(np.int64) % etype.lanes
    source = m.state.vreg[insn.operand("vA")].view(etype.bits)
    m.state.vreg[insn.operand("vD")] = np.ascontiguousarray(source[index]).view(np.uint8)


def vunpack(m: Machine, insn: Insn):
    # vunpack.lo|hi vD.T, vA.U  -- the low (high) half of vA's elements, widened to T
    dest_type, source_type = insn.types
    source = m.lanes(insn.operand("vA"), source_type)
    start = 0 if insn.spec.sub == "lo" else dest_type.lanes
    m.state.vreg[insn.operand("vD")] = source[start:start + dest_type.lanes].astype(dest_type.np_dtype).view(np.uint8)


def vpack(m: Machine, insn: Insn):
    # vpack.lo|hi vD.T, vA.U  -- the low T bits of every lane of vA -> the low (high) half of vD; other half 0
    dest_type, source_type = insn.types
    source = m.state.vreg[insn.operand("vA")].view(source_type.bits)
    result = np.zeros(dest_type.lanes, dest_type.bits)
    start = 0 if insn.spec.sub == "lo" else source_type.lanes
    result[start:start + source_type.lanes] = source.astype(dest_type.bits)       # keeps the low bits
    m.state.vreg[insn.operand("vD")] = result.view(np.uint8)
