"""Run control: the machine and its Recorder, breakpoints and watches, running forward (step,
continue, until) and backward (back, rc).

Execution goes through `history.Recorder`: `step` records each `machine.run(1)` (an undo log for
`back`/`rc`, last-writer maps for `why`); `continue` runs the engine at full speed with stop flags on
the rows where a breakpoint or a watch must be checked (the engine returns there), and keeps one
checkpoint of the run.
"""
from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from dataclasses import dataclass, field, replace

import numpy as np

from ..expr import machine as expressions
from ..expr.cvars import Scope, user_frames
from ..expr.machine import Env, ExprError
from ..isa.operands import Kind
from ..limits import shown, whole_number
from ..state import MAX_STEPS_DEFAULT, PC, STATUS, UB_USABLE_DEFAULT, VL
from ..observers.effects import lane_type
from ..observers import history
from ..observers.history import DEFAULT_HISTORY_CAP, HALTED, RUNNING, Recorder, Segment
from ..vm import WAITING, Machine, can_pass, publish_rounds, wait_name
from . import views

STEP_RECORD_LIMIT = 10_000      # `step N` up to this records every step (undo log + last writers)


@dataclass
class Breakpoint:
    number: int
    pc: int
    line: int
    file: str                 # the source file of `line` (the program's, or a C++ file its .loc rows name)
    condition: str = ""
    node: object = None
    temporary: bool = False
    hits: int = 0
    ignore: int = 0           # crossings still to pass without stopping (`c N`)


@dataclass
class Watch:
    number: int
    text: str
    node: object
    reads: frozenset = frozenset()   # what the expression reads (expressions.reads)
    last: tuple = ()          # signature of the last value seen (see RunControl.signature)
    value: object = None      # the last Value (or an error message)


@dataclass
class Run:
    """What a single step changed and what stopped a forward or reverse run, in lines to print."""
    reasons: list = field(default_factory=list)
    changes: list = field(default_factory=list)


class RunControl:
    """A program loaded into a machine, with the breakpoints and watches that stop its runs."""

    def __init__(self, program, engine: str = "cy", ub_usable: int = UB_USABLE_DEFAULT,
                 max_steps: int = MAX_STEPS_DEFAULT, history_cap: int = DEFAULT_HISTORY_CAP,
                 store_inactive: str = "keep", strict: bool = False, on_drop=None, blocks: int = 1):
        self.program, self.engine = program, engine
        self.blocks = blocks                   # a run of several blocks: one machine and history each
        self.ub_usable, self.max_steps, self.history_cap = ub_usable, max_steps, history_cap
        self.store_inactive, self.strict = store_inactive, strict
        self.on_drop = on_drop                 # called when the history cap drops the oldest entries
        self.breakpoints: dict[int, Breakpoint] = {}
        self.watches: dict[int, Watch] = {}
        self.next_number = 1                   # breakpoints and watches share numbers
        self.interrupted = False
        self.frame_up = 0                      # `up`: inline frames above the innermost one shown
        self.load()

    def load(self):
        """The program's initial state, an empty history; breakpoints and watches stay. Several blocks:
        each its machine and history, block 0 selected."""
        from ..blocks import Blocks
        self.run_blocks = Blocks(self.program, self.blocks, self.engine, self.ub_usable, self.max_steps,
                                 store_inactive=self.store_inactive, strict=self.strict)
        self.recorders = []
        for machine in self.run_blocks.machines:
            if self.blocks > 1:
                machine.passes = self._passes
            recorder = Recorder(self.program, machine, self.history_cap)
            recorder.on_drop = self.on_drop
            recorder.on_progress = _progress_on_terminal
            self.recorders.append(recorder)
        for bp in self.breakpoints.values():
            bp.hits = 0
        self.select_block(0)

    def _passes(self, machine) -> bool:
        """Whether a block stopped at a cross-core wait can pass, the other blocks' sets counted."""
        publish_rounds(self.run_blocks.states)
        return can_pass(machine.state)

    def select_block(self, number: int):
        """Make block `number` the one the commands show and run (its machine and history)."""
        self.block = number
        self.machine = self.run_blocks.machines[number]
        self.recorder = self.recorders[number]
        self.compiled: dict = {}      # id(condition tree) -> compiled scalar closure (bound to this state)
        self.resync_watches()

    @property
    def state(self):
        return self.machine.state

    def env(self) -> Env:
        """What expressions see; a translated kernel's C++ variables are those of the selected frame."""
        scope = None
        if self.program.debug.variables:
            scope = Scope(self.program, self.state.pc, len(self.frames(self.state.pc)) - self.frame_up)
        return Env(self.program, self.state, self.vtype, scope)

    def frames(self, row: int) -> tuple:
        return user_frames(self.program, row)

    def vtype(self, number: int):
        """A bare vN is shown as the type of the recorded step that last wrote it, else as the type of
        the first instruction of the program that writes it (u8 if none does)."""
        pc = int(self.recorder.writers["v"][number * VL]["pc"])
        rows = [pc] if pc >= 0 else range(len(self.program.insns))
        for row in rows:
            insn = self.program.insns[row]
            for operand, value in zip(insn.spec.operands, insn.operands):
                if operand.writes and operand.kind is Kind.VREG and value == number:
                    return lane_type(insn, operand)
        return None

    def scratch_machine(self) -> Machine:
        """A second machine in this one's state, to run ahead on (the debugger's `draw`)."""
        scratch = Machine(self.program, self.engine, self.ub_usable, self.max_steps,
                          store_inactive=self.store_inactive, strict=self.strict)
        for part in self.state.PARTS:
            setattr(scratch.state, part, getattr(self.state, part).copy())
        return scratch

    def cannot_run(self) -> str:
        """Why the program cannot run forward ("" when it can)."""
        status = self.state.status
        if status == RUNNING:
            return ""
        if status == HALTED:
            return "the program has halted; use back, rc or restart"
        if status == WAITING:
            if self._passes(self.machine):
                self.state.ctrl[STATUS] = RUNNING
                return ""
            others = [f"block {k}" for k, state in enumerate(self.run_blocks.states)
                      if state.status == RUNNING or (state.status == WAITING and k != self.block
                                                     and self._passes(self.run_blocks.machines[k]))]
            column = int(self.state.fault_args[0])
            waits = f"block {self.block} waits at {wait_name(column)} until the other blocks set it"
            if not others:
                return f"{waits}; no block can run any more: a deadlock (restart begins again)"
            return f"{waits}; {', '.join(others)} can run (block N selects one)"
        return (f"the program stopped at a fault ({self.machine.stop_name.lower()}); "
                "back undoes it, restart begins again")

    # ------------------------------------------------------------------ running forward
    def forward(self, limit: int | None = None, until: set = frozenset()) -> Run:
        """Run forward, at most `limit` steps, until a breakpoint, a watch change or a pc in `until`
        (a row, or len(insns): past the last instruction). `step N` (N up to STEP_RECORD_LIMIT)
        records every step; otherwise the engine runs at full speed between the checks and the
        history keeps one checkpoint for the run."""
        run = Run()
        with self.interruptible():
            if limit is not None and limit <= STEP_RECORD_LIMIT:
                self._forward_recorded(run, limit)
            else:
                self._forward_checked(run, limit, until)
        if self.interrupted:
            run.reasons.append("interrupted")
        return run

    def _forward_recorded(self, run: Run, limit: int):
        for _ in range(limit):
            if self.state.status != RUNNING or self.interrupted:
                break
            move, effects = self.recorder.step()
            if limit == 1 and effects is not None:
                run.changes = views.step_change_lines(self.program, self.state, move, effects)
            if self.state.status != RUNNING:
                break
            if self._watch_hits(run, move.pc) | self._breakpoint_hits(run):
                break

    def _forward_checked(self, run: Run, limit: int | None, until: set):
        """Run with the engine's stop flags: it returns before the rows of breakpoints and of `until`,
        and after rows that can write what a watch reads (and, when `until` holds the end, after rows
        that can reach it). There the checks run as they would after every single step, since
        everywhere else they could not stop or report anything."""
        insns, state, row_writes = self.program.insns, self.state, self.recorder.row_writes
        breakpoint_pcs = frozenset(bp.pc for bp in self.breakpoints.values())
        watches = list(self.watches.values())
        before = np.zeros(len(insns), np.uint8)
        before[sorted(pc for pc in breakpoint_pcs | until if pc < len(insns))] = 1
        after = np.array([any(_reevaluates(watch, row_writes[row]) for watch in watches)
                          for row in range(len(insns))], np.uint8)
        if len(insns) in until:
            after[_rows_reaching_end(insns)] = 1

        def at_stop() -> bool:
            pc, hit = state.pc, False
            if watches:
                row = self.machine.last_row
                hit = self._watch_hits(run, row, row_writes[row])
            if pc in breakpoint_pcs:
                hit = self._breakpoint_hits(run) or hit
            return hit or pc in until

        self.recorder.run_fast(limit, interrupted=lambda: self.interrupted, stops=(before, after, at_stop))

    def rows_outside_frame(self) -> set | None:
        """`finish` in an inlined call: the rows of its callers (and the end); None outside every call."""
        depth = len(self.frames(self.state.pc))
        if not depth:
            return None
        return {row for row in range(len(self.program.insns) + 1) if len(self.frames(row)) < depth}

    def loop_around(self) -> tuple[int, int] | None:
        """The innermost loop around the pc: (first row, last row) of the backward branch whose span
        holds it; None outside every loop."""
        pc, spans = self.state.pc, []
        for row, insn in enumerate(self.program.insns):
            for operand, target in zip(insn.spec.operands, insn.operands):
                if operand.kind is Kind.LABEL and target <= pc <= row:
                    spans.append((target, row))
        return min(spans, key=lambda span: span[1] - span[0], default=None)

    def next_line(self, over: bool = True) -> Run:
        """gdb's `next`: run until the pc reaches a row of another source line (a C++ statement for a
        translated kernel, one instruction in assembly), or stops otherwise; `over` an inlined call
        (the rows inside it do not count; without `over`, gdb's `step` into it). A one-instruction
        line is a recorded single step, which reports what it changed."""
        here, frames = self.position(self.state.pc), self.frames(self.state.pc)
        rows = range(len(self.program.insns) + 1)
        if over:        # a row of another line in this call, or one of a caller's
            depth = len(frames)
            elsewhere = frozenset(row for row in rows if len(self.frames(row)) < depth or (
                self.frames(row) == frames and self.position(row) != here))
        else:
            elsewhere = frozenset(row for row in rows if self.position(row) != here)
        run = self.forward(limit=1)
        if run.reasons or self.state.status != RUNNING or self.state.pc in elsewhere:
            return run
        return self.forward(until=elsewhere)

    def position(self, row: int) -> tuple | None:
        """(file, line) of a row; None past the last instruction."""
        insns = self.program.insns
        return (insns[row].loc.file, insns[row].loc.line) if row < len(insns) else None

    def current_file(self) -> str:
        """The source file of the next instruction (of the last one past the end): where a bare LINE is."""
        insns = self.program.insns
        return insns[min(self.state.pc, len(insns) - 1)].loc.file if insns else self.program.filename

    def source_file(self, name: str) -> str:
        """The file a `FILE:LINE` names: a file rows come from, by its path or its last components."""
        found = self.program.file_named(name)
        if found is None:
            files = ", ".join(dict.fromkeys(insn.loc.file for insn in self.program.insns))
            raise ExprError(f"no instruction comes from a file '{shown(name)}' (files: {files})")
        return found

    def rows_below(self) -> set:
        """`until` without an argument: the rows on lines below the current one, and the end."""
        insns = self.program.insns
        here = insns[self.state.pc].loc.line if self.state.pc < len(insns) else 1 << 30
        return {row for row, insn in enumerate(insns) if insn.loc.line > here} | {len(insns)}

    def _breakpoint_hits(self, run: Run, forward: bool = True) -> bool:
        """Report the breakpoints at the current pc whose condition holds; True if any. Running
        forward, one with crossings left to ignore (`c N`) counts one down instead of stopping."""
        matched = self._breakpoints_matching(run)
        if matched is None:
            return True
        if forward:
            passing = [bp for bp in matched if bp.ignore > 0]
            for bp in passing:
                bp.ignore -= 1
                bp.hits += 1
            matched = [bp for bp in matched if bp not in passing]
        self._report_breakpoints(run, matched)
        return bool(matched)

    def _breakpoints_matching(self, run: Run | None) -> list | None:
        """The breakpoints at the current pc whose condition holds; None when a condition failed to
        evaluate (reported in run: that stops too)."""
        pc, matched = self.state.pc, []
        for bp in self.breakpoints.values():
            if bp.pc != pc:
                continue
            if bp.node is not None:
                try:
                    if not self._truth(bp.node, bp.condition):
                        continue
                except ExprError as exc:
                    if run is not None:
                        run.reasons.append(f"Breakpoint {bp.number}: condition `{bp.condition}` failed: {exc}")
                    return None
            matched.append(bp)
        return matched

    def _report_breakpoints(self, run: Run, matched: list):
        for bp in matched:
            bp.hits += 1
            kind = "Temporary breakpoint" if bp.temporary else "Breakpoint"
            run.reasons.append(f"{kind} {bp.number}, line {bp.line}"
                               + (f" (condition `{bp.condition}` is true)" if bp.condition else ""))
            if bp.temporary:
                self.breakpoints.pop(bp.number, None)

    def _truth(self, node, text: str) -> bool:
        key = id(node)
        if key not in self.compiled:
            self.compiled[key] = expressions.compile_scalar(node, self.env())
        fast = self.compiled[key]
        if fast is not None:
            return bool(fast())
        value = expressions.evaluate(node, self.env())
        if value.is_array:
            raise ExprError(f"`{text}` gives {value.data.size} values; wrap it in any(...) or all(...)")
        if value.active is not None and not value.active:
            return False
        return bool(value.data)

    def signature(self, node) -> tuple:
        """What a watch compares: the raw bytes and active lanes of the value, or the error text."""
        try:
            value = expressions.evaluate(node, self.env())
        except ExprError as exc:
            return ("error", str(exc)), str(exc)
        data = np.array(value.data, copy=True)         # (a buffer or register view changes under us)
        active = b"" if value.active is None else np.asarray(value.active).tobytes()
        return ("value", data.dtype.str, data.tobytes(), active), replace(value, data=data)

    def _watch_hits(self, run: Run, pc: int, written: frozenset | None = None, reverse: bool = False,
                    edit: str = "") -> bool:
        """Report the watches whose value differs from the last one seen. With `written` (what the
        instruction at pc can write), watches reading none of it are not re-evaluated. `edit`: going
        back undid the user's change so labelled (a `set var`), not an instruction."""
        hit = False
        for watch in self.watches.values():
            if written is not None and not _reevaluates(watch, written):
                continue
            signature, value = self.signature(watch.node)
            if signature == watch.last:
                continue
            hit = True
            old, new = (value, watch.value) if reverse else (watch.value, value)
            line = self.program.insns[pc].loc.line if pc < len(self.program.insns) else "-"
            if reverse:
                cause = f"{edit} (at step {self.state.steps})" if edit else \
                    f"step {self.state.steps + 1} (line {line})"
                run.reasons.append(f"Watch {watch.number}: {watch.text} was changed by {cause}; stopped before it")
            else:
                run.reasons.append(f"Watch {watch.number}: {watch.text} changed at step {self.state.steps} "
                                   f"(line {line})")
            run.reasons.extend(views.change_lines(old, new))
            watch.last, watch.value = signature, value
        return hit

    @contextlib.contextmanager
    def interruptible(self):
        """While running, Ctrl-C sets self.interrupted (checked between steps) instead of raising
        in the middle of a step's bookkeeping."""
        self.interrupted = False
        previous = None
        if threading.current_thread() is threading.main_thread():
            def handler(signum, frame):
                self.interrupted = True
            try:
                previous = signal.signal(signal.SIGINT, handler)
            except (ValueError, OSError):
                previous = None
        try:
            yield
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)

    # ------------------------------------------------------------------ running backward
    def back(self, count: int) -> int:
        """Undo up to `count` moves; returns how many were undone. Ctrl-C does not stop it halfway:
        a replay is at most history.SEGMENT_STEPS steps, and the machine ends exactly `count` back."""
        with self.interruptible():
            done = self.recorder.back(count)
        if done:
            self.resync_watches()
        return done

    def limit_text(self, done: int | None) -> str:
        return views.history_limit_text(self.recorder, self.state.steps, done)

    def reverse_continue(self) -> Run:
        """Go back until a breakpoint's instruction is reached (its condition true) or a watched value
        changes (stopping before the step that changed it), or to the oldest recorded state."""
        recorder = self.recorder
        run = Run()
        if not self.breakpoints and not self.watches:
            recorder.back(recorder.moves_available)
            run.reasons.append(self.limit_text(None))
            self.resync_watches()
            return run
        self.resync_watches()
        start, next_report = self.state.steps, time.monotonic() + history.PROGRESS_EVERY
        with self.interruptible():
            while True:
                if self.interrupted:
                    run.reasons.append(f"interrupted: rc stopped at step {self.state.steps}")
                    break
                if not recorder.history:
                    run.reasons.append(self.limit_text(None))
                    break
                entry = recorder.history[-1]
                if isinstance(entry, Segment):
                    try:
                        if self._reverse_into_segment(entry, run):
                            break
                    except KeyboardInterrupt:
                        continue                    # (the machine is at the segment's end: reported above)
                    if time.monotonic() >= next_report and recorder.on_progress is not None:
                        recorder.on_progress(f"rc: searched back from step {start:,} to step "
                                             f"{self.state.steps:,} (Ctrl-C stops here)")
                        next_report = time.monotonic() + history.PROGRESS_EVERY
                    continue
                recorder.back(1)
                pc = self.state.pc
                if pc < len(self.program.insns) and (self._watch_hits(run, pc, reverse=True, edit=entry.edit)
                                                     | (not entry.edit and self._breakpoint_hits(run, forward=False))):
                    break
        self.resync_watches()
        return run

    def _reverse_into_segment(self, segment: Segment, run: Run) -> bool:
        """rc over a checkpointed run: search it backwards (by replay at engine speed, move by move
        only near the rows of breakpoints and of instructions that can change a watch) for the last
        state at a breakpoint or before a watched change; go there and report (True), or go back over
        all of it (False). Ctrl-C raises KeyboardInterrupt with the machine where it was."""
        found = {}
        watches = list(self.watches.values())
        recorder, state, n = self.recorder, self.state, len(self.program.insns)
        breakpoint_pcs = {bp.pc for bp in self.breakpoints.values()}
        rows = np.array([row in breakpoint_pcs or any(_reevaluates(w, recorder.row_writes[row]) for w in watches)
                         for row in range(n)], np.uint8)

        def search(lo, hi, _advance):
            """The last event among moves lo..hi: at engine speed up to each flagged row, which is
            checked before (a breakpoint) and after (a watch) its move."""
            last, events = None, []
            seen = {w.number: self.signature(w.node) for w in watches}
            m = lo
            while m < hi:
                pc = state.pc
                if state.status == RUNNING and pc < n and not rows[pc]:
                    m += recorder.run_until(rows, hi - m)
                    continue
                matched = self._breakpoints_matching(None) if pc in breakpoint_pcs else []
                if matched is None or matched:
                    last, events = m, [("break", matched or [])]
                recorder.run_until(None, 1)
                written = recorder.row_writes[min(pc, n)]
                for w in watches:
                    if not _reevaluates(w, written):
                        continue
                    now = self.signature(w.node)
                    if now[0] != seen[w.number][0]:
                        if last != m:
                            last, events = m, []
                        events.append(("watch", w, seen[w.number][1], now[1]))
                        seen[w.number] = now
                m += 1
            if last is not None:
                found["m"], found["events"] = last, events
                return True
            return False

        self.recorder.search_segment(segment, search, rows, interrupted=lambda: self.interrupted)
        if "m" not in found:
            self.recorder.back(segment.moves)
            self.resync_watches()
            return False
        self.recorder.back(segment.moves - found["m"])
        pc = self.state.pc
        line = self.program.insns[pc].loc.line if pc < len(self.program.insns) else "-"
        for event in found["events"]:
            if event[0] == "break":
                if event[1]:
                    self._report_breakpoints(run, event[1])
                else:
                    self._breakpoint_hits(run)          # (reports the failing condition)
            else:
                _kind, watch, old, new = event
                run.reasons.append(f"Watch {watch.number}: {watch.text} was changed by step "
                                   f"{self.state.steps + 1} (line {line}); stopped before it")
                run.reasons.extend(views.change_lines(old, new))
        return True

    def set_location(self, target, value, label: str = "") -> None:
        """`set var`: store `value` (a Value: one number, or as many as the location has elements) into
        the location `target` (a Value with a `where`), recorded so that `back` undoes it (and says so,
        quoting `label`)."""
        where = target.where
        count = target.data.size
        numbers = np.broadcast_to(np.asarray(value.data), (count,)) if value.data.size in (1, count) else None
        if numbers is None:
            raise ExprError(f"{target.label} has {count} elements but the value has {value.data.size}")
        if where.kind == "p":
            self._set_mask_lanes(target, numbers, label)
            return
        etype = target.etype
        data = _converted(numbers, etype.np_dtype, target.label)
        if where.kind in ("s", "a"):
            part, first = ("sreg" if where.kind == "s" else "areg"), where.number * where.width
            writer = (where.kind, np.array([where.number]))
        elif where.kind == "v":
            part, first = "vreg", where.number * VL + target.first * where.width
            writer = ("v", first + np.arange(count * where.width))
        else:
            part, first = "ub", where.number
            writer = ("ub", first + np.arange(count * where.width))
        positions = first + np.arange(count * where.width)
        self.recorder.edit(part, positions, data.view(np.uint8).reshape(-1), writer, label)
        self.resync_watches()

    def set_pc(self, pc: int, label: str) -> None:
        """`jump`: the pc becomes `pc`, recorded as a user's change (back undoes it)."""
        positions = PC * 8 + np.arange(8)            # ctrl[PC]'s bytes
        self.recorder.edit("ctrl", positions, np.array([pc], np.int64).view(np.uint8), None, label)

    def _set_mask_lanes(self, target, numbers, label):
        where = target.where
        bits = np.unpackbits(self.state.preg[where.number], bitorder="little")
        lanes = target.first + np.arange(target.data.size)
        bits[lanes * where.width] = np.asarray(numbers) != 0
        first = where.number * (VL // 8)
        self.recorder.edit("preg", first + np.arange(VL // 8), np.packbits(bits, bitorder="little"),
                           ("p", np.array([where.number])), label)
        self.resync_watches()

    def resync_watches(self):
        for watch in self.watches.values():
            watch.last, watch.value = self.signature(watch.node)

    # ------------------------------------------------------------------ breakpoints and watches
    def add_breakpoint(self, where: str, condition: str, temporary: bool) -> tuple[Breakpoint, str]:
        """A breakpoint at LINE or LABEL (with a note when the line has no instruction)."""
        pc, file, line, note = self.resolve(where)
        node = self.parse(condition) if condition else None
        bp = Breakpoint(self.next_number, pc, line, file, condition, node, temporary)
        self.breakpoints[bp.number] = bp
        self.next_number += 1
        return bp, note

    def resolve(self, where: str) -> tuple[int, int, str]:
        """[FILE:]LINE or LABEL -> (pc, file, line, note). A line without an instruction is the next
        line below it that has one; several rows on a line: the first."""
        insns = self.program.insns
        if where in self.program.labels:
            pc = self.program.labels[where]
            if pc >= len(insns):
                raise ExprError(f"label {where} is past the last instruction")
            return pc, insns[pc].loc.file, insns[pc].loc.line, ""
        name, colon, line_text = where.rpartition(":")
        line = whole_number(line_text)
        if line is None:
            labels = ", ".join(sorted(self.program.labels)) or "none"
            raise ExprError(f"'{shown(where)}' is neither a line number nor a label (labels: {labels})")
        file = self.source_file(name) if colon else self.current_file()
        found = self.program.first_row_at(file, line)
        if found is None:
            raise ExprError(f"no instruction at or after line {line} of {file}")
        pc, found_line = found
        note = "" if found_line == line else f"line {line} has no instruction; using line {found_line}"
        return pc, file, found_line, note

    def parse(self, text: str):
        """An expression for a condition, watch or display: parsed, its names checked now."""
        node = expressions.parse(text)
        expressions.check_names(node, self.program)
        return node

    def add_watch(self, text: str) -> Watch:
        node = self.parse(text)
        watch = Watch(self.next_number, text, node,
                      frozenset(expressions.reads(node, self.program.buffers, self.program.labels)))
        watch.last, watch.value = self.signature(node)
        self.watches[watch.number] = watch
        self.next_number += 1
        return watch


def _reevaluates(watch: Watch, written: frozenset) -> bool:
    """Whether a step that can write `written` (Recorder.row_writes) can change the watch's value."""
    return "ctrl" in watch.reads or bool(watch.reads & written)


def _rows_reaching_end(insns) -> list[int]:
    """The rows after which the pc can be past the last instruction: the last row, and branches there."""
    end = len(insns)
    return [row for row, insn in enumerate(insns) if row == end - 1 or any(
        operand.kind is Kind.LABEL and value == end for operand, value in zip(insn.spec.operands, insn.operands))]


def _converted(numbers: np.ndarray, dtype, label: str) -> np.ndarray:
    """Numbers as `dtype` for `set var`: integers must be whole and fit; floats round to the type."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        as_ints = []
        for x in numbers.tolist():
            if isinstance(x, float) and not x.is_integer():
                raise ExprError(f"{label} holds integers, not {x}")
            as_ints.append(int(x))
        info = np.iinfo(dtype)
        bad = [x for x in as_ints if not info.min <= x <= info.max]
        if bad:
            raise ExprError(f"{bad[0]} does not fit {label} ({info.min}..{info.max})")
        return np.array(as_ints, dtype)
    with np.errstate(over="ignore"):        # beyond the type's range: rounds to inf, as the hardware does
        return np.asarray(numbers, np.float64).astype(dtype)


def _progress_on_terminal(text: str):
    """A long search's progress, on standard error when it is a terminal (never in a scripted session's output)."""
    if sys.stderr.isatty():
        print(f"({text})", file=sys.stderr, flush=True)
