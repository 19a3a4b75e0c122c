"""64-bit lanes: b64 masks (Reg::CreateMask / UpdateMask with int64_t, uint64_t: 32 lanes, element i
governed by mask bit 8i) and the s64/u64 rows of the Reg pages (Add, Sub, Adds, Max(s), Min(s),
Compare(s), Select, Duplicate, ShiftLeft(s), ShiftRight(s), the NORM store). Expected values from the
pages' rules, computed independently with numpy's int64/uint64 arithmetic (which wraps like the lanes)."""
import numpy as np
import pytest
from conftest import run_source

LANES = 32


def wrapped(values):
    return np.array([(v + (1 << 63)) % (1 << 64) - (1 << 63) for v in values], np.int64)


S64 = wrapped((-1) ** i * (i * 0x0123456789ABCDEF + 7) for i in range(LANES))
T64 = wrapped(i * 0x7FFF_FFFF_FFFF_FFF1 + 3 for i in range(LANES))


def buffers(a=S64, b=T64, etype="s64"):
    return (f".ub a {etype}[32] = [{', '.join(map(str, a.tolist()))}] @ 0\n"
            f".ub b {etype}[32] = [{', '.join(map(str, b.tolist()))}] @ 256\n")


def mask_bits(machine, p):
    return np.unpackbits(machine.state.preg[p].view(np.uint8), bitorder="little")


@pytest.mark.parametrize("pattern, lanes", [("ALL", range(32)), ("VL3", range(3)), ("VL32", range(32)),
                                            ("VL64", range(32)), ("H", range(16)), ("Q", range(8)),
                                            ("M3", range(0, 32, 3)), ("ALLF", ())])
def test_b64_create_mask_sets_bit_8i_of_each_selected_lane(engine, pattern, lanes):
    # a b64 mask: one governing bit per 8 (MaskReg's rule for b16/b32, one bit per element, at width 8);
    # H and Q are the lowest 16 and 8 of the 32 lanes, a VLn beyond 32 lanes selects them all
    machine = run_source(f"    mask p0.b64, {pattern}\n    halt\n", engine)
    expected = np.zeros(256, np.uint8)
    expected[[8 * i for i in lanes]] = 1
    assert (mask_bits(machine, 0) == expected).all()


def test_b64_update_mask_counts_down_by_32(engine):
    # UpdateMask: scalarValue = (scalarValue < VL_T) ? 0 : scalarValue - VL_T, VL_T = 32 lanes of 8 bytes
    machine = run_source("""
            mov s0, 40
            mask.upd p0.b64, s0
            mov s1, s0
            mask.upd p1.b64, s0
            halt
    """, engine)
    first, second = mask_bits(machine, 0), mask_bits(machine, 1)
    assert first[::8].tolist() == [1] * 32 and not first.reshape(32, 8)[:, 1:].any()
    assert second[::8].tolist() == [1] * 8 + [0] * 24 and not second.reshape(32, 8)[:, 1:].any()
    assert machine.state.sreg[1] == 8 and machine.state.sreg[0] == 0


@pytest.mark.parametrize("etype, dtype", [("s64", np.int64), ("u64", np.uint64)])
@pytest.mark.parametrize("op, numpy_op", [("vadd", np.add), ("vsub", np.subtract), ("vmax", np.maximum),
                                          ("vmin", np.minimum)])
def test_64_bit_binary_operations_wrap_and_zero_inactive_lanes(engine, etype, dtype, op, numpy_op):
    a, b = S64.view(dtype), T64.view(dtype)
    machine = run_source(buffers(a, b, etype) + f"""
            vld  v0.{etype}, [a]
            vld  v1.{etype}, [b]
            mask p0.b64, M3
            {op} v2.{etype}, v0.{etype}, v1.{etype}, p0
            halt
    """, engine)
    with np.errstate(over="ignore"):
        expected = numpy_op(a, b)
    expected[np.arange(LANES) % 3 != 0] = 0
    assert (machine.state.vreg[2].view(dtype) == expected).all()


def test_s64_add_carries_across_the_32_bit_halves(engine):
    # the hardware adds 64-bit lanes as two 32-bit halves with a carry; the sum must carry into the high half
    machine = run_source("""
        .ub a u64[32] = 0xFFFFFFFF @ 0
            vld  v0.u64, [a]
            vdup v1.u64, 1
            mask p0.b64, ALL
            vadd v2.u64, v0.u64, v1.u64, p0
            vsub v3.u64, v1.u64, v0.u64, p0
            halt
    """, engine)
    assert (machine.state.vreg[2].view(np.uint64) == 0x1_0000_0000).all()
    assert (machine.state.vreg[3].view(np.uint64) == 0xFFFF_FFFF_0000_0002).all()


@pytest.mark.parametrize("etype, dtype", [("s64", np.int64), ("u64", np.uint64)])
@pytest.mark.parametrize("cc, numpy_op", [("eq", np.equal), ("ne", np.not_equal), ("lt", np.less),
                                          ("le", np.less_equal), ("gt", np.greater), ("ge", np.greater_equal)])
def test_64_bit_compare_sets_bit_8i(engine, etype, dtype, cc, numpy_op):
    a = S64.view(dtype).copy()
    b = T64.view(dtype).copy()
    b[5], b[9] = a[5], a[9]                                     # some equal lanes
    machine = run_source(buffers(a, b, etype) + f"""
            vld  v0.{etype}, [a]
            vld  v1.{etype}, [b]
            mask p0.b64, ALL
            vcmp.{cc} p1, v0.{etype}, v1.{etype}, p0
            vcmps.{cc} p2, v0.{etype}, {int(b[9])}, p0
            halt
    """, engine)
    expected = np.zeros(256, np.uint8)
    expected[::8] = numpy_op(a, b)
    assert (mask_bits(machine, 1) == expected).all()
    expected[::8] = numpy_op(a, b[9])
    assert (mask_bits(machine, 2) == expected).all()


def test_s64_select_duplicate_and_scalar_forms(engine):
    machine = run_source(buffers() + """
            vld   v0.s64, [a]
            vld   v1.s64, [b]
            mask  p0.b64, VL4
            vsel  v2.s64, v0.s64, v1.s64, p0
            vdup  v3.s64, -0x123456789
            vdup  v4.u64, 0xFEDCBA9876543210, p0
            vadds v5.s64, v0.s64, 0x7FFFFFFFFFFFFFFF, p0
            vmaxs v6.u64, v0.u64, 0x8000000000000000, p0
            vmins v7.s64, v0.s64, -5, p0
            halt
    """, engine)
    lanes = lambda r, dtype=np.int64: machine.state.vreg[r].view(dtype)
    assert (lanes(2) == np.concatenate([S64[:4], T64[4:]])).all()
    assert (lanes(3) == -0x123456789).all()
    assert (lanes(4, np.uint64) == np.array([0xFEDCBA9876543210] * 4 + [0] * 28, np.uint64)).all()
    with np.errstate(over="ignore"):
        expected = S64 + np.int64(0x7FFFFFFFFFFFFFFF)
    assert (lanes(5)[:4] == expected[:4]).all() and not lanes(5)[4:].any()
    assert (lanes(6, np.uint64)[:4] == np.maximum(S64.view(np.uint64)[:4], np.uint64(1 << 63))).all()
    assert (lanes(7)[:4] == np.minimum(S64[:4], -5)).all() and not lanes(7)[4:].any()


def test_64_bit_shifts(engine):
    # ShiftRight: signed lanes arithmetic, unsigned logical; an amount of the width or more gives 0 (a
    # negative signed lane shifted right: -1); ShiftLeft of a signed lane keeps the sign bit
    amounts = np.array([0, 1, 4, 31, 32, 33, 63, 64] * 4, np.int64)
    values = np.array([-(1 << 40) - 5, (1 << 62) + 9, -1, 0x0123456789ABCDEF] * 8, np.int64)
    machine = run_source(buffers(values, amounts) + """
            vld   v0.s64, [a]
            vld   v1.s64, [b]
            mask  p0.b64, ALL
            vshr  v2.s64, v0.s64, v1.s64, p0
            vshr  v3.u64, v0.u64, v1.s64, p0
            vshl  v4.s64, v0.s64, v1.s64, p0
            vshrs v5.s64, v0.s64, 36, p0
            vshls v6.u64, v0.u64, 60, p0
            halt
    """, engine)
    unsigned = values.view(np.uint64)
    sign = np.uint64(1 << 63)
    expect_sar = [int(v) >> min(int(n), 63) for v, n in zip(values, amounts)]
    expect_shr = [0 if n >= 64 else int(u) >> int(n) for u, n in zip(unsigned, amounts)]
    expect_shl = [0 if n >= 64 else (int(u) & int(sign)) | ((int(u) << int(n)) & (int(sign) - 1))
                  for u, n in zip(unsigned, amounts)]
    assert machine.state.vreg[2].view(np.int64).tolist() == expect_sar
    assert machine.state.vreg[3].view(np.uint64).tolist() == expect_shr
    assert machine.state.vreg[4].view(np.uint64).tolist() == expect_shl
    assert machine.state.vreg[5].view(np.int64).tolist() == [int(v) >> 36 for v in values]
    assert machine.state.vreg[6].view(np.uint64).tolist() == [(int(u) << 60) % (1 << 64) for u in unsigned]


def test_the_reg_tensor_page_add_example_with_int64(engine):
    # RegTensor.md example 2 (AddVF) with T = int64_t, count 40, oneRepeatSize 32, repeatTimes 2:
    # dst = src0 + src1 for the first 40 elements; the 24 after them are not stored
    a = np.arange(64, dtype=np.int64) * -0x100000001
    b = np.arange(64, dtype=np.int64) + 0x7FFFFFFFFFFFFF00
    machine = run_source(f"""
        .ub src0 s64[64] = [{', '.join(map(str, a.tolist()))}] @ 0
        .ub src1 s64[64] = [{', '.join(map(str, b.tolist()))}] @ 512
        .ub dst  s64[64] = 7 @ 1024
            mov s0, 40
            mov s1, 0
        loop:
            mask.upd p0.b64, s0
            vld  v0.s64, [src0 + s1]
            vld  v1.s64, [src1 + s1]
            vadd v2.s64, v0.s64, v1.s64, p0
            vsta [dst + s1], v2.s64, p0
            add  s1, s1, 256
            blt  s1, 512, loop
            halt
    """, engine)
    with np.errstate(over="ignore"):
        expected = np.concatenate([a[:40] + b[:40], np.full(24, 7, np.int64)])
    assert (machine.state.ub[1024:1536].view(np.int64) == expected).all()


def test_64_bit_multiply_abs_neg_relu_and_abssub(engine):
    # Mul/Muls keep the low 64 bits; Abs, Neg and AbsSub wrap (|min| = -min = min); Relu is max(x, 0)
    a = S64.copy()
    a[3] = np.iinfo(np.int64).min
    machine = run_source(buffers(a, T64) + """
            vld     v0.s64, [a]
            vld     v1.s64, [b]
            mask    p0.b64, ALL
            vmul    v2.s64, v0.s64, v1.s64, p0
            vmuls   v3.u64, v0.u64, 0xFFFFFFFF00000001, p0
            vabs    v4.s64, v0.s64, p0
            vneg    v5.s64, v0.s64, p0
            vrelu   v6.s64, v0.s64, p0
            vabssub v7.s64, v0.s64, v1.s64, p0
            halt
    """, engine)
    lanes = lambda r, dtype=np.int64: machine.state.vreg[r].view(dtype)
    with np.errstate(over="ignore"):
        assert (lanes(2) == a * T64).all()
        assert (lanes(3, np.uint64) == a.view(np.uint64) * np.uint64(0xFFFFFFFF00000001)).all()
        assert (lanes(4) == np.abs(a)).all() and lanes(4)[3] == np.iinfo(np.int64).min
        assert (lanes(5) == -a).all()
        assert (lanes(7) == np.abs(a - T64)).all()
    assert (lanes(6) == np.maximum(a, 0)).all()


@pytest.mark.parametrize("etype, dtype", [("s64", np.int64), ("u64", np.uint64)])
def test_64_bit_logic(engine, etype, dtype):
    a, b = S64.view(dtype), T64.view(dtype)
    machine = run_source(buffers(a, b, etype) + f"""
            vld  v0.{etype}, [a]
            vld  v1.{etype}, [b]
            mask p0.b64, VL16
            vand v2.{etype}, v0.{etype}, v1.{etype}, p0
            vor  v3.{etype}, v0.{etype}, v1.{etype}, p0
            vxor v4.{etype}, v0.{etype}, v1.{etype}, p0
            vnot v5.{etype}, v0.{etype}, p0
            halt
    """, engine)
    low = np.arange(LANES) < 16
    for register, expected in ((2, a & b), (3, a | b), (4, a ^ b), (5, ~a)):
        assert (machine.state.vreg[register].view(dtype) == np.where(low, expected, 0)).all()


def trunc_quotient(x, y, width=64):
    """x / y toward zero on Python integers, the lane's rules for what C leaves open: x / 0 = all ones,
    and the quotient wraps (min / -1 = min)."""
    if y == 0:
        return (1 << width) - 1
    quotient = abs(x) // abs(y)
    return (quotient if (x < 0) == (y < 0) else -quotient) % (1 << width)


@pytest.mark.parametrize("etype, dtype", [("s64", np.int64), ("u64", np.uint64)])
def test_64_bit_division_rounds_toward_zero_and_zeroes_inactive_lanes(engine, etype, dtype):
    # Reg::Div's int64_t/uint64_t: vdiv's integer rules (x / 0 = all ones, min / -1 = min) at 64 bits
    minimum = np.iinfo(np.int64).min
    a = np.array([minimum, minimum, 7, -7, 7, -7, 0, -1] * 4, np.int64)
    b = np.array([-1, 1, 2, 2, -2, -2, 0, 0] * 4, np.int64)
    a[8:16], b[8:16] = S64[8:16], T64[8:16] % 1000 + 1
    machine = run_source(buffers(a.view(dtype), b.view(dtype), etype) + f"""
            vld  v0.{etype}, [a]
            vld  v1.{etype}, [b]
            mask p0.b64, VL16
            vdiv v2.{etype}, v0.{etype}, v1.{etype}, p0
            halt
    """, engine)
    read = (lambda v: int(v)) if etype == "s64" else (lambda v: int(v) % (1 << 64))
    expected = [trunc_quotient(read(x), read(y)) if i < 16 else 0 for i, (x, y) in enumerate(zip(a, b))]
    assert machine.state.vreg[2].view(np.uint64).tolist() == expected


def test_s64_division_of_the_minimum_by_minus_one_wraps_without_a_fault(engine):
    # the one quotient C leaves undefined (INT64_MIN / -1): the lane gives min, the run goes on
    machine = run_source("""
            vdup v0.s64, -0x8000000000000000
            vdup v1.s64, -1
            mask p0.b64, ALL
            vdiv v2.s64, v0.s64, v1.s64, p0
            vdiv v3.s64, v1.s64, v0.s64, p0
            halt
    """, engine)
    assert (machine.state.vreg[2].view(np.int64) == np.iinfo(np.int64).min).all()
    assert not machine.state.vreg[3].any()                   # -1 / min = 0


@pytest.mark.parametrize("etype, dtype", [("s64", np.int64), ("u64", np.uint64)])
def test_64_bit_multiply_add_dst_wraps(engine, etype, dtype):
    # Reg::MulAddDst's int64_t/uint64_t: dst = src0 * src1 + dst modulo 2^64, inactive lanes 0
    d = wrapped(i * 0x1111_2222_3333_4444 - 0x7000_0000_0000_0000 for i in range(LANES))
    machine = run_source(buffers(S64.view(dtype), T64.view(dtype), etype) + f"""
        .ub d {etype}[32] = [{', '.join(map(str, d.view(dtype).tolist()))}] @ 512
            vld  v0.{etype}, [a]
            vld  v1.{etype}, [b]
            vld  v2.{etype}, [d]
            mask p0.b64, M3
            vmla v2.{etype}, v0.{etype}, v1.{etype}, p0
            halt
    """, engine)
    expected = [(int(x) * int(y) + int(z)) % (1 << 64) if i % 3 == 0 else 0
                for i, (x, y, z) in enumerate(zip(S64, T64, d))]
    assert machine.state.vreg[2].view(np.uint64).tolist() == expected


@pytest.mark.parametrize("etype, dtype, scalar", [("s64", np.int64, -0x7654_3210_FEDC_BA99),
                                                  ("u64", np.uint64, 0xFEDC_BA98_7654_3211)])
def test_64_bit_axpy_wraps(engine, etype, dtype, scalar):
    # Reg::Axpy's int64_t/uint64_t: dst = scalarValue * src + dst modulo 2^64, inactive lanes 0
    machine = run_source(buffers(S64.view(dtype), T64.view(dtype), etype) + f"""
            vld   v0.{etype}, [a]
            vld   v1.{etype}, [b]
            mask  p0.b64, VL16
            vaxpy v1.{etype}, v0.{etype}, {scalar}, p0
            halt
    """, engine)
    expected = [(scalar * int(x) + int(z)) % (1 << 64) if i < 16 else 0
                for i, (x, z) in enumerate(zip(S64.view(dtype), T64.view(dtype)))]
    assert machine.state.vreg[1].view(np.uint64).tolist() == expected


def test_s64_arange_wraps_past_the_maximum_in_both_orders(engine):
    # the Arange page: an int64_t index beyond the type's bound turns negative; DECREASE_ORDER ends at X
    machine = run_source("""
            vci      v0.s64, 0x7FFFFFFFFFFFFFF0
            vci.desc v1.s64, -5
            mov      s0, 0x7FFFFFFFFFFFFFFF
            vci      v2.s64, s0
            halt
    """, engine)
    top = (1 << 63) - 16
    assert machine.state.vreg[0].view(np.uint64).tolist() == [(top + i) % (1 << 64) for i in range(LANES)]
    assert machine.state.vreg[0].view(np.int64)[16] == np.iinfo(np.int64).min
    assert machine.state.vreg[1].view(np.int64).tolist() == [-5 + 31 - i for i in range(LANES)]
    assert (machine.state.vreg[2].view(np.int64) == wrapped((1 << 63) - 1 + i for i in range(LANES))).all()
