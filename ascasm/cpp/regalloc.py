"""Register allocation over the lowered program (the IR of ir.py): each virtual register lives from its
first to its last mention by an instruction, stretched over a whole loop when it is declared before the loop and mentioned in it
(its value goes round the loop); a linear scan then gives each file's machine registers out. More
live at one point than a file has is a CppError naming the variables and the C++ line, unless some of
them are constants (`fit`).

A constant is a scalar register that one `mov`/`fmov` of an immediate writes and nothing else: a UB
address of a tensor, a length from the tiling. Such a value need not stay in a register between its
uses: when too many values are live, `fit` rematerialises the constants live at that point (each use
gets a fresh register that a copy of the `mov` sets just before it, and the first `mov` goes) and tries
again. A kernel whose values fit is left exactly as it was. The alternative, a spill area in the UB, would
take UB bytes a kernel's queues may already claim whole, and a run-time value would still need one."""
from __future__ import annotations

from dataclasses import replace

from ..isa.table import BY_MNEMONIC
from . import ir
from .clang import CppError

REGISTERS = {"s": 32, "v": 32, "p": 8, "a": 8, "u": 4, "q": 4}
FILE_NAMES = {"s": "scalar", "v": "vector (RegTensor)", "p": "mask (MaskReg)", "a": "address (AddrReg)",
              "u": "unaligned store", "q": "unaligned load"}


def _allocate(lines, loops, regs, fixed=(), ranges=None) -> dict:
    """{virtual register number: machine register number}; rewrites nothing. `fixed` registers
    (parameters) are live from the start. `ranges`, a dict, receives each virtual register's live
    range {number: (first line, last line)} (the debug information's variable locations)."""
    first, last = {}, {}
    for index, item in enumerate(lines):
        for reg in item.regs():
            n = reg.number
            first.setdefault(n, index)
            last[n] = index
    for reg in fixed:
        first[reg.number] = -1
        last.setdefault(reg.number, -1)
    spans = [(_index_of(lines, loop.start), _index_of(lines, loop.end)) for loop in loops]
    changed = True
    while changed:
        changed = False
        for start, end in spans:
            for n in first:
                declared = min(regs[n].decl_line, first[n]) if n < len(regs) else first[n]
                if declared < start and first[n] <= end and last[n] >= start and \
                        (first[n] > start or last[n] < end):
                    new_first, new_last = min(first[n], start), max(last[n], end)
                    if (new_first, new_last) != (first[n], last[n]):
                        first[n], last[n], changed = new_first, new_last, True
    assignment = {}
    for file, count in REGISTERS.items():
        numbers = sorted((n for n in first if regs[n].file == file), key=lambda n: (first[n], n))
        free = list(range(count))
        active = []          # (last, n)
        for n in numbers:
            for item in [a for a in active if a[0] < first[n]]:
                active.remove(item)
                free.append(assignment[item[1]])
            if not free:
                raise _Overflow(file, [regs[a[1]] for a in active] + [regs[n]], first[n])
            free.sort()
            assignment[n] = free.pop(0)
            active.append((last[n], n))
    if ranges is not None:
        ranges.update((n, (first[n], last[n])) for n in first)
    return assignment


class _Overflow(Exception):
    def __init__(self, file, live, at):
        super().__init__(file)
        self.file, self.live, self.at = file, live, at


def allocate(lines, loops, regs, fixed=(), ranges=None) -> dict:
    """As _allocate; more live than a file holds is the CppError."""
    try:
        return _allocate(lines, loops, regs, fixed, ranges)
    except _Overflow as overflow:
        _too_many(overflow.file, overflow.live, lines, overflow.at)


def fit(lines, loops, regs, fixed=(), ranges=None, constants=None) -> tuple[list, dict, list | None]:
    """(lines, assignment, moved): `allocate`, rematerialising the constants live where a file
    overflows until the values fit (the module's docstring). `regs` receives the new virtual registers,
    `constants` {virtual register number: its immediate} for the ones taken out (they live nowhere: the
    debug information shows the value). `moved[i]` is the new index of old line i (len(lines) too), for
    the positions recorded against the lines; None when nothing changed."""
    moved = None
    kept = {reg.number for reg in fixed}     # parameters, and the copies already made (set just before their use)
    while True:
        try:
            return lines, _allocate(lines, loops, regs, fixed, ranges), moved
        except _Overflow as overflow:
            values = _constant_values(lines)
            chosen = {reg.number for reg in overflow.live if reg.number in values and reg.number not in kept}
            if not chosen:
                _too_many(overflow.file, overflow.live, lines, overflow.at)
            first_new = len(regs)
            lines, step = _rematerialise(lines, regs, {n: values[n] for n in chosen})
            kept.update(range(first_new, len(regs)))
            moved = step if moved is None else [step[i] for i in moved]
            if constants is not None:
                constants.update((n, values[n][1].text) for n in chosen)


def _written_positions(instr) -> set:
    """The operand positions `instr` may write (any row of its mnemonic with its operand count; every
    register operand when no row is known)."""
    specs = [spec for spec in BY_MNEMONIC.get(instr.mnemonic, ()) if len(spec.operands) == len(instr.operands)]
    if not specs:
        return set(range(len(instr.operands)))
    return {k for spec in specs for k, operand in enumerate(spec.operands) if operand.writes}


def _constant_values(lines) -> dict:
    """{number: (the defining instruction, its immediate)} of the scalar registers one `mov`/`fmov` of an
    immediate writes and no other instruction does, and that no instruction reads before it."""
    defs, seen, others = {}, set(), set()
    for item in lines:
        if not isinstance(item, ir.Instr):
            continue
        written = _written_positions(item)
        for k, op in enumerate(item.operands):
            regs = [op.vreg] if isinstance(op, ir.Reg) else \
                [op.base.vreg] + ([op.offset.vreg] if op.offset else []) if isinstance(op, ir.Mem) else []
            for reg in regs:
                n = reg.number
                if k in written and reg is (op.vreg if isinstance(op, ir.Reg) else op.base.vreg):
                    if k == 0 and item.mnemonic in ("mov", "fmov") and isinstance(item.operands[1], ir.Imm) \
                            and reg.file == "s" and n not in defs and n not in seen and item.tag is None:
                        defs[n] = (item, item.operands[1])
                    else:
                        others.add(n)
                elif n not in defs:
                    others.add(n)       # read before any definition
                seen.add(n)
    return {n: value for n, value in defs.items() if n not in others}


def _rematerialise(lines, regs, values) -> tuple[list, list]:
    """`lines` with each register of `values` {number: (its mov, immediate)} set by a copy of its mov
    just before each instruction reading it, in a fresh register; and where each old line went."""
    out, moved, old = [], [], len(regs)
    for item in lines:
        moved.append(len(out))
        if isinstance(item, ir.Instr) and any(reg.number in values for reg in item.regs()):
            if item.operands and isinstance(item.operands[0], ir.Reg) and item.operands[0].vreg.number in values \
                    and values[item.operands[0].vreg.number][0] is item:
                continue                    # the definition itself goes
            fresh = {}
            for reg in item.regs():
                if reg.number in values and reg.number not in fresh:
                    definition = values[reg.number][0]
                    new = ir.VReg("s", len(regs), reg.name, reg.loc, len(out))
                    regs.append(new)
                    fresh[reg.number] = new
                    out.append(ir.Instr(definition.mnemonic, (replace(definition.operands[0], vreg=new),
                                                              definition.operands[1]), item.loc, ir.ARTIFICIAL))
            item = replace(item, operands=tuple(_renamed(op, fresh) for op in item.operands))
        out.append(item)
    moved.append(len(out))
    for reg in regs[:old]:                  # (the new ones are placed in the new lines already)
        if reg.decl_line < len(moved):
            reg.decl_line = moved[reg.decl_line]
    return out, moved


def _renamed(op, fresh):
    if isinstance(op, ir.Reg) and op.vreg.number in fresh:
        return replace(op, vreg=fresh[op.vreg.number])
    if isinstance(op, ir.Mem):
        return replace(op, base=_renamed(op.base, fresh), offset=op.offset and _renamed(op.offset, fresh))
    return op


def _index_of(lines, tag) -> int:
    for index, line in enumerate(lines):
        if line.tag is tag:
            return index
    raise AssertionError("a loop marker was lost")


def _too_many(file, live, lines, at):
    loc = lines[max(at, 0)].loc or (None, 0, 0)
    named = sorted((reg for reg in live if reg.name and reg.name != "temporary"), key=lambda reg: reg.number)
    temps = len(live) - len(named)
    listed = ", ".join(reg.name for reg in named) + (f" and {temps} temporaries" if temps else "")
    where = ", ".join(f"{reg.name} (line {reg.loc[1]})" for reg in named if reg.loc)
    raise CppError(f"too many live {FILE_NAMES[file]} values here: {len(live)} at once, the machine has "
                   f"{REGISTERS[file]} {file} registers ({listed})", loc[0], loc[1], loc[2],
                   [f"declared at: {where}"] if where else [])
