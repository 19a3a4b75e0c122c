"""Cold-start cost of the command line: CPU seconds (user + system) of a fresh `ascasm` process for a
few commands, best of N runs (the least disturbed by other load on the machine).

    python bench/startup.py [--runs N]

It runs `python -m ascasm` with the interpreter running this script, on the ascasm it imports (the
installed one, or a checkout on PYTHONPATH: then compile it first, `python -m compileall ascasm`, or
every run pays for compiling the sources as an installed copy never does). The targets: `--version`
under 0.15 s, `run` of a 10-line integer program under 0.4 s, on an idle 2-core machine.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

INTEGER_PROGRAM = """\
.ub out s32[8] = 0
.out out
        mov   s0, 0
        mov   s1, 0
loop:   add   s1, s1, s0
        add   s0, s0, 1
        blt   s0, 10, loop
        mov   s2, out
        st    [s2], s1.s32
        halt
"""
FLOAT_PROGRAM = """\
.ub x f32[64] = i * 0.5
.ub h bf16[128] = 1.5                    ; (not used: a bf16 initialiser)
.ub y f32[64] = 0
.out y
        vld    v0.f32, [x]
        mask   p0.b32, ALL
        vadds  v1.f32, v0.f32, 1.5, p0
        vsta   [y], v1.f32, p0
        halt
"""


def cpu_seconds(argv: list[str]) -> float:
    """User + system CPU time of one child process running argv."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per command; the best is shown (default 5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        integer, floats = Path(tmp, "integer.s"), Path(tmp, "float.s")
        integer.write_text(INTEGER_PROGRAM)
        floats.write_text(FLOAT_PROGRAM)
        ascasm = [sys.executable, "-m", "ascasm"]
        commands = {
            "python (no ascasm)": [sys.executable, "-c", "pass"],
            "ascasm --version": ascasm + ["--version"],
            "ascasm run (integer, 10 lines)": ascasm + ["run", str(integer)],
            "ascasm run (bf16/f32)": ascasm + ["run", str(floats)],
            "ascasm explain vadd": ascasm + ["explain", "vadd"],
        }
        print(f"CPU seconds (user+sys), best of {args.runs}; load average {os.getloadavg()[0]:.2f}")
        for name, argv in commands.items():
            best = min(cpu_seconds(argv) for _ in range(args.runs))
            print(f"  {name:<32} {best:6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
