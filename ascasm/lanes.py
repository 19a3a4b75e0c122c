"""Which lanes of an instruction its mask leaves active, read from the ISA row and the machine state
(never from an instruction's semantics): for `ascasm stats` and `ascasm draw`."""
from __future__ import annotations

import numpy as np

from .isa import Kind
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
    f16 instructions leaves every other lane inactive)."""
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
        if mask_width > width:
            first = setters[0]
            out.append((insn.loc, f"p{number} is set for {8 * mask_width}-bit elements (line {first.loc.line}: "
                                  f"{first.loc.text.strip()}) but {insn.spec.mnemonic} reads it at "
                                  f"{8 * width}-bit lanes: only every {mask_width // width}"
                                  f"{'nd' if mask_width // width == 2 else 'th'} lane can be active",
                        [f"a mask is read at the lane width (bit i*{width} for lane i); set it with "
                         f"mask p{number}.b{8 * width} for these instructions"]))
    return out
