"""Scalar registers holding a float's bits (docs/semantics.md "Scalar registers holding
floats"), on both executors: `fmov`, `fadd fsub fmul fdiv`, `fcvt`, `fcvt.trunc` (to an integer), `fcmp`,
`ld`/`st` of float types, and the X.T
operand written `sN.T` (T's bits) beside the unsuffixed `sN` (an integer converted to T, as before).

Expected values come from numpy float32 / float16 and ml_dtypes bfloat16 arithmetic written here: their
+ - * / compute in at least float32 and round once to the type, which for these types is the correctly
rounded result (24 >= 2p + 2), so they are an independent model of one rounding to nearest even."""
from __future__ import annotations

import io
import textwrap

import ml_dtypes
import numpy as np
import pytest
from conftest import run_source

from ascasm import AssemblyFailed, assemble
from ascasm.debugger import Debugger

NP = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}
BITS = {"f16": np.uint16, "bf16": np.uint16, "f32": np.uint32}
HARDWARE_NAN = {"f16": 0x7FFF, "bf16": 0x7FFF, "f32": 0x7FFFFFFF}
OPS = {"fadd": np.add, "fsub": np.subtract, "fmul": np.multiply, "fdiv": np.divide}


def bits_of(t: str, value) -> int:
    """The bits of a value of T; every NaN is the hardware NaN (what a computation produces)."""
    x = np.array([value], NP[t])
    return HARDWARE_NAN[t] if np.isnan(x.astype(np.float64))[0] else int(x.view(BITS[t])[0])


def sreg(machine, n: int) -> int:
    return int(machine.state.sreg[n])


# Operand pairs: ordinary values, cancellation, subnormal results (kept: no flush to zero), overflow,
# division by zero, 0/0, infinities and NaN.
F32_PAIRS = [(0.0173, 3.0), (1.0, 3.0), (-2.5, 0.1), (1e-38, 1e-3), (3.4e38, 10.0), (1.0, 0.0), (-1.0, 0.0),
             (0.0, 0.0), (np.inf, np.inf), (np.inf, -np.inf), (np.nan, 1.0), (1.0000001, -1.0), (-0.0, 0.0),
             (1.4e-45, 0.5), (16777216.0, 1.0), (7.0, 1e-40)]


def f32_text(value: float) -> str:
    """A float32 value as an ascasm literal that assembles to exactly its bits."""
    return repr(float(np.float32(value))) if np.isfinite(value) else ("nan" if np.isnan(value) else
                                                                      ("inf" if value > 0 else "-inf"))


@pytest.mark.parametrize("op", list(OPS))
def test_f32_scalar_arithmetic(engine, op):
    lines = []
    for k, (a, b) in enumerate(F32_PAIRS):
        lines += [f"fmov s1.f32, {f32_text(a)}", f"fmov s2.f32, {f32_text(b)}",
                  f"{op} s{k + 3}.f32, s1.f32, s2.f32"]
    m = run_source("\n".join(lines), engine)
    with np.errstate(all="ignore"):
        for k, (a, b) in enumerate(F32_PAIRS):
            expected = OPS[op](np.float32(a), np.float32(b))
            assert sreg(m, k + 3) == bits_of("f32", expected), (op, a, b)


@pytest.mark.parametrize("t", ["f16", "bf16", "f32"])
@pytest.mark.parametrize("op", list(OPS))
def test_random_scalar_arithmetic_against_numpy(engine, t, op):
    rng = np.random.default_rng(13)
    # bit patterns of T drawn at random (every class: subnormals, infinities, NaNs) beside plain numbers
    patterns = rng.integers(0, 1 << (8 * np.dtype(BITS[t]).itemsize), (24, 2)).astype(BITS[t])
    values = patterns.view(NP[t])
    lines = []
    for k, (a, b) in enumerate(patterns.tolist()):
        lines += [f"mov s1, {a}", f"mov s2, {b}", f"{op} s{k % 28 + 3}.{t}, s1.{t}, s2.{t}",
                  f"st [out + {4 * k}], s{k % 28 + 3}.b32"]
    source = f".ub out u32[{len(patterns)}]\n" + "\n".join(lines)
    m = run_source(source, engine)
    out = m.state.ub[:4 * len(patterns)].view(np.uint32)
    with np.errstate(all="ignore"):
        for k, (a, b) in enumerate(values):
            assert int(out[k]) == bits_of(t, OPS[op](a, b)), (t, op, a, b)


def test_fmov_forms(engine):
    m = run_source("""
        fmov s1.f32, 0.0173         ; an immediate, rounded once to T
        fmov s2.f16, -1.5
        fmov s3.bf16, 3.0
        mov  s4, -3
        fmov s5.f32, s4             ; an integer register: its value rounded once to T
        mov  s6, 16777217
        fmov s7.f32, s6             ; 2^24 + 1 -> 2^24 (ties to even)
        fmov s8.f32, s1.f32         ; a register holding T's bits: copied
        mov  s9, -1
        fmov s10.f16, s9.f16        ; only the low 16 bits: the register is zero-extended T bits after
        fmov s11.e4m3, 448
        fmov s12.e5m2, -0.0
        fmov s13.f32, nan
    """, engine)
    assert sreg(m, 1) == int(np.float32(0.0173).view(np.uint32))
    assert sreg(m, 2) == 0xBE00
    assert sreg(m, 3) == 0x4040
    assert sreg(m, 5) == int(np.float32(-3).view(np.uint32))          # zero-extended: positive int64
    assert sreg(m, 7) == int(np.float32(16777216).view(np.uint32))
    assert sreg(m, 8) == sreg(m, 1)
    assert sreg(m, 10) == 0xFFFF
    assert sreg(m, 11) == 0x7E
    assert sreg(m, 12) == 0x80
    assert sreg(m, 13) == 0x7FFFFFFF


@pytest.mark.parametrize("pair", [("f16", "f32"), ("bf16", "f32"), ("f32", "f16"), ("f32", "bf16"),
                                  ("f16", "bf16"), ("bf16", "f16")])
def test_fcvt(engine, pair):
    dest, source = pair
    values = [0.0173, -1.0 / 3, 65504.0, 65520.0, 1e-5, 6e-8, 3.0e38, -0.0, np.inf, np.nan]
    with np.errstate(over="ignore"):                 # 3e38 overflows the 16-bit types to inf: a case too
        sources = np.array(values, np.float64).astype(np.float32).astype(NP[source])   # exact in the source type
    lines = [f"mov s1, {int(x)}\nfcvt s{k + 2}.{dest}, s1.{source}" for k, x in enumerate(sources.view(BITS[source]))]
    m = run_source("\n".join(lines), engine)
    with np.errstate(all="ignore"):
        for k, x in enumerate(sources):
            # one rounding from the exact source value: through float32, which holds every source exactly
            expected = np.array([np.float32(x)]).astype(NP[dest])[0]
            assert sreg(m, k + 2) == bits_of(dest, expected), (pair, x)


INT_RANGE = {"s8": (-2**7, 2**7 - 1), "u8": (0, 2**8 - 1), "s16": (-2**15, 2**15 - 1), "u16": (0, 2**16 - 1),
             "s32": (-2**31, 2**31 - 1), "u32": (0, 2**32 - 1), "s64": (-2**63, 2**63 - 1), "u64": (0, 2**64 - 1)}


def c_conversion(value: float, dest: str) -> int:
    """C's float-to-integer conversion worked by hand: toward zero; ascasm's choice where C leaves it
    undefined (docs/semantics.md): saturated to the range, NaN 0."""
    low, high = INT_RANGE[dest]
    if np.isnan(value):
        return 0
    if np.isinf(value):
        return high if value > 0 else low
    return min(max(int(value), low), high)        # Python's int() of a float truncates toward zero, exactly


@pytest.mark.parametrize("dest", list(INT_RANGE))
@pytest.mark.parametrize("source", ["f16", "bf16", "f32"])
def test_fcvt_trunc_float_to_integer(engine, dest, source):
    values = [2.75, -2.75, 0.5, -0.5, -0.0, 127.9, 128.0, -129.0, 255.5, 300.0, -1.0, 65504.0, -40000.0,
              3.0e9, -3.0e9, 1.0e19, 3.4e38, -3.4e38, np.inf, -np.inf, np.nan]
    with np.errstate(over="ignore"):
        sources = np.array(values, np.float64).astype(np.float32).astype(NP[source])
    lines = [f"mov s1, {int(x)}\nfcvt.trunc s{k + 2}.{dest}, s1.{source}"
             for k, x in enumerate(sources.view(BITS[source]))]
    m = run_source("\n".join(lines), engine)
    for k, x in enumerate(sources):
        expected = c_conversion(float(x), dest)
        assert sreg(m, k + 2) == (expected - 2**64 if expected >= 2**63 else expected), (source, dest, x)


@pytest.mark.parametrize("t", ["f16", "bf16", "f32"])
def test_fcmp(engine, t):
    pairs = [(1.0, 2.0), (2.0, 1.0), (1.5, 1.5), (-0.0, 0.0), (np.nan, 1.0), (1.0, np.nan), (np.nan, np.nan),
             (-np.inf, -65504.0), (np.inf, np.inf), (-3.0, -2.0)]
    tests = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
             "ge": np.greater_equal}
    for a, b in pairs:
        a_bits, b_bits = (int(np.array([v], NP[t]).view(BITS[t])[0]) for v in (a, b))
        lines = [f"mov s1, {a_bits}", f"mov s2, {b_bits}"]
        lines += [f"fcmp.{sub} s{3 + k}, s1.{t}, s2.{t}" for k, sub in enumerate(tests)]
        m = run_source("\n".join(lines), engine)
        for k, test in enumerate(tests.values()):
            assert sreg(m, 3 + k) == int(test(NP[t](a), NP[t](b))), (a, b, list(tests)[k])
    # an immediate X and an integer register X (its value converted to T)
    m = run_source(f"fmov s1.{t}, 2.5\nmov s2, 3\nfcmp.lt s3, s1.{t}, s2\nfcmp.gt s4, s1.{t}, 2.0\n"
                   f"fcmp.eq s5, s1.{t}, 2.5", engine)
    assert [sreg(m, r) for r in (3, 4, 5)] == [1, 1, 1]


def test_vector_scalar_forms_read_the_bits_or_convert_an_integer(engine):
    """vmuls with sN.f32 uses the register's float; vadds with an unsuffixed sN converts its integer (the
    existing form, unchanged); both on every lane under the mask, inactive lanes 0."""
    x = (np.arange(64, dtype=np.float32) - 20) * np.float32(0.37)
    m = run_source(f"""
        .ub src u32[64] = [{', '.join(str(int(b)) for b in x.view(np.uint32))}]
        mask  p0.b32, M3
        vld   v0.f32, [src]
        fmov  s1.f32, 0.0173
        mov   s2, 3
        vmuls v1.f32, v0.f32, s1.f32, p0
        vadds v2.f32, v0.f32, s2, p0
        vadds v3.f32, v0.f32, s1.f32, p0
        fmov  s3.f16, 0.5
        vdup  v4.f16, s3.f16
        vcmps.gt p1, v0.f32, s1.f32, p0
    """, engine)
    active = np.arange(64) % 3 == 0
    lanes = m.state.vreg.view(np.float32).reshape(32, 64)
    scale = np.float32(0.0173)
    np.testing.assert_array_equal(lanes[1].view(np.uint32), np.where(active, x * scale, 0).astype(np.float32).view(np.uint32))
    np.testing.assert_array_equal(lanes[2], np.where(active, x + np.float32(3), 0))
    np.testing.assert_array_equal(lanes[3], np.where(active, x + scale, 0))
    assert (m.state.vreg[4].view(np.float16) == np.float16(0.5)).all()
    bits = np.unpackbits(m.state.preg[1], bitorder="little")[::4]
    np.testing.assert_array_equal(bits.astype(bool), active & (x > scale))


def test_load_store_float_bits(engine):
    m = run_source("""
        .ub a f32[8] = [1.5, -0.0173, 3e-40, 0, 0, 0, 0, 0]
        .ub h f16[16] = [0.333]
        ld   s1.f32, [a]
        ld   s2.f32, [a + 4]
        ld   s3.f32, [a + 8]
        ld   s4.f16, [h]
        fmul s5.f32, s1.f32, s2.f32
        fadd s6.f32, s3.f32, s3.f32       ; a subnormal doubled: kept, no flush to zero
        st   [a + 12], s5.f32
        st   [a + 16], s6.f32
        fcvt s7.f32, s4.f16
        st   [a + 20], s7.f32
    """, engine)
    a = m.state.ub[:32].view(np.float32)
    assert sreg(m, 2) == int(np.float32(-0.0173).view(np.uint32))       # zero-extended bits, not sign-extended
    assert sreg(m, 4) == int(np.float16(0.333).view(np.uint16))
    assert a[3].view(np.uint32) == (np.float32(1.5) * np.float32(-0.0173)).view(np.uint32)
    assert a[4].view(np.uint32) == (np.float32(3e-40) * np.float32(2)).view(np.uint32)
    assert a[5] == np.float32(np.float16(0.333))


def test_runtime_scale_program(engine):
    """A scale computed at run time from a count: 1 / n in f32, then x * (1/n) on every lane."""
    x = np.linspace(-3, 5, 64, dtype=np.float32)
    m = run_source(f"""
        .ub src u32[64] = [{', '.join(str(int(b)) for b in x.view(np.uint32))}]
        .ub out f32[64]
        mov   s0, 0
    count:
        add   s0, s0, 1
        blt   s0, 7, count
        fmov  s1.f32, s0              ; 7.0
        fmov  s2.f32, 1.0
        fdiv  s3.f32, s2.f32, s1.f32  ; 1/7
        fsub  s4.f32, s3.f32, 0.0173  ; an immediate X.T
        mask  p0.b32, ALL
        vld   v0.f32, [src]
        vmuls v1.f32, v0.f32, s4.f32, p0
        vsta  [out], v1.f32, p0
    """, engine)
    scale = np.float32(np.float32(1) / np.float32(7)) - np.float32(0.0173)
    out = m.state.ub[256:512].view(np.float32)
    np.testing.assert_array_equal(out.view(np.uint32), (x * scale).view(np.uint32))


@pytest.mark.parametrize("source, message", [
    ("fmov s1, 1.0", "needs a type suffix"),
    ("fadd s1.f32, s2.f16, 1.0", "f16"),
    ("fadd s1.s32, s2.s32, 1", "does not accept s32"),
    ("vmuls v0.f32, v1.f32, s1.f16, p0", "f16"),
    ("fcvt s1.f32, s2.f32", "does not accept"),
    ("fmov s1.f16, 70000", "does not fit in f16"),
])
def test_assembly_errors(source, message):
    with pytest.raises(AssemblyFailed) as failure:
        assemble(f"mask p0.b32, ALL\n{source}\n", "t.s")
    assert message in str(failure.value), str(failure.value)


def test_debugger_shows_a_register_as_a_float():
    program = assemble("fmov s1.f32, -0.0173\nfmov s2.f16, 1.5\nhalt\n", "t.s")
    out = io.StringIO()
    Debugger(program, "cy", stdin=io.StringIO(textwrap.dedent("""\
        c
        p s1.f32
        p s2.f16
        p s1
    """)), stdout=out).cmdloop()
    text = out.getvalue()
    assert "s1.f32 = -0.0173 (bits 0xbc8db8bb)" in text
    assert "s2.f16 = 1.5 (bits 0x3e00)" in text
    assert f"s1 = {int(np.float32(-0.0173).view(np.uint32))}" in text


def test_scale_runtime_program():
    """programs/scale_runtime.s's .expect values are the numpy float32 model's: mean = sum / n, d = x + (-mean),
    y = d * (1 / max|d|), each step rounded once to f32 (the sum is exact: multiples of 1/8). The program
    runs on both executors in tests/test_programs.py."""
    from pathlib import Path

    from ascasm import assemble_file
    program = assemble_file(Path(__file__).resolve().parent.parent / "programs" / "scale_runtime.s")
    i = np.arange(64)
    x = (((i * 29) % 64) / 8 - 4).astype(np.float32)
    total = np.float32(x.astype(np.float64).sum())
    mean = total / np.float32(64)
    d = x + (np.float32(0) - mean)
    maxabs = np.abs(d).max()
    scale = np.float32(1) / maxabs
    expected = {"stats": np.array([total, maxabs, mean, scale, 0, 0, 0, 0], np.float32), "y": d * scale}
    for expectation in program.expects:
        np.testing.assert_array_equal(expectation.values.view(np.uint32),
                                      expected[expectation.buffer.name].view(np.uint32))
