"""The reference executor: a readable numpy model of the machine, one function per instruction family,
grouped by ISA area in the modules beside this one (scalar, loops, masks, loads, stores,
gather_scatter, streams, fill, compute, rearrange, conversion, reductions; machine holds the step loop
and the checks). It runs the assembler's structured instructions (not the bytecode) and shares nothing
with the compiled engine but the table and the state layout, so the differential tests catch a bug in
either, or in the encoding.

Execution rules the instruction pages leave open are fixed in docs/semantics.md; these modules follow
them.
"""
from __future__ import annotations

from ..isa.table import INSNS, post_update_base
from ..program import Addr, Insn
from . import (compute, conversion, datamove, fill, gather_scatter, loads, loops, masks, rearrange, reductions,
               scalar, stores, streams)
from .machine import Machine


def post_update(m: Machine, insn: Insn):
    # <base>.pu ..., [sB], ..., X  -- the base row's access at the address in sB; then sB += X elements
    # of T (vector forms), X bytes (mask forms) or X 32-byte blocks (block-strided forms)
    base = post_update_base(insn.spec)
    register = insn.operand("[sB]")
    operands = tuple(Addr(0, (register,), ()) if value_spec.name == "[sB]" else value
                     for value_spec, value in zip(insn.spec.operands, insn.operands))[:len(base.operands)]
    FAMILIES[base.family](m, Insn(base, insn.types, operands, insn.loc))
    unit = insn.types[0].width if insn.spec.post == "T" else insn.spec.post
    m.set_sreg(register, m.sreg(register) + m.value(insn.operand("X")) * unit)


# Every table row's family name -> its function: the function of that name defined in an area module.
_FAMILY_NAMES = {spec.family for spec in INSNS}
FAMILIES = {name: function for area in (scalar, loops, masks, loads, stores, gather_scatter, streams, fill,
                                         compute, rearrange, conversion, reductions, datamove)
            for name, function in vars(area).items()
            if name in _FAMILY_NAMES and function.__module__ == area.__name__}
FAMILIES.update({spec.family: post_update for spec in INSNS if spec.post is not None})


class RefMachine(Machine):
    """The reference machine with every family of the table."""
    families = FAMILIES
