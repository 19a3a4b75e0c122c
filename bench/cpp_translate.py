"""How long the C++ front end takes to translate a kernel: libclang's parse against the stubs, then
the walk, allocation and text. Prints CPU seconds (process time, so the figure does not depend on
what else the machine runs), the best and the median of N runs.

    python bench/cpp_translate.py [FILE ENTRY] [-n N]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ascasm.cpp import clang  # noqa: E402
from ascasm.cpp.translate import translate  # noqa: E402

DEFAULT = (ROOT / "bench" / "kernels" / "softmax_rows.cpp", "bench_softmax::SoftmaxRowsVF<float>")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT[0]))
    parser.add_argument("entry", nargs="?", default=DEFAULT[1])
    parser.add_argument("-n", type=int, default=10, help="runs (default 10)")
    args = parser.parse_args(argv)
    lines = Path(args.file).read_text().count("\n")
    parse_times, total_times = [], []
    for _ in range(args.n):
        start = time.process_time()
        clang.parse(args.file)
        parse_times.append(time.process_time() - start)
        start = time.process_time()
        t = translate(args.file, args.entry)
        total_times.append(time.process_time() - start)
    print(f"{args.file}: {lines} lines, entry {t.entry}: {len(t.lines)} assembly lines")
    print(f"parse only      : best {min(parse_times):.3f} s, median {statistics.median(parse_times):.3f} s CPU")
    print(f"whole translate : best {min(total_times):.3f} s, median {statistics.median(total_times):.3f} s CPU "
          f"({args.n} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
