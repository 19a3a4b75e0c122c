"""Each instruction the lowering emits, checked against the ISA table as it is emitted (the
assembler's rules, ascasm/asm/rows.py): operand count and kinds, the types the row accepts, immediates
in range, keywords. A mapping that makes an instruction no row takes is a CppError at the C++ line it
comes from, naming the instruction. The register numbers do not matter to the check, so every virtual
register is checked as register 0 of its file, and an instruction is checked once per spelling."""
from __future__ import annotations

from ..asm import rows
from . import ir
from .clang import CppError


class _RegisterZero:
    """An assignment that gives every virtual register machine register 0."""

    def __getitem__(self, number) -> int:
        return 0


_ZERO = _RegisterZero()
_CHECKED: dict = {}      # (mnemonic, operand spellings with register 0) -> the RowError, or None
_KEPT = 20_000           # spellings kept at most (a long-lived process translating many kernels)


def check(instr: ir.Instr, path: str):
    key = (instr.mnemonic, tuple(op.render(_ZERO) for op in instr.operands))
    if key not in _CHECKED:
        if len(_CHECKED) >= _KEPT:
            _CHECKED.clear()
        try:
            rows.check(instr.mnemonic, [_node(op, spelling) for op, spelling in zip(instr.operands, key[1])])
            _CHECKED[key] = None
        except rows.RowError as error:
            _CHECKED[key] = error
    error = _CHECKED[key]
    if error is not None:
        raise CppError(f"no ascasm row takes this call as written: {error.message}", *(instr.loc or (path, 0, 0)),
                       notes=[f"the instruction it became: {instr.render()}", *error.notes])


def _node(op, spelling: str):
    if isinstance(op, ir.Reg):
        return rows.register(spelling)
    if isinstance(op, ir.Mem):
        offset = op.offset and rows.register(op.offset.render(_ZERO))
        return rows.address(rows.register(op.base.render(_ZERO)), offset)
    if isinstance(op, ir.Imm):
        return rows.number(op.text)
    return rows.word(spelling)              # a keyword, a pattern, a barrier kind, a label
