"""What each row does for the check of bytes never written (docs/semantics.md "Bytes never written"),
shared by both executors: which vector registers it reads lane by lane under its mask (checked), which
it writes (their marks cleared), and whether it is a load that carries marks from the UB into a
register or a scalar read of the UB (checked)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .isa import InsnSpec, Kind

NONE, CHECK, LOAD, SCALAR_READ = 0, 1, 2, 3

# The families whose vector sources (the operands of type slot 0) are read lane i for lane i at the
# row's element width, lane i only when pM's bit for it is set: their active lanes are checked. The
# other families (conversions between widths, rearranges, vsel, whose mask picks a source) check
# nothing, and their destinations hold written bytes.
CHECKED_FAMILIES = frozenset({"vbinary", "vunary", "vcompound", "vfma", "vlogic", "vnot", "vshift", "vcmp",
                              "vmov", "vtrc", "reduce_maxmin", "vsta_norm", "vsta_norm_pu"})
# The loads whose register byte k is UB byte address + k: they carry the UB's marks into the register.
MARKING_LOADS = frozenset({"vld_norm", "vld_norm_pu"})


@dataclass(frozen=True)
class Roles:
    kind: int               # NONE, CHECK, LOAD or SCALAR_READ
    sources: tuple = ()     # operand positions of the checked vector sources
    mask: int = -1          # operand position of the mask (CHECK)
    dests: tuple = ()       # operand positions of every vector register the row writes
    address: int = -1       # operand position of the address ([addr] or [sB]) of a LOAD or SCALAR_READ


@lru_cache(maxsize=None)
def roles(spec: InsnSpec) -> Roles:
    ops = spec.operands
    dests = tuple(k for k, op in enumerate(ops) if op.kind is Kind.VREG and op.writes)
    address = next((k for k, op in enumerate(ops) if op.kind in (Kind.ADDR, Kind.BASE)), -1)
    if spec.family in CHECKED_FAMILIES:
        sources = tuple(k for k, op in enumerate(ops) if op.kind is Kind.VREG and op.reads and not op.writes
                        and op.type_slot == 0)
        mask = next(k for k, op in enumerate(ops) if op.kind is Kind.PREG and op.name == "pM")
        return Roles(CHECK, sources, mask, dests)
    if spec.family in MARKING_LOADS:
        return Roles(LOAD, dests=dests, address=address)
    if spec.family == "scalar_load":
        return Roles(SCALAR_READ, address=address)
    return Roles(NONE, dests=dests)


def slot_of(spec: InsnSpec, position: int) -> int:
    """The first bytecode operand slot of operand `position` (docs/bytecode.md)."""
    return sum(op.kind.slots for op in spec.operands[:position])
