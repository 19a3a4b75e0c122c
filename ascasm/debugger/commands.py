"""The debugger's command shell: a `cmd.Cmd` REPL with injectable stdin/stdout, pdb-style synopses,
argument parsing and help. Running is left to `control.RunControl`, printing to `views`.
Expressions (`p`, conditions, `watch`, `display`, `why`) are parsed by `ascasm.expr`, never by
Python's eval.
"""
from __future__ import annotations

import cmd
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from ..observers import draw
from .. import formatting
from ..expr import machine as expressions
from .. import vm
from ..asm.assembler import assemble_file
from ..asm.errors import AssemblyFailed
from ..expr.machine import ExprError
from ..formatting import format_memory, format_value
from ..isa import BY_MNEMONIC, DIRECTIVES, dtypes
from ..limits import parse_size, shown, whole_number
from ..explain import explain_lines
from ..outputs import OutputRefused, check_outputs
from ..program import Program
from ..source import unreadable
from ..state import MAX_STEPS_DEFAULT, STOP_NAMES, UB_USABLE_DEFAULT
from ..observers.history import DEFAULT_HISTORY_CAP, HALTED, RUNNING
from ..vm import EngineMissing, auto_engine
from . import views
from .control import Run, RunControl

EXIT_OK, EXIT_ASM, EXIT_USAGE = 0, 1, 64
HISTORY_FILE = "~/.ascasm_debug_history"

# Commands that Enter does not repeat (they would set a second breakpoint, watch, ...).
_NO_REPEAT = {"b", "break", "tbreak", "w", "watch", "display", "undisplay", "d", "delete", "restart",
              "history", "set", "draw", "q", "quit", "exit", "EOF", "r", "run", "start", "jump", "clear"}

# The synopses `help` lists, pdb style: the letters before "(" are the short form.
SYNOPSES = [
    ("s(tep) [N]", "execute N instructions (default 1; also si); one step shows what it changed"),
    ("n(ext) [N]", "run until the source line changes, N times: one C++ statement (over inlined helpers), "
     "one assembly line"),
    ("c(ontinue) [N]", "run until a breakpoint, a watch, halt or a fault (N: pass this breakpoint N-1 more times)"),
    ("jump LINE|LABEL", "resume at LINE or LABEL (the pc moves there; back undoes it)"),
    ("r(un), start", "start again from the initial state: run continues, start stops at the first instruction"),
    ("u(ntil) [LINE|LABEL]", "run until LINE/LABEL is reached (no argument: a line below this one)"),
    ("finish", "run until this inlined C++ helper returns (else: until the innermost loop is left)"),
    ("b(reak) [[FILE:]LINE|LABEL [if COND]]", "set a breakpoint (no argument: list them)"),
    ("tbreak [FILE:]LINE|LABEL [if COND]", "a breakpoint deleted when first hit"),
    ("clear [LINE|LABEL]", "delete the breakpoints at LINE or LABEL (default: here)"),
    ("d(elete) [N ...]", "delete breakpoints/watches N (no argument: all)"),
    ("w(atch) EXPR", "stop when EXPR changes: ub[ADDR:LEN], NAME[I:J], vN, pN, sN, aN, ..."),
    ("back [N]", "reverse-step N instructions (default 1)"),
    ("rc", "reverse-continue: back to the previous breakpoint or watch change"),
    ("p(rint)[/FMT] EXPR", "print a value: p v3.f16, p v3.f16 / p0, p/x s4, p/t p0 (FMT: x t d u f)"),
    ("x/N.T ADDR|NAME", "N elements of type T from the UB (no .T: a hexdump; gdb's x/16xh works too)"),
    ("set var LOCATION = EXPR", "change a register, lanes or UB elements (back undoes it)"),
    ("why LOCATION", "which step, instruction and lane last wrote ub[A], NAME[I], vN[LANE], sN, ..."),
    ("regs", "scalar, address and mask registers, pc, and the non-zero vector registers"),
    ("where", "the current instruction with its label (also bt); a C++ kernel's inlined helper calls"),
    ("up [N], down [N]", "select a caller's (or back a callee's) frame: its C++ variables for p and info"),
    ("l(ist) [[FILE:]LINE]", "source around the current line (again: the next lines)"),
    ("disas", "the instructions with their pc and bytecode rows"),
    ("draw [-f] FILE.svg", "picture the next instruction: lanes, mask, which lane went to which UB address"),
    ("display[/FMT] [EXPR]", "print EXPR at every stop (no argument: show them now)"),
    ("undisplay [N]", "remove display N (no argument: all)"),
    ("info TOPIC", "list: break, watch, display, history, buffers, labels, registers, locals, args; info line [LINE]"),
    ("history [SIZE]", "reverse-execution memory: show it, or set the cap (e.g. 256M)"),
    ("restart", "reload the program's initial state (breakpoints, watches, displays stay)"),
    ("help [COMMAND|MNEMONIC|expr]", "this list, a command's help, an instruction's ISA row"),
    ("q(uit)", "leave the debugger"),
]


@dataclass
class Display:
    number: int
    text: str
    node: object
    fmt: str = ""               # a print format (display/x)


class Debugger(cmd.Cmd):
    prompt = "(ascasm) "
    doc_header = "commands"

    def __init__(self, program: Program, engine: str = "cy", ub_usable: int = UB_USABLE_DEFAULT,
                 max_steps: int = MAX_STEPS_DEFAULT, stdin=None, stdout=None,
                 history_cap: int = DEFAULT_HISTORY_CAP, store_inactive: str = "keep", strict: bool = False,
                 blocks: int = 1):
        interactive = stdin is None and sys.stdin.isatty()
        super().__init__(stdin=stdin, stdout=stdout)
        self.use_rawinput = interactive
        self.echo = not interactive          # scripted input: show each command after the prompt
        self.program, self.engine = program, engine
        self.displays: dict[int, Display] = {}
        self.next_display = 1
        self.warned: set = set()
        self.list_next: int | None = None
        self.list_file = program.filename                 # the file `list` shows (the current row's)
        self.previous_line = self.current_line = ""     # (`l` again continues the listing)
        self.drop_noted = False
        self.drawn: set[Path] = set()        # files `draw` wrote: redrawing them needs no -f
        self.control = RunControl(program, engine, ub_usable, max_steps, history_cap, store_inactive, strict,
                                  on_drop=self._history_dropped, blocks=blocks)

    @property
    def state(self):
        return self.control.state

    @property
    def recorder(self):
        return self.control.recorder

    def out(self, *lines: str):
        for line in lines:
            self.stdout.write(line + "\n")

    def _history_dropped(self):
        if not self.drop_noted:
            self.drop_noted = True
            self.out(f"note: the reverse-execution history reached its cap of {views.size_text(self.recorder.cap)}; "
                     "the oldest steps are dropped from now on (history SIZE raises the cap)")

    def intro_lines(self) -> list[str]:
        p = self.program
        return [f"ascasm debugger: {p.filename}, {len(p.insns)} instructions, {len(p.buffers)} buffers, "
                f"engine {self.engine}. Type help for commands, q to quit.", *views.where_lines(p, self.state)]

    # ------------------------------------------------------------------ cmd.Cmd plumbing
    def cmdloop(self, intro=None):
        history = self._readline_history(load=True)
        intro = "\n".join(self.intro_lines()) if intro is None else intro
        try:
            while True:
                try:
                    super().cmdloop(intro)
                    return
                except KeyboardInterrupt:          # Ctrl-C at the prompt: a fresh prompt, as in gdb
                    self.out("", "(Ctrl-C: the line is dropped; q leaves)")
                    intro = ""
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
        self.out(f"unknown command '{shown(word)}' (type help for the list)")

    def do_EOF(self, arg):
        return True

    # completion: commands by cmd.Cmd, then registers, labels, buffers, functions and types
    def completenames(self, text, *ignored):
        return [name for name in super().completenames(text, *ignored) if name != "EOF"]

    def completedefault(self, text, line, begidx, endidx):
        if "." in text:                        # p v0.u1<Tab>: the type after a register (v0.u16)
            register, _, start = text.rpartition(".")
            return [f"{register}.{t.name}" for t in dtypes.TYPES if t.name.startswith(start)]
        words = [f"v{i}" for i in range(32)] + [f"p{i}" for i in range(8)] + [f"s{i}" for i in range(32)]
        words += [f"a{i}" for i in range(8)] + sorted(self.program.labels) + sorted(self.program.buffers)
        words += sorted({var.name for var in self.program.debug.variables})        # a C++ kernel's names
        words += ["ub", "pc", "steps", *expressions.FUNCTIONS, *(t.name for t in dtypes.TYPES)]
        words += ["break", "watch", "display", "history", "buffers", "labels", "locals", "args"] \
            if line.startswith("info") else []
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
            self.out(*_doc_lines(expressions.__doc__))
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
            self.out(*([""] if is_command else []), *explain_lines(topic.lower()))
        elif not is_command:
            close = [m for m in BY_MNEMONIC if m.startswith(topic.lower())]
            hint = f" (instructions starting so: {', '.join(close)})" if close else ""
            self.out(f"no help for '{shown(topic)}'{hint}")

    # ------------------------------------------------------------------ running forward
    def do_step(self, arg):
        """s(tep) [N]
        Execute N instructions (default 1) with the engine, one at a time (above 10,000: at full
        speed, as continue). Stops early at a breakpoint, when a watch changes, at halt or at a fault."""
        count = self._count(arg, "step")
        if count is not None and self._can_run():
            self._finish(self.control.forward(limit=count))

    def do_continue(self, arg):
        """c(ontinue) [N]
        Run until a breakpoint, a watch change, halt or a fault. The engine runs at full speed (as
        `ascasm run`), returning to the debugger only at breakpoints and after instructions that can
        write a watched value, and one checkpoint is recorded instead of every step. With N, as in
        gdb: the breakpoint stopped at is passed N-1 more times before it stops again."""
        count = self._count(arg, "continue")
        if count is None or not self._can_run():
            return
        if count > 1:
            here = [bp for bp in self.control.breakpoints.values() if bp.pc == self.state.pc]
            for bp in here:
                bp.ignore = count - 1
                self.out(f"Will ignore next {count - 1} crossings of breakpoint {bp.number}. Continuing.")
            if not here:
                self.out("Not stopped at a breakpoint; the count is ignored.")
        self._finish(self.control.forward())

    def do_run(self, arg):
        """r(un)
        Start the program again from its initial state and continue (as gdb's run): restart, then c.
        Breakpoints, watches and displays stay."""
        self._reload()
        self._finish(self.control.forward())

    def do_start(self, arg):
        """start
        Start the program again and stop before its first instruction (as restart)."""
        self.do_restart(arg)

    def do_jump(self, arg):
        """jump LINE|LABEL
        Resume at LINE or LABEL: the pc moves there (recorded: back undoes it) and the program
        continues, as gdb's jump. Nothing between is executed."""
        if not arg.strip():
            self.out("usage: jump LINE|LABEL")
            return
        if not self._can_run():
            return
        pc, _file, line, note = self.control.resolve(arg.strip())
        if note:
            self.out(note)
        self.control.set_pc(pc, f"jump {arg.strip()}")
        self.out(f"Continuing at line {line}.")
        self._finish(self.control.forward())

    def do_next(self, arg):
        """n(ext) [N]
        Run until the pc reaches an instruction of another source line, N times (default 1): in a
        translated C++ kernel one statement (a loop on one line runs to its end), in assembly one
        instruction. Stops early at a breakpoint, when a watch changes, at halt or at a fault."""
        count = self._count(arg, "next")
        if count is None or not self._can_run():
            return
        for _ in range(count):
            run = self.control.next_line()
            if run.reasons or self.control.cannot_run():
                break
        self._finish(run)

    def do_until(self, arg):
        """u(ntil) [LINE|LABEL]
        Run until the instruction at LINE or LABEL is reached (also stopping at breakpoints and
        watches). Without an argument: until a line below the current one (leaves a loop)."""
        if not self._can_run():
            return
        if arg.strip():
            pc, _file, _line, note = self.control.resolve(arg.strip())
            if note:
                self.out(note)
            self._finish(self.control.forward(until={pc}))
        else:                                          # a line below this one, or past the end
            self._finish(self.control.forward(until=self.control.rows_below()))

    def do_finish(self, arg):
        """finish
        In an inlined C++ helper: run until it returns to its caller. Elsewhere: run until the
        innermost loop around the current instruction is left: the pc lands outside the span from a
        backward branch's target to the branch (also stopping at breakpoints and watches)."""
        if not self._can_run():
            return
        outside = self.control.rows_outside_frame()
        if outside is not None:                  # in an inlined C++ helper: back in its caller
            self._finish(self.control.forward(until=outside))
            return
        loop = self.control.loop_around()
        if loop is None:
            self.out(f"finish: line {self.program.insns[self.state.pc].loc.line} is not inside a loop "
                     "(no backward branch spans it); c runs to the end")
            return
        first, last = loop
        outside = {row for row in range(len(self.program.insns) + 1) if not first <= row <= last}
        self._finish(self.control.forward(until=outside))

    def _count(self, arg: str, command: str) -> int | None:
        text = arg.strip()
        if not text:
            return 1
        count = whole_number(text, 0)
        if count is None:
            self.out(f"usage: {command} [N] (N a positive number, not {shown(text)!r})")
            return None
        if count <= 0:
            self.out(f"{command}: N must be positive")
            return None
        return count

    def _can_run(self) -> bool:
        reason = self.control.cannot_run()
        if reason:
            self.out(reason)
        return not reason

    def _finish(self, run: Run):
        """Report a stop: why, where, the displays; halt and faults get their own lines."""
        self.control.frame_up = 0
        self._warnings()
        self.out(*run.changes, *run.reasons)
        status, control = self.state.status, self.control
        if status == HALTED and control.blocks > 1:
            running = [k for k, state in enumerate(control.run_blocks.states) if state.status != HALTED]
            self.out(f"block {control.block} halted after {self.state.steps} steps"
                     + (f"; blocks {', '.join(map(str, running))} have not (block N selects one)" if running else
                        "; every block has"), *([] if running else views.expect_lines(self.program, self.state)))
        elif status == HALTED:
            self.out(f"the program halted after {self.state.steps} steps",
                     *views.expect_lines(self.program, self.state))
        elif status == vm.WAITING:
            self.out(*views.where_lines(self.program, self.state), control.cannot_run())
        elif status != RUNNING:
            self.out(str(self.control.machine.fault()))
        else:
            self.out(*views.where_lines(self.program, self.state))
        self._show_displays()

    def _show_displays(self):
        for display in self.displays.values():
            self.out(*self._display_lines(display))

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

    # ------------------------------------------------------------------ running backward
    def do_back(self, arg):
        """back [N]
        Reverse-step N instructions (default 1): every register file and the UB return to their
        bytes before those steps. A fault or the halt at the end counts as one step to undo."""
        count = self._count(arg, "back")
        if count is None:
            return
        edits = self.recorder.edits_in_last(count)
        done = self.control.back(count)
        if done < count:
            self.out(self.control.limit_text(done))
        for edit in edits:
            self.out(f"undid: {shown(edit)}")
        if done:
            self._finish(Run())

    def do_rc(self, arg):
        """rc
        Reverse-continue: go back until a breakpoint's instruction is reached (its condition true)
        or a watched value changes (stopping before the step that changed it), or to the oldest
        recorded state."""
        if not self.recorder.history:
            self.out("rc: " + self.control.limit_text(None))
            return
        self._finish(self.control.reverse_continue())

    # ------------------------------------------------------------------ breakpoints, watches, displays
    def do_break(self, arg):
        """b(reak) [[FILE:]LINE|LABEL [if COND]]
        Stop before the instruction at LINE (or the next line with one) or LABEL. LINE is in the file
        of the next instruction (a translated kernel's C++ file); FILE:LINE names another. With `if COND`,
        only when COND holds: comparisons and any(...)/all(...) over scalars, lanes and buffer
        slices, e.g. `b loop if s0 == 2`, `b 12 if any(v3.f16 > 6e4)`. Without an argument: list."""
        self._set_breakpoint(arg, temporary=False)

    def do_tbreak(self, arg):
        """tbreak [FILE:]LINE|LABEL [if COND]
        A breakpoint that is deleted when it is first hit."""
        self._set_breakpoint(arg, temporary=True)

    def _set_breakpoint(self, arg: str, temporary: bool):
        text = arg.strip()
        if not text:
            self.out(*views.breakpoint_lines(self.control.breakpoints.values()))
            return
        where, _, condition = text.partition(" if ")
        if text.startswith("if "):
            raise ExprError("name a LINE or LABEL before 'if'")
        bp, note = self.control.add_breakpoint(where.strip(), condition.strip(), temporary)
        if note:
            self.out(note)
        kind = "Temporary breakpoint" if temporary else "Breakpoint"
        label = next((name for name, row in self.program.labels.items() if row == bp.pc), None)
        extra = f", label {label}" if label else ""
        self.out(f"{kind} {bp.number} at {bp.file}:{bp.line} (pc {bp.pc}{extra})"
                 + (f" if {bp.condition}" if bp.condition else ""))

    def do_delete(self, arg):
        """d(elete) [N ...]
        Delete breakpoints or watches by number; without an argument, all of them."""
        breakpoints, watches = self.control.breakpoints, self.control.watches
        numbers = arg.split()
        if not numbers:
            self.out(f"deleted all breakpoints ({len(breakpoints)}) and watches ({len(watches)})")
            breakpoints.clear()
            watches.clear()
            return
        for text in numbers:
            number = whole_number(text)
            if breakpoints.pop(number, None):
                self.out(f"deleted breakpoint {number}")
            elif watches.pop(number, None):
                self.out(f"deleted watch {number}")
            else:
                self.out(f"no breakpoint or watch number {shown(text)}")

    def do_clear(self, arg):
        """clear [LINE|LABEL]
        Delete the breakpoints at LINE or LABEL (without an argument: at the current instruction)."""
        pc = self.control.resolve(arg.strip())[0] if arg.strip() else self.state.pc
        numbers = [n for n, bp in self.control.breakpoints.items() if bp.pc == pc]
        for number in numbers:
            del self.control.breakpoints[number]
        self.out(f"Deleted breakpoint{'s' if len(numbers) > 1 else ''} {' '.join(map(str, numbers))}"
                 if numbers else "No breakpoint there.")

    def do_watch(self, arg):
        """w(atch) EXPR
        Stop after a step that changes EXPR, printing the old and new values: ub[ADDR:LEN] (LEN
        bytes), NAME[I:J] (buffer elements I..J-1), vN or vN.T, pN, sN, aN, or any expression."""
        text = arg.strip()
        if not text:
            self.out(*views.watch_lines(self.control.watches.values()))
            return
        watch = self.control.add_watch(text)
        self.out(f"Watch {watch.number}: {text}")

    def do_display(self, arg):
        """display[/FMT] [EXPR]
        Print EXPR at every stop, in print format FMT if given (x t d u f, as p/FMT). Without an
        argument: print every display now."""
        fmt, text = _print_format(arg)
        if not text:
            if not self.displays:
                self.out("no displays")
            self._show_displays()
            return
        display = Display(self.next_display, text, self.control.parse(text), fmt)
        self.displays[display.number] = display
        self.next_display += 1
        self.out(*self._display_lines(display))

    def _display_lines(self, display: Display) -> list[str]:
        try:
            lines = format_value(expressions.evaluate(display.node, self.control.env()), fmt=display.fmt)
        except ExprError as exc:
            lines = [f"{display.text}: {exc}"]
        return [f"{display.number}: " + lines[0], *lines[1:]]

    def do_undisplay(self, arg):
        """undisplay [N ...]
        Remove displays by number; without an argument, all of them."""
        if not arg.split():
            self.displays.clear()
            return
        for text in arg.split():
            if not self.displays.pop(whole_number(text), None):
                self.out(f"no display number {shown(text)}")

    def do_info(self, arg):
        """info break|watch|display|history|buffers|labels|registers [NAME ...]|line [LINE|LABEL]|locals|args
        List breakpoints, watches, displays, the reverse-execution history, the UB buffers or the
        labels; `info registers` (info r) is regs, `info registers s0 v3` prints those registers;
        `info line` the pc and instruction of a line (default: the current one); `info locals` and
        `info args` the C++ variables of the selected frame (a translated kernel)."""
        words = arg.split()
        if words and words[0] in ("registers", "register", "reg", "r"):
            for name in words[1:]:
                self.do_print(name)
            if len(words) == 1:
                self.do_regs("")
            return
        control, program = self.control, self.program
        breakpoints = lambda: views.breakpoint_lines(control.breakpoints.values())
        watches = lambda: views.watch_lines(control.watches.values())
        table = {"break": breakpoints, "breakpoints": breakpoints, "b": breakpoints,
                 "watch": watches, "watches": watches, "w": watches,
                 "display": lambda: views.display_lines(self.displays.values()),
                 "history": lambda: views.history_lines(control.recorder),
                 "buffers": lambda: views.buffer_lines(program), "labels": lambda: views.label_lines(program)}
        if words and words[0] == "line":
            self._info_line(" ".join(words[1:]))
            return
        if words and words[0] in ("locals", "args"):
            env = self.control.env()
            if env.scope is None:
                self.out(f"info {words[0]}: the program has no C++ variables (a translated kernel's debug "
                         "information: .var, .arg)")
            else:
                self.out(*views.variable_lines(env, words[0] == "args"))
            return
        topic = arg.strip()
        if topic not in table:
            self.out("usage: info break|watch|display|history|buffers|labels|registers|line|locals|args")
            return
        self.out(*table[topic]())

    def _info_line(self, where: str):
        """`info line [LINE|LABEL]`: the instruction a line holds and its pc (default: the current one)."""
        insns = self.program.insns
        if where:
            pc, _file, _line, note = self.control.resolve(where)
            if note:
                self.out(note)
        else:
            pc = min(self.state.pc, len(insns) - 1)
        loc = insns[pc].loc
        shown_file = loc.file if loc.file and loc.file != self.program.filename else self.program.filename
        self.out(f"Line {loc.line} of {shown_file} is pc {pc}: {loc.text.strip()}")

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
            self.recorder.cap = self.control.history_cap = cap
            self.recorder.trim()
            self.out(f"history cap set to {views.size_text(cap)}")
        self.out(*views.history_lines(self.recorder))

    # ------------------------------------------------------------------ inspecting
    def do_print(self, arg):
        """p(rint)[/FMT] EXPR
        Print a value. `p v3.f16` shows the 128 lanes in rows with lane numbers; `p v3.f16 / p0`
        shows lanes that p0 leaves inactive (read at f16's width: bit i*2) as `.`; `p s4`,
        `p p0.b16`, `p output[0:16]`, `p ub[0x100:16]`, `p any(v3.f16 > 6e4)`. help expr: the syntax.
        FMT, as in gdb, shows each element's own bits: x hex, t binary, d signed, u unsigned, f as a
        float of the element's width (p/x v0.f16 shows the 16 bits of each lane)."""
        fmt, text = _print_format(arg)
        if not text:
            self.out("usage: p[/FMT] EXPR (help expr for the syntax)")
            return
        self.out(*format_value(expressions.evaluate_text(text, self.control.env()), fmt=fmt))

    def do_x(self, arg):
        """x/N.T ADDR|NAME  or  x/NFU ADDR|NAME
        Examine memory: N elements of type T from ADDR (a UB address: a number, a buffer name, s1 + 64,
        ...), in rows with their addresses. A .gm buffer's name, &NAME[I] of one, or &gm[ADDR] examine
        global memory. Without .T: a hexdump of N bytes (default 64). gdb's letters work too: F a print
        format (x t d u f), U the unit size (b h w g: 1, 2, 4, 8 bytes; default b). Examples:
        x/16.u16 output, x/16xh output, x/8fw 0x300, x/4xh &output[4] (gdb's address-of), x/8.f32 &gm[0x40]"""
        m = re.fullmatch(r"\s*(?:/(\d+)?([a-z]*)(?:\.(\w+))?)?\s*(.*)", arg)
        count_text, letters, type_name, where = m.group(1), m.group(2) or "", m.group(3), m.group(4).strip()
        if not where or set(letters) - set(formatting.FORMATS) - set(_UNITS) or \
                len(set(letters) & set(_UNITS)) > 1 or len(set(letters) & set(formatting.FORMATS)) > 1:
            self.out("usage: x/N.T ADDR|NAME or x/NFU ADDR|NAME (e.g. x/16.u16 output, x/16xh output, x/64 0x300)")
            return
        fmt = next((c for c in letters if c in formatting.FORMATS), "")
        unit = next((c for c in letters if c in _UNITS), "")
        etype = None
        if type_name:
            etype = dtypes.lookup(type_name)
            if etype is None:
                raise ExprError(f"unknown type '{shown(type_name)}'")
        elif fmt or unit:
            etype = dtypes.lookup(_UNITS[unit or "b"])
        count = whole_number(count_text) if count_text else (16 if etype else 64)
        if count is None:
            raise ExprError(f"x: the count {shown(count_text)} is larger than the UB")
        space = "ub"
        if where.startswith("&"):              # gdb's address-of: x/8xw &output, x/4xh &output[4], &gm[0x40]
            located = expressions.evaluate_text(where[1:], self.control.env())
            if located.where is None or located.where.kind not in ("ub", "gm"):
                raise ExprError(f"& takes a place in the UB or GM (output, output[4], gm[0x40]), not {located.label}")
            address, space = located.where.number, located.where.kind
        elif where in self.program.buffers and self.program.buffers[where].space == "gm":
            address, space = self.program.buffers[where].addr, "gm"      # a .gm buffer: examine GM
        else:
            try:
                value = expressions.evaluate_text(where, self.control.env(), addresses=True)
            except ExprError:
                if not self._is_ub_place(where):
                    raise
                raise ExprError(f"x takes an address: {shown(where)}'s is &{shown(where)}") from None
            if value.is_array or value.data.dtype.kind not in "iu":
                raise ExprError(f"x needs one address, not {value.label}")
            address = int(value.data)
        self.out(*format_memory(getattr(self.state, space), address, count, etype, fmt=fmt, space=space))

    def _is_ub_place(self, text: str) -> bool:
        """Whether `text` names a place in the UB (NAME[I], ub[A]), whose address x could take."""
        try:
            value = expressions.evaluate_text(text, self.control.env())
        except ExprError:
            return False
        return value.where is not None and value.where.kind in ("ub", "gm")

    def do_set(self, arg):
        """set var LOCATION = EXPR
        Change machine state: a scalar or address register (set var s0 = 5), vector lanes
        (set var v0.u16[3] = 7, set var v1.f16[0:4] = 1.5), mask lanes (set var p0.b16[2] = 1) or UB
        elements (set var output[0] = 9, set var ub[0x300] = 0xff). One value fills every element of
        a slice. Integers must fit the type; floats round to it. The change is recorded: back undoes
        it, why names it. (`set LOCATION = EXPR` works too.)"""
        m = re.fullmatch(r"\s*(?:var(?:iable)?\s+)?(.*?[^=!<>])=(?!=)(.*)", arg)
        if not m or not m.group(1).strip() or not m.group(2).strip():
            self.out("usage: set var LOCATION = EXPR (e.g. set var s0 = 5, set var v0.u16[3] = 7)")
            return
        env = self.control.env()
        target = expressions.evaluate_text(m.group(1), env)
        if target.where is None or target.active is not None:
            raise ExprError(f"set needs a location (sN, aN, vN.T[I], pN.bW[I], NAME[I], ub[ADDR]), "
                            f"not {target.label}")
        self.control.set_location(target, expressions.evaluate_text(m.group(2), env),
                                  f"set var {m.group(1).strip()} = {m.group(2).strip()}")
        self.out(*format_value(expressions.evaluate_text(m.group(1), self.control.env())))

    def do_why(self, arg):
        """why ub[ADDR] | gm[ADDR] | NAME[I] | vN[LANE] | vN.T[LANE] | sN | aN | pN
        Which step, instruction (source line) and lane last wrote it: for a scatter the lane and its
        index, for a load or gather the UB address a register lane came from; for GM bytes (gm[ADDR], a
        .gm buffer's elements) the data move that wrote them."""
        text = arg.strip()
        if not text:
            self.out("usage: why ub[ADDR] | gm[ADDR] | NAME[I] | vN[LANE] | sN | aN | pN")
            return
        value = expressions.evaluate_text(text, self.control.env())
        if value.where is None:
            raise ExprError(f"why needs a location (ub[ADDR], NAME[I], vN[LANE], sN, ...), not {value.label}")
        try:
            lines = views.why_lines(self.program, self.recorder, value)
        except KeyboardInterrupt:
            lines = [f"interrupted: the search stopped; the machine is still at step {self.state.steps}"]
        self.out(*lines)

    def do_regs(self, arg):
        """regs
        pc and steps, the scalar registers s0-s31, the address registers a0-a7, the mask registers
        p0-p7 (set bits) and every vector register that is not all zero (first lanes)."""
        self.out(*views.regs_lines(self.program, self.state, self.control.vtype))

    def do_where(self, arg):
        """where
        The current instruction: its pc, the label it is under, its source line (also `bt`). In a
        translated C++ kernel's inlined helper: one frame per helper call, innermost first (#0), and
        the kernel's own last; an assembly program has one frame."""
        self.out(*views.frame_lines(self.program, self.state, self.control.frame_up))

    def do_up(self, arg):
        """up [N]
        Select the frame N (default 1) calls out from the current one: p, info locals, info args and
        display then see that frame's C++ variables (a translated kernel's inlined helpers)."""
        self._select_frame(arg, +1, "up")

    def do_down(self, arg):
        """down [N]
        Select the frame N (default 1) calls in from the current one (undoes up)."""
        self._select_frame(arg, -1, "down")

    def _select_frame(self, arg: str, direction: int, command: str):
        count = self._count(arg, command)
        if count is None:
            return
        if self.state.pc >= len(self.program.insns):
            self.out(f"{command}: the program is past its last instruction")
            return
        depth = len(self.control.frames(self.state.pc))
        target = self.control.frame_up + direction * count
        if not 0 <= target <= depth:
            self.out("Initial frame selected; you cannot go down." if target < 0 else
                     "Initial frame selected; you cannot go up." if not depth else
                     "Outermost frame selected (the kernel's); you cannot go up.")
            target = max(0, min(target, depth))
        self.control.frame_up = target
        self.out(*views.inline_frame_lines(self.program, self.state.pc, target))

    def do_list(self, arg):
        """l(ist) [[FILE:]LINE]
        Source lines around the current line (or LINE); again without an argument: the next lines.
        The file is the next instruction's: a translated kernel's C++ file, or FILE.
        Markers: -> the next instruction, B a breakpoint."""
        name, colon, line_text = arg.strip().rpartition(":")
        center = None
        if arg.strip():
            center = whole_number(line_text)
            if center is None:
                self.out("usage: l [[FILE:]LINE]")
                return
            self.list_file = self.control.source_file(name) if colon else self.control.current_file()
        elif self.list_next is None or self.previous_line.split()[:1] not in (["l"], ["list"]):
            self.list_file = self.control.current_file()
            pc = self.state.pc
            center = self.program.insns[pc].loc.line if pc < len(self.program.insns) else -1
        lines = self.program.source_lines(self.list_file)
        if lines is None:
            self.out(f"cannot list {self.list_file}: it could not be read when the program was assembled")
            return
        count = len(lines) - (lines[-1:] == [""])         # a final "\n" ends a line, starts none
        first = self.list_next if center is None else max(1, (count if center < 0 else center) - 5)
        if first > count:
            self.out("(end of file)")
            return
        breakpoint_lines = {bp.line for bp in self.control.breakpoints.values() if bp.file == self.list_file}
        self.out(*views.list_lines(self.program, self.state, self.list_file, lines[:count], first,
                                   breakpoint_lines))
        self.list_next = min(count, first + 10) + 1

    def do_disas(self, arg):
        """disas [all]
        The instructions around the current one (all of them with `all`, or when there are few):
        pc, source line, the instruction and its bytecode row (opcode name, type codes, operand slots;
        docs/bytecode.md)."""
        n, pc = len(self.program.insns), self.state.pc
        if arg.strip() == "all" or n <= 40:
            rows = range(n)
        else:
            rows = range(max(0, pc - 8), min(n, pc + 9))
        breakpoint_pcs = {bp.pc for bp in self.control.breakpoints.values()}
        self.out(*views.disas_lines(self.program, pc, rows, breakpoint_pcs))

    def do_draw(self, arg):
        """draw [-f] FILE.svg
        Picture the next instruction (the one at ->) as SVG: the registers it reads and writes as rows
        of lanes, its mask as a bar, for loads and stores which lane went to which UB address (as
        `ascasm draw`). It runs on a copy of the machine: the session does not move. An existing file
        is replaced only if this session drew it or with -f; the program and its inputs never are."""
        m = re.fullmatch(r"\s*(-f\s+)?(.*?)\s*", arg, re.DOTALL)
        force, path = bool(m.group(1)), m.group(2)
        if not path:
            self.out("usage: draw [-f] FILE.svg")
            return
        reason = self.control.cannot_run()
        if reason:
            self.out(f"draw: {reason}")
            return
        if self.state.pc >= len(self.program.insns):
            self.out("draw: the pc is past the last instruction: there is no step to draw")
            return
        target = Path(path)
        try:
            check_outputs([target], [Path(self.program.filename), *self.program.data_files],
                          force or target.resolve() in self.drawn, force_hint=f"use draw -f {path}")
        except OutputRefused as exc:
            self.out(f"draw: {exc}")
            return
        svg = draw.picture_step(self.program, self.control.scratch_machine())
        try:
            target.write_text(svg)
        except OSError as exc:
            self.out(f"error: cannot write {path}: {exc.strerror or exc}")
            return
        self.drawn.add(target.resolve())
        self.out(f"wrote {path}: step {self.state.steps + 1}, line {self.program.insns[self.state.pc].loc.line}")

    # ------------------------------------------------------------------ session
    def do_block(self, arg):
        """block [N]
        In a run of several blocks (ascasm debug --blocks N): select block N, whose state the commands
        show and which s, n, c and back run (each block has its own history; the others wait); without
        N, list the blocks and where each is. A block at a syncall or crosswait goes on once the other
        blocks have set what it waits for."""
        control = self.control
        if not arg.strip():
            for k, state in enumerate(control.run_blocks.states):
                mark = "*" if k == control.block else " "
                line = self.program.insns[min(state.pc, len(self.program.insns) - 1)].loc.line
                self.out(f"{mark} block {k}: {STOP_NAMES[state.status].lower()} at line {line}, pc={state.pc} "
                         f"steps={state.steps}")
            return
        number = whole_number(arg.strip())
        if number is None or number >= control.blocks:
            self.out(f"no block {shown(arg.strip())}: the run has blocks 0-{control.blocks - 1}")
            return
        control.select_block(number)
        self.out(f"block {number} of {control.blocks}")
        self.out(*views.where_lines(self.program, self.state))

    def do_restart(self, arg):
        """restart
        Reload the program's initial state and clear the history; breakpoints, watches and displays stay."""
        self._reload()
        self._finish(Run())

    def _reload(self):
        self.drop_noted = False
        self.control.load()
        self.out("restarted")

    def do_quit(self, arg):
        """q(uit)
        Leave the debugger."""
        return True


# Short forms, as pdb spells them.
_ALIASES = {"s": "step", "c": "continue", "cont": "continue", "u": "until", "unt": "until", "b": "break",
            "d": "delete", "w": "watch", "p": "print", "l": "list", "q": "quit", "exit": "quit", "h": "help",
            "?": "help", "i": "info", "bt": "where", "backtrace": "where",
            # gdb's instruction-level steps (there are no calls to step over); n(ext) is its own command
            "n": "next", "si": "step", "stepi": "step", "ni": "step", "nexti": "step",
            "r": "run"}
_UNITS = {"b": "u8", "h": "u16", "w": "u32", "g": "u64"}      # gdb's x/NFU unit letters
for _short, _long in _ALIASES.items():
    if not hasattr(Debugger, "do_" + _short):
        setattr(Debugger, "do_" + _short, getattr(Debugger, "do_" + _long))


def _print_format(arg: str) -> tuple[str, str]:
    """`p/x EXPR` -> ("x", "EXPR"); a letter that is no format raises ExprError."""
    m = re.fullmatch(r"\s*/(\w*)\s*(.*)", arg, re.DOTALL)
    if not m:
        return "", arg.strip()
    if m.group(1) not in formatting.FORMATS:
        formats = ", ".join(f"/{letter} {name}" for letter, name in formatting.FORMATS.items())
        raise ExprError(f"unknown print format '/{m.group(1)}' ({formats})")
    return m.group(1), m.group(2).strip()


def _doc_lines(doc: str) -> list[str]:
    lines = (doc or "").strip("\n").splitlines()
    indent = min((len(l) - len(l.lstrip()) for l in lines[1:] if l.strip()), default=0)
    return [lines[0].strip()] + [("  " + l[indent:]) if l.strip() else "" for l in lines[1:]]


def debug_main(path, engine: str | None, ub_usable: int = UB_USABLE_DEFAULT, max_steps: int = MAX_STEPS_DEFAULT,
               stdin=None, stdout=None, history_cap: int | None = None, store_inactive: str = "keep",
               strict: bool = False, source_dirs=(), blocks: int = 1) -> int:
    """`ascasm debug FILE`: assemble FILE and run the REPL. Returns the exit status: 0 after quit or
    end of input, 1 for an assembly error, 64 for a missing file or engine. Errors go to stderr."""
    err = sys.stderr
    path = Path(path)
    if unreadable(path):
        print(f"ascasm: error: {unreadable(path)}", file=err)
        return EXIT_USAGE
    try:
        program = assemble_file(path, ub_usable=ub_usable, source_dirs=source_dirs)
    except AssemblyFailed as failed:
        print(failed, file=err)
        return EXIT_ASM
    return debug_program(program, engine, ub_usable, max_steps, stdin, stdout, history_cap, store_inactive, strict,
                         blocks)


def debug_program(program: Program, engine: str | None, ub_usable: int = UB_USABLE_DEFAULT,
                  max_steps: int = MAX_STEPS_DEFAULT, stdin=None, stdout=None, history_cap: int | None = None,
                  store_inactive: str = "keep", strict: bool = False, blocks: int = 1) -> int:
    """The REPL on an assembled program (a .s file's, or a translated C++ kernel's): 0 after quit or
    end of input, 64 when the engine is missing."""
    err = sys.stderr
    try:
        debugger = Debugger(program, engine or auto_engine(), ub_usable, max_steps, stdin, stdout,
                            DEFAULT_HISTORY_CAP if history_cap is None else history_cap, store_inactive, strict,
                            blocks)
    except EngineMissing as exc:
        print(f"ascasm: error: {exc}", file=err)
        return EXIT_USAGE
    debugger.cmdloop()
    return EXIT_OK
