"""Throughput of both executors on a long vld + vsct loop (a benchmark, not a test).

    python bench/bench.py [--iterations N]

Prints vector instructions per second and elements per second for the Cython engine and the
reference executor. Each loop iteration runs 3 vector instructions (2 loads, 1 scatter of 128 u16
lanes) and 3 scalar ones (membar, sub, bgt).
"""
from __future__ import annotations

import argparse
import time

from ascasm import assemble
from ascasm.vm import Machine

SOURCE = """
.ub output  u16[1024]
.ub input   u16[128] = i + 1
.ub indices u16[128] = (i * 7) % 1024
        mask   p0.b16, ALL
        mov    s0, {iterations}
loop:   vld    v0.u16, [input]
        vld    v1.u16, [indices]
        vsct   [output], v0.u16, v1.u16, p0
        membar                          ; the next iteration rewrites output: order the stores
        sub    s0, s0, 1
        bgt    s0, 0, loop
        halt
"""
VECTOR_PER_ITERATION, ELEMENTS_PER_ITERATION = 3, 3 * 128


def measure(engine: str, iterations: int) -> tuple[float, int]:
    program = assemble(SOURCE.format(iterations=iterations), "bench.s")
    machine = Machine(program, engine, max_steps=1 << 62)
    start = time.perf_counter()
    machine.run()
    elapsed = time.perf_counter() - start
    assert machine.stop_name == "HALTED", machine.fault()
    return elapsed, machine.state.steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200_000, help="loop iterations for the Cython engine")
    parser.add_argument("--ref-iterations", type=int, default=2_000, help="loop iterations for the reference")
    args = parser.parse_args()
    print(f"{'engine':<6} {'iterations':>10} {'steps':>10} {'seconds':>8} {'vector insn/s':>14} {'elements/s':>14}")
    for engine, iterations in (("cy", args.iterations), ("ref", args.ref_iterations)):
        elapsed, steps = measure(engine, iterations)
        vector_rate = iterations * VECTOR_PER_ITERATION / elapsed
        element_rate = iterations * ELEMENTS_PER_ITERATION / elapsed
        print(f"{engine:<6} {iterations:>10} {steps:>10} {elapsed:>8.3f} {vector_rate:>14,.0f} {element_rate:>14,.0f}")


if __name__ == "__main__":
    main()
