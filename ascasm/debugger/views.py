"""What the debugger prints: where the machine stands, registers, source listings, disassembly, the
`why` answers, watch changes, lists of breakpoints and buffers. Every function returns lines; none
changes the machine."""
from __future__ import annotations

import re

import numpy as np

from .. import formatting
from ..expr import machine as expressions
from ..expr.cvars import user_frames
from ..expr.machine import ExprError, Value
from ..formatting import format_value
from ..isa import dtypes
from ..isa.operands import Kind
from ..state import MASK_SPR_NAME, MASK_SPR_SET, SPR_AR, SPR_NAMES, SPR_SQZN, SPR_SQZN_SET, VL
from ..observers.provenance import USER_EDIT
from ..source import is_cpp
from ..observers.trace import source_text


def size_text(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            value = n / (1 << shift)
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{n} bytes"


def insn_text(loc) -> str:
    """An instruction's source without its label, comment and repeated blanks (a C++ line: without
    its comment and repeated blanks; `Reg::` is no label)."""
    text = source_text(loc) if is_cpp(loc.file) else re.sub(r"^[A-Za-z_][\w]*:\s*", "", source_text(loc))
    return re.sub(r"\s+", " ", text)


def where_lines(program, state) -> list[str]:
    insns = program.insns
    if state.pc >= len(insns):
        return [f"> {program.filename} pc={state.pc} (past the last instruction) steps={state.steps}"]
    insn = insns[state.pc]
    loc = insn.loc
    frames = user_frames(program, state.pc)
    inside = [f"   in {frames[-1].function}, inlined at {_short(frames[-1].call_file)}:{frames[-1].call_line}"] \
        if frames else []
    return [f"> {loc.file}({loc.line}) pc={state.pc} steps={state.steps}", f"-> {loc.text.strip()}", *inside,
            *instruction_lines(insn)]


def inline_stack(program, row: int) -> list[tuple[str, str, int]]:
    """A translated kernel's frames at `row`, innermost first: (function, file, line), the inlined
    helpers (each at the line it is in) and last the kernel itself (at its call of the outermost one)."""
    frames = user_frames(program, row)
    loc = program.insns[row].loc
    stack, file, line = [], loc.file, loc.line
    for frame in reversed(frames):
        stack.append((frame.function, file, line))
        file, line = frame.call_file, frame.call_line
    return stack + [("kernel", file, line)]


def inline_frame_lines(program, row: int, number: int) -> list[str]:
    """`up`/`down`: frame `number` of the inline stack, with its source line."""
    function, file, line = inline_stack(program, row)[number]
    lines = program.source_lines(file) or []
    text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return [f"#{number}  {function} at {_short(file)}:{line}", *([f"    {text}"] if text else [])]


def variable_lines(env, args: bool) -> list[str]:
    """`info args` / `info locals`: each visible C++ variable of the selected frame on one line."""
    visible = env.scope.own(args)
    if not visible:
        return ["No arguments." if args else "No locals."]
    lines = []
    for name in visible:
        try:
            shown_lines = format_value(expressions.evaluate_name(name, env))
        except ExprError as exc:
            lines.append(f"{name}: {exc}")
            continue
        first_row = f"  {shown_lines[1].split('] ', 1)[1]}" if len(shown_lines) > 1 else ""
        lines.append((shown_lines[0] + first_row)[:160])
    return lines


def _short(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def instruction_lines(insn) -> list[str]:
    """For a row whose position is a C++ line (.loc): the instruction itself, under that line."""
    return [] if insn.asm is None else [f"   {insn_text(insn.asm)}  ({insn.asm})"]


def frame_lines(program, state, selected: int = 0) -> list[str]:
    """`where`: `#0  loop+1, pc 6, at FILE:14` and the instruction; in a translated kernel's inlined
    helpers, a frame per helper and one for the kernel (`selected`: the one `up` chose, marked)."""
    insns = program.insns
    if state.pc >= len(insns):
        return [f"#0  pc {state.pc}, past the last instruction of {program.filename}"]
    if user_frames(program, state.pc):
        lines = []
        for number in range(len(inline_stack(program, state.pc))):
            frame = inline_frame_lines(program, state.pc, number)
            lines += [frame[0] + ("  (selected: up/down)" if number == selected and selected else ""), *frame[1:]]
        return lines
    labels = [(row, name) for name, row in program.labels.items() if row <= state.pc]
    row, name = max(labels, default=(0, ""))
    label = f"{name}+{state.pc - row}, " if name else ""
    loc = insns[state.pc].loc
    return [f"#0  {label}pc {state.pc}, at {loc.file}:{loc.line}", f"    {insn_text(loc)}",
            *instruction_lines(insns[state.pc])]


def expect_lines(program, state) -> list[str]:
    lines = []
    for expectation in program.expects:
        buf = expectation.buffer
        wrong = expectation.mismatches(state)
        if wrong.size == 0:
            lines.append(f"expect {buf.name}: ok ({buf.count} elements)")
        else:
            first = ", ".join(str(int(i)) for i in wrong[:8]) + (", ..." if wrong.size > 8 else "")
            lines.append(f"expect {buf.name}: {wrong.size} of {buf.count} elements differ "
                         f"(line {expectation.loc.line}; elements {first}); why {buf.name}[{int(wrong[0])}] "
                         "says who wrote one")
    return lines


# ------------------------------------------------------------------ registers, source, disassembly

def regs_lines(program, state, vtype) -> list[str]:
    """pc and steps, s0-s31, a0-a7, the mask registers and the non-zero vector registers (first lanes);
    `vtype(n)` is the type a vector register is shown as."""
    lines = where_lines(program, state)[:1]
    cells = [f"s{i} = {int(state.sreg[i])}" for i in range(32)]
    width = max(len(c) for c in cells)
    for start in range(0, 32, 4):
        lines.append("  " + "  ".join(c.ljust(width) for c in cells[start:start + 4]).rstrip())
    lines.append("  " + "  ".join(f"a{i} = {int(state.areg[i])}" for i in range(8)))
    masks = []
    for i in range(8):
        if not state.preg_set[i]:
            masks.append(f"p{i} unset")
        else:
            masks.append(f"p{i} {int(np.unpackbits(state.preg[i]).sum())} bits")
    lines.append("  " + ", ".join(masks))
    lines.append("  " + special_text(state))
    lines.append("  " + loops_text(state))
    shown = 0
    for i in range(32):
        if state.vreg[i].any():
            etype = vtype(i) or dtypes.lookup("u8")
            lanes = state.vreg[i].view(etype.np_dtype)
            cells = " ".join(formatting.cell_text(x, etype) for x in lanes[:8])
            lines.append(f"  v{i}.{etype.name} = [{cells} ...]")
            shown += 1
    if not shown:
        lines.append("  v0-v31 all zero")
    return lines


def mask_spr_text(state) -> str:
    """The mask special register as MASK1:MASK0 in hex, or unset."""
    if not state.mask_spr[MASK_SPR_SET]:
        return "unset"
    low, high = (int(x) for x in state.mask_spr[:MASK_SPR_SET].view(np.uint64))
    return f"{high:#018x}:{low:016x}"


def special_text(state) -> str:
    """AR, SQZN, MASK, what each unaligned store and load register holds, and CTRL, in one line."""
    sqzn = str(int(state.spr[SPR_SQZN])) if state.spr[SPR_SQZN_SET] else "unset"
    cells = [f"AR = {int(state.spr[SPR_AR])}", f"SQZN = {sqzn}", f"{MASK_SPR_NAME} = {mask_spr_text(state)}"]
    for u, (pending, at) in enumerate(state.ureg_state.tolist()):
        cells.append(f"u{u} {pending} bytes pending for {at:#x}" if pending else f"u{u} empty")
    for q, (loaded, position) in enumerate(state.qreg_state.tolist()):
        cells.append(f"q{q} at {position:#x}" if loaded else f"q{q} unset")
    return ", ".join(cells + [f"CTRL = {int(state.ctrlreg[0]):#x}"])


def loops_text(state) -> str:
    """The active hardware loops, innermost first: 'loops: lidx0 = 1 of 3, lidx1 = 0 of 2'."""
    active = [(int(index), int(count)) for index, count in state.hwloop.tolist() if count]
    if not active:
        return "loops: none active"
    return "loops: " + ", ".join(f"lidx{k} = {index} of {count}" for k, (index, count) in enumerate(active))


def list_lines(program, state, file: str, lines: list[str], first: int, breakpoint_lines: set) -> list[str]:
    """Lines first..first+10 of `file` (its text `lines`) with markers: -> the next instruction,
    B a breakpoint."""
    last = min(len(lines), first + 10)
    insns = program.insns
    current = insns[state.pc].loc.line if state.pc < len(insns) and insns[state.pc].loc.file == file else -1
    out = []
    for number in range(first, last + 1):
        mark = ("B" if number in breakpoint_lines else " ") + ("->" if number == current else "  ")
        out.append(f"{number:>4} {mark} {lines[number - 1]}".rstrip())
    return out


def disas_lines(program, pc: int, rows, breakpoint_pcs: set) -> list[str]:
    insns, code = program.insns, program.code
    texts = [insn_text(insns[i].asm or insns[i].loc) for i in rows]
    width = max((len(t) for t in texts), default=0)
    out = []
    for i, text in zip(rows, texts):
        mark = ("B" if i in breakpoint_pcs else " ") + ("=>" if i == pc else "  ")
        row = code[i]
        slots = " ".join(str(int(v)) for v in row[3:])
        out.append(f"{mark} {i:>4}  line {insns[i].loc.line:<4} {text:<{width}}  "
                   f"{insns[i].spec.opname} {int(row[1])} {int(row[2])} | {slots}".rstrip())
    return out


# ------------------------------------------------------------------ what a step changed

def step_change_lines(program, state, move, effects) -> list[str]:
    """After a single `step`: each register the instruction wrote with its new value (and whether it
    changed), and the UB elements it wrote, per buffer."""
    lines = []
    for reg in effects.regs:
        if reg.file in ("s", "a"):
            part = "sreg" if reg.file == "s" else "areg"
            new, old = getattr(state, part)[reg.number], _before(state, move, part)[reg.number]
            text = formatting.cell_text(new, None)
            hex_text = f" ({int(new):#x})" if not 0 <= int(new) <= 9 else ""
            was = f", was {formatting.cell_text(old, None)}" if old != new else " (unchanged)"
            lines.append(f"  {reg.file}{reg.number} = {text}{hex_text}{was}")
        elif reg.file == "p":
            bits = np.unpackbits(state.preg[reg.number], bitorder="little")[::reg.etype.width][:reg.etype.lanes]
            lines.append(f"  p{reg.number}.{reg.etype.name}: {int(bits.sum())} of {bits.size} lanes active")
        elif reg.file == MASK_SPR_NAME:
            lines.append(f"  {MASK_SPR_NAME} = {mask_spr_text(state)} (MASK1:MASK0)")
        elif reg.file in SPR_NAMES:
            index = SPR_NAMES.index(reg.file)
            new, old = int(state.spr[index]), int(_before(state, move, "spr")[index])
            lines.append(f"  {reg.file} = {new}" + (f", was {old}" if old != new else " (unchanged)"))
        elif reg.file == "LOOP":
            lines.append("  " + loops_text(state))
        elif reg.file == "CTRL":
            new, old = int(state.ctrlreg[0]), int(_before(state, move, "ctrlreg")[0])
            lines.append(f"  CTRL = {new:#x}" + (f", was {old:#x}" if old != new else " (unchanged)"))
        elif reg.file == "u":
            pending, at = (int(x) for x in state.ureg_state[reg.number])
            lines.append(f"  u{reg.number}: {pending} bytes pending for UB {at:#x}" if pending
                         else f"  u{reg.number}: empty")
        elif reg.file == "q":
            lines.append(f"  q{reg.number}: the block for stream position {int(state.qreg_state[reg.number][1]):#x}")
        else:
            dtype = reg.etype.np_dtype
            new, old = state.vreg[reg.number].view(dtype), _before(state, move, "vreg")[reg.number].view(dtype)
            changed = int(np.count_nonzero(new.view(reg.etype.bits) != old.view(reg.etype.bits)))
            cells = " ".join(formatting.cell_text(x, reg.etype) for x in new[:8])
            lines.append(f"  v{reg.number}.{reg.etype.name} = [{cells} ...] ({changed} of {new.size} lanes changed)")
    if effects.ub_writes:
        lines += _ub_write_lines(program, effects.ub_writes)
    return lines


def _before(state, move, part: str) -> np.ndarray:
    """State part `part` as it was before the recorded move (its undo log applied to a copy)."""
    array = getattr(state, part).copy()
    raw = array.reshape(-1).view(np.uint8)
    for name, positions, old in move.undo:
        if name == part:
            raw[positions] = old
    return array


def _ub_write_lines(program, spans) -> list[str]:
    """`  output: 32 elements written: [0] [12] [24] ...` per buffer (bytes outside buffers: a range)."""
    written = np.unique(np.concatenate([(span.addr + np.arange(span.count)[:, None] * (span.pitch or span.width)
                                         + np.arange(span.width)).reshape(-1) for span in spans]))
    lines = []
    for buf in (b for b in program.buffers.values() if b.space == "ub"):
        inside = written[(written >= buf.addr) & (written < buf.addr + buf.nbytes)]
        if inside.size:
            elements = np.unique((inside - buf.addr) // buf.etype.width)
            shown = " ".join(f"[{int(e)}]" for e in elements[:8]) + (" ..." if elements.size > 8 else "")
            lines.append(f"  {buf.name}: {elements.size} element{'s' if elements.size != 1 else ''} written: {shown}")
        written = written[(written < buf.addr) | (written >= buf.addr + buf.nbytes)]
    if written.size:
        lines.append(f"  ub[{int(written[0]):#x}:{int(written[-1]) + 1:#x}]: {written.size} bytes written")
    return lines


# ------------------------------------------------------------------ lists

def breakpoint_lines(breakpoints) -> list[str]:
    if not breakpoints:
        return ["no breakpoints"]
    return [f"{bp.number:>3}  {'tbreak' if bp.temporary else 'break':<6} line {bp.line} (pc {bp.pc})"
            + (f" if {bp.condition}" if bp.condition else "") + f"  hit {bp.hits} time"
            + ("" if bp.hits == 1 else "s") for bp in breakpoints]


def watch_lines(watches) -> list[str]:
    return [f"{watch.number:>3}  watch  {watch.text}" for watch in watches] or ["no watches"]


def display_lines(displays) -> list[str]:
    return [f"{display.number:>3}  {display.text}" for display in displays] or ["no displays"]


def buffer_lines(program) -> list[str]:
    return [f"{buf.name}: {buf.etype.name}[{buf.count}] at {'GM ' if buf.space == 'gm' else ''}{buf.addr:#x}.."
            f"{buf.addr + buf.nbytes:#x} (line {buf.loc.line})" for buf in program.buffers.values()]


def label_lines(program) -> list[str]:
    if not program.labels:
        return ["no labels"]
    lines = []
    for name, pc in program.labels.items():
        line = program.insns[pc].loc.line if pc < len(program.insns) else "end"
        lines.append(f"{name}: pc {pc}, line {line}")
    return lines


def history_lines(recorder) -> list[str]:
    moves = recorder.moves_available
    lines = [f"history: back can go {moves} step{'s' if moves != 1 else ''}, to step {recorder.oldest_steps}; "
             f"{size_text(recorder.nbytes)} used of the {size_text(recorder.cap)} cap"
             + (f"; {recorder.dropped} oldest entries dropped at the cap" if recorder.dropped else "")]
    unrecorded = sum(segment.moves for segment in recorder.segments())
    if unrecorded:
        lines.append(f"  {unrecorded} of those steps ran without a per-step record (continue, until): "
                     "they are kept as checkpoints that back, rc and why replay with the engine")
    return lines


def history_limit_text(recorder, steps: int, done: int | None) -> str:
    """Why back or rc stopped at the oldest recorded state."""
    if recorder.dropped:
        why = (f"older history was dropped at the {size_text(recorder.cap)} cap "
               "(history SIZE raises it)")
    elif steps == 0:
        why = "the start of the program"
    else:
        why = "the start of the recorded history"
    prefix = "" if done is None else f"back: went back {done} step{'s' if done != 1 else ''}; "
    return f"{prefix}reached the oldest recorded state, step {steps}: {why}"


# ------------------------------------------------------------------ watch changes

def change_lines(old, new, limit: int = 16) -> list[str]:
    """A watch's change: the elements that differ, old -> new."""
    if not isinstance(old, Value) or not isinstance(new, Value):
        return [f"  old: {_brief(old)}", f"  new: {_brief(new)}"]
    if not old.is_array or not new.is_array or old.data.size != new.data.size:
        return [f"  old: {_brief(old)}", f"  new: {_brief(new)}"]
    n = old.data.size
    a = np.ascontiguousarray(old.data).view(np.uint8).reshape(n, -1)
    b = np.ascontiguousarray(new.data).view(np.uint8).reshape(n, -1)
    differ = np.any(a != b, axis=1)
    if old.active is not None and new.active is not None:
        differ |= np.asarray(old.active) != np.asarray(new.active)
    changed = np.flatnonzero(differ)
    cells = [f"[{new.first + k}] {_cell(old, k)} -> {_cell(new, k)}" for k in changed[:limit]]
    lines = ["  " + "   ".join(cells[i:i + 4]) for i in range(0, len(cells), 4)]
    if changed.size > limit:
        lines.append(f"  ... and {changed.size - limit} more")
    return lines


def _cell(value: Value, k: int) -> str:
    if value.active is not None and not value.active[k]:
        return "."
    return formatting.cell_text(value.data[k], value.etype, value.kind)


def _brief(value) -> str:
    if not isinstance(value, Value):
        return str(value)
    lines = format_value(value)
    if len(lines) == 1:
        return lines[0].split(" = ", 1)[-1]
    return " / ".join(l.strip() for l in lines[1:3]) + (" ..." if len(lines) > 3 else "")


# ------------------------------------------------------------------ why

def buffer_at(program, addr: int, space: str = "ub"):
    """The buffer of `space` (the UB, or "gm") holding address addr, or None."""
    for buf in program.buffers.values():
        if buf.space == space and buf.addr <= addr < buf.addr + buf.nbytes:
            return buf
    return None


def ub_name(program, addr: int, space: str = "ub") -> str:
    """`NAME[I]` (plus ` byte K` inside an element) for an address in a buffer of `space`, else
    `ub[ADDR]` (`gm[ADDR]`)."""
    buf = buffer_at(program, addr, space)
    if buf is None:
        return f"{space}[{addr:#x}]"
    element, offset = divmod(addr - buf.addr, buf.etype.width)
    return f"{buf.name}[{element}]" + (f" byte {offset}" if offset else "")


def why_lines(program, recorder, value: Value, limit: int = 32) -> list[str]:
    """The `why` answer for every element of a location value: at most `limit` answers, a run of
    elements whose writer was lost at the history cap counting as one."""
    where = value.where
    if where.kind in ("s", "a", "p"):
        rows = recorder.last_writers(where.kind, np.array([where.number]))
        what = value.label if where.kind == "p" else format_value(value)[0]
        if _lost(recorder, rows):
            return [f"{what}: {_unknown_writer(recorder)}"]
        return _writer_lines(program, recorder, what, [(0, 0, rows[0])], where.kind)
    n = 1 if not value.is_array else value.data.size
    scanned = min(n, max(limit, VL))          # (a whole vector register at most: one answer if all lost)
    if where.kind == "v":
        starts = [(value.first + k) * where.width for k in range(scanned)]
        positions = np.concatenate([where.number * VL + b + np.arange(where.width) for b in starts])
        rows = recorder.last_writers("v", positions)
    else:                                     # UB or GM bytes
        starts = [where.number + k * where.width for k in range(scanned)]
        positions = np.concatenate([b + np.arange(where.width) for b in starts])
        rows = recorder.last_writers(where.kind, positions)
    lines, lost, answered, covered = [], [], 0, 0
    for k, first in enumerate(starts):
        element_rows = rows[k * where.width:(k + 1) * where.width]
        if _lost(recorder, element_rows):
            lost.append(k)
            covered = k + 1
            continue
        if answered + bool(lost) >= limit:
            break
        answered += bool(lost) + 1
        lines += _flush_lost(program, recorder, value, starts, lost)
        x = value.data[()] if not value.is_array else value.data[k]
        text = formatting.cell_text(x, value.etype)
        if where.kind == "v":
            what = f"v{where.number}.{value.etype.name}[{value.first + k}] = {text}"
        else:
            what = _ub_label(program, first, where.width, text, space=where.kind)
        lines += _writer_lines(program, recorder, what, _groups(element_rows, first), where.kind)
        covered = k + 1
    lines += _flush_lost(program, recorder, value, starts, lost)
    if n > covered:
        lines.append(f"... and {n - covered} more (ask about a smaller slice)")
    return lines


def _ub_label(program, first: int, width: int, text: str = "", count: int = 1, space: str = "ub") -> str:
    """`output[4] = 45 (ub[0x8:0xa])`, or for `count` elements `output[4:8] (ub[0x8:0x10])`; GM bytes as
    `y[0] = 2 (gm[0x100:0x104])`."""
    name = ub_name(program, first, space)
    end = first + count * width
    span = f"{space}[{first:#x}]" if end - first == 1 else f"{space}[{first:#x}:{end:#x}]"
    plain = name.startswith(f"{space}[")
    if count > 1 and not plain and "byte" not in name:
        name = name.replace("]", f":{int(name.split('[')[1][:-1]) + count}]")
    value = f" = {text}" if text else ""
    return f"{name}{value} ({span})" if not plain else f"{span}{value}"


def _lost(recorder, rows) -> bool:
    """No write of these bytes is recorded, but history that could hold one was dropped at the cap."""
    return bool(recorder.horizon) and bool(np.all(rows["step"] < 0))


def _flush_lost(program, recorder, value: Value, starts: list, lost: list) -> list[str]:
    """One line for a run of elements whose writer is unknown (their history was dropped); empties
    `lost`."""
    if not lost:
        return []
    where, k, count = value.where, lost[0], len(lost)
    lost.clear()
    if where.kind == "v":
        lanes = f"[{value.first + k}]" if count == 1 else f"[{value.first + k}:{value.first + k + count}]"
        what = f"v{where.number}.{value.etype.name}{lanes}"
    else:
        what = _ub_label(program, starts[k], where.width, count=count, space=where.kind)
    return [f"{what}: {_unknown_writer(recorder)}"]


def _unknown_writer(recorder) -> str:
    return (f"its writer is unknown: steps up to {recorder.horizon} ran at full speed and their checkpoint "
            f"was dropped at the {size_text(recorder.cap)} history cap (history SIZE raises it)")


def _writer_lines(program, recorder, what: str, groups: list, kind: str) -> list[str]:
    if len(groups) == 1:
        return [f"{what}: {_writer_text(program, recorder, groups[0][2], kind, groups[0][0])}"]
    lines = [f"{what}: its bytes have different last writers:"]
    for lo, hi, row in groups:
        memory = kind in ("ub", "gm")
        span = f"{kind}[{lo:#x}]" if memory else f"byte {lo}"
        if hi > lo:
            span = f"{kind}[{lo:#x}:{hi + 1:#x}]" if memory else f"bytes {lo}-{hi}"
        lines.append(f"  {span}: {_writer_text(program, recorder, row, kind, lo)}")
    return lines


def _writer_text(program, recorder, row, kind: str, first_byte: int) -> str:
    step = int(row["step"])
    if kind == "v":
        first_byte %= VL
    caveat = ""
    if recorder.horizon and step < recorder.horizon:
        caveat = (f" (steps up to {recorder.horizon} ran at full speed and their checkpoint was "
                  "dropped at the history cap: a write there would not show)")
    if step < 0:
        if kind in ("ub", "gm"):
            buf = buffer_at(program, first_byte, kind)
            origin = (f"its initial value from line {buf.loc.line}: {buf.loc.text.strip()}" if buf
                      else "its initial value (the UB starts zeroed)")
        else:
            origin = "registers start at zero"
        return f"not written by any instruction yet; {origin}{caveat}"
    pc = int(row["pc"])
    if pc == USER_EDIT:
        return f"set by `set var` after step {step}{caveat}"
    insn = program.insns[pc]
    text = f"last written at step {step}, line {insn.loc.line} (pc {pc}): {insn_text(insn.loc)}"
    if insn.asm is not None:
        text += f" [{insn_text(insn.asm)}]"
    detail = []
    lane, src, index, origin = int(row["lane"]), int(row["src"]), int(row["index"]), int(row["origin"])
    if kind == "ub" and src >= 0:
        register = f"{_register_file(insn, src)}{insn.operands[src]}"
        detail.append(f"by lane {lane} of {register}" if lane >= 0 else f"from {register}")
        if index >= 0:
            detail.append(f"index {index} from {_index_register(insn)}[{lane}]")
    if kind == "v":
        detail.append(f"lane {lane}")
        if row["zeroed"] == 1:
            detail[-1] += (f", inactive under p{insn.operand('pM')}: zeroed (inactive lanes of "
                           f"{insn.spec.mnemonic} are 0)")
        if origin >= 0:
            name = ub_name(program, origin)
            verb = "gathered" if insn.spec.family == "vgat" else "loaded"
            detail.append(f"{verb} from ub[{origin:#x}]" + (f" ({name})" if not name.startswith("ub[") else ""))
        if index >= 0:
            detail.append(f"index {index} from {_index_register(insn)}[{lane}]")
    return text + ("\n  " + ", ".join(detail) if detail else "") + caveat


def _groups(rows: np.ndarray, first: int) -> list:
    """Runs of bytes with the same last writer: (first byte, last byte, WRITER row)."""
    keys = [(int(r["step"]), int(r["pc"]), int(r["lane"]), int(r["src"])) for r in rows]
    groups, start = [], 0
    for k in range(1, len(keys) + 1):
        if k == len(keys) or keys[k] != keys[start]:
            groups.append((first + start, first + k - 1, rows[start]))
            start = k
    return groups


def _register_file(insn, position: int) -> str:
    return {Kind.VREG: "v", Kind.PREG: "p", Kind.AREG: "a", Kind.SREG: "s", Kind.UREG: "u", Kind.QREG: "q", Kind.BASE: "s"}[insn.spec.operands[position].kind]


def _index_register(insn) -> str:
    return f"v{insn.operand('vI')}"
