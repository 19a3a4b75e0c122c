"""Differential fuzzer: random programs over every row and type of the ISA table (ascasm/randprog.py),
run on both executors ("ref", the numpy reference, and "cy", the compiled engine), compared. It tests
the ascasm that Python imports: the installed one (PYTHONPATH=DIR for another copy).

    python tools/fuzz.py --programs 20000          a fixed number of programs
    python tools/fuzz.py --minutes 10 --jobs 2     as many as fit in the time
    python tools/fuzz.py --programs 500 --seed 7   the same 500 programs as last time

Compared for every program: the registers, masks and control words after every step, the whole
machine state (UB and the warning and hazard records included) when the program stops, the stop
kind, the fault message with its line and step, and the warnings. Each program also draws
--strict and --store-inactive zero now and then. A program that differs, or that crashes either
executor or the assembler, is shrunk (instructions removed while it still fails) and written to
DIR/fuzz-SEED-INDEX.s with the difference in its header. A program that kills its process (a
segfault in the engine) is found again from the index its worker was on, confirmed and shrunk in a
child process, and written the same way; the dying worker's Python stack goes to stderr. Exit
status: 0 no difference, 1 failures written, 64 bad usage.
"""
from __future__ import annotations

import argparse
import faulthandler
import multiprocessing
import os
import random
import re
import signal
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import numpy as np

from ascasm import AssemblyFailed, assemble, randprog
from ascasm.isa import INSNS
from ascasm.vm import EngineMissing, Machine, compiled_engine, run_warnings

MAX_STEPS = 100
LABEL_ONLY = re.compile(r"L\d+:")
# Compared after every step (cheap); the whole state, UB included, when the program stops.
STEP_PARTS = ("ctrl", "sreg", "areg", "preg_set", "preg", "vreg", "hwloop")


def options_for(rng: random.Random) -> dict:
    """Machine options a program runs with: mostly the defaults."""
    return {"strict": rng.random() < 0.2, "store_inactive": "zero" if rng.random() < 0.2 else "keep"}


def generate(seed: int, index: int) -> tuple[str, dict]:
    rng = random.Random(f"{seed}:{index}")
    return randprog.program(randprog.RandomChooser(rng)), options_for(rng)


def compare(source: str, options: dict, max_steps: int) -> tuple[str | None, object, tuple]:
    """(why `source` behaves differently on the two executors or None, the program, (how it stopped,
    steps))."""
    try:
        program = assemble(source, "fuzz.s")
    except AssemblyFailed as failed:
        return f"a generated program does not assemble: {failed.errors[0]}", None, ()
    ref, cy = (Machine(program, engine, max_steps=max_steps, **options) for engine in ("ref", "cy"))
    try:
        while ref.stop_name == "RUNNING" or cy.stop_name == "RUNNING":
            ref.run(1)
            cy.run(1)
            if not all(np.array_equal(getattr(ref.state, part), getattr(cy.state, part)) for part in STEP_PARTS):
                return f"after step {ref.state.steps}: {ref.state.first_difference(cy.state)} (ref != cy)", program, ()
    except Exception as exc:       # an executor that crashes is a finding, not the end of the run
        return f"an executor raised {type(exc).__name__}: {exc}", program, ()
    state_difference = ref.state.first_difference(cy.state)
    if state_difference:
        return f"when stopped: {state_difference} (ref != cy)", program, ()
    ref_fault, cy_fault = ref.fault(), cy.fault()
    if str(ref_fault) != str(cy_fault):
        return f"fault reports differ: ref says {ref_fault}; cy says {cy_fault}", program, ()
    if run_warnings(program, ref.state) != run_warnings(program, cy.state):
        return "warnings differ", program, ()
    return None, program, (ref.stop_name, ref.state.steps)


def crash(source: str, options: dict, max_steps: int) -> str | None:
    """Why running `source` kills the process that runs it (a signal, an abnormal exit), or None:
    the program runs in a forked child so that the caller survives."""
    child = multiprocessing.get_context("fork").Process(target=compare, args=(source, options, max_steps))
    child.start()
    child.join()
    if child.exitcode == 0:
        return None
    if child.exitcode < 0:
        return f"the process running it was killed by {signal.Signals(-child.exitcode).name}"
    return f"the process running it exited with status {child.exitcode}"


_failed = None       # set by any worker at its failure, so that the others stop too
_running = None      # per worker, the index of the program it is running: what a dead worker was on


def _share_worker_state(event, running):
    global _failed, _running
    _failed, _running = event, running
    faulthandler.enable()       # a segfault prints the worker's Python stack


def worker(seed: int, first: int, stride: int, count: int | None, deadline: float, max_steps: int) -> dict:
    """Programs first, first + stride, ... until `count` are done, the deadline passes or a worker
    finds a failure."""
    stats = {"programs": 0, "steps": 0, "stops": Counter(), "forms": set(), "failure": None}
    index = first
    while (count is None or index < count) and time.monotonic() < deadline and not _failed.is_set():
        source, options = generate(seed, index)
        _running[first] = index
        reason, program, ending = compare(source, options, max_steps)
        stats["programs"] += 1
        if reason:
            stats["failure"] = (index, source, options, reason)
            _failed.set()
            break
        stop, steps = ending
        stats["stops"][stop] += 1
        stats["steps"] += steps
        stats["forms"].update((insn.spec.opname, insn.types) for insn in program.insns)
        index += stride
    return stats


def difference(source: str, options: dict, max_steps: int) -> str | None:
    return compare(source, options, max_steps)[0]


def shrink(source: str, options: dict, max_steps: int, failure=difference) -> tuple[str, str]:
    """Remove instructions (keeping their labels, so branches stay valid) while the program still
    fails (`failure` gives why, or None), then the labels nothing branches to; returns the program
    and why it fails."""
    lines = source.splitlines()
    removable = [k for k, line in enumerate(lines) if not line.startswith(".") and ":" not in line[-1:]]
    reason = failure(source, options, max_steps)
    chunk = max(1, len(removable) // 2)
    while chunk >= 1:
        k = 0
        while k < len(removable):
            trial = list(lines)
            for index in removable[k:k + chunk]:
                trial[index] = lines[index].split(":", 1)[0] + ":" if lines[index].startswith("L") else ""
            trial_reason = failure("\n".join(trial) + "\n", options, max_steps)
            if trial_reason and "does not assemble" not in trial_reason:
                lines, reason = trial, trial_reason
                del removable[k:k + chunk]
            else:
                k += chunk
        chunk //= 2
    targets = set(re.findall(r"\bL\d+\b", "\n".join(line.split(":", 1)[-1] for line in lines)))
    kept = [line for line in lines if line and not (LABEL_ONLY.fullmatch(line) and line[:-1] not in targets)]
    return "\n".join(kept) + "\n", reason


def write_reproducer(out: Path, seed: int, index: int, source: str, options: dict, reason: str) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"fuzz-{seed}-{index}.s"
    flags = (" --strict" if options["strict"] else "") + (
        " --store-inactive zero" if options["store_inactive"] == "zero" else "")
    header = [f"; tools/fuzz.py --seed {seed}: program {index}, shrunk", f"; {reason}",
              f"; see it: ascasm run --engine ref{flags} --trace=ref.jsonl {path.name}; "
              f"ascasm run --engine cy{flags} --trace=cy.jsonl {path.name}; diff ref.jsonl cy.jsonl"]
    path.write_text("\n".join(header) + "\n" + source)
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    amount = parser.add_mutually_exclusive_group(required=True)
    amount.add_argument("--programs", type=int, metavar="N", help="run N programs")
    amount.add_argument("--minutes", type=float, metavar="M", help="run for M minutes")
    parser.add_argument("--seed", type=int, default=None, help="seed (default: from the clock; printed)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: all CPUs)")
    parser.add_argument("--max-steps", type=int, default=MAX_STEPS, help=f"step limit per program (default {MAX_STEPS})")
    parser.add_argument("--out", type=Path, default=Path("fuzz-failures"),
                        help="directory for shrunk reproducers (default ./fuzz-failures, created on a failure)")
    args = parser.parse_args(argv)
    if (args.programs is not None and args.programs < 1) or (args.minutes is not None and args.minutes <= 0) \
            or args.jobs < 1 or args.max_steps < 1:
        parser.error("--programs, --minutes, --jobs and --max-steps must be positive")
    try:
        compiled_engine()
    except EngineMissing as exc:
        parser.exit(64, f"fuzz: {exc}\n")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    start = time.monotonic()
    deadline = start + (args.minutes * 60 if args.minutes else 1e9)
    print(f"fuzz: seed {seed}", flush=True)
    fork = multiprocessing.get_context("fork")
    failed, running = fork.Event(), fork.Array("q", [-1] * args.jobs)
    try:
        with ProcessPoolExecutor(args.jobs, mp_context=fork, initializer=_share_worker_state,
                                 initargs=(failed, running)) as pool:
            results = list(pool.map(worker, [seed] * args.jobs, range(args.jobs), [args.jobs] * args.jobs,
                                    [args.programs] * args.jobs, [deadline] * args.jobs,
                                    [args.max_steps] * args.jobs))
    except BrokenProcessPool:
        return report_crash(args, seed, [index for index in running if index >= 0])
    elapsed = time.monotonic() - start
    programs = sum(r["programs"] for r in results)
    stops = sum((r["stops"] for r in results), Counter())
    forms = set().union(*(r["forms"] for r in results))
    all_forms = sum(len(spec.types) or 1 for spec in INSNS)
    print(f"fuzz: {programs:,} programs (seed {seed}) in {elapsed:.0f} s on {args.jobs} processes: "
          f"{programs / elapsed * 60:,.0f} programs per minute")
    print(f"  {sum(r['steps'] for r in results):,} instructions executed on each executor; stopped by: "
          + ", ".join(f"{kind} {n:,}" for kind, n in stops.most_common()))
    print(f"  rows and type combinations of the ISA table assembled: {len(forms):,} of {all_forms:,}")
    failures = [r["failure"] for r in results if r["failure"]]
    for index, source, options, found in failures:
        small, reason = shrink(source, options, args.max_steps)
        path = write_reproducer(args.out, seed, index, small, options, reason)
        print(f"DIFFERENCE in program {index}: {reason}\n  shrunk to {len(small.splitlines())} lines: {path}")
    return 1 if failures else 0


def report_crash(args, seed: int, candidates: list[int]) -> int:
    """A worker died: which of the programs the workers were on kills its process, shrunk."""
    print(f"a worker process died while the workers ran programs {candidates} (seed {seed})")
    for index in candidates:
        source, options = generate(seed, index)
        if crash(source, options, args.max_steps):
            small, reason = shrink(source, options, args.max_steps, failure=crash)
            path = write_reproducer(args.out, seed, index, small, options, reason)
            print(f"CRASH in program {index}: {reason}\n  shrunk to {len(small.splitlines())} lines: {path}")
            return 1
    print("none of them kills a process when run again alone: write down the seed and the indices")
    return 1


if __name__ == "__main__":
    sys.exit(main())
