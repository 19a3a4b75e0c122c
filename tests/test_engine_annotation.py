"""`cython -a` must show the dispatch loop and every kernel free of Python interaction."""
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import check_nogil  # noqa: E402


def test_nogil_functions_have_no_python_interaction(tmp_path):
    assert check_nogil.python_lines_in_nogil(tmp_path) == []


def test_the_check_sees_python_interaction_when_there_is_some(tmp_path):
    # with bounds checking on, indexing gains an error path that touches Python: the check must see it
    directives = dict(runpy.run_path(str(ROOT / "ascasm/_engine/directives.py"))["DIRECTIVES"], boundscheck=True)
    assert check_nogil.python_lines_in_nogil(tmp_path, directives)
