"""tools/survey_kernels.py's template arguments: the instantiations a kernel's own sources write out,
with the build's DTYPE_ macros from the operator's definition."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("clang.cindex")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import survey_kernels  # noqa: E402


def test_instantiations_with_written_out_arguments_only():
    texts = ["Scale<T, 4> a; Scale<half, 2, Mode::FAST> b;",
             "Scale<DTYPE_X, 8> c; Scale<BUFFER_NUM, 1> d; Scale<half, 2, Mode::FAST> e; Other<float> f;"]
    assert survey_kernels.instantiations("Scale", texts, {"DTYPE_X": "bfloat16_t"}) == [
        ["half", "2", "Mode::FAST"], ["bfloat16_t", "8"]]


def test_dtype_macros_from_the_first_data_type_combination(tmp_path):
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_host" / "thing_def.cpp").write_text(
        'this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT})\n'
        '    .Format({ge::FORMAT_ND});\n'
        'this->Input("scale_in").ParamType(OPTIONAL);\n'
        'this->Output("y").DataType({ge::DT_INT8, ge::DT_INT8});\n')
    assert survey_kernels.dtype_macros(tmp_path) == {"DTYPE_X": "half", "DTYPE_Y": "int8_t"}
