"""Provenance: who last wrote each UB byte and register byte, as the debugger's `why` answers it.
A step's last-writer rows come from its Effects (the executor's write log plus the registers its row
writes): the step, the row, the lane and register the data came from, a gather/scatter index, and for
register bytes filled by a load the UB address each byte came from.
"""
from __future__ import annotations

import numpy as np

from .effects import Effects
from ..lanes import governed_lanes, lane_width
from ..state import UB_SIZE, VL

USER_EDIT = -2                          # the pc of a last-writer entry written by the user (Recorder.edit)

# One last-writer entry: the step (1-based; -1: never written since the program was loaded), the pc
# of the instruction, the lane of the register the data came from (-1: none), which operand that
# register was (its position in the ISA row's syntax, -1: none), the gather/scatter index (-1: none)
# and, for register bytes filled by a load, the UB address the byte came from (-1: none); `zeroed` is 1
# for register bytes of a lane the instruction's mask left inactive, so that it wrote 0 there.
WRITER = np.dtype([("step", "<i8"), ("pc", "<i4"), ("lane", "<i4"), ("src", "i1"), ("index", "<i8"),
                   ("origin", "<i8"), ("zeroed", "i1")])


def expand(spans: list) -> tuple[np.ndarray, ...]:
    """Every byte of a list of spans in access order: (address, lane, src operand, index, byte
    within the lane); lane is -1 for lane-less spans."""
    column = lambda name: np.array([getattr(s, name) for s in spans], np.int64)
    return expand_columns(column("addr"), column("width"), column("count"), column("pitch"), column("lane"),
                          column("src"), column("index"))[:5]


def expand_columns(addr, width, count, pitch, first_lane, src, index) -> tuple[np.ndarray, ...]:
    """expand() of accesses given as columns (a Span's fields, or write-log records'), with a sixth
    array: the access each byte belongs to."""
    pitch = np.where(pitch == 0, width, pitch)
    span_of_lane = np.repeat(np.arange(len(count)), count)
    k = np.arange(span_of_lane.size) - np.repeat(np.cumsum(count) - count, count)   # lane within its span
    lane_width = width[span_of_lane]
    lane_of_byte = np.repeat(np.arange(span_of_lane.size), lane_width)
    within = np.arange(lane_of_byte.size) - np.repeat(np.cumsum(lane_width) - lane_width, lane_width)
    span_of_byte = span_of_lane[lane_of_byte]
    k_of_byte = k[lane_of_byte]
    addr = addr[span_of_byte] + k_of_byte * pitch[span_of_byte] + within
    first = first_lane[span_of_byte]
    lane = np.where(first >= 0, first + k_of_byte, -1)
    return addr, lane, src[span_of_byte], index[span_of_byte], within, span_of_byte


def effect_rows(effects: Effects, pc: int, step: int, insn=None, state=None) -> list:
    """What one executed step does to the last-writer maps: [(map name, positions, WRITER rows)].
    Map "ub" (and "gm", global memory) is indexed by byte address, "v" by register*256 + byte,
    "p"/"a"/"s" by register. With the
    instruction and the state after it: which register lanes a zeroing mask left inactive."""
    out = []
    origins = {}
    for span in effects.ub_reads:                      # load lanes: the UB bytes each lane came from
        if span.src >= 0:
            origins.setdefault(span.src, []).append(span)
    for reg in effects.regs:
        rows = never(VL if reg.file == "v" else 1)
        rows["step"], rows["pc"] = step, pc
        if reg.file != "v":
            out.append((reg.file, np.array([reg.number]), rows))
            continue
        width = reg.etype.width
        rows["lane"] = np.arange(VL) // width
        inactive = zeroed_lanes(insn, state, width) if insn is not None else None
        if inactive is not None:
            rows["zeroed"] = np.repeat(inactive, width)
        if reg.operand in origins:
            addr, lane, _src, index, within = expand(origins[reg.operand])
            byte = lane * width + within
            keep = (lane >= 0) & (byte < VL)
            rows["origin"][byte[keep]] = addr[keep]
            rows["index"][byte[keep]] = index[keep]
        out.append(("v", reg.number * VL + np.arange(VL), rows))
    for name, spans, size in (("ub", effects.ub_writes, UB_SIZE),
                              ("gm", effects.gm_writes, None if state is None else state.gm.size)):
        if not spans:
            continue
        addr, lane, src, index, _within = expand(spans)
        # in access order the last write of a byte wins (vsct: the highest duplicate lane)
        positions, reverse_first = np.unique(addr[::-1], return_index=True)
        last = addr.size - 1 - reverse_first
        rows = never(positions.size)
        rows["step"], rows["pc"], rows["lane"] = step, pc, lane[last]
        rows["src"], rows["index"] = src[last], index[last]
        keep = (positions >= 0) & (positions < (size if size is not None else positions.max() + 1))
        out.append((name, positions[keep], rows[keep]))
    return out


def never(n) -> np.ndarray:
    """WRITER rows meaning "not written since the program was loaded"."""
    rows = np.zeros(n, WRITER)
    for name in ("step", "pc", "lane", "src", "index", "origin"):
        rows[name] = -1
    return rows


def zeroed_lanes(insn, state, width: int) -> np.ndarray | None:
    """Per lane of `width` bytes, whether the instruction's zeroing mask left it inactive (read from the
    state after the step: an instruction writing vector lanes leaves its pM as it was); None when it has
    no zeroing pM or reads it at another width."""
    mask = insn.spec.mask
    if mask is None or mask.inactive != "zero" or lane_width(insn) != width:
        return None
    active = governed_lanes(insn, state)
    return None if active is None else ~active
