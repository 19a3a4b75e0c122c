"""Compute families on both executors: compares with a scalar (c-api-reg compare_and_select
asc_CC_scalar.md), bitwise not and shifts (logic_compute asc_not.md, asc_shiftleft*.md, asc_shiftright*.md).
Expected values: the pages' worked examples typed in, hand-worked cases, and an independent model written
here with Python integers and numpy / ml_dtypes comparisons."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from conftest import run_source

from ascasm import AssemblyFailed, assemble

NP = {"s8": np.int8, "u8": np.uint8, "s16": np.int16, "u16": np.uint16, "s32": np.int32, "u32": np.uint32,
      "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}
COMPARE_TYPES = ["s8", "u8", "s16", "u16", "f16", "bf16", "s32", "u32", "f32"]     # asc_lt_scalar.md, ...
COMPARE = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
           "ge": np.greater_equal}


def width(t):
    return np.dtype(NP[t]).itemsize


def buffer(name, t, values) -> str:
    bits = np.asarray(values).astype(NP[t]).view(f"u{width(t)}")
    return f".ub {name} u{8 * width(t)}[{len(bits)}] = [{', '.join(map(str, bits.tolist()))}]\n"


def lane_values(t, seed):
    """Boundary values first (NaN, infinities, zeros of both signs for floats), then random ones."""
    n = 256 // width(t)
    rng = np.random.default_rng(seed)
    if t.startswith(("f", "bf")):
        special = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -1.5, 2.0, 3.0]
        return np.array(special + rng.integers(-4, 5, n - len(special)).tolist(), np.float64).astype(NP[t])
    info = np.iinfo(NP[t])
    special = [info.min, info.max, 0, 1, 2, 3]
    return np.array(special + rng.integers(max(info.min, -4), 5, n - len(special)).tolist()).astype(NP[t])


def mask_bits(machine, p, t):
    return np.unpackbits(machine.state.preg[p], bitorder="little")[::width(t)].astype(bool)


@pytest.mark.parametrize("t", COMPARE_TYPES)
def test_compare_with_scalar(engine, t):
    a = lane_values(t, 1)
    scalars = ["2", "-0.0", "nan", "inf"] if t.startswith(("f", "bf")) else ["2", "0", str(np.iinfo(NP[t]).max)]
    for x in scalars:
        lines = "".join(f"vcmps.{cc} p{1 + k}, v0.{t}, {x}, p7\n" for k, cc in enumerate(COMPARE))
        m = run_source(buffer("a", t, a) + f"mask p7.b{min(8 * width(t), 32)}, M3\nvld v0.{t}, [a]\n" + lines, engine)
        active = np.arange(len(a)) % 3 == 0
        with np.errstate(invalid="ignore"):
            value = np.array(float(x) if t.startswith(("f", "bf")) else int(x)).astype(NP[t])
            for k, (cc, holds) in enumerate(COMPARE.items()):
                expected = active & holds(a.astype(np.float64), value.astype(np.float64))
                assert mask_bits(m, 1 + k, t)[:len(a)].tolist() == expected.tolist(), (t, cc, x)


def test_compare_with_scalar_register_and_other_bits(engine):
    # a register X.T is converted to T as in vadds; every bit other than i*W is 0 (u16: the odd bits)
    m = run_source("""
        .ub a u16[128] = i
            mask p0.b16, ALL
            mov s1, 100
            vld v0.u16, [a]
            vcmps.ge p1, v0.u16, s1, p0
    """, engine)
    bits = np.unpackbits(m.state.preg[1], bitorder="little")
    assert bits[0::2].tolist() == [int(i >= 100) for i in range(128)] and not bits[1::2].any()


def test_compare_types_are_the_pages():
    with pytest.raises(AssemblyFailed) as failed:
        assemble("vcmps.lt p1, v0.e4m3, 1.0, p0\n")
    assert "accepted (asc_lt_scalar's list): s8, u8, s16, u16, f16, bf16, s32, u32, f32" in str(failed.value)


@pytest.mark.parametrize("t", ["s8", "u8", "s16", "u16", "f16", "s32", "u32", "f32"])
def test_not(engine, t):
    m = run_source(f"""
        .ub a u{8 * width(t)}[{256 // width(t)}] = (i * 37) % 251
            mask p0.b{8 * width(t)}, M4
            vld v0.{t}, [a]
            vnot v1.{t}, v0.{t}, p0
            vnot v0.{t}, v0.{t}, p0
    """, engine)
    n, bits = 256 // width(t), 8 * width(t)
    expected = [((~((i * 37) % 251)) & ((1 << bits) - 1)) if i % 4 == 0 else 0 for i in range(n)]
    for v in (0, 1):
        assert m.state.vreg[v].view(f"u{width(t)}").tolist() == expected


# ---- shifts ----

# The pages' worked examples, 16-bit lanes: 1010101010101010 shifted by 1 and by 3.
PAGE_EXAMPLES = [
    ("vshls", "u16", 0xAAAA, 1, 0x5554),     # asc_shiftleft: logical, 0101010101010100
    ("vshls", "s16", 0xAAAA, 1, 0xD554),     # arithmetic: 1101010101010100
    ("vshls", "s16", 0xAAAA, 3, 0xD550),     # 1101010101010000
    ("vshrs", "u16", 0xAAAA, 1, 0x5555),     # asc_shiftright_scalar: logical, 0101010101010101
    ("vshrs", "s16", 0xAAAA, 1, 0xD555),     # arithmetic: 1101010101010101
    ("vshrs", "s16", 0xAAAA, 3, 0xF555),     # 1111010101010101
    # beyond the width (the pages: logical 0; arithmetic right -1 for a negative lane, 0 otherwise;
    # arithmetic left 0) and, as decided in docs/semantics.md, at the width and for negative amounts
    ("vshls", "u16", 0xAAAA, 17, 0), ("vshls", "s16", 0xAAAA, 16, 0), ("vshls", "s16", 0x2AAA, -1, 0),
    ("vshrs", "u16", 0xAAAA, 16, 0), ("vshrs", "s16", 0xAAAA, 40, 0xFFFF), ("vshrs", "s16", 0x2AAA, 17, 0),
    ("vshrs", "s16", 0xAAAA, -2, 0xFFFF), ("vshrs", "u32", 0x80000000, 31, 1), ("vshls", "u8", 0x81, 7, 0x80),
]


@pytest.mark.parametrize("mnemonic,t,x,amount,expected", PAGE_EXAMPLES)
def test_shift_examples(engine, mnemonic, t, x, amount, expected):
    bits = 8 * width(t)
    m = run_source(f"""
        .ub a u{bits}[{256 // width(t)}] = {x}
        .ub n u{bits}[{256 // width(t)}] = {amount % (1 << bits)}
            mask p0.b{bits}, VL1
            vld v0.{t}, [a]
            vld v1.{t}, [n]
            mov s1, {amount}
            {mnemonic} v2.{t}, v0.{t}, s1, p0
            {mnemonic[:-1]} v3.{t}, v0.{t}, v1.s{bits}, p0
    """, engine)
    for v in (2, 3):
        lanes = m.state.vreg[v].view(f"u{width(t)}")
        assert int(lanes[0]) == expected and not lanes[1:].any()     # inactive lanes 0


def model_shift(left, t, x, amount):
    """Independent model on Python integers."""
    bits = 8 * width(t)
    signed = t.startswith("s")
    value = x - (1 << bits) if signed and x >> (bits - 1) else x
    if amount < 0 or amount >= bits:
        return ((1 << bits) - 1) if (signed and not left and value < 0) else 0
    if not left:
        return (value >> amount) % (1 << bits)
    if signed:
        return (x & (1 << (bits - 1))) | ((x << amount) & ((1 << (bits - 1)) - 1))
    return (x << amount) % (1 << bits)


@pytest.mark.parametrize("t", ["s8", "u8", "s16", "u16", "s32", "u32"])
def test_shift_by_vector_model(engine, t):
    n, bits = 256 // width(t), 8 * width(t)
    rng = np.random.default_rng(bits)
    x = rng.integers(0, 1 << bits, n, dtype=np.uint64).tolist()
    amounts = rng.integers(-3, bits + 4, n).tolist()
    m = run_source(f"""
        .ub a u{bits}[{n}] = [{', '.join(map(str, x))}]
        .ub b s{bits}[{n}] = [{', '.join(map(str, amounts))}]
            mask p0.b{bits}, ALL
            vld v0.{t}, [a]
            vld v1.s{bits}, [b]
            vshl v2.{t}, v0.{t}, v1.s{bits}, p0
            vshr v3.{t}, v0.{t}, v1.s{bits}, p0
            vshr v0.{t}, v0.{t}, v1.s{bits}, p0
    """, engine)
    for v, left in ((2, True), (3, False), (0, False)):
        got = m.state.vreg[v].view(f"u{width(t)}").tolist()
        assert got == [model_shift(left, t, a, s) for a, s in zip(x, amounts)], (t, v)


@pytest.mark.parametrize("line", ["vshl v0.u16, v1.u16, v2.u16, p0", "vshls v0.f32, v1.f32, 1, p0",
                                  "vshr v0.s64, v1.s64, v2.u64, p0", "vnot v0.bf16, v1.bf16, p0"])
def test_shift_and_not_types_are_the_pages(line):
    with pytest.raises(AssemblyFailed):
        assemble(line + "\n")


def radix_model():
    """programs/radix_keys.s in numpy: the sign-flip keys, their top digit, the values of the top bucket."""
    i = np.arange(64)
    x = ((i - 32) * 0.75 + (i % 7) / 8).astype(np.float32)
    bits = x.view(np.uint32)
    keys = np.where(bits >> 31, ~bits, bits | np.uint32(0x80000000)).astype(np.uint32)
    digits = keys >> 24
    kept = np.where(digits >= 0xC0, x, np.float32(0))
    return x, keys, digits, kept


def test_radix_keys_program(engine):
    from pathlib import Path

    from ascasm import assemble_file
    from ascasm.vm import Machine
    program = assemble_file(Path(__file__).resolve().parent.parent / "programs" / "radix_keys.s")
    machine = Machine(program, engine)
    machine.run()
    x, keys, digits, kept = radix_model()
    got = {name: program.buffers[name].view(machine.state.ub) for name in ("keys", "digits", "kept")}
    assert got["keys"].tolist() == keys.tolist() and got["digits"].tolist() == digits.tolist()
    assert got["kept"].view(np.uint32).tolist() == kept.view(np.uint32).tolist()
    assert np.array_equal(np.sort(x), x[np.argsort(keys, kind="stable")])   # the keys order like the values
    assert [e.mismatches(machine.state.ub).size for e in program.expects] == [0, 0, 0]


# Mull (boundary-values table 17), typed in: (type, src0, src1, dst0, dst1)
MULL_ROWS = [("u32", 4294967295, 4294967295, 1, 4294967294),
             ("s32", -2147483648, -2147483648, 0, 1073741824),
             ("s32", -2147483648, 2147483647, -2147483648, -1073741824),
             ("s32", 2147483647, 2147483647, 1, 1073741823)]


@pytest.mark.parametrize("t,a,b,low,high", MULL_ROWS)
def test_mull_boundary_rows(engine, t, a, b, low, high):
    m = run_source(f"vdup v0.{t}, {a}\nvdup v1.{t}, {b}\nmask p0.b32, VL2\nvmull v2.{t}, v3.{t}, v0.{t}, v1.{t}, p0\n",
                   engine)
    dtype = NP[t]
    assert m.state.vreg[2].view(dtype).tolist()[:3] == [low, low, 0]       # lane 2 inactive: 0
    assert m.state.vreg[3].view(dtype).tolist()[:3] == [high, high, 0]


@pytest.mark.parametrize("t", ["s32", "u32"])
def test_mull_model(engine, t):
    rng = np.random.default_rng(17)
    info = np.iinfo(NP[t])
    a, b = (rng.integers(info.min, info.max, 64, endpoint=True) for _ in range(2))
    m = run_source(buffer("a", t, a) + buffer("b", t, b) + f"""
        mask p0.b32, ALL
        vld v0.{t}, [a]
        vld v1.{t}, [b]
        vmull v0.{t}, v1.{t}, v0.{t}, v1.{t}, p0
    """, engine)
    products = [int(x) * int(y) for x, y in zip(a, b)]
    assert m.state.vreg[0].view(np.uint32).tolist() == [p % (1 << 32) for p in products]
    assert m.state.vreg[1].view(np.uint32).tolist() == [(p >> 32) % (1 << 32) for p in products]
