"""Translated C++ kernels on the compiled engine against numpy on the same data (figures in
docs/performance.md "Translated kernels"): SiLU (programs/kernels/silu.cpp, SiluVF<float>) and a
row-wise softmax (bench/kernels/softmax_rows.cpp, SoftmaxRowsVF<float>), over N f32 elements in runs
of one UB-sized tile each. Prints per kernel the million elements per second of the engine (best pass,
and the slowest and median of the passes), of numpy doing the same arithmetic, and their ratio.

    python bench/kernels.py [--repeat 9] [--only silu,softmax]

Each run's result is first checked against numpy within a few ulp (the engine's own exact results are
the tests' and the fuzzer's concern); only `Machine.run` is timed: writing a tile into the UB is DMA
on the device. Needs libclang (the C++ front end).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from ascasm.cpp import harness
from ascasm.cpp.compiled import compile_kernel

ROOT = Path(__file__).resolve().parent.parent

N = 1 << 20
TILE = 16384                    # f32 elements per run: source and destination, 64 KiB each
ROWS, COLS = 16, 1024           # softmax: a tile as rows of COLS elements
ULP = 8


def data(n: int = N) -> np.ndarray:
    """Values in [-8, 8) from a fixed generator (the same every run)."""
    return np.random.default_rng(12345).uniform(-8.0, 8.0, n).astype(np.float32)


def silu_numpy(x: np.ndarray) -> np.ndarray:
    return x / (np.float32(1) + np.exp(-x))


def softmax_numpy(x: np.ndarray) -> np.ndarray:
    rows = x.reshape(-1, COLS)
    e = np.exp(rows - rows.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).reshape(-1)


KERNELS = {
    "silu": (ROOT / "programs" / "kernels" / "silu.cpp", "SiluVF<float>", silu_numpy,
             lambda dst, src: dict(dstAddr=dst, srcAddr=src, count=TILE)),
    "softmax": (ROOT / "bench" / "kernels" / "softmax_rows.cpp", "bench_softmax::SoftmaxRowsVF<float>", softmax_numpy,
                lambda dst, src: dict(dst=dst, src=src, rows=ROWS, cols=COLS)),
}


def within_ulp(got: np.ndarray, wanted: np.ndarray, ulp: int) -> bool:
    a, b = got.view(np.int32).astype(np.int64), wanted.astype(np.float32).view(np.int32).astype(np.int64)
    return bool(np.all(np.abs(a - b) <= ulp))


def engine_pass(name: str, x: np.ndarray) -> tuple[float, np.ndarray]:
    """One pass over x, tile by tile: the seconds inside Machine.run, and the result."""
    path, entry, _numpy, arguments = KERNELS[name]
    compiled = compile_kernel(path, entry)      # translated once per process (a cache)
    kernel = harness.build(compiled.translation, arguments(np.zeros(TILE, np.float32), x[:TILE]))
    machine = harness.start(kernel, "cy", max_steps=1 << 62)
    first = machine.state.copy()
    src, dst = (kernel.param_buffers[p.name] for p in compiled.translation.params[1::-1])
    out = np.empty_like(x)
    seconds = 0.0
    for k in range(0, x.size, TILE):            # each tile from the loaded state
        for part in first.PARTS:
            getattr(machine.state, part)[...] = getattr(first, part)
        src.view(machine.state.ub)[:] = x[k:k + TILE]
        start = time.perf_counter()
        machine.run()
        seconds += time.perf_counter() - start
        if machine.stop_name != "HALTED":
            raise SystemExit(f"{name}: {machine.fault()}")
        out[k:k + TILE] = dst.view(machine.state.ub)
    return seconds, out


def numpy_pass(name: str, x: np.ndarray) -> float:
    fn = KERNELS[name][2]
    start = time.perf_counter()
    for k in range(0, x.size, TILE):
        fn(x[k:k + TILE])
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9, help="passes per kernel, engine and numpy alternated")
    parser.add_argument("--only", default="", help="comma-separated kernel names (silu,softmax)")
    args = parser.parse_args(argv)
    x = data()
    wanted = {w for w in args.only.split(",") if w} or set(KERNELS)
    print(f"N = {N} f32 elements in tiles of {TILE}; best of {args.repeat} passes (engine and numpy alternated)")
    print(f"{'kernel':<8} {'engine M el/s':>13} {'spread':>11} {'numpy M el/s':>12} {'ratio':>7}")
    for name in KERNELS:
        if name not in wanted:
            continue
        mine, theirs = [], []
        expected = np.concatenate([KERNELS[name][2](x[k:k + TILE]) for k in range(0, N, TILE)])
        for _ in range(args.repeat):
            seconds, out = engine_pass(name, x)
            if not within_ulp(out, expected, ULP):
                raise SystemExit(f"{name}: the engine's result differs from numpy's by more than {ULP} ulp")
            mine.append(N / seconds / 1e6)
            theirs.append(N / numpy_pass(name, x) / 1e6)
        best, ref = max(mine), max(theirs)
        print(f"{name:<8} {best:>13.1f} {min(mine):>5.1f}-{statistics.median(mine):<5.1f} {ref:>12.1f} "
              f"{best / ref:>6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
