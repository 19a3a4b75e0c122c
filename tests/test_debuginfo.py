"""Debug information of translated C++ (ascasm/debuginfo.py): the assembler reads .frame/.var/.arg
into Program.debug, bad directives are located errors, and the C++ front end writes them."""
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
    helper = InlineFrame("Helper", "k.cpp", 12, 5)
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
