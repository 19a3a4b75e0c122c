"""Register allocation over the lowered program (the IR of ir.py): each virtual register lives from its
first to its last mention by an instruction, stretched over a whole loop when it is declared before the loop and mentioned in it
(its value goes round the loop); a linear scan then gives each file's machine registers out. More
live at one point than a file has is a CppError naming the variables and the C++ line."""
from __future__ import annotations

from .clang import CppError

REGISTERS = {"s": 32, "v": 32, "p": 8, "a": 8, "u": 4, "q": 4}
FILE_NAMES = {"s": "scalar", "v": "vector (RegTensor)", "p": "mask (MaskReg)", "a": "address (AddrReg)",
              "u": "unaligned store", "q": "unaligned load"}


def allocate(lines, loops, regs, fixed=(), ranges=None) -> dict:
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
                _too_many(file, [regs[a[1]] for a in active] + [regs[n]], lines, first[n])
            free.sort()
            assignment[n] = free.pop(0)
            active.append((last[n], n))
    if ranges is not None:
        ranges.update((n, (first[n], last[n])) for n in first)
    return assignment


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
