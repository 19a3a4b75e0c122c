"""Debug information of translated C++ (ascasm/debuginfo.py): the assembler reads .frame/.var/.arg
into Program.debug, bad directives are located errors, and the C++ front end writes them."""
from pathlib import Path

import pytest

from ascasm.asm.assembler import assemble
from ascasm.asm.errors import AssemblyFailed
from ascasm.debuginfo import InlineFrame

PROGRAM = """\
.ub x f32[64]
.arg x "__ubuf__ float*" s0 -> x
.var n "int32_t" =64
        mov s0, x
.frame push "Helper" "k.cpp" 12 5
.var t "RegTensor<float>" v3
        vld v3.f32, [s0]
.frame pop
.var t "float" s2
        mov s2, 1
.var t -
        halt
"""


def test_directives_give_rows_frames_and_ranges():
    debug = assemble(PROGRAM, "t.s").debug
    helper = InlineFrame("Helper", "k.cpp", 12, 5)          # (relative to t.s's directory)
    assert debug.frames == [(), (helper,), (), ()]
    assert debug.frames_at(1) == (helper,) and debug.frames_at(99) == ()
    ranges = {(v.name, v.depth): (v.ctype, v.location, v.start, v.end, v.buffer, v.arg) for v in debug.variables}
    assert ranges == {("x", 0): ("__ubuf__ float*", "s0", 0, 4, "x", True),
                      ("n", 0): ("int32_t", "=64", 0, 4, None, False),
                      ("t", 1): ("RegTensor<float>", "v3", 1, 2, None, False),   # ends at its frame's pop
                      ("t", 0): ("float", "s2", 2, 3, None, False)}              # ends at `.var t -`
    assert debug.visible_at(1)["t"].location == "v3"          # the helper's t hides nothing outer here
    assert "t" not in debug.visible_at(3) and debug.known("t")
    assert set(debug.visible_at(1, depth=0)) == {"x", "n"}    # the caller's view from inside the helper


def test_a_new_location_ends_the_old_range():
    debug = assemble('.var i "int" s1\n  mov s1, 1\n.var i "int" s4\n  mov s4, 2\n  halt\n', "t.s").debug
    assert [(v.location, v.start, v.end) for v in debug.variables] == [("s1", 0, 1), ("s4", 1, 3)]


def test_a_program_without_directives_has_no_debug_information():
    debug = assemble("  halt\n", "t.s").debug
    assert debug.variables == [] and debug.frames == [()]


@pytest.mark.parametrize("line, message, column", [
    ('.var a "int" v99', "there is no register v99", 14),
    ('.var b "int" x', "a variable lives in a register", 14),
    ('.var b "int" v1.f32', "a variable lives in a register", 14),
    (".var c s1", 'needs its C++ type: "CTYPE"', 6),
    ('.var d "int*" s1 -> nope', "unknown buffer 'nope'", 21),
    (".var e -", "no variable 'e' lives here to end", 6),
    ('.var e "int" -', "write .var e -", 14),
    (".frame pop", ".frame pop without a .frame push", 8),
    (".frame frob", "unknown .frame action 'frob'", 8),
    ('.frame push "" "k.cpp" 1 1', ".frame push needs a function name", 13),
    ('.frame push "F" "k.cpp" 0 1', ".frame push line must be a whole number", 25),
    (".frame push", '.frame push needs "NAME" "FILE" LINE COL', 8),
    ('.frame push "G" "k.cpp" 3 4', ".frame push without its .frame pop", 1),
    ('.var x "int" s1 ->', "unexpected end of line", 19),
])
def test_bad_directives_are_located_errors(line, message, column):
    with pytest.raises(AssemblyFailed) as failed:
        assemble(line + "\n  halt\n", "t.s")
    error = failed.value.errors[0]
    assert message in error.message and (error.loc.line, error.loc.col) == (1, column), str(failed.value)


# ---- the C++ front end writes them ----

KERNELS = Path(__file__).parent / "kernels"
SCALE_SUM = KERNELS / "scale_sum.cpp"


def _rows_of_line(translation, line):
    """The rows (instruction indices) whose C++ position is `line` of the kernel."""
    rows = [line_.loc for line_ in translation.lines if not line_.text.endswith(":")]
    return [k for k, loc in enumerate(rows) if loc is not None and loc[1] == line]


@pytest.fixture(scope="module")
def scale_sum():
    pytest.importorskip("clang.cindex")
    from ascasm.cpp.translate import translate
    return translate(SCALE_SUM, "ScaleSumVF")


def test_an_inlined_helper_is_a_frame_at_its_call(scale_sum):
    debug = scale_sum.debug
    helper = InlineFrame("ScaleBias", str(SCALE_SUM), 28, 9)        # ScaleBias(t, x, scale, mask); line 28
    for line in (12, 13):                                           # the helper's body
        assert all(debug.frames_at(row) == (helper,) for row in _rows_of_line(scale_sum, line))
    for line in (27, 29, 30):                                       # the loop's other lines
        assert all(debug.frames_at(row) == () for row in _rows_of_line(scale_sum, line))


def test_variables_have_their_cpp_types_and_parameters_their_buffers(scale_sum):
    debug = scale_sum.debug
    row = _rows_of_line(scale_sum, 12)[0]                           # Muls inside the helper
    live = debug.visible_at(row)
    types = {name: var.ctype for name, var in live.items()}
    assert types == {"yAddr": "__ubuf__ float*", "xAddr": "__ubuf__ float*", "lanes": "uint16_t",
                     "blocks": "uint16_t", "all": "MaskReg", "left": "uint32_t", "acc": "RegTensor<float>",
                     "x": "RegTensor<float>", "t": "RegTensor<float>", "mask": "MaskReg", "i": "uint16_t",
                     # the helper's own, which hide the caller's scale and mask
                     "dst": "RegTensor<float>", "src": "RegTensor<float>", "scale": "float",
                     "scaled": "RegTensor<float>"}
    assert {name for name, var in live.items() if var.arg} == {"yAddr", "xAddr", "dst", "src", "scale", "mask"}
    assert live["xAddr"].buffer == "xAddr" and live["lanes"].location == "=64"
    assert {name for name, var in live.items() if var.depth == 1} == {"dst", "src", "scale", "mask", "scaled"}
    # references share their argument's register; no two other live variables share one
    assert live["dst"].location == live["t"].location and live["src"].location == live["x"].location
    others = [var.location for name, var in live.items() if name not in ("dst", "src", "mask", "lanes")]
    assert len(others) == len(set(others))
    assert live["mask"].location == debug.visible_at(row, depth=0)["mask"].location
    # the caller's view of the same row: its own scale, the parameter
    assert debug.visible_at(row, depth=0)["scale"].arg and "scaled" not in debug.visible_at(row, depth=0)


def test_a_variable_whose_register_is_reused_is_not_live(scale_sum):
    """count's s register goes to i once the loop starts (count is read only before it)."""
    debug = scale_sum.debug
    assert "count" in debug.visible_at(_rows_of_line(scale_sum, 23)[0])        # uint32_t left = count;
    in_loop = _rows_of_line(scale_sum, 27)[0]
    assert "count" not in debug.visible_at(in_loop) and debug.known("count")


def test_the_translated_program_carries_the_same_information(scale_sum, tmp_path):
    from ascasm.cpp import harness
    kernel = harness.build(scale_sum, {"yAddr": "f32[256]", "xAddr": "f32[256]", "count": "200", "scale": "0.5"})
    prologue = len(kernel.program.insns) - len(scale_sum.debug.frames)
    assert prologue == 4                                       # one mov per parameter
    assert kernel.program.debug.frames == [()] * prologue + scale_sum.debug.frames
    shifted = {(v.name, v.ctype, v.start + prologue, v.depth, v.arg) for v in scale_sum.debug.variables}
    assert {(v.name, v.ctype, v.start, v.depth, v.arg) for v in kernel.program.debug.variables} == shifted
    written = tmp_path / "k.s"
    text = harness.program_text(scale_sum, kernel.bindings, tmp_path)
    assert '.frame push "ScaleBias" "' in text and '.arg xAddr "__ubuf__ float*" s1 -> xAddr' in text
    written.write_text(text)
    assert assemble(text, str(written)).debug.variables == kernel.program.debug.variables
