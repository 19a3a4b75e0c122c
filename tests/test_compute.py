"""Vector compute (docs/semantics.md "Vector compute") on both executors, against an independent model
written here with Python integers and numpy float64 -> float32 conversions (never ascasm's output)."""
from __future__ import annotations

import math
import random
import struct

import numpy as np
import pytest

from conftest import run_source

NAN = 0x7FC00000
F32_BITS = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001,
            0x00000001, 0x80000001, 0x007FFFFF, 0x7F7FFFFF, 0xFF7FFFFF, 0x3FC00000, 0x33800000, 0x4B800001]
INT_TYPES = {"s8": (8, True), "u8": (8, False), "s16": (16, True), "u16": (16, False), "s32": (32, True),
             "u32": (32, False), "s64": (64, True), "u64": (64, False)}
TYPES = list(INT_TYPES) + ["f32"]
MASKS = {"ALL": lambda n: [True] * n, "M3": lambda n: [i % 3 == 0 for i in range(n)],
         "VL4": lambda n: [i < 4 for i in range(n)], "none": lambda n: [False] * n}


def width_of(t):
    return 32 if t == "f32" else INT_TYPES[t][0]


def lanes_of(t):
    return 2048 // width_of(t)


def operand_bits(t, seed):
    """Lane bit patterns: boundary values first, then random ones."""
    rng = np.random.default_rng(seed)
    n, w = lanes_of(t), width_of(t)
    if t == "f32":
        base = F32_BITS + [int(b) for b in np.float32(rng.normal(0, 1e3, n)).view(np.uint32)]
    else:
        top = (1 << w) - 1
        rand = random.Random(seed)
        base = [0, 1, top, top >> 1, (top >> 1) + 1, 2, top - 1] + [rand.randint(0, top) for _ in range(n)]
    return base[:n]


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def f32_bits_of(value: float) -> int:
    """Round a Python float (a double) once to f32; NaN -> canonical."""
    if math.isnan(value):
        return NAN
    with np.errstate(over="ignore"):
        return int(np.array([value], np.float64).astype(np.float32).view(np.uint32)[0])


def signed(bits, w):
    return bits - (1 << w) if bits >> (w - 1) else bits


def key(t, bits):
    """Order of T's values (f32 non-NaN: -0 below +0)."""
    if t == "f32":
        return (f32(bits), bits >> 31 == 0)
    w, is_signed = INT_TYPES[t]
    return signed(bits, w) if is_signed else bits


def model_binary(op, t, a, b):
    if t == "f32":
        x, y = f32(a), f32(b)
        if op in ("max", "min"):
            if math.isnan(x) or math.isnan(y):
                return NAN
            return (max if op == "max" else min)((a, b), key=lambda v: key(t, v)) if key(t, a) != key(t, b) else a
        return f32_bits_of({"add": x + y, "sub": x - y, "mul": x * y}[op])
    w = width_of(t)
    if op in ("max", "min"):
        return (max if op == "max" else min)(a, b, key=lambda v: key(t, v))
    return {"add": a + b, "sub": a - b, "mul": a * b}[op] % (1 << w)


def buf(name, t, bits):
    return f".ub {name} u{width_of(t)}[{len(bits)}] = [{', '.join(map(str, bits))}]\n"


def vreg_bits(machine, number, t):
    return [int(v) for v in machine.state.vreg[number].view(f"u{width_of(t) // 8}")]


def mask_setup(mask, t):
    return "mov s9, 0\n mask.upd p0.b8, s9\n" if mask == "none" else f"mask p0.b{width_of(t) if width_of(t) <= 32 else 32}, {mask}\n"


def active_lanes(mask, t):
    """Which lanes the mask of mask_setup selects: bit i*W, with b32 patterns for 64-bit types."""
    n = lanes_of(t)
    if width_of(t) <= 32:
        return MASKS[mask](n)
    bits = [False] * 256
    for j, on in enumerate(MASKS[mask](64)):
        bits[j * 4] = on
    return [bits[i * 8] for i in range(n)]


@pytest.mark.parametrize("mask", ["ALL", "M3", "VL4", "none"])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "max", "min"])
@pytest.mark.parametrize("t", TYPES)
def test_vector_binary(engine, t, op, mask):
    a, b = operand_bits(t, 1), operand_bits(t, 2)[::-1]
    m = run_source(buf("a", t, a) + buf("b", t, b) + mask_setup(mask, t) + f"""
        vld v0.{t}, [a]
        vld v1.{t}, [b]
        vdup v2.{t}, 7
        v{op} v2.{t}, v0.{t}, v1.{t}, p0
        v{op} v3.{t}, v0.{t}, v0.{t}, p0
    """, engine)
    assert m.stop_name == "HALTED"
    act = active_lanes(mask, t)
    assert vreg_bits(m, 2, t) == [model_binary(op, t, x, y) if on else 0 for x, y, on in zip(a, b, act)]
    assert vreg_bits(m, 3, t) == [model_binary(op, t, x, x) if on else 0 for x, on in zip(a, act)]


SCALARS = {"s8": ["-128", "127", "255", "s5"], "u16": ["65535", "-1", "s5"], "s32": ["-7", "s5"],
           "u64": ["0xffffffffffffffff", "s5"], "f32": ["1.5", "0.1", "-inf", "nan", "s5", "16777217"]}


def immediate_bits(t, text, sreg_value):
    w = width_of(t)
    if text == "s5":
        return f32_bits_of(float(sreg_value)) if t == "f32" else sreg_value % (1 << w)
    if t == "f32":
        return f32_bits_of(float(text))
    return int(text, 0) % (1 << w)


@pytest.mark.parametrize("op", ["adds", "muls", "maxs", "mins"])
@pytest.mark.parametrize("t,text", [(t, x) for t, xs in SCALARS.items() for x in xs])
def test_vector_scalar_forms(engine, t, text, op):
    sreg = -123456789012345
    a = operand_bits(t, 3)
    m = run_source(buf("a", t, a) + mask_setup("M3", t) + f"""
        mov s5, {sreg}
        vld v0.{t}, [a]
        v{op} v1.{t}, v0.{t}, {text}, p0
    """, engine)
    x = immediate_bits(t, text, sreg)
    act = active_lanes("M3", t)
    assert vreg_bits(m, 1, t) == [model_binary(op[:-1], t, v, x) if on else 0 for v, on in zip(a, act)]


def test_f32_rounding_and_special_cases(engine):
    # 1 + 2^-24 rounds (ties to even) back to 1; 1 + 3*2^-24 rounds up; the largest float doubled
    # overflows to inf; subnormal * 1 stays subnormal; inf - inf is NaN (canonical); -0 + -0 = -0; -0 + +0 = +0
    a = [0x3F800000, 0x3F800000, 0x7F7FFFFF, 0x00000001, 0x7F800000, 0x80000000, 0x80000000, 0xFFC12345]
    b = [0x33800000, 0x34400000, 0x7F7FFFFF, 0x3F800000, 0x7F800000, 0x80000000, 0x00000000, 0x3F800000]
    m = run_source(buf("a", "f32", a) + buf("b", "f32", b) + """
        mask p0.b32, ALL
        vld v0.f32, [a]
        vld v1.f32, [b]
        vadd v2.f32, v0.f32, v1.f32, p0
        vmul v3.f32, v0.f32, v1.f32, p0
        vsub v4.f32, v0.f32, v1.f32, p0
        vmax v5.f32, v0.f32, v1.f32, p0
        vmin v6.f32, v0.f32, v1.f32, p0
    """, engine)
    add = vreg_bits(m, 2, "f32")[:8]
    assert add == [0x3F800000, 0x3F800002, 0x7F800000, 0x3F800000, 0x7F800000, 0x80000000, 0x00000000, NAN]
    assert vreg_bits(m, 3, "f32")[:4] == [0x33800000, 0x34400000, 0x7F800000, 0x00000001]
    assert vreg_bits(m, 4, "f32")[4] == NAN                       # inf - inf
    assert vreg_bits(m, 5, "f32")[6:8] == [0x00000000, NAN]       # max(-0, +0) = +0; NaN operand
    assert vreg_bits(m, 6, "f32")[6:8] == [0x80000000, NAN]       # min(-0, +0) = -0


@pytest.mark.parametrize("t", TYPES)
def test_vdup_and_vci(engine, t):
    w = width_of(t)
    n = lanes_of(t)
    imm = "-2.5" if t == "f32" else str(-3 if INT_TYPES[t][1] else (1 << w) - 3)
    m = run_source(mask_setup("M3", t) + f"""
        mov s4, -3
        vdup v0.{t}, {imm}
        vdup v1.{t}, s4
        vdup v2.{t}, {imm}, p0
        vci v3.{t}, {imm}
        vci v4.{t}, s4
    """, engine)
    x = f32_bits_of(-2.5) if t == "f32" else (-3) % (1 << w)
    r = f32_bits_of(-3.0) if t == "f32" else (-3) % (1 << w)
    act = active_lanes("M3", t)
    assert vreg_bits(m, 0, t) == [x] * n
    assert vreg_bits(m, 1, t) == [r] * n
    assert vreg_bits(m, 2, t) == [x if on else 0 for on in act]
    if t == "f32":
        assert vreg_bits(m, 3, t) == [f32_bits_of(-2.5 + i) for i in range(n)]
        assert vreg_bits(m, 4, t) == [f32_bits_of(-3.0 + i) for i in range(n)]
    else:
        assert vreg_bits(m, 3, t) == [(-3 + i) % (1 << w) for i in range(n)]    # wraps through 0
        assert vreg_bits(m, 4, t) == [(-3 + i) % (1 << w) for i in range(n)]


def test_f32_from_register_and_large_vci(engine):
    # (float)(double)int64: 2^53 + 1 -> double 2^53 -> f32 2^53; vci at 2^24: 2^24 + 1 rounds to 2^24
    m = run_source("""
        mov s1, 9007199254740993
        vdup v0.f32, s1
        vci v1.f32, 16777216
    """, engine)
    assert vreg_bits(m, 0, "f32")[0] == f32_bits_of(float(2 ** 53))
    assert vreg_bits(m, 1, "f32")[:4] == [f32_bits_of(16777216.0 + i) for i in range(4)]
    assert vreg_bits(m, 1, "f32")[1] == vreg_bits(m, 1, "f32")[0]


def test_immediate_range_errors():
    from ascasm import AssemblyFailed, assemble
    for bad in ("vdup v0.u8, 256", "vdup v0.s8, -129", "vdup v0.f32, 1e39", "vdup v0.s16, 1.5"):
        with pytest.raises(AssemblyFailed):
            assemble(bad, "bad.s")
    assemble("vdup v0.f32, inf\nvdup v0.u8, -128\nvdup v0.f32, 3", "ok.s")


COMPARE = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "lt": lambda x, y: x < y,
           "le": lambda x, y: x <= y, "gt": lambda x, y: x > y, "ge": lambda x, y: x >= y}


def value(t, bits):
    if t == "f32":
        return f32(bits)
    w, is_signed = INT_TYPES[t]
    return signed(bits, w) if is_signed else bits


@pytest.mark.parametrize("mask", ["ALL", "M3"])
@pytest.mark.parametrize("cc", list(COMPARE))
@pytest.mark.parametrize("t", ["s16", "u32", "f32", "s8", "u64"])
def test_vcmp(engine, t, cc, mask):
    a = operand_bits(t, 4)
    b = list(a[:len(a) // 2]) + operand_bits(t, 5)[len(a) // 2:]     # half equal lanes
    b = b[1:] + b[:1] if t == "f32" else b                           # f32: NaN against numbers, -0 vs +0
    m = run_source(buf("a", t, a) + buf("b", t, b) + mask_setup(mask, t) + f"""
        vld v0.{t}, [a]
        vld v1.{t}, [b]
        vcmp.{cc} p5, v0.{t}, v1.{t}, p0
        pcnt s6, p5.b{min(width_of(t), 32)}
    """, engine)
    w8 = width_of(t) // 8
    act = active_lanes(mask, t)
    expected = [False] * 256
    for i, (x, y, on) in enumerate(zip(a, b, act)):
        expected[i * w8] = on and COMPARE[cc](value(t, x), value(t, y))
    got = np.unpackbits(m.state.preg[5], bitorder="little").astype(bool).tolist()
    assert got == expected
    assert m.state.preg_set[5] == 1


def test_vsel_raw_bits(engine):
    a, b = F32_BITS * 4, [0x12345678 + i for i in range(64)]
    m = run_source(buf("a", "f32", a) + buf("b", "f32", b) + """
        mask p0.b32, M4
        vld v0.f32, [a]
        vld v1.f32, [b]
        vsel v0.f32, v0.f32, v1.f32, p0
    """, engine)
    act = [i % 4 == 0 for i in range(64)]             # M4: every fourth lane
    assert vreg_bits(m, 0, "f32") == [x if on else y for x, y, on in zip(a, b, act)]


@pytest.mark.parametrize("bw", [8, 16, 32])
def test_pcnt(engine, bw):
    bits = np.random.default_rng(bw).integers(0, 256, 32, dtype=np.uint8)
    m = run_source(f"""
        .ub raw u8[32] = [{', '.join(map(str, bits))}]
        vld p1, [raw]
        pcnt s1, p1.b{bw}
    """, engine)
    flat = np.unpackbits(bits, bitorder="little")
    assert m.state.sreg[1] == int(flat[::bw // 8].sum())


@pytest.mark.parametrize("line", ["pcnt s1, p3.b8", "vadd v0.s8, v1.s8, v2.s8, p3", "vsel v0.u8, v1.u8, v2.u8, p3",
                                  "vcmp.eq p0, v1.u8, v2.u8, p3", "vdup v0.u8, 1, p3"])
def test_unset_mask_faults(engine, line):
    m = run_source(line, engine)
    assert m.stop_name == "MASK_UNSET"
