""".loc "FILE" LINE [COL]: the rows after it take FILE's position, so faults, the trace and the
debugger show the C++ line a translated instruction comes from. The kernel file here is a few lines
written for the test; the expected positions are read off it by hand."""
from __future__ import annotations

import io
import json

import pytest

from ascasm import MachineFault, assemble, run
from ascasm.asm.errors import AssemblyFailed
from ascasm.debugger import Debugger

KERNEL = """\
__simd_vf__ void Fill(__ubuf__ uint32_t* dst)
{
    uint32_t x = 5;
    dst[0] = x;
    dst[1] = dst[40000000];
}
"""

# rows 0-1 (the prologue) sit at line 1, rows 2-3 at line 3, rows 4-5 at line 4, the faulting load at 5
PROGRAM = """\
.ub out u32[8]
.loc "k.cpp" 1 1
        mov     s1, out
        mov     s9, 0
.loc "k.cpp" 3 14
        mov     s2, 5
        mov     s3, 7
.loc "k.cpp" 4 12
        st      [s1], s2.u32
        st      [s1 + 4], s3.u32
.loc "k.cpp" 5 14
        ld      s4.u32, [s1 + 160000000]
        halt
"""


@pytest.fixture
def kernel_dir(tmp_path):
    (tmp_path / "k.cpp").write_text(KERNEL)
    (tmp_path / "k.s").write_text(PROGRAM)
    return tmp_path


def test_rows_take_the_position_and_text_of_the_loc_line(kernel_dir):
    program = assemble(kernel_dir / "k.s")
    cpp = str(kernel_dir / "k.cpp")
    assert [(i.loc.file, i.loc.line, i.loc.col) for i in program.insns] == [
        (cpp, 1, 1), (cpp, 1, 1), (cpp, 3, 14), (cpp, 3, 14), (cpp, 4, 12), (cpp, 4, 12), (cpp, 5, 14),
        (cpp, 5, 14)]
    assert program.insns[2].loc.text == "    uint32_t x = 5;"
    # the assembly line stays known: row 4 is `st [s1], s2.u32` on line 9 of k.s
    assert (program.insns[4].asm.line, program.insns[4].asm.text.strip()) == (9, "st      [s1], s2.u32")
    assert program.source_lines(cpp)[3] == "    dst[0] = x;"


def test_a_fault_is_shown_at_the_cpp_line_with_the_instruction(kernel_dir, engine):
    with pytest.raises(MachineFault) as fault:
        run(kernel_dir / "k.s", engine=engine)
    text = str(fault.value)
    lines = text.splitlines()
    assert lines[0].endswith("k.cpp:5:14: fault: UB access out of range: 4 bytes at address 0x9896800; the usable "
                             "UB is 253952 bytes (0x0..0x3e000)")
    assert lines[1:3] == ["        dst[1] = dst[40000000];", "                 ^"]
    assert lines[-1].startswith("note: in the instruction ld s4.u32, [s1 + 160000000] (")
    assert lines[-1].endswith("k.s:12:9)")


def test_the_trace_names_the_file_and_the_instruction(kernel_dir):
    from conftest import run_cli
    from test_trace import schema_errors
    done = run_cli("run", "--trace=-", "k.s", cwd=kernel_dir)
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert not any(schema_errors(r) for r in records)
    assert [r["line"] for r in records] == [1, 1, 3, 3, 4, 4, 5]
    # a C++ line keeps its `;`s: they end statements, not the line
    assert records[4]["text"] == "dst[0] = x;"
    assert records[4]["file"] == "k.cpp" and records[4]["asm"] == "st      [s1], s2.u32"
    assert done.returncode == 2


def test_a_file_that_cannot_be_read_leaves_the_position_without_text(tmp_path, engine):
    program = assemble('.loc "absent.cpp" 7 3\nmov s1, 1\nhalt\n', str(tmp_path / "p.s"))
    assert (program.insns[0].loc.line, program.insns[0].loc.text) == (7, "")
    assert run(program, engine=engine).state.sreg[1] == 1


@pytest.mark.parametrize("line, message, column", [
    ('.loc k.cpp 2', "unexpected 'k.cpp'", 6),
    ('.loc "k.cpp"', "unexpected end of line", 13),
    ('.loc "k.cpp" 0', ".loc line must be a whole number from 1 to 2,147,483,647, not 0", 14),
    ('.loc "k.cpp" 1.5 2', ".loc line must be a whole number from 1 to 2,147,483,647, not 1.5", 14),
    ('.loc "k.cpp" 3 0', ".loc column must be a whole number from 1 to 2,147,483,647, not 0", 16),
    ('.loc "" 3', ".loc needs a file name", 6),
    ('.loc "k.cpp" 3 4 5', "unexpected '5'", 18),
])
def test_bad_forms_are_located_errors(line, message, column):
    with pytest.raises(AssemblyFailed) as failed:
        assemble(f"{line}\nhalt\n", "bad.s")
    error = failed.value.errors[0]
    assert (error.loc.line, error.loc.col, error.message) == (1, column, message)


def debugger_session(program, script: str, engine: str) -> str:
    out = io.StringIO()
    Debugger(program, engine, stdin=io.StringIO(script), stdout=out).cmdloop()
    return out.getvalue()


def test_the_debugger_lists_the_cpp_file_and_steps_by_its_lines(kernel_dir, monkeypatch, engine):
    monkeypatch.chdir(kernel_dir)
    program = assemble("k.s")
    text = debugger_session(program, "l\nn\nn\nsi\nb k.cpp:5\nc\n", engine)
    listing = text.split("(ascasm) l\n")[1].split("(ascasm)")[0].splitlines()
    assert listing[0] == "   1  -> __simd_vf__ void Fill(__ubuf__ uint32_t* dst)"
    assert listing[3] == "   4         dst[0] = x;"
    # n runs both prologue rows (line 1), then both rows of line 3; si one instruction of line 4
    after_n = text.split("(ascasm) n\n")[1].split("(ascasm)")[0]
    assert "> k.cpp(3) pc=2 steps=2" in after_n
    assert "   mov s2, 5  (k.s:6:9)" in after_n
    after_second_n = text.split("(ascasm) n\n")[2].split("(ascasm)")[0]
    assert "> k.cpp(4) pc=4 steps=4" in after_second_n
    assert "> k.cpp(4) pc=5 steps=5" in text.split("(ascasm) si\n")[1]
    assert "Breakpoint 1 at k.cpp:5 (pc 6)" in text
    assert "Breakpoint 1, line 5" in text.split("(ascasm) c\n")[1]


def test_a_bare_breakpoint_line_is_in_the_current_file(kernel_dir, monkeypatch, engine):
    monkeypatch.chdir(kernel_dir)
    text = debugger_session(assemble("k.s"), "b 4\nb nothere.cpp:4\nc\np s2\n", engine)
    assert "Breakpoint 1 at k.cpp:4 (pc 4)" in text
    assert "error: no instruction comes from a file 'nothere.cpp' (files: k.cpp)" in text
    assert "Breakpoint 1, line 4" in text
    assert "5" in text.split("(ascasm) p s2\n")[1]
