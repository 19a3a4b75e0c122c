"""Which lanes of an instruction its mask leaves active, read from the ISA row and the machine state
(never from an instruction's semantics): for `ascasm stats` and `ascasm draw`."""
from __future__ import annotations

import numpy as np

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
