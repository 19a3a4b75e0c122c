"""`ascasm debug FILE`: a gdb/pdb-like step debugger over the engine's own dispatch loop.

The Debugger is a `cmd.Cmd` REPL with injectable stdin/stdout. Execution goes through
`trace.Recorder`: `step` records each `machine.run(1)` (an undo log for `back`/`rc`, last-writer maps
for `why`); `continue` runs the engine at full speed with stop flags on the rows where a breakpoint
or a watch must be checked (the engine returns there), and keeps one checkpoint of the run.
Expressions (`p`, conditions, `watch`, `display`, `why`) are parsed by `debug_expr`, never by
Python's eval.
Docs: docs/debugger.md.
"""
from __future__ import annotations

import cmd
import contextlib
import os
import re
import signal
import sys
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from . import debug_expr
from .asm.assembler import assemble_file
from .asm.errors import AssemblyFailed
from .debug_expr import Env, ExprError, Value, format_memory, format_value
from .isa import BY_MNEMONIC, DIRECTIVES, dtypes
from .isa.table import describe
from .isa.operands import Kind
from .program import Program
from .state import MAX_STEPS_DEFAULT, UB_USABLE_DEFAULT, VL
from .trace import DEFAULT_HISTORY_CAP, HALTED, RUNNING, Recorder, Segment, lane_type
from . import vm
from .vm import EngineMissing, Machine, auto_engine

EXIT_OK, EXIT_ASM, EXIT_USAGE = 0, 1, 64
STEP_RECORD_LIMIT = 10_000      # `step N` up to this records every step (undo log + last writers)
HISTORY_FILE = "~/.ascasm_debug_history"

# Commands that Enter does not repeat (they would set a second breakpoint, watch, ...).
_NO_REPEAT = {"b", "break", "tbreak", "w", "watch", "display", "undisplay", "d", "delete", "restart",
              "history", "q", "quit", "exit", "EOF"}

# The synopses `help` lists, pdb style: the letters before "(" are the short form.
SYNOPSES = [
    ("s(tep) [N]", "execute N instructions (default 1); stops early at a breakpoint or watch"),
    ("c(ontinue)", "run until a breakpoint, a watch, halt or a fault"),
    ("u(ntil) [LINE|LABEL]", "run until LINE/LABEL is reached (no argument: a line below this one)"),
    ("b(reak) [LINE|LABEL [if COND]]", "set a breakpoint (no argument: list them)"),
    ("tbreak LINE|LABEL [if COND]", "a breakpoint deleted when first hit"),
    ("d(elete) [N ...]", "delete breakpoints/watches N (no argument: all)"),
    ("w(atch) EXPR", "stop when EXPR changes: ub[ADDR:LEN], NAME[I:J], vN, pN, sN, aN, ..."),
    ("back [N]", "reverse-step N instructions (default 1)"),
    ("rc", "reverse-continue: back to the previous breakpoint or watch change"),
    ("p(rint) EXPR", "print a value: p v3.f16, p v3.f16 / p0, p s4, p output[0:16]"),
    ("x/N.T ADDR|NAME", "N elements of type T from the UB (no .T: a hexdump of N bytes)"),
    ("why LOCATION", "which step, instruction and lane last wrote ub[A], NAME[I], vN[LANE], sN, ..."),
    ("regs", "scalar, address and mask registers, pc, and the non-zero vector registers"),
    ("l(ist) [LINE]", "source around the current line (again: the next lines)"),
    ("disas", "the instructions with their pc and bytecode rows"),
    ("display [EXPR]", "print EXPR at every stop (no argument: show them now)"),
    ("undisplay [N]", "remove display N (no argument: all)"),
    ("info break|watch|display|history|buffers|labels", "list them"),
    ("history [SIZE]", "reverse-execution memory: show it, or set the cap (e.g. 256M)"),
    ("restart", "reload the program's initial state (breakpoints, watches, displays stay)"),
    ("help [COMMAND|MNEMONIC|expr]", "this list, a command's help, an instruction's ISA row"),
    ("q(uit)", "leave the debugger"),
]


@dataclass
class Breakpoint:
    number: int
    pc: int
    line: int
    condition: str = ""
    node: object = None
    temporary: bool = False
    hits: int = 0


@dataclass
class Watch:
    number: int
    text: str
    node: object
    reads: frozenset = frozenset()   # what the expression reads (debug_expr.reads)
    last: tuple = ()          # signature of the last value seen (see Debugger._signature)
    value: object = None      # the last Value (or an error message)


@dataclass
class Display:
    number: int
    text: str
    node: object


@dataclass
class _Run:
    """What stopped a forward or reverse run, in lines to print."""
    reasons: list = field(default_factory=list)
    show_where: bool = True


def parse_size(text: str) -> int:
    """'64M', '512K', '1G', '1048576' -> bytes."""
    m = re.fullmatch(r"\s*(\d+)\s*([kmg]?)(i?b)?\s*", text.lower())
    if not m:
        raise ValueError(f"not a size: {text!r} (try 64M)")
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2)]


def size_text(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            value = n / (1 << shift)
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{n} bytes"


class Debugger(cmd.Cmd):
    prompt = "(ascasm) "
    doc_header = "commands"

    def __init__(self, program: Program, engine: str = "cy", ub_usable: int = UB_USABLE_DEFAULT,
                 max_steps: int = MAX_STEPS_DEFAULT, stdin=None, stdout=None,
                 history_cap: int = DEFAULT_HISTORY_CAP, store_inactive: str = "keep", strict: bool = False):
        interactive = stdin is None and sys.stdin.isatty()
        super().__init__(stdin=stdin, stdout=stdout)
        self.use_rawinput = interactive
        self.echo = not interactive          # scripted input: show each command after the prompt
        self.program, self.engine = program, engine
        self.ub_usable, self.max_steps, self.history_cap = ub_usable, max_steps, history_cap
        self.store_inactive, self.strict = store_inactive, strict
        self.breakpoints: dict[int, Breakpoint] = {}
        self.watches: dict[int, Watch] = {}
        self.displays: dict[int, Display] = {}
        self.next_number, self.next_display = 1, 1
        self.warned: set = set()
        self.list_next: int | None = None
        self.previous_line = self.current_line = ""     # (`l` again continues the listing)
        self.interrupted = False
        self._load()

    # ------------------------------------------------------------------ machine and output
    def _load(self):
        self.machine = Machine(self.program, self.engine, self.ub_usable, self.max_steps,
                               store_inactive=self.store_inactive, strict=self.strict)
        self.recorder = Recorder(self.program, self.machine, self.history_cap)
        self.recorder.on_drop = self._history_dropped
        self.drop_noted = False
        self.compiled: dict = {}      # id(condition tree) -> compiled scalar closure (bound to this state)
        for watch in self.watches.values():
            watch.last, watch.value = self._signature(watch.node)

    @property
    def state(self):
        return self.machine.state

    def env(self) -> Env:
        return Env(self.program, self.state, self._vtype)

    def _vtype(self, number: int):
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

    def out(self, *lines: str):
        for line in lines:
            self.stdout.write(line + "\n")

    def _history_dropped(self):
        if not self.drop_noted:
            self.drop_noted = True
            self.out(f"note: the reverse-execution history reached its cap of {size_text(self.recorder.cap)}; "
                     "the oldest steps are dropped from now on (history SIZE raises the cap)")

    def intro_lines(self) -> list[str]:
        p = self.program
        return [f"ascasm debugger: {p.filename}, {len(p.insns)} instructions, {len(p.buffers)} buffers, "
                f"engine {self.engine}. Type help for commands, q to quit.", *self.where_lines()]

    def where_lines(self) -> list[str]:
        state, insns = self.state, self.program.insns
        if state.pc >= len(insns):
            return [f"> {self.program.filename} pc={state.pc} (past the last instruction) steps={state.steps}"]
        loc = insns[state.pc].loc
        return [f"> {loc.file}({loc.line}) pc={state.pc} steps={state.steps}", f"-> {loc.text.strip()}"]

    # ------------------------------------------------------------------ cmd.Cmd plumbing
    def cmdloop(self, intro=None):
        history = self._readline_history(load=True)
        try:
            super().cmdloop("\n".join(self.intro_lines()) if intro is None else intro)
        finally:
            if history:
                self._readline_history(load=False)

    def _readline_history(self, load: bool) -> bool:
        if not self.use_rawinput:
            return False
        try:
            import readline
        except ImportError:
            return False
        path = os.path.expanduser(HISTORY_FILE)
        try:
            if load:
                if os.path.exists(path):
                    readline.read_history_file(path)
                readline.set_completer_delims(" \t\n[]:()=<>!+-*/%&|^~,")
            else:
                readline.set_history_length(1000)
                readline.write_history_file(path)
        except OSError:
            pass
        return True

    def precmd(self, line: str) -> str:
        if self.echo:
            self.stdout.write(("" if line == "EOF" else line) + "\n")
        if line.strip():
            self.previous_line, self.current_line = self.current_line, line
        else:                                          # Enter: the last command once more
            self.previous_line = self.current_line
        return line

    def onecmd(self, line: str):
        try:
            return super().onecmd(line)
        except ExprError as exc:
            self.out(f"error: {exc}")
        except KeyboardInterrupt:
            self.out("interrupted")
        except Exception as exc:                   # the session never ends on a traceback
            self.out(f"error: {type(exc).__name__}: {exc}")
        return False

    def emptyline(self):
        words = self.lastcmd.split()
        if words and words[0] not in _NO_REPEAT:
            return self.onecmd(self.lastcmd)
        return False

    def default(self, line: str):
        word = line.split()[0] if line.split() else line
        self.out(f"unknown command '{word}' (type help for the list)")

    def do_EOF(self, arg):
        return True

    # completion: commands by cmd.Cmd, then registers, labels, buffers, functions and types
    def completenames(self, text, *ignored):
        return [name for name in super().completenames(text, *ignored) if name != "EOF"]

    def completedefault(self, text, line, begidx, endidx):
        words = [f"v{i}" for i in range(32)] + [f"p{i}" for i in range(8)] + [f"s{i}" for i in range(32)]
        words += [f"a{i}" for i in range(8)] + sorted(self.program.labels) + sorted(self.program.buffers)
        words += ["ub", "pc", "steps", *debug_expr.FUNCTIONS, *(t.name for t in dtypes.TYPES)]
        words += ["break", "watch", "display", "history", "buffers", "labels"] if line.startswith("info") else []
        return [w for w in words if w.startswith(text)]

    def complete_help(self, text, *ignored):
        return [n for n in self.completenames(text) + sorted(BY_MNEMONIC) if n.startswith(text)]

    # ------------------------------------------------------------------ help
    def do_help(self, arg):
        """help [COMMAND|MNEMONIC|expr]
        Without an argument: every command with its synopsis. With a command: its help. With an
        instruction mnemonic (vsct, vld.brc, ...): its ISA table rows. `help expr`: the expression
        syntax of p, b ... if, watch, display and why."""
        topic = arg.strip()
        if not topic:
            self.out("commands (the letters before '(' are enough; Enter repeats the last command):")
            width = max(len(s) for s, _ in SYNOPSES)
            self.out(*(f"  {s:<{width}}  {text}" for s, text in SYNOPSES))
            self.out("help COMMAND for details, help MNEMONIC for an instruction, help expr for expressions")
            return
        if topic in ("expr", "expressions", "expression"):
            self.out(*_doc_lines(debug_expr.__doc__))
            return
        for directive, syntax, text in DIRECTIVES:
            if topic == directive:
                self.out(f"{directive} {syntax}", f"  {text}")
                return
        method = getattr(self, "do_" + _ALIASES.get(topic, topic), None)
        is_command = method is not None and bool(method.__doc__)
        if is_command:
            self.out(*_doc_lines(method.__doc__))
        if topic.lower() in BY_MNEMONIC:                  # (`b` is both a command and an instruction)
            self.out(*([""] if is_command else []), *describe(topic.lower()))
        elif not is_command:
            close = [m for m in BY_MNEMONIC if m.startswith(topic.lower())]
            hint = f" (instructions starting so: {', '.join(close)})" if close else ""
            self.out(f"no help for '{topic}'{hint}")

    # ------------------------------------------------------------------ running forward
    def do_step(self, arg):
        """s(tep) [N]
        Execute N instructions (default 1) with the engine, one at a time (above 10,000: at full
        speed, as continue). Stops early at a breakpoint, when a watch changes, at halt or at a fault."""
        count = self._count(arg, "step")
        if count is not None and self._can_run():
            self._finish(self._forward(limit=count))

    def do_continue(self, arg):
        """c(ontinue)
        Run until a breakpoint, a watch change, halt or a fault. The engine runs at full speed (as
        `ascasm run`), returning to the debugger only at breakpoints and after instructions that can
        write a watched value, and one checkpoint is recorded instead of every step."""
        if self._can_run():
            self._finish(self._forward())

    def do_until(self, arg):
        """u(ntil) [LINE|LABEL]
        Run until the instruction at LINE or LABEL is reached (also stopping at breakpoints and
        watches). Without an argument: until a line below the current one (leaves a loop)."""
        if not self._can_run():
            return
        if arg.strip():
            pc, _line, note = self._resolve(arg.strip())
            if note:
                self.out(note)
            self._finish(self._forward(until={pc}))
        else:                                          # a line below this one, or past the end
            insns = self.program.insns
            here = insns[self.state.pc].loc.line if self.state.pc < len(insns) else 1 << 30
            below = {row for row, insn in enumerate(insns) if insn.loc.line > here}
            self._finish(self._forward(until=below | {len(insns)}))

    def _count(self, arg: str, command: str) -> int | None:
        text = arg.strip()
        if not text:
            return 1
        try:
            count = int(text, 0)
        except ValueError:
            self.out(f"usage: {command} [N] (N a positive number, not {text!r})")
            return None
        if count <= 0:
            self.out(f"{command}: N must be positive")
            return None
        return count

    def _can_run(self) -> bool:
        status = self.state.status
        if status == RUNNING:
            return True
        if status == HALTED:
            self.out("the program has halted; use back, rc or restart")
        else:
            self.out(f"the program stopped at a fault ({self.machine.stop_name.lower()}); "
                     "back undoes it, restart begins again")
        return False

    def _forward(self, limit: int | None = None, until: set = frozenset()) -> _Run:
        """Run forward, at most `limit` steps, until a breakpoint, a watch change or a pc in `until`
        (a row, or len(insns): past the last instruction). `step N` (N up to STEP_RECORD_LIMIT)
        records every step; otherwise the engine runs at full speed between the checks and the
        history keeps one checkpoint for the run."""
        run = _Run()
        with self._interruptible():
            if limit is not None and limit <= STEP_RECORD_LIMIT:
                self._forward_recorded(run, limit)
            else:
                self._forward_checked(run, limit, until)
        if self.interrupted:
            run.reasons.append("interrupted")
        return run

    def _forward_recorded(self, run: _Run, limit: int):
        for _ in range(limit):
            if self.state.status != RUNNING or self.interrupted:
                break
            move, _effects = self.recorder.step()
            if self.state.status != RUNNING:
                break
            if self._watch_hits(run, move.pc) | self._breakpoint_hits(run):
                break

    def _forward_checked(self, run: _Run, limit: int | None, until: set):
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

    def _finish(self, run: _Run):
        """Report a stop: why, where, the displays; halt and faults get their own lines."""
        self._warnings()
        self.out(*run.reasons)
        status = self.state.status
        if status == HALTED:
            self.out(f"the program halted after {self.state.steps} steps", *self._expect_lines())
        elif status != RUNNING:
            self.out(str(self.machine.fault()))
        else:
            self.out(*self.where_lines())
        self._show_displays()

    def _breakpoint_hits(self, run: _Run) -> bool:
        """Report the breakpoints at the current pc whose condition holds; True if any."""
        matched = self._breakpoints_matching(run)
        if matched is None:
            return True
        self._report_breakpoints(run, matched)
        return bool(matched)

    def _breakpoints_matching(self, run: _Run | None) -> list | None:
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

    def _report_breakpoints(self, run: _Run, matched: list):
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
            self.compiled[key] = debug_expr.compile_scalar(node, self.env())
        fast = self.compiled[key]
        if fast is not None:
            return bool(fast())
        value = debug_expr.evaluate(node, self.env())
        if value.is_array:
            raise ExprError(f"`{text}` gives {value.data.size} values; wrap it in any(...) or all(...)")
        if value.active is not None and not value.active:
            return False
        return bool(value.data)

    def _signature(self, node) -> tuple:
        """What a watch compares: the raw bytes and active lanes of the value, or the error text."""
        try:
            value = debug_expr.evaluate(node, self.env())
        except ExprError as exc:
            return ("error", str(exc)), str(exc)
        data = np.array(value.data, copy=True)         # (a buffer or register view changes under us)
        active = b"" if value.active is None else np.asarray(value.active).tobytes()
        return ("value", data.dtype.str, data.tobytes(), active), replace(value, data=data)

    def _watch_hits(self, run: _Run, pc: int, written: frozenset | None = None, reverse: bool = False) -> bool:
        """Report the watches whose value differs from the last one seen. With `written` (what the
        instruction at pc can write), watches reading none of it are not re-evaluated."""
        hit = False
        for watch in self.watches.values():
            if written is not None and not _reevaluates(watch, written):
                continue
            signature, value = self._signature(watch.node)
            if signature == watch.last:
                continue
            hit = True
            old, new = (value, watch.value) if reverse else (watch.value, value)
            line = self.program.insns[pc].loc.line if pc < len(self.program.insns) else "-"
            if reverse:
                run.reasons.append(f"Watch {watch.number}: {watch.text} was changed by step "
                                   f"{self.state.steps + 1} (line {line}); stopped before it")
            else:
                run.reasons.append(f"Watch {watch.number}: {watch.text} changed at step {self.state.steps} "
                                   f"(line {line})")
            run.reasons.extend(_change_lines(old, new))
            watch.last, watch.value = signature, value
        return hit

    def _show_displays(self):
        for display in self.displays.values():
            try:
                lines = format_value(debug_expr.evaluate(display.node, self.env()))
            except ExprError as exc:
                lines = [f"{display.text}: {exc}"]
            self.out(f"{display.number}: " + lines[0], *lines[1:])

    def _expect_lines(self) -> list[str]:
        lines = []
        for expectation in self.program.expects:
            buf = expectation.buffer
            bits = buf.etype.bits
            wrong = np.flatnonzero(buf.view(self.state.ub).view(bits) != expectation.values.view(bits))
            if wrong.size == 0:
                lines.append(f"expect {buf.name}: ok ({buf.count} elements)")
            else:
                first = ", ".join(str(int(i)) for i in wrong[:8]) + (", ..." if wrong.size > 8 else "")
                lines.append(f"expect {buf.name}: {wrong.size} of {buf.count} elements differ "
                             f"(line {expectation.loc.line}; elements {first}); why {buf.name}[{int(wrong[0])}] "
                             "says who wrote one")
        return lines

    def _warnings(self):
        """The run-time warnings of `ascasm run` (duplicate scatter indices, memory hazards), each
        printed once per source line and kind in a session."""
        warnings_of = getattr(vm, "run_warnings", None)
        if warnings_of is None:
            return
        for loc, message, notes in warnings_of(self.program, self.state):
            key = (loc.line, message.split(":")[0])
            if key in self.warned:
                continue
            self.warned.add(key)
            self.out(f"warning: line {loc.line}: {message}" + (f" ({'; '.join(notes)})" if notes else ""))

    @contextlib.contextmanager
    def _interruptible(self):
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
    def do_back(self, arg):
        """back [N]
        Reverse-step N instructions (default 1): every register file and the UB return to their
        bytes before those steps. A fault or the halt at the end counts as one step to undo."""
        count = self._count(arg, "back")
        if count is None:
            return
        done = self.recorder.back(count)
        if done < count:
            self.out(self._history_limit_text(done))
        if done:
            self._resync_watches()
            self._finish(_Run())

    def do_rc(self, arg):
        """rc
        Reverse-continue: go back until a breakpoint's instruction is reached (its condition true)
        or a watched value changes (stopping before the step that changed it), or to the oldest
        recorded state."""
        recorder = self.recorder
        if not recorder.history:
            self.out("rc: " + self._history_limit_text(None))
            return
        run = _Run()
        if not self.breakpoints and not self.watches:
            recorder.back(recorder.moves_available)
            run.reasons.append(self._history_limit_text(None))
            self._resync_watches()
            self._finish(run)
            return
        self._resync_watches()
        with self._interruptible():
            while True:
                if self.interrupted:
                    run.reasons.append("interrupted")
                    break
                if not recorder.history:
                    run.reasons.append(self._history_limit_text(None))
                    break
                entry = recorder.history[-1]
                if isinstance(entry, Segment):
                    if self._reverse_into_segment(entry, run):
                        break
                    continue
                recorder.back(1)
                pc = self.state.pc
                if pc < len(self.program.insns) and \
                        self._watch_hits(run, pc, reverse=True) | self._breakpoint_hits(run):
                    break
        self._resync_watches()
        self._finish(run)

    def _reverse_into_segment(self, segment: Segment, run: _Run) -> bool:
        """rc over a checkpointed run: search it backwards (by replay) for the last state at a
        breakpoint or before a watched change; go there and report (True), or go back over all of
        it (False)."""
        found = {}
        watches = list(self.watches.values())

        def search(lo, hi, advance):
            last, events = None, []
            seen = {w.number: self._signature(w.node) for w in watches}
            for m in range(lo, hi):
                pc = self.state.pc
                matched = self._breakpoints_matching(None) if pc < len(self.program.insns) else []
                if matched is None or matched:
                    last, events = m, [("break", matched or [])]
                advance()
                written = self.recorder.row_writes[min(pc, len(self.program.insns))]
                for w in watches:
                    if not _reevaluates(w, written):
                        continue
                    now = self._signature(w.node)
                    if now[0] != seen[w.number][0]:
                        if last != m:
                            last, events = m, []
                        events.append(("watch", w, seen[w.number][1], now[1]))
                        seen[w.number] = now
            if last is not None:
                found["m"], found["events"] = last, events
                return True
            return False

        self.recorder.search_segment(segment, search)
        if "m" not in found:
            self.recorder.back(segment.moves)
            self._resync_watches()
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
                run.reasons.extend(_change_lines(old, new))
        return True

    def _history_limit_text(self, done: int | None) -> str:
        steps = self.state.steps
        if self.recorder.dropped:
            why = (f"older history was dropped at the {size_text(self.recorder.cap)} cap "
                   "(history SIZE raises it)")
        elif steps == 0:
            why = "the start of the program"
        else:
            why = "the start of the recorded history"
        prefix = "" if done is None else f"back: went back {done} step{'s' if done != 1 else ''}; "
        return f"{prefix}reached the oldest recorded state, step {steps}: {why}"

    def _resync_watches(self):
        for watch in self.watches.values():
            watch.last, watch.value = self._signature(watch.node)

    # ------------------------------------------------------------------ breakpoints, watches, displays
    def do_break(self, arg):
        """b(reak) [LINE|LABEL [if COND]]
        Stop before the instruction at LINE (or the next line with one) or LABEL. With `if COND`,
        only when COND holds: comparisons and any(...)/all(...) over scalars, lanes and buffer
        slices, e.g. `b loop if s0 == 2`, `b 12 if any(v3.f16 > 6e4)`. Without an argument: list."""
        self._set_breakpoint(arg, temporary=False)

    def do_tbreak(self, arg):
        """tbreak LINE|LABEL [if COND]
        A breakpoint that is deleted when it is first hit."""
        self._set_breakpoint(arg, temporary=True)

    def _set_breakpoint(self, arg: str, temporary: bool):
        text = arg.strip()
        if not text:
            self._info_break()
            return
        where, _, condition = text.partition(" if ")
        if text.startswith("if "):
            raise ExprError("name a LINE or LABEL before 'if'")
        pc, line, note = self._resolve(where.strip())
        node = debug_expr.parse(condition) if condition.strip() else None
        bp = Breakpoint(self.next_number, pc, line, condition.strip(), node, temporary)
        self.breakpoints[bp.number] = bp
        self.next_number += 1
        if note:
            self.out(note)
        kind = "Temporary breakpoint" if temporary else "Breakpoint"
        label = next((name for name, row in self.program.labels.items() if row == pc), None)
        extra = f", label {label}" if label else ""
        self.out(f"{kind} {bp.number} at {self.program.filename}:{line} (pc {pc}{extra})"
                 + (f" if {bp.condition}" if bp.condition else ""))

    def _resolve(self, where: str) -> tuple[int, int, str]:
        """LINE or LABEL -> (pc, line, note)."""
        insns = self.program.insns
        if where in self.program.labels:
            pc = self.program.labels[where]
            if pc >= len(insns):
                raise ExprError(f"label {where} is past the last instruction")
            return pc, insns[pc].loc.line, ""
        try:
            line = int(where, 10)
        except ValueError:
            labels = ", ".join(sorted(self.program.labels)) or "none"
            raise ExprError(f"'{where}' is neither a line number nor a label (labels: {labels})") from None
        for pc, insn in enumerate(insns):
            if insn.loc.line >= line:
                note = "" if insn.loc.line == line else \
                    f"line {line} has no instruction; using line {insn.loc.line}"
                return pc, insn.loc.line, note
        raise ExprError(f"no instruction at or after line {line}")

    def do_delete(self, arg):
        """d(elete) [N ...]
        Delete breakpoints or watches by number; without an argument, all of them."""
        numbers = arg.split()
        if not numbers:
            self.out(f"deleted all breakpoints ({len(self.breakpoints)}) and watches ({len(self.watches)})")
            self.breakpoints.clear()
            self.watches.clear()
            return
        for text in numbers:
            number = int(text) if text.isdigit() else -1
            if self.breakpoints.pop(number, None):
                self.out(f"deleted breakpoint {number}")
            elif self.watches.pop(number, None):
                self.out(f"deleted watch {number}")
            else:
                self.out(f"no breakpoint or watch number {text}")

    def do_watch(self, arg):
        """w(atch) EXPR
        Stop after a step that changes EXPR, printing the old and new values: ub[ADDR:LEN] (LEN
        bytes), NAME[I:J] (buffer elements I..J-1), vN or vN.T, pN, sN, aN, or any expression."""
        text = arg.strip()
        if not text:
            self._info_watch()
            return
        node = debug_expr.parse(text)
        watch = Watch(self.next_number, text, node,
                      frozenset(debug_expr.reads(node, self.program.buffers, self.program.labels)))
        watch.last, watch.value = self._signature(node)
        self.watches[watch.number] = watch
        self.next_number += 1
        self.out(f"Watch {watch.number}: {text}")

    def do_display(self, arg):
        """display [EXPR]
        Print EXPR at every stop. Without an argument: print every display now."""
        text = arg.strip()
        if not text:
            if not self.displays:
                self.out("no displays")
            self._show_displays()
            return
        display = Display(self.next_display, text, debug_expr.parse(text))
        self.displays[display.number] = display
        self.next_display += 1
        try:
            lines = format_value(debug_expr.evaluate(display.node, self.env()))
        except ExprError as exc:
            lines = [f"{text}: {exc}"]
        self.out(f"{display.number}: " + lines[0], *lines[1:])

    def do_undisplay(self, arg):
        """undisplay [N ...]
        Remove displays by number; without an argument, all of them."""
        if not arg.split():
            self.displays.clear()
            return
        for text in arg.split():
            if not (text.isdigit() and self.displays.pop(int(text), None)):
                self.out(f"no display number {text}")

    def do_info(self, arg):
        """info break|watch|display|history|buffers|labels
        List breakpoints, watches, displays, the reverse-execution history, the UB buffers or the labels."""
        topic = arg.strip()
        table = {"break": self._info_break, "breakpoints": self._info_break, "b": self._info_break,
                 "watch": self._info_watch, "watches": self._info_watch, "w": self._info_watch,
                 "display": self._info_display, "history": self._info_history,
                 "buffers": self._info_buffers, "labels": self._info_labels}
        if topic not in table:
            self.out("usage: info break|watch|display|history|buffers|labels")
            return
        table[topic]()

    def _info_break(self):
        if not self.breakpoints:
            self.out("no breakpoints")
        for bp in self.breakpoints.values():
            kind = "tbreak" if bp.temporary else "break"
            self.out(f"{bp.number:>3}  {kind:<6} line {bp.line} (pc {bp.pc})"
                     + (f" if {bp.condition}" if bp.condition else "") + f"  hit {bp.hits} time"
                     + ("" if bp.hits == 1 else "s"))

    def _info_watch(self):
        if not self.watches:
            self.out("no watches")
        for watch in self.watches.values():
            self.out(f"{watch.number:>3}  watch  {watch.text}")

    def _info_display(self):
        if not self.displays:
            self.out("no displays")
        for display in self.displays.values():
            self.out(f"{display.number:>3}  {display.text}")

    def _info_buffers(self):
        for buf in self.program.buffers.values():
            self.out(f"{buf.name}: {buf.etype.name}[{buf.count}] at {buf.addr:#x}..{buf.addr + buf.nbytes:#x} "
                     f"(line {buf.loc.line})")

    def _info_labels(self):
        if not self.program.labels:
            self.out("no labels")
        for name, pc in self.program.labels.items():
            line = self.program.insns[pc].loc.line if pc < len(self.program.insns) else "end"
            self.out(f"{name}: pc {pc}, line {line}")

    def _info_history(self):
        r = self.recorder
        moves = r.moves_available
        self.out(f"history: back can go {moves} step{'s' if moves != 1 else ''}, to step {r.oldest_steps}; "
                 f"{size_text(r.nbytes)} used of the {size_text(r.cap)} cap"
                 + (f"; {r.dropped} oldest entries dropped at the cap" if r.dropped else ""))
        unrecorded = sum(segment.moves for segment in r.segments())
        if unrecorded:
            self.out(f"  {unrecorded} of those steps ran without a per-step record (continue, until): "
                     "they are kept as checkpoints that back, rc and why replay with the engine")

    def do_history(self, arg):
        """history [SIZE]
        Show the reverse-execution history, or set its memory cap (e.g. 256M, 1G). When the history
        grows past the cap the oldest steps are dropped and back reaches only the oldest kept step."""
        if arg.strip():
            try:
                cap = parse_size(arg)
            except ValueError as exc:
                self.out(f"error: {exc}")
                return
            self.recorder.cap = self.history_cap = cap
            self.recorder.trim()
            self.out(f"history cap set to {size_text(cap)}")
        self._info_history()

    # ------------------------------------------------------------------ inspecting
    def do_print(self, arg):
        """p(rint) EXPR
        Print a value. `p v3.f16` shows the 128 lanes in rows with lane numbers; `p v3.f16 / p0`
        shows lanes that p0 leaves inactive (read at f16's width: bit i*2) as `.`; `p s4`,
        `p p0.b16`, `p output[0:16]`, `p ub[0x100:16]`, `p any(v3.f16 > 6e4)`. help expr: the syntax."""
        if not arg.strip():
            self.out("usage: p EXPR (help expr for the syntax)")
            return
        self.out(*format_value(debug_expr.evaluate_text(arg, self.env())))

    def do_x(self, arg):
        """x/N.T ADDR|NAME
        Examine the UB: N elements of type T from ADDR (a number, a buffer name, s1 + 64, ...), in
        rows with their addresses. Without .T: a hexdump of N bytes (default 64). Example:
        x/16.u16 output"""
        m = re.fullmatch(r"\s*(?:/(\d+)?(?:\.(\w+))?)?\s*(.*)", arg)
        count_text, type_name, where = m.group(1), m.group(2), m.group(3).strip()
        if not where:
            self.out("usage: x/N.T ADDR|NAME (e.g. x/16.u16 output, x/64 0x300)")
            return
        etype = None
        if type_name:
            etype = dtypes.lookup(type_name)
            if etype is None:
                raise ExprError(f"unknown type '{type_name}'")
        count = int(count_text) if count_text else (16 if etype else 64)
        value = debug_expr.evaluate_text(where, self.env(), addresses=True)
        if value.is_array or value.data.dtype.kind not in "iu":
            raise ExprError(f"x needs one address, not {value.label}")
        self.out(*format_memory(self.state.ub, int(value.data), count, etype))

    def do_why(self, arg):
        """why ub[ADDR] | NAME[I] | vN[LANE] | vN.T[LANE] | sN | aN | pN
        Which step, instruction (source line) and lane last wrote it: for a scatter the lane and its
        index, for a load or gather the UB address a register lane came from."""
        text = arg.strip()
        if not text:
            self.out("usage: why ub[ADDR] | NAME[I] | vN[LANE] | sN | aN | pN")
            return
        value = debug_expr.evaluate_text(text, self.env())
        where = value.where
        if where is None:
            raise ExprError(f"why needs a location (ub[ADDR], NAME[I], vN[LANE], sN, ...), not {value.label}")
        self.out(*self._explain(value))

    def _explain(self, value: Value, limit: int = 32) -> list[str]:
        """The `why` answer for every element of a location value (at most `limit` elements)."""
        where = value.where
        if where.kind in ("s", "a", "p"):
            rows = self.recorder.last_writers(where.kind, np.array([where.number]))
            what = value.label if where.kind == "p" else format_value(value)[0]
            return self._writer_lines(what, [(0, 0, rows[0])], where.kind)
        n = 1 if not value.is_array else value.data.size
        shown = min(n, limit)
        if where.kind == "v":
            starts = [(value.first + k) * where.width for k in range(shown)]
            positions = np.concatenate([where.number * VL + b + np.arange(where.width) for b in starts])
            rows = self.recorder.last_writers("v", positions)
        else:
            starts = [where.number + k * where.width for k in range(shown)]
            positions = np.concatenate([b + np.arange(where.width) for b in starts])
            rows = self.recorder.last_writers("ub", positions)
        lines = []
        for k, first in enumerate(starts):
            element_rows = rows[k * where.width:(k + 1) * where.width]
            x = value.data[()] if not value.is_array else value.data[k]
            text = debug_expr.cell_text(x, value.etype)
            if where.kind == "v":
                what = f"v{where.number}.{value.etype.name}[{value.first + k}] = {text}"
            else:
                name = self._ub_name(first)
                span = f"ub[{first:#x}]" if where.width == 1 else f"ub[{first:#x}:{first + where.width:#x}]"
                what = f"{name} = {text} ({span})" if not name.startswith("ub[") else f"{span} = {text}"
            lines += self._writer_lines(what, _groups(element_rows, first), where.kind)
        if n > limit:
            lines.append(f"... and {n - limit} more (ask about a smaller slice)")
        return lines

    def _writer_lines(self, what: str, groups: list, kind: str) -> list[str]:
        if len(groups) == 1:
            return [f"{what}: {self._writer_text(groups[0][2], kind, groups[0][0])}"]
        lines = [f"{what}: its bytes have different last writers:"]
        for lo, hi, row in groups:
            span = f"ub[{lo:#x}]" if kind == "ub" else f"byte {lo}"
            if hi > lo:
                span = f"ub[{lo:#x}:{hi + 1:#x}]" if kind == "ub" else f"bytes {lo}-{hi}"
            lines.append(f"  {span}: {self._writer_text(row, kind, lo)}")
        return lines

    def _writer_text(self, row, kind: str, first_byte: int) -> str:
        step = int(row["step"])
        if kind == "v":
            first_byte %= VL
        caveat = ""
        if self.recorder.horizon and step < self.recorder.horizon:
            caveat = (f" (steps up to {self.recorder.horizon} ran at full speed and their checkpoint was "
                      "dropped at the history cap: a write there would not show)")
        if step < 0:
            if kind == "ub":
                buf = self._buffer_at(first_byte)
                origin = (f"its initial value from line {buf.loc.line}: {buf.loc.text.strip()}" if buf
                          else "its initial value (the UB starts zeroed)")
            else:
                origin = "registers start at zero"
            return f"not written by any instruction yet; {origin}{caveat}"
        pc = int(row["pc"])
        insn = self.program.insns[pc]
        text = f"last written at step {step}, line {insn.loc.line} (pc {pc}): {_insn_text(insn.loc)}"
        detail = []
        lane, src, index, origin = int(row["lane"]), int(row["src"]), int(row["index"]), int(row["origin"])
        if kind == "ub" and src >= 0:
            register = f"{_register_file(insn, src)}{insn.operands[src]}"
            detail.append(f"by lane {lane} of {register}" if lane >= 0 else f"from {register}")
            if index >= 0:
                detail.append(f"index {index} from {_index_register(insn)}[{lane}]")
        if kind == "v":
            detail.append(f"lane {lane}")
            if origin >= 0:
                name = self._ub_name(origin)
                verb = "gathered" if insn.spec.family == "vgat" else "loaded"
                detail.append(f"{verb} from ub[{origin:#x}]" + (f" ({name})" if not name.startswith("ub[") else ""))
            if index >= 0:
                detail.append(f"index {index} from {_index_register(insn)}[{lane}]")
        return text + ("\n  " + ", ".join(detail) if detail else "") + caveat

    def _buffer_at(self, addr: int):
        for buf in self.program.buffers.values():
            if buf.addr <= addr < buf.addr + buf.nbytes:
                return buf
        return None

    def _ub_name(self, addr: int) -> str:
        buf = self._buffer_at(addr)
        if buf is None:
            return f"ub[{addr:#x}]"
        element, offset = divmod(addr - buf.addr, buf.etype.width)
        return f"{buf.name}[{element}]" + (f" byte {offset}" if offset else "")

    def do_regs(self, arg):
        """regs
        pc and steps, the scalar registers s0-s31, the address registers a0-a7, the mask registers
        p0-p7 (set bits) and every vector register that is not all zero (first lanes)."""
        state = self.state
        self.out(*self.where_lines()[:1])
        cells = [f"s{i} = {int(state.sreg[i])}" for i in range(32)]
        width = max(len(c) for c in cells)
        for start in range(0, 32, 4):
            self.out("  " + "  ".join(c.ljust(width) for c in cells[start:start + 4]).rstrip())
        self.out("  " + "  ".join(f"a{i} = {int(state.areg[i])}" for i in range(8)))
        masks = []
        for i in range(8):
            if not state.preg_set[i]:
                masks.append(f"p{i} unset")
            else:
                masks.append(f"p{i} {int(np.unpackbits(state.preg[i]).sum())} bits")
        self.out("  " + ", ".join(masks))
        shown = 0
        for i in range(32):
            if state.vreg[i].any():
                etype = self._vtype(i) or dtypes.lookup("u8")
                lanes = state.vreg[i].view(etype.np_dtype)
                cells = " ".join(debug_expr.cell_text(x, etype) for x in lanes[:8])
                self.out(f"  v{i}.{etype.name} = [{cells} ...]")
                shown += 1
        if not shown:
            self.out("  v0-v31 all zero")

    def do_list(self, arg):
        """l(ist) [LINE]
        Source lines around the current line (or LINE); again without an argument: the next lines.
        Markers: -> the next instruction, B a breakpoint."""
        lines = self.program.source.splitlines()
        if arg.strip():
            try:
                center = int(arg.strip())
            except ValueError:
                self.out("usage: l [LINE]")
                return
            first = max(1, center - 5)
        elif self.list_next is not None and self.previous_line.split()[:1] in (["l"], ["list"]):
            first = self.list_next
        else:
            pc = self.state.pc
            center = self.program.insns[pc].loc.line if pc < len(self.program.insns) else len(lines)
            first = max(1, center - 5)
        last = min(len(lines), first + 10)
        if first > len(lines):
            self.out("(end of file)")
            return
        current = self.program.insns[self.state.pc].loc.line if self.state.pc < len(self.program.insns) else -1
        bp_lines = {bp.line for bp in self.breakpoints.values()}
        for number in range(first, last + 1):
            mark = ("B" if number in bp_lines else " ") + ("->" if number == current else "  ")
            self.out(f"{number:>4} {mark} {lines[number - 1]}".rstrip())
        self.list_next = last + 1

    def do_disas(self, arg):
        """disas [all]
        The instructions around the current one (all of them with `all`, or when there are few):
        pc, source line, the instruction and its bytecode row (opcode name, type codes, operand slots;
        docs/bytecode.md)."""
        insns, code = self.program.insns, self.program.code
        pc = self.state.pc
        if arg.strip() == "all" or len(insns) <= 40:
            rows = range(len(insns))
        else:
            rows = range(max(0, pc - 8), min(len(insns), pc + 9))
        bp_pcs = {bp.pc for bp in self.breakpoints.values()}
        texts = [_insn_text(insns[i].loc) for i in rows]
        width = max((len(t) for t in texts), default=0)
        for i, text in zip(rows, texts):
            mark = ("B" if i in bp_pcs else " ") + ("=>" if i == pc else "  ")
            row = code[i]
            slots = " ".join(str(int(v)) for v in row[3:])
            self.out(f"{mark} {i:>4}  line {insns[i].loc.line:<4} {text:<{width}}  "
                     f"{insns[i].spec.opname} {int(row[1])} {int(row[2])} | {slots}".rstrip())

    # ------------------------------------------------------------------ session
    def do_restart(self, arg):
        """restart
        Reload the program's initial state and clear the history; breakpoints, watches and displays stay."""
        self._load()
        for bp in self.breakpoints.values():
            bp.hits = 0
        self.out("restarted")
        self._finish(_Run())

    def do_quit(self, arg):
        """q(uit)
        Leave the debugger."""
        return True


# Short forms, as pdb spells them.
_ALIASES = {"s": "step", "c": "continue", "cont": "continue", "u": "until", "unt": "until", "b": "break",
            "d": "delete", "w": "watch", "p": "print", "l": "list", "q": "quit", "exit": "quit", "h": "help",
            "?": "help"}
for _short, _long in _ALIASES.items():
    if not hasattr(Debugger, "do_" + _short):
        setattr(Debugger, "do_" + _short, getattr(Debugger, "do_" + _long))


def _reevaluates(watch: Watch, written: frozenset) -> bool:
    """Whether a step that can write `written` (Recorder.row_writes) can change the watch's value."""
    return "ctrl" in watch.reads or bool(watch.reads & written)


def _rows_reaching_end(insns) -> list[int]:
    """The rows after which the pc can be past the last instruction: the last row, and branches there."""
    end = len(insns)
    return [row for row, insn in enumerate(insns) if row == end - 1 or any(
        operand.kind is Kind.LABEL and value == end for operand, value in zip(insn.spec.operands, insn.operands))]


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
    return {Kind.VREG: "v", Kind.PREG: "p", Kind.AREG: "a", Kind.SREG: "s"}[insn.spec.operands[position].kind]


def _index_register(insn) -> str:
    return f"v{insn.operand('vI')}"


def _doc_lines(doc: str) -> list[str]:
    lines = (doc or "").strip("\n").splitlines()
    indent = min((len(l) - len(l.lstrip()) for l in lines[1:] if l.strip()), default=0)
    return [lines[0].strip()] + [("  " + l[indent:]) if l.strip() else "" for l in lines[1:]]


def _insn_text(loc) -> str:
    from .trace import source_text
    text = re.sub(r"^[A-Za-z_][\w]*:\s*", "", source_text(loc))
    return re.sub(r"\s+", " ", text)


def _change_lines(old, new, limit: int = 16) -> list[str]:
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
    return debug_expr.cell_text(value.data[k], value.etype, value.kind)


def _brief(value) -> str:
    if not isinstance(value, Value):
        return str(value)
    lines = format_value(value)
    if len(lines) == 1:
        return lines[0].split(" = ", 1)[-1]
    return " / ".join(l.strip() for l in lines[1:3]) + (" ..." if len(lines) > 3 else "")


def debug_main(path, engine: str | None, ub_usable: int = UB_USABLE_DEFAULT, max_steps: int = MAX_STEPS_DEFAULT,
               stdin=None, stdout=None, history_cap: int | None = None, store_inactive: str = "keep",
               strict: bool = False) -> int:
    """`ascasm debug FILE`: assemble FILE and run the REPL. Returns the exit status: 0 after quit or
    end of input, 1 for an assembly error, 64 for a missing file or engine. Errors go to stderr."""
    err = sys.stderr
    path = Path(path)
    if not path.is_file():
        print(f"ascasm: error: cannot read {path}: no such file", file=err)
        return EXIT_USAGE
    try:
        program = assemble_file(path, ub_usable=ub_usable)
    except AssemblyFailed as failed:
        print(failed, file=err)
        return EXIT_ASM
    try:
        debugger = Debugger(program, engine or auto_engine(), ub_usable, max_steps, stdin, stdout,
                            DEFAULT_HISTORY_CAP if history_cap is None else history_cap, store_inactive, strict)
    except EngineMissing as exc:
        print(f"ascasm: error: {exc}", file=err)
        return EXIT_USAGE
    debugger.cmdloop()
    return EXIT_OK
