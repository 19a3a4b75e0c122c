"""Run `cython -a` on each engine module and list every line inside a `noexcept nogil` function that
Cython marks as interacting with Python (annotation score > 0). Exit 1 if there is any. `cython -a`
annotates only the main file, so a module's `include`d files are inlined into one file first.

    python tools/check_nogil.py [--keep DIR]
"""
from __future__ import annotations

import html
import re
import runpy
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "ascasm" / "_engine"
_INCLUDE = re.compile(r'^include "([^"]+)"\s*(?:#.*)?$')
_LINE = re.compile(r"<pre class=\"cython line score-(\d+)\"[^>]*>(?:\+|&#xA0;)<span class=\"\">(\d+)</span>:")


def nogil_line_numbers(source: list[str]) -> set[int]:
    """1-based numbers of the lines inside functions declared `noexcept nogil` (signature included,
    also when it spans several lines)."""
    inside, indent, numbers = False, 0, set()
    signature = None                # (first line number, indent, text so far) of an unfinished signature
    for number, line in enumerate(source, start=1):
        stripped = line.strip()
        current = len(line) - len(line.lstrip())
        if inside and stripped and current <= indent and signature is None:
            inside = False
        if signature is None and re.match(r"\s*cdef\b[^=]*\(", line):
            signature = (number, current, "")
        if signature is not None:
            first, start_indent, text = signature
            text += " " + stripped
            signature = (first, start_indent, text)
            if stripped.endswith(":"):
                if re.search(r"\bnoexcept nogil\s*:$", text):
                    inside, indent = True, start_indent
                    numbers.update(range(first, number))
                signature = None
        if inside:
            numbers.add(number)
    return numbers


def inlined(name: str) -> list[tuple[str, int, str]]:
    """The lines of an engine source with its `include`s expanded: (file, line number, text)."""
    out = []
    for number, line in enumerate((ENGINE / name).read_text().splitlines(), start=1):
        match = _INCLUDE.match(line)
        out += inlined(match.group(1)) if match else [(name, number, line)]
    return out


def python_lines_in_nogil(directory: Path, directives: dict | None = None, appended: str = "",
                          modules: tuple = ()) -> list[tuple[str, int, int, str]]:
    """(file, line, score, text) of each Python-touching line in a nogil function of the engine's modules (or
    the named ones), under the build's directives or the given ones; `appended`: source added at the end of
    core.pyx (for a test)."""
    directives = directives or runpy.run_path(str(ENGINE / "directives.py"))["DIRECTIVES"]
    flags = ",".join(f"{k}={v}" for k, v in directives.items() if k != "language_level")
    found = []
    for module in sorted(ENGINE.glob("*.pyx")):
        if modules and module.stem not in modules:
            continue
        lines = inlined(module.name)
        if module.stem == "core":
            lines += [("appended", n, t) for n, t in enumerate(appended.splitlines(), start=1)]
        source = [text for _, _, text in lines]
        (directory / module.name).write_text("\n".join(source) + "\n")
        declarations = module.with_suffix(".pxd")          # the module's own declarations (its fused types)
        if declarations.exists():
            (directory / declarations.name).write_text(declarations.read_text())
        subprocess.run([sys.executable, "-m", "cython", "-a", "-3", "-I", str(ROOT), "--directive", flags, module.name],
                       cwd=directory, check=True, capture_output=True, text=True)
        scores = {int(n): int(s) for s, n in _LINE.findall((directory / f"{module.stem}.html").read_text())}
        found += [(*lines[n - 1][:2], scores[n], source[n - 1].strip()) for n in sorted(nogil_line_numbers(source))
                  if scores.get(n, 0) > 0]
    return found


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(argv[argv.index("--keep") + 1]) if "--keep" in argv else Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        offending = python_lines_in_nogil(directory)
    for name, number, score, text in offending:
        print(f"{name}:{number}: score {score}: {html.unescape(text)}")
    print(f"{len(offending)} line(s) inside noexcept nogil functions interact with Python")
    return 1 if offending else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
