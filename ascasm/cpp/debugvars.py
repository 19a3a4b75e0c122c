"""The translation's debug information (ascasm/debuginfo.py) as directive lines: where each C++
variable lives (`.var`/`.arg`, from the register allocation) among the lowered lines, which already
hold the inlined calls' `.frame push`/`.frame pop` (ascasm/cpp/lower.py).

A variable bound to a virtual register lives in its machine register from the later of its binding
and the register's first mention until another virtual register is given the same machine register
(its value stays there after its last use: only a reuse loses it, gdb's "optimised out"); a helper's
variable also ends where its inlined call does. A constant is `=VALUE` over its scope."""
from __future__ import annotations

import os
from dataclasses import replace

from ..debuginfo import DebugInfo, InlineFrame, VarRange
from . import ir
from .ir import ARTIFICIAL, RV, VReg
from .scope import buffer_name
from .values import Const


def annotate(lines: list, lowering, assignment: dict, ranges: dict, constants=None) -> list:
    """The IR `lines` with the `.var`/`.arg` directives inserted, and `.artificial` before each
    instruction the lowering tagged ARTIFICIAL. `constants` {virtual register number: immediate}: the
    registers the allocation rematerialised (regalloc.fit), shown as their value."""
    constants = constants or {}
    frame_end, frame_depth = _frame_ends(lines), _frame_depths(lines)
    file_of = {reg.number: reg.file for reg in lowering.regs}
    params = {slot.reg.number: slot for slot in lowering.params}
    # (keyword, name, C++ type, value, line bound at, inline depth): the function's parameters (or a
    # block's captured values), then every variable the lowering bound
    entries = [(".arg", slot.name, slot.cpp_type, slot.reg, 0, 0) for slot in lowering.params]
    for name, value, at, depth, is_arg in lowering.bindings:
        if at > len(lines) or (depth == 0 and isinstance(value, RV) and value.reg.number in params
                               and params[value.reg.number].name == name):
            continue                    # a lowering undone since, or a parameter listed above
        keyword = ".arg" if is_arg else ".var"
        for member, part in _members(name, value):
            if isinstance(part, RV):
                entries.append((keyword, member, str(part.ctype), part.reg, at, depth))
            elif isinstance(part, Const) and part.ctype is not None and part.ctype.is_scalar and \
                    isinstance(part.value, (int, float, bool)):
                entries.append((keyword, member, str(part.ctype), part.value, at, depth))
    opens: dict[int, list[str]] = {}
    closes: dict[int, list[str]] = {}
    spans = []                          # (start, end, name, depth, its .var/.arg directive)
    for keyword, name, ctype, value, at, depth in entries:
        end = frame_end[at] if depth else len(lines)
        if isinstance(value, VReg) and value.number in constants:
            start, where, buffer = at, f"={constants[value.number]}", None
        elif isinstance(value, VReg):
            n = value.number
            if n not in assignment:
                continue
            first, last = ranges[n]
            machine = assignment[n]
            reused = [f for m, (f, _l) in ranges.items()
                      if m != n and assignment[m] == machine and file_of[m] == value.file and f > last]
            start, end = max(at, first, 0), min([end, *reused])
            while start < len(lines) and frame_depth[start] > depth:
                # first written inside an inlined call (a helper's reference parameter): a directive
                # there would belong to the call's frame and end at its pop, so the range starts after it
                start = frame_end[start] + 1
            where, buffer = f"{value.file}{machine}", None
            if ctype.endswith("*") and n in params and params[n].kind == "pointer":
                buffer = buffer_name(params[n].name, machine)
        else:
            start, where, buffer = at, f"={int(value)}" if isinstance(value, bool) else f"={value!r}", None
        if start >= end:
            continue
        spans.append((start, end, name, depth, ir.Var(name, ctype, where, buffer, keyword == ".arg")))
    # A later variable of the same name and depth replaces an earlier one (the assembler's rule): an
    # earlier one's end is written only while it is still the one that name means
    events = sorted([(start, 1, i) for i, (start, *_rest) in enumerate(spans)] +
                    [(end, 0, i) for i, (_s, end, *_rest) in enumerate(spans)
                     if end < len(lines) and not (isinstance(lines[end], ir.Directive) and lines[end].frame_pop)])
    current: dict = {}
    for row, is_open, i in events:
        _start, _end, name, depth, directive = spans[i]
        if is_open:
            current[name, depth] = i
            opens.setdefault(row, []).append(directive)
        elif current.get((name, depth)) == i:
            del current[name, depth]
            closes.setdefault(row, []).append(ir.VarEnd(name))
    out = []
    for index, line in enumerate(lines + [None]):
        out += closes.get(index, []) + opens.get(index, [])
        if line is not None:
            if line.tag is ARTIFICIAL:
                out.append(ir.Artificial())
            out.append(line)
    return out


def _members(name: str, value):
    """(name, value) of a variable, or of each member of a struct (`tile.count`), nested ones too."""
    if isinstance(value, Const) and isinstance(value.value, dict):
        return [item for field, part in value.value.items() for item in _members(f"{name}.{field}", part)]
    return [(name, value)]


def _frame_ends(lines: list) -> list[int]:
    """Per line index, the index of the `.frame pop` that ends the innermost inlined call open there
    (len(lines) outside every call)."""
    ends, stack = [len(lines)] * (len(lines) + 1), []
    for index, item in enumerate(lines):
        if isinstance(item, ir.Directive) and item.frame_push:
            stack.append(index)
        elif isinstance(item, ir.Directive) and item.frame_pop:
            start = stack.pop()
            for k in range(start + 1, index + 1):
                if ends[k] == len(lines):
                    ends[k] = index
    return ends


def _frame_depths(lines: list) -> list[int]:
    """Per line index, the number of inlined calls open before that line (a directive inserted there
    belongs to the innermost)."""
    depths, depth = [], 0
    for item in lines:
        depths.append(depth)
        if isinstance(item, ir.Directive):
            depth += item.frame_push - item.frame_pop
    return depths + [depth]


def debug_info(items: list) -> DebugInfo:
    """The DebugInfo of the annotated IR `items` (rows: its instructions), as the assembler reads it
    from the directives of the program's text."""
    frames, stack, live, ended, artificial, row = [], [], [], [], set(), 0

    def end(which):
        for var in [var for var in live if which(var)]:
            live.remove(var)
            if row > var.start:
                ended.append(replace(var, end=row))
    for item in items:
        if isinstance(item, ir.Instr):
            frames.append(tuple(stack))
            row += 1
        elif isinstance(item, ir.FramePush):
            stack.append(InlineFrame(item.function, os.path.normpath(item.file), item.line, item.col))
        elif isinstance(item, ir.FramePop):
            end(lambda var: var.depth == len(stack))
            stack.pop()
        elif isinstance(item, ir.VarEnd):
            innermost = max((var for var in live if var.name == item.name), key=lambda var: var.depth)
            end(lambda var: var is innermost)
        elif isinstance(item, ir.Var):
            end(lambda var: var.name == item.name and var.depth == len(stack))
            live.append(VarRange(item.name, item.ctype, item.location, row, row, len(stack), item.buffer, item.arg))
        elif isinstance(item, ir.Artificial):
            artificial.add(row)
    end(lambda var: True)
    return DebugInfo(frames, sorted(ended, key=lambda var: (var.start, var.depth)),
                     frozenset(r for r in artificial if r < row))


def split(lines: list) -> tuple[list, list]:
    """The lines without the debug directives, and the directives as (k, text): before lines[k]."""
    plain, directives = [], []
    for line in lines:
        if line.text.startswith((".var ", ".arg ", ".frame ", ".artificial")):
            directives.append((len(plain), line.text))
        else:
            plain.append(line)
    return plain, directives
