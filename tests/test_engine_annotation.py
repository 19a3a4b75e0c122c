"""`cython -a` must show the dispatch loop and every kernel free of Python interaction."""
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import check_nogil  # noqa: E402

# Cython translates every engine module (about a minute of CPU, several on a busy machine): the two
# checks that run it are left to `pytest -m slow` (CI runs it); the source checks below stay quick.


@pytest.mark.slow
def test_nogil_functions_have_no_python_interaction(tmp_path):
    assert check_nogil.python_lines_in_nogil(tmp_path) == []


@pytest.mark.slow
def test_the_check_sees_python_interaction_when_there_is_some(tmp_path):
    planted = "cdef int touches_python(int x) noexcept nogil:\n    with gil:\n        print(x)\n    return x\n"
    found = check_nogil.python_lines_in_nogil(tmp_path, appended=planted, modules=("core",))
    assert [(name, line) for name, line, _score, _text in found] == [("appended", 2), ("appended", 3)]   # with gil, print


NEGATIVE_SUBSCRIPT = re.compile(r"\w\[\s*-\s*\d")


def negative_subscripts(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1) if NEGATIVE_SUBSCRIPT.search(line.split("#")[0])]


def test_the_engine_sources_index_nothing_from_the_end():
    # The engine is compiled with wraparound off, for Python lists too: `items[-1]` there reads before
    # the list's start (a segfault one helper met). Use pop() or len(items) - 1.
    found = {path.name: negative_subscripts(path.read_text())
             for path in sorted((ROOT / "ascasm/_engine").glob("*.p*")) if path.suffix in (".pyx", ".pxi", ".pxd")}
    assert {name: lines for name, lines in found.items() if lines} == {}


def test_the_subscript_check_sees_one():
    assert negative_subscripts("x = 1\nlast = open_loops[-1]\ny = a[- 2]  # z[-3]\n") == [2, 3]
