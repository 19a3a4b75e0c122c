"""Run `cython -a` on the engine and list every line inside a `noexcept nogil` function that Cython
marks as interacting with Python (annotation score > 0). Exit 1 if there is any.

    python tools/check_nogil.py [--keep DIR]
"""
from __future__ import annotations

import html
import re
import runpy
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "ascasm" / "_engine"
_LINE = re.compile(r"<pre class=\"cython line score-(\d+)\"[^>]*>(?:\+|&#xA0;)<span class=\"\">(\d+)</span>:")


def nogil_line_numbers(source: list[str]) -> set[int]:
    """1-based numbers of the lines inside functions declared `noexcept nogil` (signature included)."""
    inside, indent, numbers = False, 0, set()
    for number, line in enumerate(source, start=1):
        stripped = line.strip()
        current = len(line) - len(line.lstrip())
        if inside and stripped and current <= indent:
            inside = False
        if re.match(r"\s*cdef\b.*\bnoexcept nogil\s*:", line):
            inside, indent = True, current
        if inside:
            numbers.add(number)
    return numbers


def python_lines_in_nogil(directory: Path, directives: dict | None = None) -> list[tuple[int, int, str]]:
    """(line, score, text) of each Python-touching line in a nogil function, under the build's
    directives or the given ones."""
    for name in ("core.pyx", "opcodes.pxd"):
        shutil.copy(ENGINE / name, directory / name)
    directives = directives or runpy.run_path(str(ENGINE / "directives.py"))["DIRECTIVES"]
    flags = ",".join(f"{k}={v}" for k, v in directives.items() if k != "language_level")
    subprocess.run([sys.executable, "-m", "cython", "-a", "-3", "--directive", flags, "core.pyx"],
                   cwd=directory, check=True, capture_output=True, text=True)
    scores = {int(n): int(s) for s, n in _LINE.findall((directory / "core.html").read_text())}
    source = (ENGINE / "core.pyx").read_text().splitlines()
    return [(n, scores[n], source[n - 1].strip()) for n in sorted(nogil_line_numbers(source)) if scores.get(n, 0) > 0]


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(argv[argv.index("--keep") + 1]) if "--keep" in argv else Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        offending = python_lines_in_nogil(directory)
    for number, score, text in offending:
        print(f"core.pyx:{number}: score {score}: {html.unescape(text)}")
    print(f"{len(offending)} line(s) inside noexcept nogil functions interact with Python")
    return 1 if offending else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
