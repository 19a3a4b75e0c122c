"""Throughput of both executors (a benchmark, not a test).

    python bench/bench.py [--iterations N] [PROGRAM.s ...]

Prints vector instructions per second and elements per second for the Cython engine and the
reference executor, first on a long vld + vsct loop (each iteration runs 3 vector instructions: 2
loads and 1 scatter of 128 u16 lanes, and 3 scalar ones: membar, sub, bgt), then on each PROGRAM
(default: programs/argmax.s), run repeatedly. A program's vector instructions are counted by a first,
untimed run one step at a time; an instruction's elements are the lanes of its widest-laned type.
"""
from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from ascasm import assemble, assemble_file
from ascasm.vm import Machine

PROGRAMS = [Path(__file__).resolve().parent.parent / "programs" / "argmax.s"]
MIN_SECONDS = 1.0       # a program is rerun until this much time has been measured

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


def vector_work(program) -> tuple[int, int, int]:
    """(steps, vector instructions, elements) of one run of the program, counted step by step."""
    machine = Machine(program, "cy")
    rows = Counter()
    while machine.stop_name == "RUNNING":
        rows[machine.state.pc] += 1
        machine.run(1)
    assert machine.stop_name == "HALTED", machine.fault()
    vector = elements = 0
    for row, count in rows.items():
        insn = program.insns[row] if row < len(program.insns) else None
        if insn is not None and insn.spec.mnemonic.startswith("v"):
            vector += count
            elements += count * max((t.lanes for t in insn.types), default=0)
    return machine.state.steps, vector, elements


def measure_program(program, engine: str) -> tuple[float, int]:
    """Seconds per run of `program` on `engine` (state set-up excluded), and the runs measured."""
    elapsed, runs = 0.0, 0
    while elapsed < MIN_SECONDS or runs < 3:
        machine = Machine(program, engine)
        start = time.perf_counter()
        machine.run()
        elapsed += time.perf_counter() - start
        runs += 1
        assert machine.stop_name == "HALTED", machine.fault()
    return elapsed / runs, runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200_000, help="loop iterations for the Cython engine")
    parser.add_argument("--ref-iterations", type=int, default=2_000, help="loop iterations for the reference")
    parser.add_argument("programs", nargs="*", type=Path, default=PROGRAMS, help="programs to time as well")
    args = parser.parse_args()
    print("vld + vld + vsct loop")
    print(f"{'engine':<6} {'iterations':>10} {'steps':>10} {'seconds':>8} {'vector insn/s':>14} {'elements/s':>14}")
    for engine, iterations in (("cy", args.iterations), ("ref", args.ref_iterations)):
        elapsed, steps = measure(engine, iterations)
        vector_rate = iterations * VECTOR_PER_ITERATION / elapsed
        element_rate = iterations * ELEMENTS_PER_ITERATION / elapsed
        print(f"{engine:<6} {iterations:>10} {steps:>10} {elapsed:>8.3f} {vector_rate:>14,.0f} {element_rate:>14,.0f}")
    for path in args.programs:
        program = assemble_file(path)
        steps, vector, elements = vector_work(program)
        print(f"\n{path.name}: {steps} steps, {vector} vector instructions, {elements} elements per run")
        print(f"{'engine':<6} {'runs':>10} {'us/run':>10} {'vector insn/s':>14} {'elements/s':>14}")
        for engine in ("cy", "ref"):
            seconds, runs = measure_program(program, engine)
            print(f"{engine:<6} {runs:>10} {seconds * 1e6:>10,.1f} {vector / seconds:>14,.0f} {elements / seconds:>14,.0f}")

if __name__ == "__main__":
    main()
