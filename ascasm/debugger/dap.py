"""`ascasm dap`: a Debug Adapter Protocol server on standard input and output, so that an editor
(VS Code, CLion, vim's vimspector, ...) debugs a C++ kernel or an assembly program with ascasm's
debugger: the same run control (ascasm/debugger/control.py), the same expressions and C++ variables
(ascasm/expr/machine.py, ascasm/expr/cvars.py). Messages are JSON with a `Content-Length` header, as the
protocol says; docs/debugger.md lists the requests and a VS Code launch configuration.

One thread (the machine's one vector core); stack frames are the inline frames of a translated
kernel (the helpers inlined into it, and the kernel); scopes are Locals, Arguments and Registers;
a RegTensor, a MaskReg, a pointer's elements are variables whose children are their lanes.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

from ..expr import machine as expressions
from ..asm.assembler import assemble_file
from ..asm.errors import AssemblyFailed
from ..expr.machine import ExprError
from ..formatting import cell_text
from . import views
from .control import RunControl
from ..observers.history import HALTED, RUNNING
from ..source import is_cpp, unreadable
from ..state import UB_USABLE_DEFAULT

THREAD = 1
MAX_BACK_STEPS = 100_000        # stepBack: instructions undone at most looking for the previous line
MAX_HEADER_BYTES = 1024         # a header line longer than this is not the protocol's
MAX_MESSAGE_BYTES = 1 << 24
CAPABILITIES = {"supportsConfigurationDoneRequest": True, "supportsConditionalBreakpoints": True,
                "supportsStepBack": True, "supportsEvaluateForHovers": True, "supportsTerminateRequest": True}


class ProtocolError(Exception):
    """The input is not Content-Length framed JSON: the session ends."""


def read_message(stream) -> dict | None:
    """The next message from a binary stream; None at its end."""
    length = None
    while True:
        line = stream.readline(MAX_HEADER_BYTES)
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode("ascii", "replace").partition(":")
        if name.strip().lower() == "content-length":
            try:
                length = int(value.strip())
            except ValueError:
                raise ProtocolError(f"bad Content-Length {value.strip()!r}") from None
    if length is None or not 0 <= length <= MAX_MESSAGE_BYTES:
        raise ProtocolError("a message without a valid Content-Length header")
    body = stream.read(length)
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProtocolError(f"the message is not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message is a JSON object")
    return message


def write_message(stream, message: dict):
    body = json.dumps(message).encode("utf-8")
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


class _Failed(Exception):
    """A request that cannot be done: its response says why (success false)."""


class Server:
    """One debug session: requests in, responses and events out."""

    def __init__(self, rfile, wfile):
        self.rfile, self.wfile = rfile, wfile
        self.seq = 0
        self.control: RunControl | None = None
        self.program = None
        self.launch_args: dict = {}
        self.references: dict[int, tuple] = {}     # variablesReference -> what it expands (this stop only)
        self.source_breakpoints: dict[str, list[int]] = {}
        self.pending_breakpoints: list[dict] = []     # setBreakpoints arguments received before launch
        self.done = False

    # ---- messages ----
    def send(self, message: dict):
        self.seq += 1
        write_message(self.wfile, {"seq": self.seq, **message})

    def event(self, name: str, body: dict | None = None):
        self.send({"type": "event", "event": name, "body": body or {}})

    def output(self, text: str):
        if text:
            self.event("output", {"category": "console", "output": text + "\n"})

    def serve(self) -> int:
        while not self.done:
            try:
                message = read_message(self.rfile)
            except ProtocolError as exc:
                print(f"ascasm dap: {exc}", file=sys.stderr)
                return 1
            if message is None:
                return 0
            if message.get("type") == "request":
                self.handle(message)
        return 0

    def handle(self, request: dict):
        command = request.get("command", "")
        handler = getattr(self, "on_" + command, None) if isinstance(command, str) else None
        response = {"type": "response", "request_seq": request.get("seq", 0), "command": command}
        after = None
        try:
            if handler is None:
                raise _Failed(f"ascasm dap does not support the request {command!r}")
            arguments = request.get("arguments") or {}
            if not isinstance(arguments, dict):
                raise _Failed("arguments must be an object")
            result = handler(arguments)
            body, after = result if isinstance(result, tuple) else (result, None)
            self.send({**response, "success": True, "body": body or {}})
        except (_Failed, ExprError) as exc:
            self.send({**response, "success": False, "message": str(exc)})
        except Exception as exc:                      # the session never ends on a traceback
            self.send({**response, "success": False, "message": f"{type(exc).__name__}: {exc}"})
        if after is not None:                          # events that follow the response (a stop)
            after()

    # ---- session ----
    def on_initialize(self, args):
        return CAPABILITIES

    def on_launch(self, args):
        """program (a .cpp kernel or a .s file), entry, args ({NAME: VALUE} or ["NAME=VALUE"]),
        defines, includeDirs, engine ("cy" or "ref"), stopOnEntry, cwd."""
        program_path = args.get("program")
        if not isinstance(program_path, str):
            raise _Failed("launch needs \"program\": a C++ kernel (.cpp) or an assembly file (.s)")
        base = Path(args.get("cwd") or ".")
        path = Path(program_path) if Path(program_path).is_absolute() else base / program_path
        if unreadable(path):
            raise _Failed(unreadable(path))
        self.program = self._load(path, args, base)
        from ..vm import auto_engine
        engine = args.get("engine") or auto_engine()
        if engine not in ("cy", "ref"):
            raise _Failed(f"engine {engine!r}: cy or ref")
        self.control = RunControl(self.program, engine)
        self.launch_args = args
        pending, self.pending_breakpoints = self.pending_breakpoints, []
        for arguments in pending:                   # set before the program was there
            self.on_setBreakpoints(arguments)
        return {}, lambda: self.event("initialized")    # ready for the breakpoints and configurationDone

    def _load(self, path: Path, args: dict, base: Path):
        if not is_cpp(path):
            try:
                return assemble_file(path, UB_USABLE_DEFAULT)
            except AssemblyFailed as failed:
                raise _Failed(str(failed)) from None
        from ..cpp import harness
        given = args.get("args") or {}
        try:
            if isinstance(given, list):
                given = harness.parse_arg_options([str(item) for item in given])
            elif not isinstance(given, dict):
                raise harness.KernelArgError("\"args\" is an object {NAME: VALUE} or a list of \"NAME=VALUE\"")
            given = {str(name): str(value) for name, value in given.items()}
            translation = harness.translate_kernel(path, args.get("entry"), args.get("defines") or (),
                                                   args.get("includeDirs") or ())
            return harness.build(translation, given, base).program
        except (harness.KernelArgError, harness.CppFailed, harness.LibclangMissing) as exc:
            raise _Failed(str(exc)) from None

    def on_configurationDone(self, args):
        self._need_program()
        if self.launch_args.get("stopOnEntry"):
            return {}, lambda: self._stopped("entry", [])
        return {}, lambda: self._run(self.control.forward)

    def on_disconnect(self, args):
        self.done = True
        return {}

    on_terminate = on_disconnect

    def on_threads(self, args):
        return {"threads": [{"id": THREAD, "name": "vector core 0"}]}

    # ---- breakpoints ----
    def on_setBreakpoints(self, args):
        if self.control is None:                    # before launch: kept until it
            self.pending_breakpoints.append(args)
            return {"breakpoints": [{"verified": False, "line": b.get("line"), "message": "not yet loaded"}
                                    for b in args.get("breakpoints") or []]}
        control = self.control
        source = args.get("source") or {}
        path = str(source.get("path") or source.get("name") or "")
        for number in self.source_breakpoints.pop(path, []):
            control.breakpoints.pop(number, None)
        results, numbers = [], []
        for wanted in args.get("breakpoints") or []:
            line, condition = wanted.get("line"), str(wanted.get("condition") or "")
            try:
                file = self._program_file(path)
                bp, note = control.add_breakpoint(f"{file}:{int(line)}", condition, False)
            except (ExprError, TypeError, ValueError) as exc:
                results.append({"verified": False, "line": line, "message": str(exc)})
                continue
            numbers.append(bp.number)
            results.append({"id": bp.number, "verified": True, "line": bp.line, **({"message": note} if note else {})})
        self.source_breakpoints[path] = numbers
        return {"breakpoints": results}

    def _program_file(self, path: str) -> str:
        """The name rows give the file an editor calls `path` (often absolute where theirs is relative)."""
        files = list(dict.fromkeys(insn.loc.file for insn in self.program.insns))
        for file in files:
            if os.path.abspath(file) == os.path.abspath(path):
                return file
        return self.control.source_file(Path(path).name if os.path.isabs(path) else path)

    # ---- running ----
    def on_continue(self, args):
        control = self._need_program()
        if control.state.status == HALTED:
            return {"allThreadsContinued": True}, self._exit
        return {"allThreadsContinued": True}, lambda: self._run(control.forward)

    def on_next(self, args):
        return self._step(lambda: self.control.next_line(over=True))

    def on_stepIn(self, args):
        return self._step(lambda: self.control.next_line(over=False))

    def on_stepOut(self, args):
        def out():
            outside = self.control.rows_outside_frame()
            return self.control.forward(until=outside) if outside is not None else self.control.next_line()
        return self._step(out)

    def on_stepBack(self, args):
        control = self._need_program()

        def back():         # `next` backwards: to the previous line of this call or of a caller
            here, frames = control.position(control.state.pc), control.frames(control.state.pc)
            for _ in range(MAX_BACK_STEPS):
                if not control.back(1):
                    break
                now = control.frames(control.state.pc)
                if len(now) < len(frames) or (now == frames and control.position(control.state.pc) != here):
                    break
            return None
        return {}, lambda: self._after(back, "step")

    def on_reverseContinue(self, args):
        control = self._need_program()
        if not control.recorder.history:
            raise _Failed("nothing to go back to: no step has run")
        return {}, lambda: self._after(control.reverse_continue, "breakpoint")

    def _step(self, action):
        control = self._need_program()
        if control.cannot_run():
            raise _Failed(control.cannot_run())
        return {}, lambda: self._run(action, "step")

    def _run(self, action, reason: str = "breakpoint"):
        if self.control.cannot_run():
            self._exit()
            return
        self._after(action, reason)

    def _after(self, action, reason: str):
        """Do `action` (a run), then report the stop: why, or the halt or fault."""
        run = action()
        self.control.frame_up = 0
        lines = [*run.changes, *run.reasons] if run is not None else []
        self.output("\n".join(lines))
        status = self.control.state.status
        if status == HALTED:
            self.output(f"the program halted after {self.control.state.steps} steps "
                        "(continue ends the session; stepBack and reverseContinue go back)")
            self._stopped("halt", lines, "halted")
        elif status != RUNNING:
            fault = str(self.control.machine.fault())
            self.output(fault)
            self._stopped("exception", lines, fault)
        else:
            hit = run is not None and any(line.startswith(("Breakpoint", "Temporary breakpoint")) for line in run.reasons)
            watched = run is not None and any(line.startswith("Watch") for line in run.reasons)
            self._stopped("breakpoint" if hit else "data breakpoint" if watched else reason, lines)

    def _stopped(self, reason: str, lines: list, text: str | None = None):
        self.references.clear()
        body = {"reason": reason, "threadId": THREAD, "allThreadsStopped": True}
        if text or lines:
            body["text"] = text or lines[-1]
        self.event("stopped", body)

    def _exit(self):
        self.event("exited", {"exitCode": 0})
        self.event("terminated")

    # ---- inspecting ----
    def on_stackTrace(self, args):
        control = self._need_program()
        pc, insns = control.state.pc, self.program.insns
        if pc >= len(insns):
            frames = [{"id": 0, "name": "past the end", "line": 0, "column": 0}]
        else:
            frames = [{"id": number, "name": function, "line": line, "column": 1,
                       "source": {"name": Path(file).name, "path": os.path.abspath(file)}}
                      for number, (function, file, line) in enumerate(views.inline_stack(self.program, pc))]
        return {"stackFrames": frames, "totalFrames": len(frames)}

    def on_scopes(self, args):
        frame = self._frame(args.get("frameId", 0))
        scopes = []
        if self.program.debug.variables:
            scopes += [{"name": "Locals", "presentationHint": "locals", "expensive": False,
                        "variablesReference": self._reference(("scope", frame, False))},
                       {"name": "Arguments", "presentationHint": "arguments", "expensive": False,
                        "variablesReference": self._reference(("scope", frame, True))}]
        scopes.append({"name": "Registers", "presentationHint": "registers", "expensive": False,
                       "variablesReference": self._reference(("registers", frame))})
        return {"scopes": scopes}

    def on_variables(self, args):
        what = self.references.get(args.get("variablesReference"))
        if what is None:
            raise _Failed("no such variablesReference (they last until the next stop)")
        if what[0] == "scope":
            _kind, frame, arguments = what
            visible = self._env(frame).scope.visible()
            return {"variables": [self._variable(name, name, frame, visible[name].ctype)
                                  for name in self._env(frame).scope.own(arguments)]}
        if what[0] == "registers":
            names = [f"s{n}" for n in range(32)] + [f"a{n}" for n in range(8)] + [f"p{n}" for n in range(8)] + \
                [f"v{n}" for n in range(32)] + ["pc", "steps"]
            return {"variables": [self._variable(name, name, what[1]) for name in names]}
        _kind, value = what
        start, count = int(args.get("start") or 0), args.get("count")
        stop = value.data.size if count is None else min(value.data.size, start + int(count))
        return {"variables": [{"name": f"[{value.first + k}]", "value": _cell(value, k), "variablesReference": 0}
                              for k in range(start, stop)]}

    def on_evaluate(self, args):
        expression = str(args.get("expression") or "").strip()
        if not expression:
            raise _Failed("an empty expression")
        frame = self._frame(args.get("frameId", 0))
        variable = self._variable("result", expression, frame)
        if variable.get("error"):
            raise _Failed(variable["value"])
        return {"result": variable["value"], "type": variable.get("type", ""),
                "variablesReference": variable["variablesReference"],
                **({"indexedVariables": variable["indexedVariables"]} if "indexedVariables" in variable else {})}

    def _variable(self, name: str, expression: str, frame: int, ctype: str = "") -> dict:
        """A DAP variable for `expression`: its value in a line; an array's elements as children."""
        try:
            value = expressions.evaluate_text(expression, self._env(frame))
        except ExprError as exc:
            return {"name": name, "value": f"<{exc}>", "variablesReference": 0, "error": True}
        shown = {"name": name, "type": ctype or (value.etype.name if value.etype is not None else ""),
                 "evaluateName": expression}
        if not value.is_array:
            x = value.data[()]
            text = ("true" if x else "false") if value.kind == "bool" else cell_text(x, value.etype, value.kind)
            return {**shown, "value": text, "variablesReference": 0}
        data = np.array(value.data, copy=True)       # (a register view changes at the next step)
        value = expressions.Value(data, value.label, value.etype, value.active, value.first, value.kind, value.noun)
        head = " ".join(_cell(value, k) for k in range(min(8, data.size)))
        return {**shown, "value": f"[{head}{' ...' if data.size > 8 else ''}] ({data.size} {value.noun})",
                "variablesReference": self._reference(("lanes", value)), "indexedVariables": int(data.size)}

    # ---- helpers ----
    def _need_program(self) -> RunControl:
        if self.control is None:
            raise _Failed("launch first")
        return self.control

    def _frame(self, frame) -> int:
        self._need_program()
        try:
            frame = int(frame)
        except (TypeError, ValueError):
            raise _Failed(f"frameId {frame!r}") from None
        pc = self.control.state.pc
        depth = len(self.control.frames(pc)) if pc < len(self.program.insns) else 0
        if not 0 <= frame <= depth:
            raise _Failed(f"no frame {frame} (frames 0..{depth})")
        return frame

    def _env(self, frame: int):
        control = self.control
        control.frame_up = frame
        try:
            return control.env()
        finally:
            control.frame_up = 0

    def _reference(self, what: tuple) -> int:
        number = len(self.references) + 1
        self.references[number] = what
        return number


def _cell(value, k: int) -> str:
    if value.active is not None and not value.active[k]:
        return "."
    if value.kind == "mask":
        return "1" if value.data[k] else "0"
    return cell_text(value.data[k], value.etype, value.kind)


def serve(rfile=None, wfile=None) -> int:
    """`ascasm dap`: serve one session on standard input and output (binary); exit status 0 at its
    end, 1 when the input is not the protocol."""
    return Server(rfile or sys.stdin.buffer, wfile or sys.stdout.buffer).serve()
