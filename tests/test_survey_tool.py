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


def test_a_header_is_parsed_after_what_its_includer_includes_before_it(tmp_path):
    # an operator whose entry includes a shared header, then the kernel header that relies on it
    op, shared = tmp_path / "op", tmp_path / "shared"
    (op / "arch35").mkdir(parents=True)
    (shared / "lib").mkdir(parents=True)
    (shared / "lib" / "names.h").write_text("namespace Lib { constexpr int k = 1; }\n")
    (op / "arch35" / "kernel.h").write_text("using namespace Lib;\n")
    (op / "arch35" / "other.h").write_text("int other;\n")
    (op / "entry.cpp").write_text('#include "kernel_operator.h"\n#include "lib/names.h"\n'
                                  '#include "./arch35/other.h"\n#include "./arch35/kernel.h"\n')
    prelude = survey_kernels.includer_prelude(op / "arch35" / "kernel.h", op, [str(shared)])
    assert prelude == ["-include", str((shared / "lib" / "names.h").resolve()),
                       "-include", str((op / "arch35" / "other.h").resolve())]
    # a file that is no header, or that nothing includes, has none
    assert survey_kernels.includer_prelude(op / "entry.cpp", op, [str(shared)]) == []
    assert survey_kernels.includer_prelude(op / "arch35" / "other.h", op, [str(shared)]) == [
        "-include", str((shared / "lib" / "names.h").resolve())]
