"""The C++ front end's parse and translation, bounded: libclang's parse is one uninterruptible call
that a hostile source can make crash (deep nesting), hang (an include that never ends) or grow
without limit (macros that double), so it runs in a child process with limits on its memory and
CPU and wall time, and a crash or a limit becomes a CppError (exit status 1) instead of the end of
ascasm.

The children are forked by one helper process per ascasm process (`python -m ascasm.cpp.sandbox`,
started on the first translation with libclang and the translator already imported), so that a
translation costs a fork, not a Python start. The helper is single-threaded (forking it is safe
whatever threads the caller runs) and has a session of its own: a Ctrl-C reaches ascasm alone,
which kills the helper's whole process group (the translation with it) and raises
KeyboardInterrupt. Requests and answers are pickles framed by their length; an answer carries the
translation's data (a Translation of strings and numbers), never clang objects.
"""
from __future__ import annotations

import atexit
import gc
import os
import pickle
import resource
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

from .. import limits
from .clang import CppError

_FRAME = struct.Struct("!Q")
_STACK_BYTES = 256 << 20        # the translating thread's stack: deep expressions recurse
_RECURSION = 20_000             # Python frames allowed on it: 13 KiB of stack each


def call(path, *args, **kwargs):
    """translate.translate(path, *args, **kwargs), in a child process with the limits of
    ascasm.limits (CPP_MEMORY_BYTES, CPP_SECONDS); the child's CppError is raised as it is."""
    try:
        import clang.cindex  # noqa: F401  (the module only: the library is loaded in the children)
        bounded = hasattr(os, "fork")
    except ImportError:
        bounded = False
    if not bounded:                          # no fork (Windows), or no libclang (which translate reports)
        from .translate import translate
        return translate(path, *args, **kwargs)
    request = pickle.dumps((os.getcwd(), (path, *args), kwargs, limits.CPP_MEMORY_BYTES, limits.CPP_SECONDS))
    answer = _HELPER.ask(request)
    if answer[0] == "ok":
        return answer[1]
    if answer[0] == "raise":
        exc, child_traceback = answer[1], answer[2]
        if isinstance(exc, CppError):
            raise exc
        if isinstance(exc, MemoryError):
            raise _limit_error(path, "ran out of memory")
        exc.add_note(f"in the C++ front end's process:\n{child_traceback}")
        raise exc
    raise _limit_error(path, answer[1])


def _limit_error(path, what: str) -> CppError:
    return CppError(f"{path}: the C++ front end {what} on this source; a source this large or this deeply nested "
                    f"is not supported (the front end's limits: {limits.CPP_MEMORY_BYTES >> 20:,} MiB of memory, "
                    f"{limits.CPP_SECONDS} s)")


class _Helper:
    """The helper process, started on first use and again after it was killed."""

    def __init__(self):
        self.lock = threading.Lock()
        self.process = None
        self.owner = 0               # the process that started it: a forked copy of ascasm starts its own

    def ask(self, request: bytes):
        with self.lock:
            try:
                if self.process is None or self.owner != os.getpid() or self.process.poll() is not None:
                    self.start()
                _write(self.process.stdin, request)
                answer = _read(self.process.stdout)
            except BaseException:            # Ctrl-C, or a helper that died: nothing of it may go on running
                self.stop()
                raise
            if answer is None:
                self.stop()
                return ("crash", "stopped unexpectedly")
            return pickle.loads(answer)

    def start(self):
        """A new helper, started with Ctrl-C held back until it is self.process: a KeyboardInterrupt
        raised inside Popen (after the fork) would lose the process, which then ran on unseen. Held by a
        recording handler, not a signal mask: another thread (a test runner's, a debugger adapter's)
        would take a masked signal and Python would still raise it here. Only the main thread can be
        interrupted by Ctrl-C, and only it may set a handler (a handler set outside Python cannot be put back)."""
        if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is None:
            self.process, self.owner = _start(), os.getpid()
            return
        arrived = []
        previous = signal.signal(signal.SIGINT, lambda number, frame: arrived.append(number))
        try:
            self.process, self.owner = _start(), os.getpid()
        finally:
            signal.signal(signal.SIGINT, previous)
        if arrived:
            signal.raise_signal(signal.SIGINT)       # now, to the handler it was meant for

    def close(self):
        """At exit: the helper ends when its input does."""
        if self.process is not None and self.owner == os.getpid():
            self.process.stdin.close()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.stop()

    def stop(self):
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:
                pass
            self.process.wait()
            for pipe in (self.process.stdin, self.process.stdout):
                pipe.close()
            self.process = None


def _start():
    root = str(Path(__file__).resolve().parents[2])      # this ascasm, whatever sys.path the helper gets
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    return subprocess.Popen([sys.executable, "-m", "ascasm.cpp.sandbox"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, env=env, start_new_session=True)


def _write(stream, data: bytes):
    stream.write(_FRAME.pack(len(data)) + data)
    stream.flush()


def _read(stream) -> bytes | None:
    head = stream.read(_FRAME.size)
    if len(head) < _FRAME.size:
        return None
    (size,) = _FRAME.unpack(head)
    data = stream.read(size)
    return data if len(data) == size else None


_HELPER = _Helper()
atexit.register(_HELPER.close)


# ------------------------------------------------------------------ the helper's side

def serve():
    """The helper's loop: one forked child per request, its answer (or how it ended) sent back."""
    from . import translate          # imported once, here: every child starts with it loaded
    _warm_up(translate.translate)
    gc.freeze()                      # the children's collections leave the inherited objects (and pages) alone
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)                    # a stray print must not corrupt the answers
    while True:
        request = _read(sys.stdin.buffer)
        if request is None:
            return
        try:
            _write(answers, _run_child(request, translate.translate))
        except BrokenPipeError:      # the asking process is gone (killed): nobody to answer or to tell
            os._exit(0)


_WARM_UP = """#include "kernel_operator.h"
template <typename T>
__simd_vf__ inline void Warm(__ubuf__ T* dst, __ubuf__ T* src, T scale, uint32_t count)
{
    AscendC::Reg::RegTensor<T> x;
    AscendC::Reg::MaskReg mask;
    for (uint16_t i = 0; i < 2; i++) {
        mask = AscendC::Reg::UpdateMask<T>(count);
        AscendC::Reg::LoadAlign(x, src + i * 64);
        AscendC::Reg::Muls(x, x, scale, mask);
        AscendC::Reg::StoreAlign(dst + i * 64, x, mask);
    }
}
"""


def _warm_up(translate):
    """One small translation in the helper itself, so that every child starts with libclang loaded
    and the translator's caches filled (a cold child takes about 0.1 s longer); its failure (no
    libclang) is left for the children to report."""
    with tempfile.TemporaryDirectory() as directory:
        kernel = Path(directory, "warm.cpp")
        kernel.write_text(_WARM_UP)
        try:
            translate(str(kernel), "Warm<float>")
        except Exception:
            pass


def _run_child(request: bytes, translate) -> bytes:
    cwd, args, kwargs, memory, seconds = pickle.loads(request)
    readable, writable = os.pipe()
    with tempfile.TemporaryFile() as messages:
        pid = os.fork()
        if pid == 0:                 # the child: limits, then the translation on a thread with a deep stack
            try:
                os.close(readable)
                os.chdir(cwd)            # the caller's: relative paths, and the messages, as given
                os.dup2(messages.fileno(), 2)
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
                if "libasan" not in os.environ.get("LD_PRELOAD", ""):
                    # (an AddressSanitizer build reserves terabytes of shadow address space: no cap there)
                    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
                resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
                with os.fdopen(writable, "wb") as pipe:
                    pipe.write(_translated(translate, args, kwargs))
            finally:
                os._exit(0)
        os.close(writable)
        answer, deadline, timed_out = b"", time.monotonic() + seconds, False
        with os.fdopen(readable, "rb", buffering=0) as pipe:
            while True:
                ready, _, _ = select.select([pipe], [], [], max(0.0, deadline - time.monotonic()))
                if not ready:
                    timed_out = True
                    os.kill(pid, signal.SIGKILL)
                    break
                chunk = pipe.read(1 << 20)
                if not chunk:
                    break
                answer += chunk
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and answer:
            return answer
        messages.seek(0)
        said = messages.read()[-4000:].decode("utf-8", "replace").strip().splitlines()
    return pickle.dumps(("crash", _how(status, timed_out, said[-1] if said else "")))


def _how(status: int, timed_out: bool, said: str) -> str:
    if timed_out or (os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL)):
        return "took longer than its time limit"
    if "out of memory" in said.lower() or "bad_alloc" in said:
        return "ran out of memory"
    how = f"crashed ({signal.Signals(os.WTERMSIG(status)).name})" if os.WIFSIGNALED(status) else \
        f"stopped with status {os.WEXITSTATUS(status)}"
    return how + (f": {said[:200]}" if said else "")


def _translated(translate, args, kwargs) -> bytes:
    """The pickled answer of translate(*args, **kwargs), run on a thread whose stack takes
    _RECURSION Python frames."""
    answer = []

    def work():
        try:
            answer.append(("ok", translate(*args, **kwargs)))
        except RecursionError:
            answer.append(("raise", CppError(f"{args[0]}: an expression or statement nests too deeply (the C++ "
                                             f"front end follows at most about {_RECURSION:,} levels)"), ""))
        except BaseException as exc:
            answer.append(("raise", exc, traceback.format_exc()))

    sys.setrecursionlimit(_RECURSION)
    threading.stack_size(_STACK_BYTES)
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    try:
        return pickle.dumps(answer[0])
    except Exception:                # an exception that does not pickle: its text
        return pickle.dumps(("raise", RuntimeError(str(answer[0][1])), answer[0][2]))


if __name__ == "__main__":
    serve()
