"""`cython -a` must show the dispatch loop and every kernel free of Python interaction."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import check_nogil  # noqa: E402


def test_nogil_functions_have_no_python_interaction(tmp_path):
    assert check_nogil.python_lines_in_nogil(tmp_path) == []


def test_the_check_sees_python_interaction_when_there_is_some(tmp_path):
    planted = "cdef int touches_python(int x) noexcept nogil:\n    with gil:\n        print(x)\n    return x\n"
    found = check_nogil.python_lines_in_nogil(tmp_path, appended=planted)
    assert [(name, line) for name, line, _score, _text in found] == [("appended", 2), ("appended", 3)]   # with gil, print
