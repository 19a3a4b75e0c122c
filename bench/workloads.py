"""The engine's benchmark workloads (figures in docs/performance.md): W1 f32, W1 f16, W2, W3
and a scalar loop, each run as an ascasm program over N = 2^20 elements in tiles, verified exactly
against a numpy reference before any figure is printed, and compared with the same work done by
native scalar C (bench/native.c, compiled here with the system C compiler when there is one; its
passes alternate with the engine's, so both see the same machine load) and by a Python loop making
one numpy call per vector instruction (what a naive interpreter does).

    python bench/workloads.py [--repeat 15] [--engine cy] [--only W1f32,W2,...] [--bounded] [--no-native]

--bounded runs each program with its buffers as bounds, as a C++ kernel's are (docs/semantics.md
"Buffers as bounds"): the cost of the region check on every access.

Loading a tile into the UB is DMA on the device, so it is not timed; only `Machine.run` is.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import platform
import shutil
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ascasm import assemble, assemble_file
from ascasm.state import SPR_AR
from ascasm.vm import Machine

HERE = Path(__file__).resolve().parent
N = 1 << 20


# ---- data ----
def fmix32(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's 32-bit finaliser, in uint32 arithmetic (wrapping)."""
    h = h.astype(np.uint32)
    h ^= h >> np.uint32(16)
    h *= np.uint32(0x85EBCA6B)
    h ^= h >> np.uint32(13)
    h *= np.uint32(0xC2B2AE35)
    h ^= h >> np.uint32(16)
    return h


def hashes(n: int = N) -> np.ndarray:
    i = np.arange(n, dtype=np.uint32)
    return fmix32(i * np.uint32(0x9E3779B9) + np.uint32(0x2545F491))


def data_f32(n: int = N) -> np.ndarray:
    return ((hashes(n) >> np.uint32(8)).astype(np.float64) * 2.0 ** -24).astype(np.float32)   # exact: 24 bits


def data_f16(n: int = N) -> np.ndarray:
    return ((hashes(n) >> np.uint32(21)).astype(np.float64) * 2.0 ** -11).astype(np.float16)  # exact: 11 bits


def indices(n: int = N) -> np.ndarray:
    i = np.arange(n, dtype=np.int64)
    return (((i % 16384) * 10007 + 12345) % 16384).astype(np.uint32)


# ---- one workload ----
@dataclass
class Workload:
    name: str
    program: str                         # file in bench/
    tile: int                            # elements per tile
    vector_per_chunk: int                # vector instructions per chunk of the program
    lanes: int                           # lanes per chunk
    run_tile: Callable                   # (machine, tile index, carry) -> carry; sets up and reads back
    numpy_loop: Callable                 # () -> result, one numpy call per vector instruction
    reference: Callable                  # () -> result, vectorised numpy
    finish: Callable = lambda carry: carry   # carry after the last tile -> result
    expected: tuple = ()                 # the stated result


def buffer(machine: Machine, name: str) -> np.ndarray:
    return machine.program.buffers[name].view(machine.state.ub)


# W1: argmax (first maximum)
def w1_reference(x: np.ndarray) -> tuple:
    index = int(np.argmax(x))
    return int(x[index:index + 1].view(f"u{x.itemsize}")[0]), index


def w1_numpy_loop(x: np.ndarray, lanes: int) -> tuple:
    best, best_index = -1.0, 0
    for start in range(0, x.size, lanes):
        chunk = x[start:start + lanes]            # vld
        lane = int(chunk.argmax())                # vredmax (index and value)
        if chunk[lane] > best:
            best, best_index = chunk[lane], start + lane
    return int(np.array(best, x.dtype).view(f"u{x.itemsize}")), best_index


def w1_tile(x: np.ndarray, tile: int):
    def run_tile(machine: Machine, k: int, carry):
        best_bits, best_index = carry
        buffer(machine, "data")[:] = x[k * tile:(k + 1) * tile]
        machine.state.sreg[[10, 1, 2]] = [k * tile, best_bits, best_index]
        seconds = timed_run(machine)
        return (int(machine.state.sreg[1]), int(machine.state.sreg[2])), seconds
    return run_tile


# W2: threshold scatter into dst[block base + index]
def w2_result(dst: np.ndarray) -> tuple:
    written = np.flatnonzero(dst != np.float32(-1.0))
    scaled = (dst[written].astype(np.float64) * 2 ** 24).astype(np.int64)     # exact: 24-bit values
    return int(written.size), int(np.sum(scaled * (written & 255)))


def w2_reference(x: np.ndarray, idx: np.ndarray) -> tuple:
    dst = np.full(N, -1.0, np.float32)
    base = np.arange(N) // 16384 * 16384
    keep = x >= 0.25
    dst[(base + idx)[keep]] = x[keep]
    return w2_result(dst)


def w2_numpy_loop(x: np.ndarray, idx: np.ndarray) -> tuple:
    dst = np.full(N, -1.0, np.float32)
    for start in range(0, N, 64):
        values = x[start:start + 64]                          # vld
        where = idx[start:start + 64]                         # vld
        keep = values >= 0.25                                 # vcmp.ge
        block = dst[start // 16384 * 16384:][:16384]
        block[where[keep]] = values[keep]                     # vsct
    return w2_result(dst)


def w2_tile(x: np.ndarray, idx: np.ndarray, dst_all: np.ndarray):
    def run_tile(machine: Machine, k: int, carry):
        part = slice(k * 16384, (k + 1) * 16384)
        buffer(machine, "x")[:] = x[part]
        buffer(machine, "idx")[:] = idx[part]
        buffer(machine, "dst")[:] = -1.0
        seconds = timed_run(machine)
        dst_all[part] = buffer(machine, "dst")
        return carry, seconds
    return run_tile


# W3: the active lanes stored contiguously (compaction), counted
def w3_result(out: np.ndarray, count: int) -> tuple:
    """(count, the checksum of out[0:count]: sum of out[j] * 2^24 * (j & 255))."""
    scaled = (out[:count].astype(np.float64) * 2 ** 24).astype(np.int64)
    return count, int(np.sum(scaled * (np.arange(count) & 255)))


def w3_reference(x: np.ndarray) -> tuple:
    kept = x[x > 0.5]
    return w3_result(kept, kept.size)


def w3_numpy_loop(x: np.ndarray) -> tuple:
    out = np.empty(N, np.float32)
    count = 0
    for start in range(0, N, 64):
        values = x[start:start + 64]                          # vld
        keep = values > 0.5                                   # vcmp.gt
        packed = values[keep]                                 # vsqz.st
        out[count:count + packed.size] = packed               # vstur
        count += packed.size
    return w3_result(out, count)


def w3_tile(x: np.ndarray, out_all: np.ndarray):
    def run_tile(machine: Machine, k: int, count):
        buffer(machine, "x")[:] = x[k * 16384:(k + 1) * 16384]
        seconds = timed_run(machine)
        kept = int(machine.state.spr[SPR_AR]) // 4            # AR: the bytes the tile stored
        out_all[count:count + kept] = buffer(machine, "out")[:kept]
        return count + kept, seconds
    return run_tile


def timed_run(machine: Machine) -> float:
    start = time.perf_counter()
    machine.run()
    seconds = time.perf_counter() - start
    if machine.stop_name != "HALTED":
        raise SystemExit(f"{machine.program.filename}: {machine.fault()}")
    return seconds


# ---- the same work as native scalar C ----
NATIVE_FLAGS = ("-O2", "-fno-tree-vectorize")     # scalar: one element per step, no SIMD


def build_native(scratch: Path) -> tuple[Path | None, str]:
    """bench/native.c compiled into a library in `scratch`, with a description; (None, why) without a compiler."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return None, "no C compiler found (set CC)"
    library = scratch / "native.so"
    command = [compiler, *NATIVE_FLAGS, "-shared", "-fPIC", str(HERE / "native.c"), "-o", str(library)]
    built = subprocess.run(command, capture_output=True, text=True)
    if built.returncode != 0:
        return None, f"{' '.join(command)} failed: {built.stderr.strip()[:300]}"
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout.splitlines()
    return library, f"{version[0] if version else compiler} {' '.join(NATIVE_FLAGS)}"


def load_native(library: Path) -> ctypes.CDLL:
    native = ctypes.CDLL(str(library))
    pointer, i64 = ctypes.c_void_p, ctypes.c_int64
    native.w1_f32.argtypes = native.w1_f16.argtypes = [pointer, i64, pointer, pointer]
    native.w2.argtypes = [pointer, pointer, pointer, i64, i64]
    native.w3.argtypes = [pointer, pointer, i64]
    native.w3.restype = i64
    return native


def address(array: np.ndarray) -> int:
    return array.ctypes.data


def native_w1(native, name: str, x: np.ndarray) -> Callable:
    def run() -> tuple[tuple, float]:
        bits, index = np.zeros(1, np.uint32), np.zeros(1, np.int64)
        start = time.perf_counter()
        getattr(native, name)(address(x), x.size, address(bits), address(index))
        seconds = time.perf_counter() - start
        return (int(bits[0]), int(index[0])), seconds
    return run


def native_w2(native, x: np.ndarray, idx: np.ndarray) -> Callable:
    def run() -> tuple[tuple, float]:
        dst = np.full(N, -1.0, np.float32)
        start = time.perf_counter()
        native.w2(address(x), address(idx), address(dst), N, 16384)
        seconds = time.perf_counter() - start
        return w2_result(dst), seconds
    return run


def native_w3(native, x: np.ndarray) -> Callable:
    def run() -> tuple[tuple, float]:
        out = np.empty(N, np.float32)
        start = time.perf_counter()
        count = native.w3(address(x), address(out), N)
        seconds = time.perf_counter() - start
        return w3_result(out, count), seconds
    return run


def native_runs(native) -> dict[str, Callable]:
    """Per workload name, a pass of the native C: () -> (result, seconds)."""
    if native is None:
        return {}
    x, x16, idx = data_f32(), data_f16(), indices()
    return {"W1 f32": native_w1(native, "w1_f32", x), "W1 f16": native_w1(native, "w1_f16", x16.view(np.uint16)),
            "W2": native_w2(native, x, idx), "W3": native_w3(native, x)}


def workloads() -> list[Workload]:
    x, x16, idx = data_f32(), data_f16(), indices()
    dst_all, out_all = np.empty(N, np.float32), np.empty(N, np.float32)
    return [
        Workload("W1 f32", "w1_f32.s", 32768, 3, 64, w1_tile(x, 32768), lambda: w1_numpy_loop(x, 64),
                 lambda: w1_reference(x), expected=(0x3F7FFFEC, 725715)),
        Workload("W1 f16", "w1_f16.s", 65536, 3, 128, w1_tile(x16, 65536), lambda: w1_numpy_loop(x16, 128),
                 lambda: w1_reference(x16), expected=(0x3BFF, 3674)),
        Workload("W2", "w2.s", 16384, 4, 64, w2_tile(x, idx, dst_all), lambda: w2_numpy_loop(x, idx),
                 lambda: w2_reference(x, idx), finish=lambda carry: w2_result(dst_all),
                 expected=(786177, 1051741120069039)),
        Workload("W3", "w3.s", 16384, 4, 64, w3_tile(x, out_all), lambda: w3_numpy_loop(x),
                 lambda: w3_reference(x), finish=lambda count: w3_result(out_all, count),
                 expected=(524301, 841223107438032)),
    ]


def initial_carry(workload: Workload):
    return {"W1 f32": (-1, 0), "W1 f16": (-1, 0), "W2": None, "W3": 0}[workload.name]


def run_workload(workload: Workload, engine: str, bounded: bool = False) -> tuple[object, float, int]:
    """(result, seconds in Machine.run summed over the tiles, steps) of one pass over N elements."""
    program = assemble_file(HERE / workload.program)
    program.bounded = bounded
    carry, seconds, steps = initial_carry(workload), 0.0, 0
    for k in range(N // workload.tile):
        machine = Machine(program, engine, max_steps=1 << 62)
        carry, tile_seconds = workload.run_tile(machine, k, carry)
        seconds += tile_seconds
        steps += machine.state.steps
    return workload.finish(carry), seconds, steps


SCALAR_LOOP = """
        mov  s0, {n}
loop:   add  s1, s1, 3
        add  s2, s2, s1
        sub  s0, s0, 1
        bgt  s0, 0, loop
        halt
"""


def scalar_dispatch(engine: str, repeat: int) -> float:
    """ns per step of a loop of scalar add/sub/bgt (the dispatch cost)."""
    n = 2_000_000 if engine == "cy" else 5_000
    program = assemble(SCALAR_LOOP.format(n=n), "scalar.s")
    best = min(timed_run(Machine(program, engine, max_steps=1 << 62)) for _ in range(repeat))
    return best / (4 * n + 2) * 1e9


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            return next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.machine()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="passes per workload; the best and the spread are shown")
    parser.add_argument("--engine", default="cy", choices=("cy", "ref"))
    parser.add_argument("--bounded", action="store_true", help="the programs' buffers are bounds (a C++ kernel's)")
    parser.add_argument("--only", default="", help="comma-separated workload names (W1f32,W1f16,W2,W3)")
    parser.add_argument("--no-native", action="store_true", help="do not compile and run bench/native.c")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        library, described = (None, "not asked for") if args.no_native else build_native(Path(scratch))
        native = load_native(library) if library is not None else None
        print(f"machine: {cpu_model()}, {os.cpu_count()} cpus; python {platform.python_version()}, "
              f"numpy {np.__version__}; N = {N}; best of {args.repeat}")
        print(f"native C: {described}")
        print(f"engine kernels: {engine_isa()} build (ASCASM_ENGINE_ISA=baseline for the x86-64-v2 one)")
        report(args, native_runs(native))


def engine_isa() -> str:
    """Which build of the engine's kernel modules this process runs (ascasm/_engine/__init__.py)."""
    import ascasm._engine
    return ascasm._engine.ISA


def report(args, native: dict[str, Callable]):
    print(f"{'workload':<8} {'M vec/s':>8} {'spread':>13} {'ns/step':>8} {'native C':>9} {'x native':>8} "
          f"{'range':>11} {'numpy loop':>11} {'ratio':>7}")
    wanted = {w.replace(" ", "").rstrip("*") for w in args.only.split(",") if w}
    for workload in workloads():
        if wanted and workload.name.replace(" ", "").rstrip("*") not in wanted:
            continue
        expected = workload.reference()
        if workload.expected and expected != workload.expected:
            raise SystemExit(f"{workload.name}: the numpy reference gives {expected}, the issue states {workload.expected}")
        passes, native_passes = [], []
        native_pass = native.get(workload.name)
        for _ in range(args.repeat):            # engine and native C alternated: both see the same load
            result, seconds, steps = run_workload(workload, args.engine, args.bounded)
            if result != expected:
                raise SystemExit(f"{workload.name}: ascasm gives {result}, the reference {expected}: no figure")
            passes.append(seconds)
            if native_pass is not None:
                result, seconds = native_pass()
                if result != expected:
                    raise SystemExit(f"{workload.name}: the native C gives {result}, the reference {expected}")
                native_passes.append(seconds)
        start = time.perf_counter()
        if workload.numpy_loop() != expected:
            raise SystemExit(f"{workload.name}: the numpy loop gives a different result")
        numpy_seconds = time.perf_counter() - start
        vector = N // workload.lanes * workload.vector_per_chunk
        rates = sorted(vector / s / 1e6 for s in passes)
        best = min(passes)
        if native_passes:
            pair_ratios = sorted(c / a for a, c in zip(passes, native_passes))
            versus_native = (f"{vector / min(native_passes) / 1e6:>9.1f} {min(native_passes) / best:>7.2f}x "
                             f"{pair_ratios[0]:>5.2f}-{pair_ratios[-1]:<5.2f}")
        else:
            versus_native = f"{'-':>9} {'-':>8} {'':>11}"
        print(f"{workload.name:<8} {rates[-1]:>8.1f} {rates[0]:>6.1f}-{statistics.median(rates):<6.1f} "
              f"{best / steps * 1e9:>8.2f} {versus_native} {vector / numpy_seconds / 1e6:>10.2f}M "
              f"{numpy_seconds / best:>6.1f}x")
    print(f"scalar add/sub/bgt loop: {scalar_dispatch(args.engine, 5):.2f} ns per step")
    print("M vec/s: best pass (slowest-median); native C: the same work in the same count of vector instructions "
          "per second;\nx native: native C's best time / the engine's best; range: that ratio pass by pass "
          "(alternated passes);\nW3 counts 4 vector instructions per chunk (vld, vcmp.gt, vsqz.st, vstur)")


if __name__ == "__main__":
    main()
