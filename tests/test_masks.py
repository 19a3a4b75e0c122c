"""Mask and address-register setup: `mask`, `mask.upd`, `iter` (LANGUAGE.md §1, §4 Setup; facts §1.1,
§2.1, §2.2, §7; docs/semantics.md "Masks and address registers"), and reads of unset mask registers."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import run_source

PATTERNS = ["ALL", "VL1", "VL2", "VL3", "VL4", "VL8", "VL16", "VL32", "VL64", "VL128",
            "M3", "M4", "H", "Q", "ALLF"]
WIDTHS = [1, 2, 4]


def mask_bytes(active_elements, width: int) -> list[int]:
    """The 32 bytes of a mask whose producer has width `width`: bit i*W set for each active element i,
    every other bit clear; bit k is bit k%8 of byte k//8 (LANGUAGE.md §1)."""
    out = [0] * 32
    for i in active_elements:
        k = i * width
        out[k // 8] |= 1 << (k % 8)
    return out


def pattern_elements(pattern: str, lanes: int) -> list[int]:
    """The elements a CreateMask pattern selects (facts §2.1), written out from the table."""
    if pattern == "ALL":
        return list(range(lanes))
    if pattern == "ALLF":
        return []
    if pattern.startswith("VL"):
        return list(range(min(int(pattern[2:]), lanes)))      # VLn beyond the lanes = all lanes
    if pattern == "M3":
        return list(range(0, lanes, 3))
    if pattern == "M4":
        return list(range(0, lanes, 4))
    if pattern == "H":
        return list(range(lanes // 2))
    if pattern == "Q":
        return list(range(lanes // 4))
    raise AssertionError(pattern)


def preg(machine, n: int) -> list[int]:
    return machine.state.preg[n].tolist()


# ---------------------------------------------------------------------------------------------
# mask pD.bW, PAT
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("width", WIDTHS, ids=["b8", "b16", "b32"])
@pytest.mark.parametrize("pattern", PATTERNS)
def test_mask_pattern(engine, pattern, width):
    m = run_source(f"mask p5.b{8 * width}, {pattern}\nhalt", engine)
    assert preg(m, 5) == mask_bytes(pattern_elements(pattern, 256 // width), width)
    assert m.state.preg_set.tolist() == [0, 0, 0, 0, 0, 1, 0, 0]
    assert m.stop_name == "HALTED" and m.state.steps == 2


@pytest.mark.parametrize("source, expected", [
    # spot checks written out bit by bit
    ("mask p0.b8, ALL", [0xFF] * 32),
    ("mask p0.b16, ALL", [0x55] * 32),
    ("mask p0.b32, ALL", [0x11] * 32),
    ("mask p0.b8, VL3", [0x07] + [0] * 31),
    ("mask p0.b16, VL3", [0x15] + [0] * 31),
    ("mask p0.b32, VL3", [0x11, 0x01] + [0] * 30),
    ("mask p0.b8, M4", [0x11] * 32),
    ("mask p0.b16, M4", [0x01] * 32),
    ("mask p0.b32, M4", [0x01, 0x00] * 16),
    ("mask p0.b8, M3", [0x49, 0x92, 0x24] * 10 + [0x49, 0x92]),
    ("mask p0.b16, H", [0x55] * 16 + [0] * 16),
    ("mask p0.b32, Q", [0x11] * 8 + [0] * 24),
    ("mask p0.b8, VL128", [0xFF] * 16 + [0] * 16),
    ("mask p0.b32, VL128", [0x11] * 32),      # 128 > 64 lanes: all lanes
    ("mask p0.b16, VL128", [0x55] * 32),
    ("mask p0.b8, ALLF", [0] * 32),
])
def test_mask_pattern_hand_values(engine, source, expected):
    m = run_source(source, engine)
    assert preg(m, 0) == expected
    assert m.state.preg_set[0] == 1


def test_mask_overwrite_clears_other_bits(engine):
    m = run_source("mask p2.b8, ALL\nmask p2.b32, VL1", engine)
    assert preg(m, 2) == [0x01] + [0] * 31


def test_mask_all_registers_and_case(engine):
    m = run_source("\n".join(f"MASK P{n}.B16, vl{n + 1}" for n in range(4)), engine)
    for n in range(4):
        assert preg(m, n) == mask_bytes(range(n + 1), 2)
    assert m.state.preg_set.tolist() == [1, 1, 1, 1, 0, 0, 0, 0]


# ---------------------------------------------------------------------------------------------
# mask.upd pD.bW, sN
# ---------------------------------------------------------------------------------------------

def test_mask_upd_b16_walks_320_elements(engine):
    # facts §2.2: 320 b16 elements -> full, full, low 64, and the count goes 192, 64, 0; once more: empty, 0
    m = run_source("""
        mov s0, 320
        mask.upd p0.b16, s0
        mov s10, s0
        mask.upd p1.b16, s0
        mov s11, s0
        mask.upd p2.b16, s0
        mov s12, s0
        mask.upd p3.b16, s0
        mov s13, s0
        """, engine)
    assert preg(m, 0) == [0x55] * 32
    assert preg(m, 1) == [0x55] * 32
    assert preg(m, 2) == [0x55] * 16 + [0] * 16
    assert preg(m, 3) == [0] * 32
    assert m.state.sreg[10:14].tolist() == [192, 64, 0, 0]
    assert m.state.preg_set[:4].tolist() == [1, 1, 1, 1]


@pytest.mark.parametrize("width, count, after", [
    # by hand: lanes = 256 / W; count < lanes -> 0, else count - lanes
    (1, 300, 44), (1, 44, 0), (1, 256, 0), (1, 255, 0), (1, 257, 1),
    (2, 128, 0), (2, 129, 1), (2, 1, 0), (2, 0, 0),
    (4, 100, 36), (4, 36, 0), (4, 64, 0), (4, 63, 0),
    (2, -5, 0), (4, -1, 0), (1, -(1 << 63), 0),
    (4, (1 << 63) - 1, (1 << 63) - 1 - 64),
])
def test_mask_upd_counts(engine, width, count, after):
    m = run_source(f"mov s7, {count}\nmask.upd p6.b{8 * width}, s7", engine)
    lanes = 256 // width
    assert preg(m, 6) == mask_bytes(range(max(0, min(count, lanes))), width)
    assert int(m.state.sreg[7]) == after
    assert m.state.preg_set[6] == 1


def test_mask_upd_b8_and_b32_loops(engine):
    # a loop over 300 b8 elements (256 + 44) and 100 b32 elements (64 + 36)
    m = run_source("""
        mov s0, 300
        mask.upd p0.b8, s0
        mask.upd p1.b8, s0
        mov s1, 100
        mask.upd p2.b32, s1
        mask.upd p3.b32, s1
        """, engine)
    assert preg(m, 0) == [0xFF] * 32
    assert preg(m, 1) == [0xFF] * 5 + [0x0F] + [0] * 26          # 44 = 5 * 8 + 4
    assert preg(m, 2) == [0x11] * 32
    assert preg(m, 3) == [0x11] * 18 + [0] * 14                   # 36 lanes, 2 per byte
    assert (int(m.state.sreg[0]), int(m.state.sreg[1])) == (0, 0)


# ---------------------------------------------------------------------------------------------
# iter aD.bW, X   /   iter aD.bW, sI, X
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, expected", [
    ("iter a0.b8, 5", 5),
    ("iter a0.b16, 5", 10),
    ("iter a0.b32, 5", 20),
    ("iter a0.b32, 0", 0),
    ("iter a0.b32, 0x40000001", 4),                  # 0x100000004 mod 2^32
    ("iter a0.b8, -1", 0xFFFFFFFF),
    ("iter a0.b16, -3", (1 << 32) - 6),
    ("iter a0.b8, 0x123456789", 0x23456789),
])
def test_iter_immediate(engine, line, expected):
    m = run_source(line, engine)
    assert int(m.state.areg[0]) == expected


def test_iter_register(engine):
    m = run_source("mov s3, 7\niter a4.b16, s3\nmov s3, -2\niter a5.b32, s3", engine)
    assert m.state.areg.tolist() == [0, 0, 0, 0, 14, (1 << 32) - 8, 0, 0]


@pytest.mark.parametrize("sI, stride, width, expected", [
    (7, 3, 4, 84),
    (7, 3, 1, 21),
    (7, 3, 2, 42),
    (3, -2, 2, (1 << 32) - 12),
    (-1, 1, 1, 0xFFFFFFFF),
    (0x80000000, 2, 1, 0),                            # 2^32 mod 2^32
    (0x40000000, 1, 4, 0),
    (0x12345, 0x10, 2, 0x2468A0),
    (5, 0, 4, 0),
])
@pytest.mark.parametrize("in_register", [False, True], ids=["stride_imm", "stride_reg"])
def test_iter_scaled(engine, sI, stride, width, expected, in_register):
    # the register form (a run-time stride, Reg::CreateAddrReg's uint32_t stride0) computes the same
    # product modulo 2^32 as the immediate form, and leaves both scalar registers as they were
    setup = f"mov s5, {stride}\n" if in_register else ""
    operand = "s5" if in_register else stride
    m = run_source(f"mov s2, {sI}\n{setup}iter a7.b{8 * width}, s2, {operand}", engine)
    assert int(m.state.areg[7]) == expected
    assert int(m.state.sreg[2]) == sI
    if in_register:
        assert int(m.state.sreg[5]) == stride


def test_iter_register_stride_addresses_a_load(engine):
    # a0 = s0 * s1 * 4 bytes = 2 * 16 * 4 = 128: the load reads src[32..96), the f32 values 32..95
    m = run_source("""
        .ub src f32[128] = i
        .ub dst f32[64]
        mov s0, 2
        mov s1, 16
        iter a0.b32, s0, s1
        vld v0.f32, [src + a0]
        mask p0.b32, ALL
        vsta [dst], v0.f32, p0
        """, engine)
    assert int(m.state.areg[0]) == 128
    np.testing.assert_array_equal(m.state.ub[512:768].view(np.float32), np.arange(32, 96, dtype=np.float32))


def test_iter_overwrites(engine):
    m = run_source("iter a1.b32, 100\niter a1.b8, 1", engine)
    assert int(m.state.areg[1]) == 1


# ---------------------------------------------------------------------------------------------
# unset mask registers
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("store", [
    "vsta [d], v0.u8, p3",
    "vsta [d + 1], v0.u16, p3",                     # the mask check comes before the alignment check
    "vsct [d], v0.u16, v1.u16, p3",
    "vsct [d + 2], v0.u32, v1.u32, p3",
])
def test_vsta_vsct_unset_mask_faults(engine, store):
    m = run_source(f"""
        .ub d u8[512] = 0x5A
        mask p0.b8, ALL
        mask p2.b8, ALL
        {store}
        halt
        """, engine)
    assert m.stop_name == "MASK_UNSET"
    assert m.state.fault_args[0] == 3
    assert m.state.steps == 2 and m.state.pc == 2
    assert (m.state.ub[:512] == 0x5A).all() and not m.state.ub[512:].any()
    assert m.fault().loc.line == 5


def test_mask_unset_after_mask_upd_on_another_register(engine):
    m = run_source("""
        .ub d u8[256]
        mov s0, 10
        mask.upd p1.b8, s0
        vsta [d], v0.u8, p7
        """, engine)
    assert m.stop_name == "MASK_UNSET" and m.state.fault_args[0] == 7


def test_mask_written_by_mask_upd_is_set(engine):
    # an empty mask from mask.upd is still a written mask: the store runs and writes nothing
    m = run_source("""
        .ub d u8[256] = 0x11
        mov s0, 0
        mask.upd p4.b8, s0
        vsta [d], v0.u8, p4
        halt
        """, engine)
    assert m.stop_name == "HALTED" and m.state.steps == 4
    assert (m.state.ub[:256] == 0x11).all()


# ---------------------------------------------------------------------------------------------
# consumers read bit i*W only
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("producer, store_type, active", [
    # a b8 VL3 mask sets bits 0,1,2; a b16 store reads bits 0,2,4...: lanes 0 and 1
    ("mask p0.b8, VL3", "u16", [0, 1]),
    # b8 M4 sets bits 0,4,8...; read at b16 (bit 2i): the even lanes
    ("mask p0.b8, M4", "u16", list(range(0, 128, 2))),
    # b8 M4 read at b32 (bit 4i): every lane
    ("mask p0.b8, M4", "u32", list(range(64))),
    # b16 ALL sets the even bits; read at b8: the even byte lanes
    ("mask p0.b16, ALL", "u8", list(range(0, 256, 2))),
    # b32 VL2 sets bits 0 and 4; read at b16 (bits 0,2,4): lanes 0 and 2
    ("mask p0.b32, VL2", "u16", [0, 2]),
])
def test_mask_read_at_another_width(engine, producer, store_type, active):
    w = {"u8": 1, "u16": 2, "u32": 4}[store_type]
    m = run_source(f"""
        .ub src u8[256] = i
        .ub d u8[256] = 0xEE
        vld v0.u8, [src]
        {producer}
        vsta [d], v0.{store_type}, p0
        """, engine)
    expected = np.full(256, 0xEE, np.uint8)
    for lane in active:
        expected[lane * w:(lane + 1) * w] = np.arange(lane * w, (lane + 1) * w)
    np.testing.assert_array_equal(m.program.buffers["d"].view(m.state.ub), expected)
