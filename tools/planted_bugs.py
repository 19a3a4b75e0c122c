"""Planted-bug check: are the fuzzer and the tests able to catch a real bug? Each mutation below is
applied alone to a copy of the repository (never to the repository itself), the engine is rebuilt
when the mutation is in its Cython source, and the mutation's check runs; it must fail. The copy starts
from the repository's build/ (so after a build in place or `pip install .` its first build has nothing
to do) and each rebuild redoes only the modules the mutated file is part of.

    python tools/planted_bugs.py                 every mutation (about 10 minutes on 2 cores)
    python tools/planted_bugs.py --list
    python tools/planted_bugs.py shr_mask_ref    one mutation, by name

A mutation whose text is not found in its file is an error, not a pass: when the code moves on,
the mutation must be rewritten (the engine's ones especially, ascasm/_engine/*.pyx and engine.pxi). Exit
status: 0 every mutation caught, 1 one escaped or no longer applies, 64 bad usage.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FUZZ = ["tools/fuzz.py", "--programs", "3000", "--seed", "15", "--jobs", "2"]


@dataclass(frozen=True)
class Mutation:
    name: str
    file: str
    pattern: str            # exact text, or a regular expression when `regex`
    replacement: str
    check: tuple            # the command that must fail, run from the copy's root
    why: str
    regex: bool = False


def tests(*files: str) -> tuple:
    return ("-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *files)


MUTATIONS = (
    # the reference executor: the fuzzer compares it with the engine
    Mutation("shr_mask_ref", "ascasm/ref/scalar.py", '"shr": lambda a, b: a >> (b & 63),',
             '"shr": lambda a, b: a >> (b & 31),', tuple(FUZZ), "scalar shr keeps 5 bits of the count"),
    Mutation("ub_end_ref", "ascasm/ref/machine.py", "address + size <= self.ub_usable",
             "address + size < self.ub_usable", tuple(FUZZ), "an access ending at the last usable byte faults"),
    Mutation("mask_update_ref", "ascasm/ref/masks.py", "np.arange(lanes) < remaining",
             "np.arange(lanes) <= remaining", tuple(FUZZ), "mask.upd activates one lane too many"),
    Mutation("downsample_ref", "ascasm/ref/loads.py", 'm.state.vreg[insn.operand("vD")] = np.ascontiguousarray(source[0::2])',
             'm.state.vreg[insn.operand("vD")] = np.ascontiguousarray(source[1::2])', tuple(FUZZ),
             "vld.ds takes the odd elements"),
    Mutation("write_row_ref", "ascasm/ref/machine.py", "self.state.ub_write_row[address:address + data.size] = self.state.pc",
             "self.state.ub_write_row[address:address + data.size] = 0", tuple(FUZZ),
             "hazard records name the wrong writer"),
    # the engine (rewrite these when the engine changes)
    Mutation("shr_mask_engine", "ascasm/_engine/control.pyx", "result = x >> (y & 63)",
             "result = x >> (y & 31)", tuple(FUZZ), "scalar shr keeps 5 bits of the count"),
    Mutation("ub_end_engine", "ascasm/_engine/engine.pxi", "return addr >= 0 and addr <= m.ub_usable - size",
             "return addr >= 0 and addr < m.ub_usable - size", tuple(FUZZ),
             "an access ending at the last usable byte faults"),
    Mutation("mask_update_engine", "ascasm/_engine/control.pyx",
             "write_mask_lanes(m, a.pD, width, n if n > 0 else 0, 1)",
             "write_mask_lanes(m, a.pD, width, n + 1 if n > 0 else 0, 1)", tuple(FUZZ),
             "mask.upd activates one lane too many"),
    Mutation("compare_ge_engine", "ascasm/_engine/compare.pyx", "    return a >= b",
             "    return a > b", tuple(FUZZ), "vcmp.ge is vcmp.gt"),
    Mutation("hazard_first_engine", "ascasm/_engine/engine.pxi", "if not m.hazard or first < m.hazard_first:",
             "if not m.hazard or first > m.hazard_first:", tuple(FUZZ),
             "a hazard's range starts at the last block's first byte, not the instruction's first"),
    # hardware loops
    Mutation("vag_order_ref", "ascasm/ref/loops.py", "indices = m.state.hwloop[:, LOOP_INDEX].tolist()",
             "indices = m.state.hwloop[::-1, LOOP_INDEX].tolist()", tuple(FUZZ),
             "vag binds its first stride to the outermost level"),
    Mutation("endloop_count_engine", "ascasm/_engine/control.pyx", "if index < m.hwloop[LOOP_COUNT]:",
             "if index <= m.hwloop[LOOP_COUNT]:", tuple(FUZZ), "a hardware loop runs its body once too often"),
    # the assembler: both executors run what it makes, so the tests catch these, not the fuzzer
    Mutation("precedence_asm", "ascasm/expr/tree.py", r'"<<": \d+, ">>": \d+', '"<<": 11, ">>": 11',
             tests("tests/test_assembler.py"), "shifts bind tighter than *", regex=True),
    Mutation("slash_comment_asm", "ascasm/asm/parser.py", 'if kind == "BINOP" and value == "//" and not floor_division:',
             'if kind == "BINOP" and value == "//" and floor_division:', tests("tests/test_assembler.py"),
             "`//` is a comment on .ub lines and floor division on instruction lines"),
    Mutation("unsigned_constants_asm", "ascasm/asm/assembler.py", "if value >= (1 << 63) else value",
             "if value > (1 << 63) else value", tests("tests/test_scalar.py"), "2^63 is not read as unsigned"),
)


class Fail(Exception):
    pass


def copy_repository(target: Path):
    """The files git knows (tracked, or new and not ignored), as they are in the working tree."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def reuse_build(copy: Path):
    """The repository's build directory (C files, objects, modules, flags), times kept: the copy's first
    engine build then redoes only what the sources changed since (nothing, after `pip install .` in CI)."""
    if (ROOT / "build").is_dir():
        shutil.copytree(ROOT / "build", copy / "build", symlinks=True, ignore=shutil.ignore_patterns("bdist.*"))


def build_engine(copy: Path):
    result = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=copy,
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise Fail(f"building the engine failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")


def in_engine(mutation: Mutation) -> bool:
    """A mutation of the engine's Cython sources (its .pyx modules and the .pxi/.pxd files they include)
    needs a rebuild (of the modules it touches: the build is incremental)."""
    return mutation.file.startswith("ascasm/_engine/") and not mutation.file.endswith(".py")


ENGINE_BUILD = ("ascasm/_engine", "build")     # the engine's sources, C files and modules in a copy


def snapshot_engine(copy: Path, snapshot: Path):
    """Keep the engine's files as built from the unmutated sources, times included (the incremental build
    compares them)."""
    for name in ENGINE_BUILD:
        shutil.copytree(copy / name, snapshot / name)


def restore_engine(copy: Path, snapshot: Path):
    for name in ENGINE_BUILD:
        shutil.rmtree(copy / name)
        shutil.copytree(snapshot / name, copy / name)


def mutate(copy: Path, mutation: Mutation) -> str:
    """Apply the mutation; returns the file's original text."""
    path = copy / mutation.file
    original = path.read_text()
    if mutation.regex:
        mutated, found = re.subn(mutation.pattern, mutation.replacement, original)
    else:
        found = original.count(mutation.pattern)
        mutated = original.replace(mutation.pattern, mutation.replacement)
    if found != 1:
        raise Fail(f"{mutation.name}: its text occurs {found} times in {mutation.file} (must be once); "
                   "rewrite the mutation for the current code")
    path.write_text(mutated)
    return original


def run_check(copy: Path, check: tuple) -> subprocess.CompletedProcess:
    """The check, importing the copy's ascasm rather than the installed one."""
    return subprocess.run([sys.executable, *check], cwd=copy, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(copy)})


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="mutations to try (default: all)")
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    args = parser.parse_args(argv)
    if args.list:
        for m in MUTATIONS:
            print(f"{m.name:24} {m.file:28} {m.why}")
        return 0
    by_name = {m.name: m for m in MUTATIONS}
    unknown = [n for n in args.names if n not in by_name]
    if unknown:
        parser.exit(64, f"planted_bugs: no mutation named {', '.join(unknown)} (see --list)\n")
    chosen = [by_name[n] for n in args.names] or list(MUTATIONS)
    escaped = []
    with tempfile.TemporaryDirectory(prefix="ascasm-planted-") as directory, \
            tempfile.TemporaryDirectory(prefix="ascasm-planted-baseline-") as kept:
        copy, snapshot = Path(directory), Path(kept)
        try:
            copy_repository(copy)
            reuse_build(copy)
            build_engine(copy)
            snapshot_engine(copy, snapshot)
            for check in sorted({m.check for m in chosen}):
                result = run_check(copy, check)
                if result.returncode != 0:
                    raise Fail(f"the check fails without any mutation: {' '.join(check)}\n{result.stdout[-3000:]}"
                               f"{result.stderr[-3000:]}")
            for mutation in chosen:
                start = time.monotonic()
                original = mutate(copy, mutation)
                if in_engine(mutation):
                    build_engine(copy)
                result = run_check(copy, mutation.check)
                (copy / mutation.file).write_text(original)
                if in_engine(mutation):
                    restore_engine(copy, snapshot)
                caught = result.returncode != 0
                print(f"{'caught ' if caught else 'ESCAPED'} {mutation.name:24} ({time.monotonic() - start:.0f} s) "
                      f"{mutation.why}", flush=True)
                if caught:
                    print("        " + _evidence(result), flush=True)
                else:
                    escaped.append(mutation.name)
        except Fail as failure:
            print(f"planted_bugs: {failure}")
            return 1
    print(f"planted bugs: {len(chosen) - len(escaped)} of {len(chosen)} caught"
          + (f"; escaped: {', '.join(escaped)}" if escaped else ""))
    return 1 if escaped else 0


def _evidence(result: subprocess.CompletedProcess) -> str:
    """The line of the check's output that shows what it caught."""
    lines = (result.stdout + result.stderr).splitlines()
    for line in lines:
        if line.startswith(("DIFFERENCE", "FAILED", "E  ")):
            return line.strip()[:200]
    return (lines[-1] if lines else "").strip()[:200]


if __name__ == "__main__":
    sys.exit(main())
