"""Vector compute: arithmetic, activations, compare and select, logic, shifts, fused multiply-add, the wide
multiply, add with carry, histograms (docs/semantics.md "Vector compute").

Floats: every operand widened to float64 (exact), the operation done there, the result rounded once to T by
floats.round_to_type (NaN -> T's canonical NaN). Integers wrap modulo 2^W. In the saturation mode CTRL can
select, f16 results and s16/s32 add, sub and mul saturate (values.saturated, clamped_lanes)."""
from __future__ import annotations

from fractions import Fraction
import math

import numpy as np

from ..isa import dtypes

from .. import floats
from ..program import Insn
from .machine import Machine
from .values import compute_saturates, merge_lanes, saturated, trunc_div, typed_value, widened, zeroed


ARITHMETIC = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "div_nftz": np.divide}


# The sub-operations whose default flushes subnormal inputs and results to zero (the pages' default
# algorithms of asc_div/asc_exp/asc_sqrt); their `_nftz` forms keep subnormals.
FLUSHING = ("div", "exp", "sqrt", "ln", "log2", "log10")


def _maxmin(a: np.ndarray, b: np.ndarray, want_max: bool, etype) -> np.ndarray:
    """Lane-wise max/min: -0 counts below +0; for floats a NaN on either side gives the canonical NaN."""
    x, y = (widened(a), widened(b)) if etype.kind == "float" else (a, b)
    if want_max:
        take_b = (y > x) | ((x == y) & np.signbit(x) & ~np.signbit(y))
    else:
        take_b = (y < x) | ((x == y) & np.signbit(y) & ~np.signbit(x))
    result = np.where(take_b, b, a)
    if etype.kind == "float":
        result = np.where(np.isnan(x) | np.isnan(y), floats.canonical_nan(etype), result)
    return result.astype(etype.np_dtype)


def _int_divide(x: int, y: int, etype) -> int:
    """Integer lane division toward zero; x / 0 = all ones; the quotient wraps (min / -1 = min)."""
    return -1 if y == 0 else trunc_div(x, y)


def _wrapped(values, etype) -> np.ndarray:
    return np.array([v % (1 << (8 * etype.width)) for v in values], etype.bits).view(etype.np_dtype)


def flush_subnormals(values: np.ndarray, etype) -> np.ndarray:
    """Float lanes with a subnormal value replaced by the zero of the same sign (integers unchanged)."""
    if etype.kind != "float":
        return values
    bits = values.view(etype.bits)
    sign = etype.bits.type(1 << (8 * etype.width - 1))
    subnormal = (np.abs(widened(values)) < float(dtypes.finfo(etype).smallest_normal)) & (bits & ~sign != 0)
    return np.where(subnormal, bits & sign, bits).astype(etype.bits).view(etype.np_dtype)


CLAMPED = {"add": np.add, "sub": np.subtract, "mul": np.multiply}


def clamped_lanes(op: str, a: np.ndarray, b: np.ndarray, etype) -> np.ndarray:
    """add|sub|mul of s16/s32 lanes exactly (in int64) and clamped to T's range: the saturation mode."""
    limits = np.iinfo(etype.np_dtype)
    return np.clip(CLAMPED[op](a.astype(np.int64), b.astype(np.int64)), limits.min, limits.max).astype(etype.np_dtype)


def binary_lanes(op: str, a: np.ndarray, b: np.ndarray, etype, clamping: bool = False) -> np.ndarray:
    """add|sub|mul|div|max|min (the sub-operation) on every lane of a and b (arrays of T); `clamping`: integer
    add, sub and mul saturate (compute_saturates)."""
    if clamping and op in CLAMPED and etype.kind == "int":
        return clamped_lanes(op, a, b, etype)
    if op in ("max", "min"):
        return _maxmin(a, b, op == "max", etype)
    if etype.kind == "float" and op in FLUSHING:
        return flush_subnormals(binary_lanes(op + "_nftz", flush_subnormals(a, etype), flush_subnormals(b, etype),
                                             etype), etype)
    if etype.kind == "float":
        with np.errstate(all="ignore"):
            return floats.round_to_type(ARITHMETIC[op](widened(a), widened(b)), etype)
    if op == "div":
        return _wrapped([_int_divide(x, y, etype) for x, y in zip(a.tolist(), b.tolist())], etype)
    with np.errstate(all="ignore"):
        return ARITHMETIC[op](a, b)                # numpy integer arrays wrap modulo 2^W


def scalar_form(insn: Insn) -> bool:
    """Whether an element-wise row is its family's scalar-operand form (vadds beside vadd): its second
    operand is X, not vB."""
    return any(op.name == "X" for op in insn.spec.operands)


def second_operand(m: Machine, insn: Insn, etype) -> np.ndarray:
    """The lanes of an element-wise row's second operand (a copy): vB's, or, in its scalar-operand form,
    X converted to T in every lane."""
    if scalar_form(insn):
        return np.repeat(typed_value(m, insn.operand("X"), etype), etype.lanes)
    return m.lanes(insn.operand("vB"), etype).copy()


def vbinary(m: Machine, insn: Insn):
    # vadd|vsub|vmul|vdiv|vmax|vmin vD.T, vA.T, vB.T, pM  -- zeroing; vadd.merge|vmax.merge|vmin.merge: merging;
    # vadds|vmuls|vmaxs|vmins vD.T, vA.T, X.T, pM  -- X in every lane
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).copy()
    op = insn.spec.sub.removesuffix("_merge")
    result = saturated(m, binary_lanes(op, a, second_operand(m, insn, etype), etype, compute_saturates(m, etype)), etype)
    if op != insn.spec.sub:       # MERGING (the merging-mode appendix, table 2: Add/Max/Min in software)
        merge_lanes(m, insn, result.view(etype.bits))
    else:
        m.lanes(insn.operand("vD"), etype)[:] = zeroed(active, result)


def libm_exp(x: float) -> float:
    """C's exp(x) (Python's math.exp calls it), with its overflow to inf instead of an exception."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _libm_log(log, x: float) -> float:
    """C's log2(x) or log10(x) (Python's math module calls them), with C's results where Python raises:
    -inf for +-0, NaN for a negative x."""
    if x == 0:
        return -math.inf
    if x < 0 or math.isnan(x):
        return math.nan
    return log(x)


def unary_lanes(op: str, a: np.ndarray, etype) -> np.ndarray:
    """abs|neg|exp|sqrt|ln|log2|log10 and the _nftz forms (the sub-operation) on every lane of a (an array of
    T). log2 and log10 are rounded to f32 first, then to T (the pages compute half in float)."""
    if op in FLUSHING:
        return flush_subnormals(unary_lanes(op + "_nftz", flush_subnormals(a, etype), etype), etype)
    if op == "relu":                                          # max(x, +0): -0 -> +0, NaN -> the hardware NaN
        return _maxmin(a, np.zeros_like(a), True, etype)
    if etype.kind == "float" and op in ("abs", "neg"):       # sign-bit operations: NaN payloads stay
        sign = etype.bits.type(1 << (8 * etype.width - 1))
        bits = a.view(etype.bits)
        return (bits & ~sign if op == "abs" else bits ^ sign).view(etype.np_dtype)
    if op in ("abs", "neg"):
        with np.errstate(all="ignore"):
            return np.abs(a) if op == "abs" else np.negative(a)      # numpy wraps: |min| = -min = min
    wide = widened(a)
    if op in ("log2_nftz", "log10_nftz"):
        log = math.log2 if op == "log2_nftz" else math.log10
        in_f32 = floats.round_to_type(np.array([_libm_log(log, x) for x in wide.tolist()]), dtypes.BY_SPELLING["f32"])
        return floats.round_to_type(in_f32.astype(np.float64), etype)
    with np.errstate(all="ignore"):
        exact = {"exp_nftz": lambda: np.array([libm_exp(x) for x in wide.tolist()]), "sqrt_nftz": lambda: np.sqrt(wide),
                 "ln_nftz": lambda: np.log(wide)}[op]()         # numpy's log: libm's, ln(0) = -inf
    return floats.round_to_type(exact, etype)


def vunary(m: Machine, insn: Insn):
    # vabs|vneg|vexp|vsqrt|vln|vlog2|vlog10 vD.T, vA.T, pM  -- zeroing
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).copy()
    m.lanes(insn.operand("vD"), etype)[:] = zeroed(active, saturated(m, unary_lanes(insn.spec.sub, a, etype), etype))


def compound_lanes(op: str, a: np.ndarray, b: np.ndarray, etype) -> np.ndarray:
    """prelu: a where its sign bit is clear (+0 and a positive NaN pass unchanged: boundary tables 10 and
    24 give 0 for +0 * inf), else a * b rounded once; abssub: |a - b| rounded once (integer lanes: wrapping)."""
    if etype.kind != "float":                                 # abssub on s64: numpy wraps, |min| = min
        with np.errstate(all="ignore"):
            return np.abs(a - b)
    x, y = widened(a), widened(b)
    with np.errstate(all="ignore"):
        if op == "prelu":
            return np.where(np.signbit(x), floats.round_to_type(x * y, etype), a)
        return floats.round_to_type(np.abs(x - y), etype)


def vcompound(m: Machine, insn: Insn):
    # vprelu|vabssub vD.T, vA.T, vB.T, pM; vleakyrelu vD.T, vA.T, X.T, pM (prelu with X in every lane);
    # inactive lanes 0
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).copy()
    b = second_operand(m, insn, etype)
    m.lanes(insn.operand("vD"), etype)[:] = zeroed(active, saturated(m, compound_lanes(insn.spec.sub, a, b, etype), etype))


def fused_multiply_add(x, y, z, etype):
    """x * y + z rounded once to T (f16/f32 lanes): exactly in rationals, made a double rounded to odd
    (which rounds on to T as the exact value does), then rounded to T; non-finite operands in double."""
    if not all(math.isfinite(v) for v in (x, y, z)):
        return floats.round_to_type(np.array([x * y + z]), etype)[0]
    exact = Fraction(x) * Fraction(y) + Fraction(z)
    nearest = float(exact)
    if Fraction(nearest) != exact and int(np.float64(nearest).view(np.uint64)) % 2 == 0:
        nearest = float(np.nextafter(nearest, math.inf if exact > nearest else -math.inf))
    if exact == 0:
        nearest = (x * y) + z                 # the sign of an exact zero sum, as IEEE gives it
    return floats.round_to_type(np.array([nearest]), etype)[0]


def vfma(m: Machine, insn: Insn):
    # vmadd vD.T, vA.T, vB.T, pM  -- vD = vD * vA + vB (asc_madd); vaxpy vD.T, vA.T, X.T, pM  -- vD = vA * X + vD
    # (asc_axpy); vmla vD.T, vA.T, vB.T, pM  -- vD = vA * vB + vD (Reg::MulAddDst); floats rounded once,
    # integers modulo 2^W; inactive lanes 0
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    lanes = [m.lanes(insn.operand(name), etype) for name in ("vD", "vA")] + [second_operand(m, insn, etype)]
    d, a, b = ((widened(v) if etype.kind == "float" else v).tolist() for v in lanes)
    operands = zip(d, a, b) if insn.spec.sub == "madd" else zip(a, b, d)
    if etype.kind == "float":
        result = np.array([fused_multiply_add(x, y, z, etype) for x, y, z in operands], etype.np_dtype)
    else:
        result = _wrapped([x * y + z for x, y, z in operands], etype)
    m.lanes(insn.operand("vD"), etype)[:] = zeroed(active, saturated(m, result, etype))


def vmull(m: Machine, insn: Insn):
    # vmull vD0.T, vD1.T, vA.T, vB.T, pM  -- the 64-bit product: low 32 bits -> vD0, high -> vD1 (last)
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a, b = (m.lanes(insn.operand(name), etype).tolist() for name in ("vA", "vB"))
    products = [(x * y) % (1 << 64) if on else 0 for x, y, on in zip(a, b, active)]    # two's complement bits
    m.state.vreg[insn.operand("vD0")] = np.array([p & 0xFFFFFFFF for p in products], np.uint32).view(np.uint8)
    m.state.vreg[insn.operand("vD1")] = np.array([p >> 32 for p in products], np.uint32).view(np.uint8)


def vcarry(m: Machine, insn: Insn):
    # vaddc|vsubc pD, vD.T, vA.T, vB.T, pC, pM  -- {carry, vD} = vA + vB (vsubc: + ~vB) + carry-in, on u32
    # lanes; carry-in bit i*4 of pC, carry-out to bit i*4 of pD; inactive lanes: vD 0, no carry
    active = m.active_lanes(insn.operand("pM"), 4)[:64]
    carry_in = m.active_lanes(insn.operand("pC"), 4)[:64]
    a = [int(x) for x in m.lanes(insn.operand("vA"), insn.types[0])]
    b = [int(x) for x in m.lanes(insn.operand("vB"), insn.types[0])]
    if insn.spec.sub == "sub":
        b = [0xFFFFFFFF - x for x in b]                                  # ~x in 32 bits
    totals = [x + y + int(c) for x, y, c in zip(a, b, carry_in)]
    sums = np.array([t % (1 << 32) if on else 0 for t, on in zip(totals, active)], np.uint32)
    m.state.vreg[insn.operand("vD")] = sums.view(np.uint8)
    m.write_mask(insn.operand("pD"), active & np.array([t >> 32 == 1 for t in totals]), 4)


COMPARISONS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
               "gt": np.greater, "ge": np.greater_equal}


def vcmp(m: Machine, insn: Insn):
    # vcmp.CC pD, vA.T, vB.T, pM; vcmps.CC pD, vA.T, X.T, pM (X in every lane)  -- bit i*W set for active
    # lanes where the comparison holds
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a, b = m.lanes(insn.operand("vA"), etype), second_operand(m, insn, etype)
    if etype.kind == "float":
        a, b = widened(a), widened(b)
    holds = COMPARISONS[insn.spec.sub](a, b)                       # NaN: false except ne; -0 == +0
    m.write_mask(insn.operand("pD"), active & holds, etype.width)


def vsel(m: Machine, insn: Insn):
    # vsel vD.T, vA.T, vB.T, pM  -- raw bits of vA where active, of vB elsewhere
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).view(etype.bits)
    b = m.lanes(insn.operand("vB"), etype).view(etype.bits)
    m.lanes(insn.operand("vD"), etype).view(etype.bits)[:] = np.where(active, a, b)


def vmov(m: Machine, insn: Insn):
    # vmov vD.T, vA.T, pM  -- active lanes of vD = vA's bits; inactive lanes keep vD (merging)
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).view(etype.bits)
    d = m.lanes(insn.operand("vD"), etype).view(etype.bits)
    d[:] = np.where(active, a, d)


BITWISE = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}


def vlogic(m: Machine, insn: Insn):
    # vand|vor|vxor vD.T, vA.T, vB.T, pM  -- on the lanes' bits (floats too); inactive lanes 0
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).view(etype.bits)
    b = m.lanes(insn.operand("vB"), etype).view(etype.bits)
    m.lanes(insn.operand("vD"), etype).view(etype.bits)[:] = zeroed(active, BITWISE[insn.spec.sub](a, b))


def vnot(m: Machine, insn: Insn):
    # vnot vD.T, vA.T, pM  -- ~vA on the lanes' bits (floats too); inactive lanes 0
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).view(etype.bits)
    m.lanes(insn.operand("vD"), etype).view(etype.bits)[:] = zeroed(active, np.invert(a))


def shifted(op: str, x: int, amount: int, etype) -> int:
    """One lane x (T's value) shifted by `amount` bits, as T's bits: unsigned logical; signed left keeps the
    sign bit and shifts the bits below it, signed right is arithmetic; an amount outside [0, W) shifts
    every bit out (asc_shiftleft/asc_shiftright: 0, or -1 for a negative lane shifted right)."""
    width = 8 * etype.width
    mask, sign = (1 << width) - 1, 1 << (width - 1)
    out_of_range = not 0 <= amount < width
    if op == "shr" and etype.kind == "int":
        return (x >> (width - 1 if out_of_range else amount)) & mask       # Python's >> is arithmetic
    if out_of_range:
        return 0
    bits = x & mask
    if op == "shl" and etype.kind == "int":
        return (bits & sign) | ((bits << amount) & (sign - 1))
    return ((bits << amount) if op == "shl" else (bits >> amount)) & mask


def vshift(m: Machine, insn: Insn):
    # vshl|vshr vD.T, vA.T, vB.U, pM  -- lane i shifted by vB[i] (U: T's width, signed); vshls|vshrs vD.T, vA.T,
    # X, pM  -- every lane shifted by X's low 16 bits, signed (the page's int16_t); inactive lanes 0
    etype = insn.types[0]
    if scalar_form(insn):
        amounts = [(m.value(insn.operand("X")) + (1 << 15)) % (1 << 16) - (1 << 15)] * etype.lanes
    else:
        amounts = m.lanes(insn.operand("vB"), insn.types[1]).tolist()
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).tolist()
    result = np.array([shifted(insn.spec.sub, x, n, etype) for x, n in zip(a, amounts)], etype.bits)
    m.lanes(insn.operand("vD"), etype).view(etype.bits)[:] = zeroed(active, result)


def vhist(m: Machine, insn: Insn):
    # vhist.binB|vchist.binB vD.u16, vA.u8, pM  -- counts of the active values in bin B (base 128*B) added
    # to vD: lane v - base (frequency), or lane n: the values with v - base <= n (cumulative)
    dest_type, source_type = insn.types
    sub = insn.spec.sub
    base = 128 * int(sub[-1])
    active = m.active_lanes(insn.operand("pM"), source_type.width)[:source_type.lanes]
    values = m.lanes(insn.operand("vA"), source_type)[active].astype(np.int64) - base
    counts = np.bincount(values[(values >= 0) & (values < 128)], minlength=128)
    if sub.startswith("cbin"):
        counts = np.cumsum(counts)
    dest = m.lanes(insn.operand("vD"), dest_type)
    dest[:] = (dest.astype(np.int64) + counts) % (1 << 16)
