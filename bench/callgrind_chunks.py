"""Machine instructions per chunk of each benchmark workload, counted by callgrind inside the engine's
run loop only (deterministic: unlike wall-clock rates, these compare across days and machine load).

    python bench/callgrind_chunks.py [--only W1f32,W2,...]
    python bench/callgrind_chunks.py --program bench/scalar_forms.s --chunks 256

Each workload runs one tile (bench/workloads.py) under `valgrind --tool=callgrind`, collecting only
while the engine's run loop executes; the count is divided by the tile's chunks. Beside it, the same
count for the native scalar C of bench/native.c (compiled as bench/workloads.py does, when a C compiler
is found), run over all N elements and divided by their chunks, and the ratio of the two. --program runs
a whole program instead (to its halt), divided by the chunks you name. Needs valgrind.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUN_LOOP = "*Engine__run*"          # the C name of Engine._run (Cython mangles it with the module path)


def one_tile(name: str):
    """Run tile 0 of workload `name` once (called inside valgrind)."""
    sys.path.insert(0, str(HERE))
    import workloads
    from ascasm import assemble_file
    from ascasm.vm import Machine

    workload = next(w for w in workloads.workloads() if w.name == name)
    machine = Machine(assemble_file(HERE / workload.program), "cy", max_steps=1 << 62)
    workload.run_tile(machine, 0, workloads.initial_carry(workload))


def one_program(path: str):
    """Run a program to its end once (called inside valgrind)."""
    from ascasm import assemble_file
    from ascasm.vm import Machine

    Machine(assemble_file(path), "cy", max_steps=1 << 62).run()


def one_native(name: str, library: str):
    """Run workload `name`'s native C once over N elements (called inside valgrind)."""
    sys.path.insert(0, str(HERE))
    import workloads
    native = workloads.load_native(Path(library))
    workloads.native_runs(native)[name]()


def instructions(*inner: str, collect: str = RUN_LOOP) -> int:
    """Machine instructions inside the functions `collect` names, of this script run with the arguments `inner`."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--toggle-collect={collect}",
                        sys.executable, __file__, *inner], check=True, capture_output=True)
        summary = re.search(r"^summary:\s+(\d+)", out.read_text(), re.MULTILINE)
        return int(summary.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated workload names (W1f32,W1f16,W2,W3)")
    parser.add_argument("--program", help="an assembly program to count instead of the workloads")
    parser.add_argument("--chunks", type=int, default=1, help="with --program: divide its count by this")
    parser.add_argument("--tile", help=argparse.SUPPRESS)        # internal: the runs inside valgrind
    parser.add_argument("--run", help=argparse.SUPPRESS)
    parser.add_argument("--native", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.tile:
        one_tile(args.tile)
        return
    if args.native:
        one_native(*args.native)
        return
    if args.run:
        one_program(args.run)
        return
    if args.program:
        total = instructions("--run", args.program)
        print(f"{args.program}: {total:,} instructions, {total / args.chunks:,.1f} per chunk ({args.chunks} chunks)")
        return
    sys.path.insert(0, str(HERE))
    import workloads
    wanted = {w for w in args.only.split(",") if w}
    with tempfile.TemporaryDirectory() as scratch:
        library, described = workloads.build_native(Path(scratch))
        print(f"native C: {described}")
        for workload in workloads.workloads():
            if wanted and workload.name.replace(" ", "") not in wanted:
                continue
            chunks = workload.tile // workload.lanes
            mine = instructions("--tile", workload.name) / chunks
            line = f"{workload.name:<8} {mine:>8,.0f} instructions per chunk ({chunks} chunks of one tile)"
            if library is not None:
                # valgrind names no function of a library built without debug information, but ctypes'
                # ffi_call wraps the one call (its own cost, about a hundred instructions, is noise here)
                native = instructions("--native", workload.name, str(library), collect="ffi_call")
                native /= workloads.N // workload.lanes
                line += f"; native C {native:,.0f}, {native / mine:.2f}x the engine's count"
            print(line)


if __name__ == "__main__":
    main()
