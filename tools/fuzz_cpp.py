"""The C++ path's fuzzer: random mutations of the test kernels (tests/cpp_harness, tests/kernels)
translated (the bounded front end of ascasm/cpp/sandbox.py) and, when they translate, run with
random arguments on both executors and compared. A mutant may fail to translate or to bind its
arguments (a located error), or fault (on both executors alike); any other exception, or executors
that differ, is a finding: the mutant is written to DIR/fuzz-cpp-SEED-INDEX.cpp with the entry, the
arguments and the reason in its first lines. Exit status: 0 no finding, 1 findings written.

    python tools/fuzz_cpp.py --kernels 10000             a fixed number of mutants
    python tools/fuzz_cpp.py --kernels 500 --seed 7      the same 500 mutants as last time
    python tools/fuzz_cpp.py --kernels 500 --seed 7 --first 500     the next 500 of that seed (a long
                                                          run split in parts, or resumed)
"""
from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

import numpy as np

from ascasm.cpp import harness
from ascasm.vm import MachineFault

ROOT = Path(__file__).resolve().parents[1]
SEED_DIRS = [ROOT / "tests" / "cpp_harness", ROOT / "tests" / "kernels"]
MAX_STEPS = 20_000
COUNT = 512                  # elements of every pointer parameter's buffer
NUMBERS = ["0", "1", "-1", "2", "7", "63", "64", "65", "255", "256", "65535", "65536", "0x7fffffff", "0xffffffffu",
           "4294967296", "-2147483648", "0.0f", "-0.0f", "1e39f", "1.0f/0.0f", "0.0f/0.0f", "NAN", "INFINITY",
           "16777217.0f", "3.4e38f", "1e-45f", "0.5"]
OPERATORS = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&&", "||", "<", ">", "==", "!="]
TYPES = ["float", "half", "int32_t", "uint32_t", "int16_t", "uint16_t", "int8_t", "uint8_t", "int64_t", "uint64_t",
         "bfloat16_t", "bool"]
SNIPPETS = ["~", "-", "!", "(", ")", "{", "}", ";", ",", "0", "i", "n", "+ 1", "* 2", "[0]", "&", "*", "::",
            "template <typename T>", "return;", "break;", "continue;", "if (n) ", "for (;;) ", "\n#define X\n"]
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d*)?(?:[eE][-+]?\d+)?[fFuUlL]*")
_OPERATOR = re.compile(r"(?<=\s)(?:<<|>>|&&|\|\||==|!=|[-+*/%&|^<>])(?=\s)")
_TYPE = re.compile(r"\b(?:" + "|".join(TYPES) + r")\b")
_UNIT_LINE = re.compile(r"__simd_vf__|__VEC_SCOPE__")
_TEMPLATE_HINT = re.compile(r"e\.g\. (\w+)<([^>]*)>")


def seeds() -> list[Path]:
    return sorted(p for d in SEED_DIRS for p in d.glob("*.cpp") if _UNIT_LINE.search(p.read_text()))


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits: a number, an operator or a type replaced, a line deleted or
    doubled, a span deleted, a snippet inserted."""
    for _ in range(rng.randint(1, 3)):
        choice = rng.randrange(7)
        pattern = {0: _NUMBER, 1: _OPERATOR, 2: _TYPE}.get(choice)
        if pattern is not None:
            found = list(pattern.finditer(text))
            if found:
                m = rng.choice(found)
                new = rng.choice({0: NUMBERS, 1: OPERATORS, 2: TYPES}[choice])
                text = text[:m.start()] + new + text[m.end():]
            continue
        lines = text.split("\n")
        k = rng.randrange(len(lines))
        if choice == 3:
            del lines[k]
        elif choice == 4:
            lines.insert(k, lines[k])
        if choice in (3, 4):
            text = "\n".join(lines)
        elif choice == 5:
            start = rng.randrange(len(text))
            text = text[:start] + text[start + rng.randint(1, 12):]
        else:
            at = rng.randrange(len(text))
            text = text[:at] + rng.choice(SNIPPETS) + text[at:]
    return text


def entries(text: str, rng: random.Random) -> list[str]:
    lines = [k + 1 for k, line in enumerate(text.split("\n")) if _UNIT_LINE.search(line)]
    return [f"@{rng.choice(lines)}"] if lines else [None]


def arguments(translation, rng: random.Random) -> dict:
    given = {}
    for p in translation.params:
        etype = harness._etype(p)
        if p.kind == "pointer":
            if etype.kind == "float":
                values = rng.choice([np.zeros(COUNT), np.linspace(-4, 4, COUNT)])
            else:
                values = np.arange(COUNT) % 7
            given[p.name] = values.astype(etype.np_dtype)
        else:
            given[p.name] = rng.choice([0.5, 1.0, -2.0, 3.25]) if etype.kind == "float" else \
                rng.choice([0, 1, 3, 64, 100, 255])
    return given


def run_both(translation, given: dict) -> str | None:
    """Why the two executors differ on this kernel, or None."""
    try:
        kernel = harness.build(translation, given)
    except harness.KernelArgError:
        return None
    machines = [harness.start(kernel, engine, MAX_STEPS) for engine in ("ref", "cy")]
    faults = []
    for machine in machines:
        try:
            machine.run()
        except MachineFault as fault:
            faults.append(str(fault))
            continue
        faults.append(str(machine.fault()))
    difference = machines[0].state.first_difference(machines[1].state)
    if difference:
        return f"when stopped: {difference} (ref != cy)"
    if faults[0] != faults[1]:
        return f"fault reports differ: ref says {faults[0]}; cy says {faults[1]}"
    return None


def one(path: Path, text: str, rng: random.Random, outcomes: Counter) -> tuple[str, str] | None:
    """(entry, why) when this mutant is a finding, else None."""
    for entry in entries(text, rng):
        try:
            try:
                translation = harness.translate_kernel(path, entry)
            except harness.CppFailed as failed:
                hint = _TEMPLATE_HINT.search(str(failed))
                if not hint:
                    outcomes["C++ error"] += 1
                    return None
                entry = f"{hint.group(1)}<{', '.join(rng.choice(TYPES[:8]) for _ in hint.group(2).split(','))}>"
                translation = harness.translate_kernel(path, entry)
            outcomes["translated"] += 1
            why = run_both(translation, arguments(translation, rng))
            return (entry, why) if why else None
        except harness.CppFailed:
            outcomes["C++ error"] += 1
        except Exception:
            return entry, traceback.format_exc()
    return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", type=int, required=True, metavar="N", help="run N mutants")
    parser.add_argument("--seed", type=int, default=None, help="seed (default: from the clock; printed)")
    parser.add_argument("--first", type=int, default=0, metavar="K",
                        help="start at mutant K of the seed (each mutant depends on the seed and its number only)")
    parser.add_argument("--out", type=Path, default=Path("fuzz-failures"), help="where findings are written")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else int(time.time())
    print(f"tools/fuzz_cpp.py --seed {seed} --kernels {args.kernels} --first {args.first}", flush=True)
    found, outcomes, start = 0, Counter(), time.monotonic()
    with tempfile.TemporaryDirectory() as work:
        copies = {}
        for d in SEED_DIRS:                  # the mutants stand beside copies of their headers
            copies[d] = Path(work, d.name)
            shutil.copytree(d, copies[d])
        originals = seeds()
        for index in range(args.first, args.first + args.kernels):
            rng = random.Random(f"{seed}:{index}")
            original = rng.choice(originals)
            text = mutate(original.read_text(), rng)
            path = copies[original.parent] / "mutant.cpp"
            path.write_text(text)
            finding = one(path, text, rng, outcomes)
            if finding:
                found += 1
                args.out.mkdir(parents=True, exist_ok=True)
                target = args.out / f"fuzz-cpp-{seed}-{index}.cpp"
                reason = "\n".join("// " + line for line in finding[1].splitlines())
                target.write_text(f"// tools/fuzz_cpp.py --seed {seed}: mutant {index} of {original.name}, entry "
                                  f"{finding[0]}\n{reason}\n{text}")
                print(f"finding: {target}", file=sys.stderr, flush=True)
            if (index + 1 - args.first) % 500 == 0:
                print(f"{index + 1 - args.first} mutants (up to number {index}), {dict(outcomes)}, "
                      f"{time.monotonic() - start:.0f} s", flush=True)
    print(f"{args.kernels} mutants: {dict(outcomes)}, {found} findings, {time.monotonic() - start:.0f} s")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
