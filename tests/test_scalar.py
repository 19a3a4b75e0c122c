"""Scalar and control instructions (LANGUAGE.md §4 "Scalar and control"; docs/semantics.md "Scalars",
"Steps, halting, limits"), on both executors. Expected values are worked out by hand from the spec."""
from __future__ import annotations

import numpy as np
import pytest

from ascasm import AssemblyFailed, assemble
from ascasm.isa.table import BARRIER_KINDS
from conftest import run_source

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
USABLE = 248 * 1024          # 253952: the first address that faults by default
UB_SIZE = 256 * 1024


def sreg(machine, n: int) -> int:
    return int(machine.state.sreg[n])


def assert_halted(machine, steps: int):
    assert machine.stop_name == "HALTED"
    assert machine.state.steps == steps


# ---------------------------------------------------------------------------------------------
# mov
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("42", 42),
    ("0", 0),
    ("-7", -7),
    ("0x2A", 42),
    ("0xff", 255),
    ("0b1011", 11),
    ("0x7fffffffffffffff", INT64_MAX),
    ("0xffffffffffffffff", -1),                 # 2^64 - 1 read as unsigned, stored as two's complement
    ("0x8000000000000000", INT64_MIN),
    ("-9223372036854775808", INT64_MIN),
    ("3 * 4 + 1", 13),
])
def test_mov_immediate(engine, text, expected):
    m = run_source(f"mov s7, {text}\nhalt", engine)
    assert sreg(m, 7) == expected
    assert_halted(m, 2)


def test_mov_immediate_too_wide_is_an_assembly_error():
    with pytest.raises(AssemblyFailed):
        assemble("mov s0, 0x10000000000000000", "t.s")


def test_mov_buffer_name_is_its_byte_address(engine):
    # a: 100 bytes at 0; b follows at the next 32-byte boundary, 128; c is fixed at 0x1000
    m = run_source("""
        .ub a u8[100]
        .ub b u16[4]
        .ub c u8[1] @ 0x1000
        mov s0, a
        mov s1, b
        mov s2, c
        mov s3, b + 6
        """, engine)
    assert [sreg(m, n) for n in range(4)] == [0, 128, 4096, 134]


def test_mov_equ_constant(engine):
    m = run_source("""
        .equ N 12
        .equ M N * 2 + 1
        mov s4, N
        mov s5, M
        mov s6, -N
        """, engine)
    assert (sreg(m, 4), sreg(m, 5), sreg(m, 6)) == (12, 25, -12)


def test_mov_register(engine):
    m = run_source("""
        mov s0, -5
        mov s31, s0
        mov s0, 9
        """, engine)
    assert (sreg(m, 31), sreg(m, 0)) == (-5, 9)
    assert_halted(m, 3)


# ---------------------------------------------------------------------------------------------
# add sub mul div rem and or xor shl shr
# ---------------------------------------------------------------------------------------------

ALU_CASES = [
    # mnemonic, sA, X, expected (by hand: 64-bit two's complement, trunc division, count & 63)
    ("add", 5, 7, 12),
    ("add", -1, 1, 0),
    ("add", INT64_MAX, 1, INT64_MIN),
    ("add", INT64_MIN, -1, INT64_MAX),
    ("sub", 5, 7, -2),
    ("sub", INT64_MIN, 1, INT64_MAX),
    ("sub", 0, INT64_MIN, INT64_MIN),
    ("mul", -3, 7, -21),
    ("mul", 1 << 32, 1 << 32, 0),
    ("mul", INT64_MAX, 2, -2),
    ("mul", INT64_MIN, -1, INT64_MIN),
    ("mul", 0x100000001, 0x100000001, 0x200000001),   # (2^32+1)^2 = 2^64 + 2^33 + 1
    ("div", 7, 2, 3),
    ("div", -7, 2, -3),
    ("div", 7, -2, -3),
    ("div", -7, -2, 3),
    ("div", 0, -5, 0),
    ("div", INT64_MIN, -1, INT64_MIN),
    ("div", INT64_MIN, 1, INT64_MIN),
    ("div", INT64_MIN, 2, -(1 << 62)),
    ("div", INT64_MIN, 3, -3074457345618258602),
    ("div", INT64_MAX, -1, -INT64_MAX),
    ("rem", 7, 2, 1),
    ("rem", -7, 2, -1),
    ("rem", 7, -2, 1),
    ("rem", -7, -2, -1),
    ("rem", 6, -3, 0),
    ("rem", INT64_MIN, -1, 0),
    ("rem", INT64_MIN, 3, -2),
    ("rem", INT64_MAX, INT64_MIN, INT64_MAX),
    ("and", 0b1100, 0b1010, 0b1000),
    ("and", -1, 0xff, 0xff),
    ("and", -2, 3, 2),
    ("or", 0b1100, 0b1010, 0b1110),
    ("or", INT64_MIN, 1, INT64_MIN + 1),
    ("xor", 0b1100, 0b1010, 0b0110),
    ("xor", -1, 0x0f, -16),
    ("shl", 1, 4, 16),
    ("shl", 1, 63, INT64_MIN),
    ("shl", 1, 64, 1),                    # 64 & 63 = 0
    ("shl", 1, 65, 2),
    ("shl", 3, -1, INT64_MIN),            # -1 & 63 = 63; 3 << 63 keeps only the low 64 bits
    ("shl", INT64_MAX, 1, -2),
    ("shr", 16, 2, 4),
    ("shr", -16, 2, -4),
    ("shr", -7, 1, -4),                   # arithmetic: rounds toward -inf
    ("shr", -1, 63, -1),
    ("shr", INT64_MIN, 63, -1),
    ("shr", INT64_MIN, 1, -(1 << 62)),
    ("shr", 16, 66, 4),                   # 66 & 63 = 2
    ("shr", 5, 64, 5),
]


@pytest.mark.parametrize("form", ["imm", "reg"])
@pytest.mark.parametrize("mnemonic, a, x, expected", ALU_CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in ALU_CASES])
def test_alu_result(engine, form, mnemonic, a, x, expected):
    operand = str(x) if form == "imm" else "s2"
    m = run_source(f"""
        mov s1, {a}
        mov s2, {x}
        {mnemonic} s3, s1, {operand}
        halt
        """, engine)
    assert sreg(m, 3) == expected
    assert (sreg(m, 1), sreg(m, 2)) == (a, x)       # sources unchanged
    assert_halted(m, 4)


@pytest.mark.parametrize("mnemonic", ["add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr"])
def test_alu_destination_may_be_a_source(engine, mnemonic):
    expected = {"add": 13, "sub": 7, "mul": 30, "div": 3, "rem": 1, "and": 2, "or": 11, "xor": 9,
                "shl": 80, "shr": 1}[mnemonic]
    m = run_source(f"mov s5, 10\nmov s6, 3\n{mnemonic} s5, s5, s6", engine)
    assert sreg(m, 5) == expected


@pytest.mark.parametrize("mnemonic", ["div", "rem"])
@pytest.mark.parametrize("divisor", ["s2", "0"])
def test_div_by_zero_faults_at_its_step_and_writes_nothing(engine, mnemonic, divisor):
    m = run_source(f"""
        mov s1, 10
        mov s2, 0
        mov s3, 99
        {mnemonic} s3, s1, {divisor}
        mov s4, 1
        halt
        """, engine)
    assert m.stop_name == "DIV_ZERO"
    assert m.state.steps == 3                      # the faulting instruction does not count
    assert m.state.pc == 3
    assert sreg(m, 3) == 99 and sreg(m, 4) == 0
    fault = m.fault()
    assert fault.kind == "DIV_ZERO" and fault.step == 4 and fault.loc.line == 5


# ---------------------------------------------------------------------------------------------
# ld / st
# ---------------------------------------------------------------------------------------------

LOAD_TYPES = ["s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64", "b8", "b16", "b32", "b64"]
WIDTH = {"8": 1, "16": 2, "32": 4, "64": 8}
PATTERN = [0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]


def width_of(tname: str) -> int:
    return WIDTH[tname[1:]]


def expected_load(raw: list[int], tname: str) -> int:
    """Little-endian bytes -> value: signed types sign-extend, unsigned and raw types zero-extend."""
    value = int.from_bytes(bytes(raw), "little", signed=tname.startswith("s"))
    return value - (1 << 64) if value >= (1 << 63) else value     # as a 64-bit register holds it


@pytest.mark.parametrize("tname", LOAD_TYPES)
@pytest.mark.parametrize("offset", [0, 8])
def test_ld_extends_by_signedness(engine, tname, offset):
    w = width_of(tname)
    m = run_source(f"""
        .ub pad u8[40]
        .ub d u8[16] = {PATTERN}
        ld s1.{tname}, [d + {offset}]
        """, engine)
    assert sreg(m, 1) == expected_load(PATTERN[offset:offset + w], tname)


@pytest.mark.parametrize("tname, expected", [
    ("s8", -120), ("u8", 0x88), ("b8", 0x88), ("s16", -26232), ("u16", 0x9988),
    ("s32", -1146447480), ("u32", 0xBBAA9988), ("s64", -4822678189205112), ("u64", -4822678189205112),
    ("b64", -4822678189205112),
])
def test_ld_hand_values(engine, tname, expected):
    # 0xFFEEDDCCBBAA9988 = -(0x0011223344556678) = -4822678189205112
    m = run_source(f".ub d u8[16] = {PATTERN}\nld s1.{tname}, [d]", engine)
    assert sreg(m, 1) == expected


def test_ld_type_aliases(engine):
    m = run_source(f".ub d u8[16] = {PATTERN}\nld s1.int16, [d]\nld s2.uint32, [d]\nld s3.INT8, [d]", engine)
    assert (sreg(m, 1), sreg(m, 2), sreg(m, 3)) == (-26232, 0xBBAA9988, -120)


@pytest.mark.parametrize("tname", LOAD_TYPES)
def test_st_writes_the_low_bytes(engine, tname):
    w = width_of(tname)
    value = 0x1122334455667788
    m = run_source(f"""
        .ub d u8[64] = 0xA5
        mov s1, {value}
        st [d + 16], s1.{tname}
        """, engine)
    d = m.program.buffers["d"].view(m.state.ub)
    expected = np.full(64, 0xA5, np.uint8)
    expected[16:16 + w] = list(value.to_bytes(8, "little")[:w])
    np.testing.assert_array_equal(d, expected)


@pytest.mark.parametrize("tname", LOAD_TYPES)
def test_st_negative_then_ld_round_trip(engine, tname):
    w = width_of(tname)
    m = run_source(f"""
        .ub d u8[32]
        mov s1, -3
        st [d + 8], s1.{tname}
        ld s2.{tname}, [d + 8]
        """, engine)
    raw = list((-3 % (1 << 64)).to_bytes(8, "little")[:w])
    d = m.program.buffers["d"].view(m.state.ub)
    assert list(d[8:8 + w]) == raw and not d[:8].any() and not d[8 + w:].any()
    assert sreg(m, 2) == expected_load(raw, tname)


@pytest.mark.parametrize("op", ["ld", "st"])
@pytest.mark.parametrize("tname, offset", [("u16", 1), ("s32", 2), ("u32", 3), ("s64", 4), ("b64", 1), ("b16", 7)])
def test_ld_st_misaligned(engine, op, tname, offset):
    insn = f"ld s1.{tname}, [d + {offset}]" if op == "ld" else f"st [d + {offset}], s1.{tname}"
    m = run_source(f"""
        .ub pad u8[64]
        .ub d u8[32] = 0x5A
        mov s1, 77
        {insn}
        mov s2, 1
        """, engine)
    assert m.stop_name == "MISALIGNED"
    assert m.state.fault_args[:2] == (64 + offset, width_of(tname))
    assert m.state.steps == 1 and m.state.pc == 1
    assert sreg(m, 1) == 77 and sreg(m, 2) == 0
    assert (m.program.buffers["d"].view(m.state.ub) == 0x5A).all()


@pytest.mark.parametrize("tname", ["u8", "s16", "u32", "s64"])
def test_ld_st_last_usable_bytes(engine, tname):
    w = width_of(tname)
    addr = USABLE - w
    m = run_source(f"""
        mov s1, -2
        st [{addr}], s1.{tname}
        ld s2.{tname}, [{addr}]
        halt
        """, engine)
    assert_halted(m, 4)
    assert list(m.state.ub[addr:USABLE]) == [0xFE] + [0xFF] * (w - 1)
    assert sreg(m, 2) == (-2 if tname.startswith("s") else (1 << (8 * w)) - 2)


@pytest.mark.parametrize("op", ["ld", "st"])
@pytest.mark.parametrize("tname", ["u8", "s16", "u32", "b64"])
def test_ld_st_past_usable_ub(engine, op, tname):
    w = width_of(tname)
    insn = f"ld s2.{tname}, [{USABLE}]" if op == "ld" else f"st [{USABLE}], s1.{tname}"
    m = run_source(f"mov s1, -1\n{insn}\nhalt", engine)
    assert m.stop_name == "UB_RANGE"
    assert m.state.fault_args == (USABLE, w, USABLE, -1, -1)
    assert m.state.steps == 1
    assert sreg(m, 2) == 0
    assert not m.state.ub.any()


def test_ld_negative_address_is_out_of_range(engine):
    m = run_source("mov s1, -8\nld s2.u64, [s1]", engine)
    assert m.stop_name == "UB_RANGE"
    assert m.state.fault_args == (-8, 8, USABLE, -1, -1)


def test_st_whole_ub_when_usable_is_lifted(engine):
    m = run_source(f"mov s1, -1\nst [{UB_SIZE - 8}], s1.u64\nld s2.s32, [{UB_SIZE - 4}]", engine,
                   ub_usable=UB_SIZE)
    assert m.stop_name == "HALTED"
    assert (m.state.ub[UB_SIZE - 8:] == 0xFF).all() and not m.state.ub[:UB_SIZE - 8].any()
    assert sreg(m, 2) == -1


def test_ld_st_address_forms(engine):
    # [d + s1], [s1 + s2 + a0], [d + a0]: offsets in bytes, a0 = 3 b16 elements = 6 bytes
    m = run_source("""
        .ub d u8[64]
        mov s1, 8
        mov s2, d
        mov s3, 0x0102
        iter a0.b16, 3
        st [d + s1], s3.u16
        st [s2 + s1 + a0], s3.u16
        st [d + a0 + 32], s3.u16
        ld s4.u16, [s2 + 14]
        """, engine)
    d = m.program.buffers["d"].view(m.state.ub)
    expected = np.zeros(64, np.uint8)
    for at in (8, 14, 38):
        expected[at:at + 2] = [0x02, 0x01]
    np.testing.assert_array_equal(d, expected)
    assert sreg(m, 4) == 0x0102


@pytest.mark.parametrize("tname", ["hif8", "e2m1x2", "s4x2"])
def test_ld_st_reject_types_a_scalar_register_does_not_hold(tname):
    # (the float types f16, bf16, f32, e4m3, e5m2, e8m0 load and store their bits: tests/test_scalar_floats.py)
    with pytest.raises(AssemblyFailed):
        assemble(f".ub d u8[64]\nld s1.{tname}, [d]", "t.s")
    with pytest.raises(AssemblyFailed):
        assemble(f".ub d u8[64]\nst [d], s1.{tname}", "t.s")


# ---------------------------------------------------------------------------------------------
# branches
# ---------------------------------------------------------------------------------------------

def test_b_jumps_over(engine):
    m = run_source("""
        mov s0, 1
        b skip
        mov s0, 2
        skip: halt
        """, engine)
    assert sreg(m, 0) == 1
    assert_halted(m, 3)


def test_b_backward_loop(engine):
    m = run_source("""
        mov s0, 0
        top: add s0, s0, 1
        beq s0, 3, done
        b top
        done: halt
        """, engine)
    assert sreg(m, 0) == 3
    assert_halted(m, 1 + 3 * 2 + 2 + 1)     # mov, 3x(add, beq), 2x b, halt


BRANCH_CASES = [
    # mnemonic, sA, X, taken (signed 64-bit comparisons, by hand)
    ("beq", 5, 5, True), ("beq", 5, 6, False), ("beq", -1, -1, True), ("beq", -1, INT64_MAX, False),
    ("bne", 5, 6, True), ("bne", -4, -4, False),
    ("blt", -3, 2, True), ("blt", 2, -3, False), ("blt", -3, -3, False), ("blt", -1, 0, True),
    ("blt", INT64_MIN, INT64_MAX, True), ("blt", INT64_MAX, INT64_MIN, False),
    ("ble", -3, -3, True), ("ble", -2, -3, False), ("ble", -5, 1, True), ("ble", 1, -5, False),
    ("bgt", -1, -2, True), ("bgt", -2, -1, False), ("bgt", 0, -1, True), ("bgt", -1, 0, False),
    ("bgt", 7, 7, False),
    ("bge", -2, -2, True), ("bge", -3, -2, False), ("bge", INT64_MAX, INT64_MIN, True),
    ("bge", INT64_MIN, INT64_MAX, False),
]


@pytest.mark.parametrize("form", ["imm", "reg"])
@pytest.mark.parametrize("mnemonic, a, x, taken", BRANCH_CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in BRANCH_CASES])
def test_cond_branch_signed(engine, form, mnemonic, a, x, taken):
    operand = str(x) if form == "imm" else "s2"
    m = run_source(f"""
        mov s1, {a}
        mov s2, {x}
        {mnemonic} s1, {operand}, yes
        mov s0, 1
        halt
        yes: mov s0, 2
        halt
        """, engine)
    assert sreg(m, 0) == (2 if taken else 1)
    assert_halted(m, 5)
    assert m.state.pc == (6 if taken else 4)


def test_cond_branch_taken_to_end_falls_off(engine):
    m = run_source("""
        mov s1, 1
        bne s1, 0, end
        mov s0, 5
        end:
        """, engine)
    assert_halted(m, 2)
    assert sreg(m, 0) == 0


# ---------------------------------------------------------------------------------------------
# membar, halt, falling off the end, step limit
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["", *BARRIER_KINDS, "vst_ld"])
def test_membar_is_one_step_with_no_effect(engine, kind):
    m = run_source(f"""
        .ub d u8[32] = 3
        mov s0, 1
        membar {kind}
        add s0, s0, 1
        halt
        """, engine)
    assert sreg(m, 0) == 2
    assert_halted(m, 4)
    assert (m.program.buffers["d"].view(m.state.ub) == 3).all()


def test_membar_unknown_kind_is_an_assembly_error():
    with pytest.raises(AssemblyFailed):
        assemble("membar VST_XX", "t.s")


def test_halt_counts_a_step_and_stays(engine):
    m = run_source("""
        mov s0, 1
        halt
        mov s0, 2
        """, engine)
    assert sreg(m, 0) == 1
    assert_halted(m, 2)
    assert m.state.pc == 1


def test_halt_alone(engine):
    m = run_source("halt", engine)
    assert_halted(m, 1)
    assert m.state.pc == 0


def test_falling_off_the_end_halts_without_a_step(engine):
    m = run_source("mov s0, 1\nmov s1, 2", engine)
    assert_halted(m, 2)
    assert m.state.pc == 2


def test_empty_program_halts_at_once(engine):
    m = run_source(".ub d u8[32]\n; nothing to do", engine)
    assert_halted(m, 0)


COUNTING_LOOP = """
    mov s0, 0
    loop: add s0, s0, 1
    blt s0, 5, loop
    """                                         # 1 + 5 * 2 = 11 steps


@pytest.mark.parametrize("tail, steps", [("halt", 12), ("", 11)])
def test_max_steps_exactly_enough(engine, tail, steps):
    m = run_source(COUNTING_LOOP + tail, engine, max_steps=steps)
    assert_halted(m, steps)
    assert sreg(m, 0) == 5


@pytest.mark.parametrize("tail, steps", [("halt", 12), ("", 11)])
def test_max_steps_one_short(engine, tail, steps):
    m = run_source(COUNTING_LOOP + tail, engine, max_steps=steps - 1)
    assert m.stop_name == "STEP_LIMIT"
    assert m.state.steps == steps - 1
    assert m.state.fault_args[0] == steps - 1


@pytest.mark.parametrize("limit", [0, 1, 1000])
def test_max_steps_infinite_loop(engine, limit):
    m = run_source("mov s0, 0\nloop: add s0, s0, 1\nb loop", engine, max_steps=limit)
    assert m.stop_name == "STEP_LIMIT"
    assert m.state.steps == limit
    assert m.state.fault_args[0] == limit
    assert sreg(m, 0) == limit // 2       # add runs on steps 2, 4, ...
