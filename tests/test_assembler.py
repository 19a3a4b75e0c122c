"""The assembler: directives, INIT forms, buffer placement, source-text rules, the bytecode encoding and
the diagnostics (LANGUAGE.md §3, §5; docs/bytecode.md). Buffer contents are checked after running the
program on both executors; expected contents are computed here with numpy."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

from ascasm import AssemblyFailed, assemble, assemble_file
from ascasm.isa import dtypes
from ascasm.isa.table import BARRIER_KINDS, OPCODES, ROW_WIDTH
from conftest import run_source

USABLE = 248 * 1024


def buffer_after_run(source: str, engine: str, name: str) -> np.ndarray:
    m = run_source(source, engine)
    assert m.stop_name == "HALTED"
    return m.program.buffers[name].view(m.state.ub)


def errors_of(source: str, filename: str = "t.s") -> list:
    with pytest.raises(AssemblyFailed) as failure:
        assemble(textwrap.dedent(source), filename)
    return failure.value.errors


def single_error(source: str):
    errors = errors_of(source)
    assert len(errors) == 1, [str(e) for e in errors]
    return errors[0]


# ---------------------------------------------------------------------------------------------
# .ub INIT forms
# ---------------------------------------------------------------------------------------------

def test_ub_without_init_is_zero(engine):
    np.testing.assert_array_equal(buffer_after_run(".ub a s32[9]\nhalt", engine, "a"), np.zeros(9))


@pytest.mark.parametrize("tname, init, expected", [
    ("s16", "-3", -3),
    ("u8", "0xAB", 0xAB),
    ("u32", "0b1011", 11),
    ("f32", "1.5", 1.5),
    ("f16", "-2e-3", np.float16(-2e-3)),
    ("f32", "inf", np.inf),
    ("f16", "-inf", -np.inf),
    ("bf16", "-2.5", -2.5),
    ("s64", "-9223372036854775808", -(1 << 63)),
    ("u64", "0xffffffffffffffff", (1 << 64) - 1),
    ("e4m3", "0.5", 0.5),
])
def test_ub_scalar_fill(engine, tname, init, expected):
    data = buffer_after_run(f".ub a {tname}[7] = {init}\nhalt", engine, "a")
    etype = dtypes.lookup(tname)
    np.testing.assert_array_equal(data, np.full(7, expected, etype.np_dtype))


def test_ub_nan_fill(engine):
    data = buffer_after_run(".ub a f32[4] = nan\n.ub b f16[4] = NaN\nhalt", engine, "a")
    assert np.isnan(data).all()


@pytest.mark.parametrize("tname, init, expected", [
    ("u8", "[1, 2, 3]", [1, 2, 3, 0, 0, 0]),
    ("s16", "[-1, 0x10, 0b11, -0x7fff, 7, 8]", [-1, 16, 3, -32767, 7, 8]),
    ("s32", "[]", [0] * 6),
    ("f32", "[1.5, -2e-3, inf, -inf, 1e3]", [1.5, -2e-3, np.inf, -np.inf, 1000.0, 0]),
    ("u16", "[0xffff]", [0xFFFF, 0, 0, 0, 0, 0]),
])
def test_ub_list(engine, tname, init, expected):
    data = buffer_after_run(f".ub a {tname}[6] = {init}\nhalt", engine, "a")
    np.testing.assert_array_equal(data, np.array(expected, dtypes.lookup(tname).np_dtype))


I = np.arange(128)


@pytest.mark.parametrize("tname, count, init, expected", [
    ("u16", 8, "i + 1", I[:8] + 1),
    ("u16", 128, "(i * 3) % 128", (I * 3) % 128),
    ("f32", 16, "0.5 * i - 3", 0.5 * I[:16] - 3),
    ("f16", 16, "i / 4", I[:16] / 4),
    ("s32", 9, "i // 2", I[:9] // 2),
    ("u32", 8, "i << 1", I[:8] << 1),
    ("u8", 20, "i >> 2", I[:20] >> 2),
    ("u8", 20, "i & 7", I[:20] & 7),
    ("u8", 20, "i | 8", I[:20] | 8),
    ("u8", 20, "i ^ 5", I[:20] ^ 5),
    ("s16", 8, "-i", -I[:8]),
    ("s16", 8, "-(i - 4) * 2", -(I[:8] - 4) * 2),
    ("s8", 10, "i % 3 - 1", I[:10] % 3 - 1),
    ("s32", 10, "(i + 1) * (i - 1)", (I[:10] + 1) * (I[:10] - 1)),
    ("f32", 10, "-i * 0.25", -I[:10] * 0.25),
    ("u8", 10, "i // 2 // 2", I[:10] // 4),          # `//` is floor division on .ub lines
    ("s32", 10, "-7 // 2 + i", -4 + I[:10]),          # floor, not truncation
])
def test_ub_index_expression(engine, tname, count, init, expected):
    data = buffer_after_run(f".ub a {tname}[{count}] = {init}\nhalt", engine, "a")
    np.testing.assert_array_equal(data, np.asarray(expected).astype(dtypes.lookup(tname).np_dtype))


def test_ub_expression_uses_equ_and_buffer_names(engine):
    m = run_source("""
        .equ K 10
        .equ HALF 0.5
        .ub x s32[4] = i * K
        .ub y u32[4] = x + 4 * i
        .ub z f32[4] = i * HALF
        """, engine)
    view = {n: m.program.buffers[n].view(m.state.ub) for n in "xyz"}
    np.testing.assert_array_equal(view["x"], [0, 10, 20, 30])
    np.testing.assert_array_equal(view["y"], [0, 4, 8, 12])        # x is at 0
    np.testing.assert_array_equal(view["z"], [0, 0.5, 1, 1.5])


def test_ub_file_relative_to_the_source(engine, tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    np.save(tmp_path / "data.npy", np.array([1.5, -2.25, 3e4], np.float32))
    np.save(tmp_path / "sub" / "idx.npy", np.arange(6, dtype=np.int64).reshape(2, 3) * 7)
    np.save(tmp_path / "half.npy", np.array([0.1, 65504.0], np.float64))
    source = tmp_path / "prog.s"
    source.write_text(textwrap.dedent("""
        .ub a f32[5] = file("data.npy")
        .ub b u16[8] = file("sub/idx.npy")
        .ub c f16[2] = file("half.npy")
        halt
        """))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)                         # relative to the source file, not the cwd
    from ascasm.vm import Machine
    program = assemble_file(source)
    machine = Machine(program, engine)
    machine.run()
    view = {n: program.buffers[n].view(machine.state.ub) for n in "abc"}
    np.testing.assert_array_equal(view["a"], np.array([1.5, -2.25, 3e4, 0, 0], np.float32))
    np.testing.assert_array_equal(view["b"], [0, 7, 14, 21, 28, 35, 0, 0])
    np.testing.assert_array_equal(view["c"], np.array([0.1, 65504.0]).astype(np.float16))


@pytest.mark.parametrize("data, tname, words", [
    (np.arange(9), "u8", "holds 9"),                      # longer than COUNT
    (np.array([1.5]), "s32", "integer"),
    (np.array([256]), "u8", "does not fit"),
])
def test_ub_file_errors(tmp_path, data, tname, words):
    np.save(tmp_path / "d.npy", data)
    (tmp_path / "p.s").write_text(f'.ub a {tname}[8] = file("d.npy")\n')
    with pytest.raises(AssemblyFailed) as failure:
        assemble_file(tmp_path / "p.s")
    (error,) = failure.value.errors
    assert words in error.message and error.loc.line == 1


def test_ub_file_missing(tmp_path):
    (tmp_path / "p.s").write_text('.ub a u8[8] = file("nope.npy")\n')
    with pytest.raises(AssemblyFailed) as failure:
        assemble_file(tmp_path / "p.s")
    assert failure.value.errors[0].loc.col == 20


@pytest.mark.parametrize("data, tname", [(np.array(["a", "bb"]), "u8"), (np.array(["a"]), "f32"),
                                         (np.array([1 + 2j]), "f32")])
def test_ub_file_of_non_numbers_is_an_assembly_error(tmp_path, data, tname):
    np.save(tmp_path / "d.npy", data)
    (tmp_path / "p.s").write_text(f'.ub a {tname}[8] = file("d.npy")\n')
    with pytest.raises(AssemblyFailed):
        assemble_file(tmp_path / "p.s")


@pytest.mark.parametrize("line", [
    ".ub a u8[4] = 256",
    ".ub a u8[4] = [0, 1, 256]",
    ".ub a s8[4] = -129",
    ".ub a u16[100] = i * 1000",
    ".ub a s32[4] = 1.5",
    ".ub a u32[4] = i / 2",
    ".ub a u64[4] = 0x10000000000000000",
    ".ub a u8[4] = nan",
    ".ub a s16[4] = inf",
    ".ub a u32[4] = i << 40",
    ".ub a u8[4] = [1, 2, 3, 4, 5]",
])
def test_ub_init_values_that_do_not_fit(line):
    error = single_error(line)
    assert error.loc.line == 1 and error.loc.col >= 15


@pytest.mark.parametrize("tname, init, expected", [
    ("u64", "0xffffffffffffffff - i", [(1 << 64) - 1, (1 << 64) - 2]),
    ("u64", "i + 0x8000000000000000", [1 << 63, (1 << 63) + 1]),
    ("s64", "i - 0x8000000000000000", [-(1 << 63), -(1 << 63) + 1]),
])
def test_ub_index_expression_with_64_bit_constants(engine, tname, init, expected):
    data = buffer_after_run(f".ub a {tname}[2] = {init}\nhalt", engine, "a")
    assert [int(v) for v in data.astype(object)] == expected


@pytest.mark.parametrize("line", [
    ".ub a s64[4] = i * 3000000000 * 3000000000",      # 1.8e19 for i = 2 does not fit s64
    ".ub a u8[4] = i << 70",                            # 2^70 for i = 1 does not fit u8
])
def test_ub_index_expression_overflow_is_an_error(line):
    errors_of(line)


@pytest.mark.parametrize("line", [".ub a f16[2] = 1e6", ".ub a e4m3[2] = 1000", ".ub a e8m0[2] = -1"])
def test_ub_float_init_out_of_range_is_an_error(line):
    errors_of(line)


# ---------------------------------------------------------------------------------------------
# placement
# ---------------------------------------------------------------------------------------------

def test_ub_placement_is_32_byte_aligned_after_the_previous_buffer():
    program = assemble(textwrap.dedent("""
        .ub a u8[1]
        .ub b u8[33]
        .ub c u16[1]
        .ub d f32[8]
        .ub e u8[8] @ 0x400
        .ub f u64[3]
        .ub g u8[32]
        """), "t.s")
    addr = {name: buf.addr for name, buf in program.buffers.items()}
    # a: 0..1; b: 32..65; c: 96..98; d: 128..160; e: 1024..1032; f: 1056..1080; g: 1088
    assert addr == {"a": 0, "b": 32, "c": 96, "d": 128, "e": 1024, "f": 1056, "g": 1088}


def test_ub_placement_follows_the_previous_buffer_not_the_highest():
    program = assemble(".ub hi u8[64] @ 4096\n.ub lo u8[32] @ 0\n.ub next u8[32]\n", "t.s")
    assert program.buffers["next"].addr == 32


def test_ub_at_address_and_mov(engine):
    m = run_source(f"""
        .equ BASE 0x2000
        .ub a u16[4] = 7 @ BASE + 64
        .ub z u8[32] = 1 @ {USABLE - 32}
        mov s0, a
        mov s1, z
        """, engine)
    assert m.program.buffers["a"].addr == 0x2040
    assert m.state.sreg[:2].tolist() == [0x2040, USABLE - 32]
    assert (m.state.ub[0x2040:0x2048].view(np.uint16) == 7).all()
    assert (m.state.ub[USABLE - 32:USABLE] == 1).all()


def test_ub_whole_ub_when_usable_is_lifted():
    program = assemble(".ub z u8[32] @ 262112", "t.s", ub_usable=256 * 1024)
    assert program.buffers["z"].addr == 262112


# ---------------------------------------------------------------------------------------------
# .equ, .out, .expect
# ---------------------------------------------------------------------------------------------

def test_equ_everywhere_a_constant_goes(engine):
    m = run_source("""
        .equ N 4
        .equ BYTES N * 8
        .ub a u8[BYTES] = N @ BYTES * 2
        mov s0, BYTES + 1
        add s1, s0, N
        iter a0.b8, N
        """, engine)
    buf = m.program.buffers["a"]
    assert (buf.addr, buf.count) == (64, 32)
    assert (buf.view(m.state.ub) == 4).all()
    assert m.state.sreg[:2].tolist() == [33, 37] and m.state.areg[0] == 4


def test_equ_float_is_not_an_integer_operand():
    error = single_error(".equ HALF 0.5\nmov s0, HALF")
    assert (error.loc.line, error.loc.col) == (2, 9)


def test_out_lists_buffers_in_order():
    program = assemble(".ub a u8[4]\n.ub b u8[4]\n.out b, a\n.out a", "t.s")
    assert [b.name for b in program.outs] == ["b", "a", "a"]


def test_out_unknown_buffer():
    error = single_error(".ub a u8[4]\n.out a, bb")
    assert (error.loc.line, error.loc.col) == (2, 9) and "bb" in error.message


@pytest.mark.parametrize("expect, differing", [
    (".expect d = i + 1", []),
    (".expect d = [1, 2, 3, 4, 5, 6, 7, 8]", []),
    (".expect d = i", list(range(8))),
    (".expect d = [1, 2, 3]", [3, 4, 5, 6, 7]),        # the rest of the list is zero
    (".expect d = i % 4 + 1", [4, 5, 6, 7]),
])
def test_expect_pass_and_mismatch(engine, expect, differing):
    m = run_source(f"""
        .ub s u16[128] = i + 1
        .ub d u16[8]
        {expect}
        vld v0.u16, [s]
        mask p0.b16, VL8
        vsta [d], v0.u16, p0
        halt
        """, engine)
    (expectation,) = m.program.expects
    assert expectation.buffer.name == "d"
    assert np.asarray(expectation.mismatches(m.state.ub)).tolist() == differing


def test_expect_float_nan_compares_bits(engine):
    m = run_source(".ub f f32[4] = nan\n.expect f = nan\nhalt", engine)
    assert len(m.program.expects[0].mismatches(m.state.ub)) == 0


def test_expect_list_too_long():
    error = single_error(".ub e u8[2]\n.expect e = [1, 2, 3]")
    assert (error.loc.line, error.loc.col) == (2, 13)


def test_expect_unknown_buffer():
    error = single_error(".expect nothing = 0")
    assert (error.loc.line, error.loc.col) == (1, 9)


# ---------------------------------------------------------------------------------------------
# source-text rules
# ---------------------------------------------------------------------------------------------

def test_case_insensitive_mnemonics_registers_types_patterns(engine):
    m = run_source("""
        .ub src u16[128] = i
        .ub dst u16[128] = 9
        VLD V0.U16, [src]
        Mask P1.B16, vl4
        VSTA [dst + S2], v0.Uint16, p1
        MOV S3, 5
        ITER A0.B16, S3
        membar vst_vld
        HALT
        """, engine)
    expected = np.full(128, 9)
    expected[:4] = [0, 1, 2, 3]
    np.testing.assert_array_equal(m.program.buffers["dst"].view(m.state.ub), expected)
    assert m.state.sreg[3] == 5 and m.state.areg[0] == 10


def test_labels_are_case_sensitive(engine):
    m = run_source("""
        mov s0, 0
        b Loop
        loop: mov s0, 1
        halt
        Loop: mov s0, 2
        """, engine)
    assert m.state.sreg[0] == 2


def test_label_case_mismatch_is_undefined():
    error = single_error("loop: halt\nb LOOP")
    assert (error.loc.line, error.loc.col) == (2, 3)
    assert "undefined label 'LOOP'" in error.message


def test_buffer_names_are_case_sensitive():
    program = assemble(".ub Buf u8[4]\n.ub buf u8[4]\nmov s0, buf", "t.s")
    assert program.buffers["Buf"].addr == 0 and program.buffers["buf"].addr == 32
    assert program.code[0][5] == 32


def test_comments(engine):
    m = run_source("""
        ; a whole-line comment
        // another one
        mov s0, 5 ; trailing
        mov s1, 6 // trailing too
        label: ; a label with a comment
        .ub a u8[4] = 7 // 2 ; floor division on .ub lines
        .equ Q 9 // 2
        mov s2, Q
        .ub b u8[4] = [1, 2] ; a list
        """, engine)
    assert m.state.sreg[:3].tolist() == [5, 6, 4]
    assert m.program.buffers["a"].view(m.state.ub).tolist() == [3, 3, 3, 3]
    assert m.program.buffers["b"].view(m.state.ub).tolist() == [1, 2, 0, 0]
    assert len(m.program.insns) == 3


def test_expect_line_floor_division():
    program = assemble(".ub a u8[4]\n.expect a = i // 2", "t.s")
    assert program.expects[0].values.tolist() == [0, 0, 1, 1]


# ---------------------------------------------------------------------------------------------
# bytecode rows (docs/bytecode.md)
# ---------------------------------------------------------------------------------------------

def code(name: str) -> int:
    return dtypes.lookup(name).code


@pytest.mark.parametrize("line, row", [
    # [opcode, type slot 0, type slot 1, operand slots...]
    ("mov s3, s7", ["OP_MOV", 0, 0, 3, 1, 7]),
    ("mov s3, -42", ["OP_MOV", 0, 0, 3, 0, -42]),
    ("add s1, s2, -5", ["OP_ADD", 0, 0, 1, 2, 0, -5]),
    ("shr s1, s2, s30", ["OP_SHR", 0, 0, 1, 2, 1, 30]),
    ("ld s4.s16, [buf + s2 + a1 + 6]", ["OP_LD", code("s16"), 0, 4, 64 + 6, 2, -1, 1]),
    ("st [s5 + s6], s9.b64", ["OP_ST", code("b64"), 0, 0, 5, 6, -1, 9]),
    ("top: blt s0, 3, top", ["OP_BLT", 0, 0, 0, 0, 3, 0]),
    ("b end", ["OP_B", 0, 0, 1]),
    ("membar", ["OP_MEMBAR", 0, 0, -1]),
    ("membar VST_LD", ["OP_MEMBAR", 0, 0, BARRIER_KINDS.index("VST_LD")]),
    ("halt", ["OP_HALT", 0, 0]),
    ("mask p2.b32, M4", ["OP_MASK", code("b32"), 0, 2, 11]),
    ("mask p7.b8, ALLF", ["OP_MASK", code("b8"), 0, 7, 15]),
    ("mask.upd p1.b16, s9", ["OP_MASK_UPD", code("b16"), 0, 1, 9]),
    ("iter a3.b16, 5", ["OP_ITER", code("b16"), 0, 3, 0, 5]),
    ("iter a3.b32, s4, -2", ["OP_ITER_SCALED", code("b32"), 0, 3, 4, 0, -2]),
    ("iter a3.b8, s4, s9", ["OP_ITER_SCALED", code("b8"), 0, 3, 4, 1, 9]),
    ("vld v31.bf16, [buf + 0x20]", ["OP_VLD", code("bf16"), 0, 31, 96, -1, -1, -1]),
    ("vsta [buf + a2], v1.f16, p3", ["OP_VSTA", code("f16"), 0, 64, -1, -1, 2, 1, 3]),
    ("vsct [s1 + 64], v0.u16, v1.u16, p0", ["OP_VSCT", code("u16"), code("u16"), 64, 1, -1, -1, 0, 1, 0]),
    ("vsct [buf], v4.f32, v5.u32, p6", ["OP_VSCT", code("f32"), code("u32"), 64, -1, -1, -1, 4, 5, 6]),
])
def test_bytecode_row(line, row):
    program = assemble(f".ub pad u8[64]\n.ub buf u8[512]\n{line}\nend: halt", "t.s")
    expected = np.zeros(ROW_WIDTH, np.int64)
    expected[:len(row)] = [OPCODES[row[0]], *row[1:]]
    np.testing.assert_array_equal(program.code[0], expected)
    assert program.code.shape == (2, ROW_WIDTH) and program.code.dtype == np.int64


def test_bytecode_source_map():
    program = assemble("; header\n\n  mov s0, 1\nloop:\n    b loop\n", "f.s")
    assert [(loc.file, loc.line, loc.col) for loc in program.srcmap] == [("f.s", 3, 3), ("f.s", 5, 5)]
    assert program.labels == {"loop": 1}


# ---------------------------------------------------------------------------------------------
# diagnostics
# ---------------------------------------------------------------------------------------------

ERROR_FILE = """\
.ub a u16[128]
        vldd v0.u16, [a]
vld v32.u16, [a]
vld v0.u17, [a]
vsta.1st [a], v0.u64
vld v0.u16
mov s0, v1
b nowhere
loop: halt
loop: halt
.ub a u8[4]
.ub p u8[64] @ 4096
.ub q u8[32] @ 4128
.ub big u8[300000]
.ub u u8[4] @ 40
.ub e u8[2]
.expect e = [1, 2, 3]
vld v0.u16, [a
mov s0,, 1
b lop
mask p0.b16, M5
mask p9.b16, ALL
vsct [a], v0.f16, v1.u32, p0
halt
"""

EXPECTED_ERRORS = [
    # line, col, words in the message, words in the notes
    (2, 9, "unknown mnemonic 'vldd'", "did you mean"),
    (3, 5, "v32", ""),
    (4, 8, "unknown type 'u17'", "u16"),
    (5, 15, "does not accept u64", "accepted"),
    (6, 1, "2 operands, got 1", "syntax"),
    (7, 9, "vector register", "syntax: mov sD, X"),
    (8, 3, "undefined label 'nowhere'", ""),
    (10, 1, "'loop' is already defined", "t.s:9:1"),
    (11, 5, "'a' is already defined", "t.s:1:5"),
    (13, 5, "overlaps", "'p'"),
    (14, 5, "does not fit", ""),
    (15, 15, "aligned", ""),
    (17, 13, "3 values", ""),
    (18, 15, "end of line", "expected"),
    (19, 8, "','", "expected"),
    (20, 3, "undefined label 'lop'", "did you mean 'loop'"),
    (21, 14, "M5", "M4"),
    (22, 6, "p9", ""),
    (23, 11, "f16/u32", "accepted"),
]


def test_every_error_of_a_file_is_reported_with_its_position():
    errors = errors_of(ERROR_FILE)
    assert [(e.loc.line, e.loc.col) for e in errors] == [(line, col) for line, col, _, _ in EXPECTED_ERRORS]
    for error, (line, col, message, note) in zip(errors, EXPECTED_ERRORS):
        assert message in error.message, (line, error.message)
        assert note in " ".join(error.notes), (line, error.notes)


def test_error_text_has_position_source_line_and_caret():
    with pytest.raises(AssemblyFailed) as failure:
        assemble("mov s0, 1\n    vldd v0.u16, [s0]\nvld v40.u8, [0]\n", "dir/prog.s")
    text = str(failure.value)
    lines = text.splitlines()
    assert lines[0] == "dir/prog.s:2:5: error: unknown mnemonic 'vldd'"
    assert lines[1] == "        vldd v0.u16, [s0]"
    assert lines[2] == "        ^~~~"
    assert lines[3].startswith("note: did you mean") and "'vld'" in lines[3]
    assert "dir/prog.s:3:5: error:" in text
    assert lines[-1] == "2 errors"


@pytest.mark.parametrize("line, col, words", [
    ("mov s32, 1", 5, "s32"),
    ("iter a8.b16, 1", 6, "a8"),
    ("mask p8.b16, ALL", 6, "p8"),
    ("vld v0.u8, [s99]", 13, "s99"),
    ("ld s1.hif8, [0]", 4, "hif8"),
    ("mask p0.u16, ALL", 6, "u16"),
    ("vag a0.b64, 1", 5, "b64"),
    ("vsct [0], v0.u16, v1.u16, v2", 27, "mask register"),
    ("vsct [0], v0.u16, v1.u16", 1, "4 operands, got 3"),
    ("halt 1", 1, "operands"),
    ("b 3", 3, "label"),
    ("membar ALL", 8, "ALL"),
    ("vld v0.u8, [s0 - s1]", 18, "subtracted"),
    ("vld v0.u8, [s0 + s1 + s2]", 12, "at most"),
    ("vld v0.u8, [v1]", 13, "vector register"),
    ("vld v0.u8, []", 13, "unexpected"),
    ("mov s0, undefined_thing", 9, "unknown name"),
    ("s0: halt", 1, "register"),
    (".ub a u8[0]", 10, "at least one"),
    (".ub a foo[4]", 7, "unknown type"),
    ("mov s0, 1 +", 12, "end of line"),
])
def test_single_errors(line, col, words):
    error = single_error(line)
    assert (error.loc.line, error.loc.col) == (1, col)
    assert words in error.message


def test_misspelt_register_did_you_mean():
    error = single_error(".ub a u16[128]\nmask p0.b16, ALL\nvsta [a], vv0.u16, p0")
    assert any("did you mean" in n and "v0" in n for n in error.notes)


def test_long_expression_does_not_crash():
    program = assemble("mov s0, 1" + " + 1" * 1500, "t.s")
    assert program.code[0][5] == 1501


@pytest.mark.parametrize("declaration, message", [
    (".ub x q8[4]", "unknown type 'q8'"),                                  # fails in pass 1
    (".ub x u8[4", "unexpected end of line"),                              # syntax error
    (".ubb x u8[4]", "unknown directive '.ubb'"),                          # misspelt directive
    (".ub x u8[300000]", "buffer 'x' (0x0..0x493e0) does not fit in the usable UB of 253952 bytes"),
    (".equ x 1 / 0", "division by zero"),
])
def test_a_failed_declaration_is_reported_once_not_at_every_use(declaration, message):
    errors = errors_of(f"{declaration}\nvld v0.u8, [x]\nmov s0, x + 1\n.out x\n.expect x = 0\n")
    assert [(e.loc.line, e.message) for e in errors] == [(1, message)]


def test_an_unknown_name_is_still_reported_after_a_failed_declaration():
    errors = errors_of(".ub x q8[4]\nmov s0, y\n")
    assert [e.message for e in errors] == ["unknown type 'q8'", "unknown name 'y'"]


def test_operand_count_error_when_no_form_has_that_many():
    error = single_error(".ub input u16[128]\nvld v0.u16, [input], 4")
    assert error.message == "'vld' takes 2 operands, got 3"


@pytest.mark.parametrize("expression, value", [
    # Python's precedence, lowest first: | ^ & (<< >>) (+ -) (* / // %); left to right within a level
    ("1 + 2 * 3", 7),
    ("2 * 3 - 4 // 2", 4),
    ("1 << 2 + 1", 8),
    ("6 & 3 | 8", 10),
    ("1 | 6 ^ 3 & 5", 7),            # 1 | (6 ^ (3 & 5))
    ("10 - 3 - 2", 5),
    ("100 // 7 % 3", 2),             # (100 // 7) % 3
    ("-2 * 3", -6),
    ("2 - -3", 5),
    ("(1 + 2) * 3", 9),
    ("64 >> 1 >> 2", 8),
])
def test_operator_precedence_is_pythons(expression, value):
    # on a .equ line (on an instruction line `//` starts a comment)
    assert assemble(f".equ K {expression}\nmov s0, K", "t.s").code[0][5] == value


def test_a_broken_out_line_does_not_hide_unknown_names():
    errors = errors_of(".out x,\nmov s0, x\n")
    assert [(e.loc.line, e.message) for e in errors] == [(1, "unexpected end of line"), (2, "unknown name 'x'")]
