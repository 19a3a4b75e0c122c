"""The fixed cost of one engine call, which `ascasm stats` (one call per basic block) and the debugger
(a call per stop) pay many times: CPU microseconds per `Engine.run` / `Machine.run` call, best of N
repetitions (the least disturbed by other load on the machine).

    python bench/engine_calls.py [--calls N] [--repeat R]

`run(0)` is the call alone (state checks, the binding of the state's arrays, the dirty-block list);
`run(1)` adds one scalar instruction. With a store first, the UB has dirty blocks (a membar clears them).
"""
from __future__ import annotations

import argparse
import time

from ascasm import assemble
from ascasm.state import control_error
from ascasm.vm import Machine

PROGRAM = """\
.ub out u8[256]
        mask  p0.b8, ALL
        vsta  [out], v0.u8, p0
loop:   add   s0, s0, 1
        b     loop
"""


def per_call(function, calls: int, repeat: int) -> float:
    """Best CPU microseconds per call of `function` over `repeat` runs of `calls` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(calls):
            function()
        best = min(best, time.process_time() - start)
    return best / calls * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    machine = Machine(assemble(PROGRAM, "calls.s"), max_steps=1 << 62)
    machine.run(2)                                  # the vsta leaves dirty blocks
    engine = machine.executor
    ctrl, rows = machine.state.ctrl, len(machine.program.insns)
    for label, function in (("Engine.run(0)", lambda: engine.run(0)), ("Engine.run(1)", lambda: engine.run(1)),
                            ("Machine.run(1)", lambda: machine.run(1)),
                            ("control_error (in each Engine.run)", lambda: control_error(ctrl, rows))):
        print(f"{label:36s} {per_call(function, args.calls, args.repeat):7.2f} us CPU per call")


if __name__ == "__main__":
    main()
