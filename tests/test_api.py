"""The Python API (docs/api.md): assemble from text or a file, run on numpy inputs, buffers back as arrays
of their types, faults as located exceptions, and the notebook displays. docs/api.md's examples run here."""
from __future__ import annotations

import importlib.util
import re
from html.parser import HTMLParser
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import ascasm

ROOT = Path(__file__).resolve().parent.parent
SCATTER = ROOT / "programs" / "scatter.s"


def test_the_examples_in_docs_api_md_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "api.md").read_text(), re.DOTALL)
    assert len(blocks) >= 4
    namespace: dict = {}
    with_cpp = importlib.util.find_spec("clang") is not None      # the C++ extra
    for block in blocks:
        if "_kernel(" in block and not with_cpp:
            continue
        exec(compile(block, "docs/api.md", "exec"), namespace)      # their asserts are the checks


def test_assemble_takes_text_or_a_path(monkeypatch):
    monkeypatch.chdir(ROOT)
    text = SCATTER.read_text()
    for source in (SCATTER, str(SCATTER), "programs/scatter.s"):
        assert len(ascasm.assemble(source).insns) == 10
    assert ascasm.assemble(text).filename == "<string>"
    assert ascasm.assemble(text, "mine.s").filename == "mine.s"
    assert len(ascasm.assemble("halt").insns) == 1                  # one line, not a file: source text
    with pytest.raises(FileNotFoundError, match="no such program file: missing.s"):
        ascasm.assemble("missing.s")
    with pytest.raises(ascasm.AssemblyFailed, match=r"<string>:1:1: error"):
        ascasm.assemble("frob v0\n")


def test_inputs_replace_initial_contents(engine):
    # scatter.s with input[i] = 2i: output[3i mod 128] = 2i for the M4 lanes, so output[4] (lane 44) = 88
    result = ascasm.run(SCATTER, inputs={"input": np.arange(128) * 2}, engine=engine)
    output = result["output"]
    assert output.dtype == np.uint16 and output.shape == (384,)
    assert list(output[:5]) == [0, 65535, 65535, 65535, 88]
    assert not result.ok and list(result.mismatches["output"][:3]) == [0, 4, 8]    # its .expect has i + 1 there
    output[0] = 7                                                     # a copy: the result is unchanged
    assert result["output"][0] == 0


def test_input_errors_are_explained():
    with pytest.raises(ValueError, match="buffer input holds 128 u16 elements, the array has 100"):
        ascasm.run(SCATTER, inputs={"input": np.zeros(100, np.uint16)})
    with pytest.raises(ValueError, match="float64 values for the integer buffer input"):
        ascasm.run(SCATTER, inputs={"input": np.zeros(128)})
    with pytest.raises(ValueError, match="outside u16's 0..65535"):
        ascasm.run(SCATTER, inputs={"input": np.full(128, 70000)})
    with pytest.raises(KeyError, match="no buffer named 'nothing'"):
        ascasm.run(SCATTER, inputs={"nothing": np.zeros(1)})


def test_float_inputs_round_to_the_buffer_type():
    source = ".ub a e4m3[32]\n.ub b e4m3[32]\n    vld v0.e4m3, [a]\n    mask p0.b8, ALL\n    vsta [b], v0.e4m3, p0\n"
    values = np.linspace(0, 1, 32)
    b = ascasm.run(source, inputs={"a": values})["b"]
    assert b.dtype == ml_dtypes.float8_e4m3fn
    assert np.array_equal(b.view(np.uint8), values.astype(ml_dtypes.float8_e4m3fn).view(np.uint8))


def test_faults_raise_with_the_result_so_far(engine):
    with pytest.raises(ascasm.MachineFault) as caught:
        ascasm.run("top: b top\n", engine=engine, max_steps=50)
    assert caught.value.kind == "STEP_LIMIT" and caught.value.result.steps == 50
    source = ".ub b u16[128]\n    mov s0, 7\n    mask p0.b16, ALL\n    vsta [b + s0], v0.u16, p0\n"
    with pytest.raises(ascasm.MachineFault) as caught:
        ascasm.run(source, engine=engine)
    assert str(caught.value).splitlines()[0] == \
        "<string>:4:5: fault: misaligned address 0x7: this access needs 32-byte alignment"
    assert caught.value.result.steps == 2 and caught.value.result["b"].sum() == 0


def test_warnings_are_on_the_result():
    source = """.ub out u16[128]
.ub idx u16[128] = i % 2
    vld v0.u16, [idx]
    mask p0.b16, VL4
    vsct [out], v0.u16, v0.u16, p0
"""
    (warning,) = ascasm.run(source).warnings
    assert warning.loc.line == 5 and warning.message.startswith("duplicate active indices: lanes 0 and 2")
    assert str(warning).startswith("<string>:5:5: warning: duplicate active indices")


class _Cells(HTMLParser):
    """The <td> cells of an HTML table: (style, text)."""

    def __init__(self):
        super().__init__()
        self.cells, self._style = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "td":
            self._style = dict(attrs).get("style", "")
            self.cells.append([self._style, ""])

    def handle_data(self, data):
        if self._style is not None:
            self.cells[-1][1] += data

    def handle_endtag(self, tag):
        if tag == "td":
            self._style = None


def cells(html_text: str) -> list:
    parser = _Cells()
    parser.feed(html_text)
    return parser.cells


def test_notebook_display_of_lanes_greys_the_inactive_ones():
    result = ascasm.run(SCATTER)
    table = cells(result.vreg(0, "u16", mask=0)._repr_html_())
    assert len(table) == 128
    grey = [k for k, (style, _text) in enumerate(table) if "#aaa" in style]
    assert grey == [k for k in range(128) if k % 4]                 # M4: lanes 0, 4, 8, ... are active
    assert [text for _style, text in table[:5]] == ["1", "2", "3", "4", "5"]
    assert repr(result.vreg(0, "u16", mask="p0")).startswith("v0.u16 / p0: [1 . . . 5 . . .")


def test_notebook_display_of_a_result_marks_expect_mismatches():
    result = ascasm.run(SCATTER, inputs={"input": np.arange(128) * 2})
    page = result._repr_html_()
    assert "<b>output: u16[384] @ 0x0</b>" in page and ".expect mismatches" in page
    output_cells = cells(page)[:256]                               # output is first; 256 shown
    red = [k for k, (style, _text) in enumerate(output_cells) if "#c00" in style]
    assert red == list(result.mismatches["output"][result.mismatches["output"] < 256])
    assert "... and 128 more" in page
