"""tools/survey_kernels.py's template arguments: the instantiations a kernel's own sources write out,
with the build's DTYPE_ macros from the operator's definition, followed out through the templates
around them; the guesses after them; the selection of a previous run's failed units. Tiny kernels of
our own, expected values worked out by hand."""
from __future__ import annotations

import collections
import io
import sys
from pathlib import Path

import pytest

pytest.importorskip("clang.cindex")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import survey_kernels  # noqa: E402


def test_instantiations_with_written_out_arguments_first():
    texts = ["Scale<T, 4> a; Scale<half, 2, Mode::FAST> b;",
             "Scale<DTYPE_X, 8> c; Scale<BUFFER_NUM, 1> d; Scale<half, 2, Mode::FAST> e; Other<float> f;"]
    # complete lists in order of appearance, then those with an argument the survey cannot know
    assert survey_kernels.instantiations("Scale", texts, [{"DTYPE_X": "bfloat16_t"}]) == [
        ["half", "2", "Mode::FAST"], ["bfloat16_t", "8"], [None, "4"], [None, "1"]]


def test_a_parameter_of_the_template_around_the_use_comes_from_its_instantiations():
    header = """
template <typename U, typename Acc = float>
struct Pipeline {
    using Stage = Body<U, Acc>;
};
template <typename A, typename B>
class Runner {
    void Go();
};
template <typename A, typename B>
void Runner<A, B>::Go()
{
    Helper<B, 4>(buffer);
}
"""
    entry = "void kernel() { Run<Pipeline<DTYPE_X>>(); Runner<int8_t, float16_t> r; Runner<int16_t, half> s; }"
    macro_sets = [{"DTYPE_X": "half"}, {"DTYPE_X": "bfloat16_t"}]
    # the default of Acc fills what the instantiation leaves out; each data type combination in turn
    assert survey_kernels.instantiations("Body", [header, entry], macro_sets) == [
        ["half", "float"], ["bfloat16_t", "float"]]
    # a member defined outside its class takes the class's instantiations (float16_t is half)
    assert survey_kernels.instantiations("Helper", [header, entry]) == [["half", "4"]]


def test_a_template_whose_body_ended_before_the_use_is_not_around_it():
    text = "template <typename T> void First() { }\nvoid Second() { Helper<T>(); }\nFirst<half>();"
    assert survey_kernels.enclosing_templates(text, text.index("Helper")) == []
    assert survey_kernels.instantiations("Helper", [text]) == []


def test_dtype_macro_sets_one_per_data_type_combination(tmp_path):
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_host" / "thing_def.cpp").write_text(
        'this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT16})\n'
        '    .Format({ge::FORMAT_ND});\n'
        'this->Input("scale_in").ParamType(OPTIONAL);\n'
        'this->Output("y").DataType({ge::DT_INT8, ge::DT_INT8, ge::DT_INT8});\n')
    assert survey_kernels.dtype_macro_sets(tmp_path) == [{"DTYPE_X": "half", "DTYPE_Y": "int8_t"},
                                                         {"DTYPE_X": "float", "DTYPE_Y": "int8_t"}]
    assert survey_kernels.dtype_macro_sets(None) == [{}]


def test_types_the_unit_tests_its_parameters_against():
    text = ("if constexpr (std::is_same_v<T, half>) {} else if constexpr (IsSameType<float32_t, T>::value) {}\n"
            "static_assert(std::is_same<I, int32_t>::value); if constexpr (IsSameType<T, Other>::value) {}")
    assert survey_kernels.tested_types(text, ["T", "I"]) == {"T": ["half", "float"], "I": ["int32_t"]}


def _function(source, name, tmp_path):
    path = tmp_path / "unit.cpp"
    path.write_text(source)
    tu = survey_kernels.ci.Index.create().parse(str(path), args=["-std=c++17"])
    return next(c for c in survey_kernels.walk(tu.cursor) if c.spelling == name and c.is_definition())


def test_attempts_the_instantiations_then_the_tested_types_then_the_guesses(tmp_path):
    source = """
template <typename T, typename I, int N>
void Body()
{
    if constexpr (sizeof(T) == 2) {}
}
"""
    function = _function(source, "Body", tmp_path)
    text = survey_kernels.unit_text(function) + "if constexpr (IsSameType<I, uint16_t>::value) {}"
    attempts, instantiated = survey_kernels.template_attempts(
        function, ["Body<half, I, 8>(); Body<bfloat16_t, I, 16>();"], [{}], text)
    assert instantiated
    # the two instantiations (I unknown: guessed), then I as the unit's test names it, then the guesses
    assert attempts[:4] == [{"T": "half", "I": "float", "N": "8"}, {"T": "bfloat16_t", "I": "float", "N": "16"},
                            {"T": "half", "I": "uint16_t", "N": "8"}, {"T": "half", "I": "half", "N": "8"}]
    assert len(attempts) == survey_kernels.MAX_ATTEMPTS


def test_attempts_guess_each_type_parameter_alike_then_alone(tmp_path):
    function = _function("template <typename A, typename B> void Body() {}", "Body", tmp_path)
    attempts, instantiated = survey_kernels.template_attempts(function)
    assert not instantiated
    alike = [{"A": t, "B": t} for t in survey_kernels.GUESS_TYPES]
    assert attempts == [*alike, {"A": "half", "B": "float"}][:survey_kernels.MAX_ATTEMPTS]
    # a parameter no guess covers (a template template parameter) leaves no attempt
    function = _function("template <template <typename> class P> void Body() {}", "Body", tmp_path)
    assert survey_kernels.template_attempts(function) == ([], False)


def test_only_failed_selects_the_units_a_log_names():
    log = (f"{survey_kernels.LOG_HEADER}; mirror at abc\n"
           "__ops/a/arch35/a.h:40: __ops/inc/helper.h:12: Cast from f32 to f32 has no ascasm instruction\n"
           "__ops/b/arch35/b.h:7: translator crash: KeyError: 'x'\n")
    selection = survey_kernels.FailedUnits(log)
    assert selection.wants("__ops/a/arch35/a.h:40") and selection.wants("__ops/b/arch35/b.h:7")
    assert not selection.wants("__ops/a/arch35/a.h:90") and not selection.wants_file("__ops/inc/helper.h")
    # the older log names the error's place only: every unit of its files
    older = survey_kernels.FailedUnits("__ops/a/arch35/a.h:33: Cast from f32 to f32 has no ascasm instruction\n")
    assert older.wants("__ops/a/arch35/a.h:90") and not older.wants("__ops/b/arch35/b.h:7")


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


WIDEN = """
#include "kernel_operator.h"
using namespace AscendC;
using namespace AscendC::Reg;

template <typename T>
__aicore__ inline void Widen(__ubuf__ float* dst, __ubuf__ T* src, uint32_t count)
{
    __VEC_SCOPE__ {
        RegTensor<T> in;
        RegTensor<float> out;
        MaskReg m = UpdateMask<float>(count);
        LoadAlign<T, LoadDist::DIST_UNPACK_B16>(in, src);
        Cast<float, T>(out, in, m);
        StoreAlign(dst, out, m);
    }
}
"""


def _survey_unit(tmp_path, texts):
    """Translate the one unit of WIDEN as the survey does; its entry in the survey's translations."""
    from ascasm.cpp.stubs import clang_args
    path = tmp_path / "widen.cpp"
    path.write_text(WIDEN)
    tu = survey_kernels.ci.Index.create().parse(str(path), args=clang_args(include_dirs=[str(tmp_path)]))
    [(_, _, _, last, function)] = survey_kernels.units_in(tu, str(path))
    attempts, _ = survey_kernels.template_attempts(function, texts, [{}], survey_kernels.unit_text(function))
    tally = _tally()
    survey_kernels.translate_and_run(str(path), last, attempts, [], tally)
    return tally["translations"][f"{path}:{last}"]


def test_a_unit_translates_with_the_instantiation_its_kernel_uses(tmp_path):
    # float, the first guess, is no type this unit is written for (a Cast from float to float)
    result = _survey_unit(tmp_path, ["Widen<half>(dst, src, n);"])
    assert result["template_args"] == {"T": "half"} and result["attempt"] == 1


def test_without_an_instantiation_the_next_guess_translates(tmp_path):
    result = _survey_unit(tmp_path, [])
    assert result["template_args"] == {"T": "half"} and result["attempt"] == 2


def test_the_translators_parse_is_kept_for_the_file_parsed_last():
    calls = []
    parse = survey_kernels.parse_kept(lambda path, defines=(), include_dirs=(): calls.append(path) or path)
    assert [parse("a.h"), parse("a.h"), parse("b.h"), parse("a.h")] == ["a.h", "a.h", "b.h", "a.h"]
    assert calls == ["a.h", "b.h", "a.h"]


def _tally():
    return collections.defaultdict(int, translations={}, log=io.StringIO(), translate_reasons=collections.Counter(),
                                   run_reasons=collections.Counter())


@pytest.mark.parametrize("changing, tries", [(False, survey_kernels.SAME_ERROR_STOPS), (True, 5)])
def test_the_tries_end_when_the_arguments_do_not_change_the_error(monkeypatch, changing, tries):
    calls = []

    def refuse(path, entry, template_args, include_dirs):
        calls.append(template_args)
        raise survey_kernels.CppError(f"refused {template_args['T'] if changing else ''}", path, 3, 1)
    monkeypatch.setattr(survey_kernels, "translate", refuse)
    tally = _tally()
    attempts = [{"T": t} for t in survey_kernels.GUESS_TYPES[:5]]
    assert survey_kernels.translate_and_run("k.h", 9, attempts, [], tally) == "translate"
    assert len(calls) == tries
    # the first set's error is the one counted
    assert tally["log"].getvalue().splitlines() == [f"k.h:9: k.h:3: refused {'float' if changing else ''}"]
