"""Which lanes of an instruction its mask leaves active, read from the ISA row and the machine state
(never from an instruction's semantics): for `ascasm stats` and `ascasm draw`."""
from __future__ import annotations

import numpy as np

from .isa import Kind
from .isa.table import NIBBLE_PAIRS, keyword_slot
from .state import VL


def lane_width(insn) -> int:
    """The element width of an instruction's lanes, the one its mask is read at: the table's MaskUse
    says ("U": the second type, "pitch": the wider of data and index), else T's width."""
    widths = [t.width for t in insn.types]
    use = insn.spec.mask.width if insn.spec.mask else "T"
    if use == "U":
        return widths[1]
    if use == "pitch":
        return max(widths)
    return widths[0] if widths else 1


def lanes_read(insn) -> tuple[int, int]:
    """(first, step): the lanes of its mask width an instruction reads. A widening with a layout part
    (vcvt, vexpsub, vmulscvt: T wider than U by r) reads the source lanes part, part + r, ...; every
    other instruction reads every lane."""
    has_part = any(operand.kind is Kind.PART for operand in insn.spec.operands)
    if not has_part or any(t.name in NIBBLE_PAIRS for t in insn.types) or insn.types[0].width <= insn.types[1].width:
        return 0, 1
    part = insn.operand("PART")
    return (0 if part is None else keyword_slot(Kind.PART, part)), insn.types[0].width // insn.types[1].width


def governing_mask(insn) -> tuple[int, int] | None:
    """(the number of the mask register pM that governs the instruction's lanes, the lane width it is
    read at), or None when the instruction has no pM."""
    if insn.spec.mask is None or insn.spec.mask.operand != "pM":
        return None
    return insn.operand("pM"), lane_width(insn)


def governed_lanes(insn, state) -> np.ndarray | None:
    """Per lane, whether the instruction's mask pM leaves it active (bit i*W of pM); None when the
    instruction has no pM or pM is unset (it then faults)."""
    mask = governing_mask(insn)
    if mask is None or not state.preg_set[mask[0]]:
        return None
    number, width = mask
    bits = np.unpackbits(state.preg[number], bitorder="little").astype(bool)
    return bits[::width][:VL // width]


def mask_width_warnings(program) -> list[tuple]:
    """(loc, message, notes) for each instruction reading a mask register that only `mask pN.bV`
    instructions of one wider width V write: read at its narrower lanes, the bits between those of
    V's elements are clear, so only every (V/8/W)-th lane can be active (`mask p0.b32, ALL` used with
    f16 instructions leaves every other lane inactive). Not when every lane it reads is one of those: the
    Cast page's half -> int32 idiom, a mask made for int32 with the ZERO layout (vcvt ..., even), reads
    only the even f16 lanes, whose bits a b32 mask sets."""
    writers: dict[int, list] = {}
    for insn in program.insns:
        for operand, value in zip(insn.spec.operands, insn.operands):
            if operand.kind is Kind.PREG and operand.writes:
                writers.setdefault(value, []).append(insn)
    out = []
    for insn in program.insns:
        if insn.spec.mask is None or insn.spec.mask.operand != "pM" or insn.spec.mask.width == "bits":
            continue
        number = insn.operand("pM")
        setters = writers.get(number, [])
        widths = {setter.types[0].width for setter in setters if setter.spec.family == "mask_pattern"}
        if not setters or len(widths) != 1 or len(setters) != sum(s.spec.family == "mask_pattern" for s in setters):
            continue
        mask_width, width = widths.pop(), lane_width(insn)
        start, step = lanes_read(insn)
        every = mask_width // width
        if mask_width > width and (start % every or step % every):
            first = setters[0]
            out.append((insn.loc, f"p{number} is set for {8 * mask_width}-bit elements (line {first.loc.line}: "
                                  f"{first.loc.text.strip()}) but {insn.spec.mnemonic} reads it at "
                                  f"{8 * width}-bit lanes: only every {every}{'nd' if every == 2 else 'th'} lane can be active",
                        [f"a mask is read at the lane width (bit i*{width} for lane i); set it with "
                         f"mask p{number}.b{8 * width} for these instructions"]
                        + [f"with its layout part, {insn.spec.mnemonic} reads the source lanes {start}, "
                           f"{start + step}, {start + 2 * step}, ..."]
                        * (step > 1)))
    return out
