"""Source text as characters (docs/cli.md "Source text"): lines end at "\\n" (a "\\r" before it is
dropped), tab and form feed are white space, every other control character is an error with a caret,
and a UTF-8 byte-order mark is accepted. A comment must never hide a line break that only some tools
see (str.splitlines() breaks at form feed, vertical tab, \\x1c-\\x1e, U+0085, U+2028 and U+2029)."""
import pytest

from ascasm import AssemblyFailed, assemble, assemble_file
from ascasm.vm import Machine


def errors_of(text: str):
    with pytest.raises(AssemblyFailed) as failed:
        assemble(text, "t.s")
    return failed.value.errors


def test_form_feed_in_a_comment_stays_in_the_comment(engine):
    # the store after the form feed is part of the comment: it must not run, and line 3 stays line 3
    program = assemble(".ub o u8[32]\n    mov s0, 7 ; note\f st [o], s0.u8\n    halt\n", "t.s")
    assert [insn.spec.mnemonic for insn in program.insns] == ["mov", "halt"]
    assert program.insns[1].loc.line == 3
    machine = Machine(program, engine)
    machine.run()
    assert machine.state.ub[:32].tolist() == [0] * 32


def test_form_feed_is_white_space():
    program = assemble("mov\fs0,\f1\n", "t.s")
    assert program.code[0][5] == 1


def test_crlf_line_ends():
    program = assemble("mov s0, 1\r\nloop: b loop\r\n", "t.s")
    assert [insn.loc.line for insn in program.insns] == [1, 2]
    assert program.insns[1].loc.text == "loop: b loop"
    assert program.labels == {"loop": 1}


@pytest.mark.parametrize("character, name", [
    ("\x0b", "vertical tab"), ("\r", "carriage return not followed by a line feed"), ("\x00", "NUL"),
    ("\x1c", "a control character"), ("\x1e", "a control character"), ("\x1b", "escape"),
    ("\x85", "next line"), ("\u2028", "line separator"), ("\u2029", "paragraph separator"),
])
def test_other_control_characters_are_errors_with_a_caret(character, name):
    text = f"mov s0, 1\n  ; note{character} st [0], s0.u8\nhalt\n"
    (error,) = errors_of(text)
    code = ord(character)
    assert (error.loc.line, error.loc.col) == (2, 9)
    assert error.message == f"character U+{code:04X} ({name}) is not allowed"
    shown_line, caret = str(error).splitlines()[1:3]
    assert character not in shown_line                       # a terminal never receives it
    assert caret.index("^") == 4 + 9 - 1


def test_byte_order_mark(tmp_path):
    path = tmp_path / "bom.s"
    path.write_bytes(b"\xef\xbb\xbfmov s0, 5\nhalt\n")
    program = assemble_file(path)
    assert program.code[0][5] == 5
    assert program.insns[0].loc.col == 1
    assert assemble("\ufeffhalt", "t.s").insns[0].loc.col == 1


def test_slash_comment_is_floor_division_only_on_expression_directives():
    program = assemble(".equ Q 9 // 2\n.ub a u8[2] = i // 1\nmov s0, Q // 7\n.out a // a comment here\n", "t.s")
    assert program.code[0][5] == 4
    assert program.buffers["a"].data.tolist() == [0, 1]
    assert [b.name for b in program.outs] == ["a"]


def test_syntax_errors_on_several_lines_each_reported_and_later_lines_kept():
    errors = errors_of("mov s0,, 1\ngood: mov s1, 2\nmov s2, )\nb good\nb nowhere\n")
    assert [(e.loc.line, e.message) for e in errors] == [
        (1, "unexpected ','"), (3, "unexpected ')'"), (5, "undefined label 'nowhere'")]
