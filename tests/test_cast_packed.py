"""vcvt with a 4-bit pair type on one side (reg-api Cast.md tables 6-9 and its note on int4x2/fp4x2 <-> b16;
the deprecated C-API pages asc_half2int4x2, asc_int4x22half/int16/bfloat16, asc_bfloat162e2m1x2/e1m2x2,
asc_e2m1x22bfloat16, asc_e1m2x22bfloat16), proven on both executors against models written here:

- half -> int4x2 for every half pattern in each rounding mode, without and with saturation, and
  int16 -> int4x2 for every int16 pattern (the rules of Cast.md table 4 for float/integer -> integer);
- bfloat16 -> fp4 (e2m1, e1m2) for every bfloat16 pattern in each rounding mode, against a model
  from the formats' definitions and rounding_mode.md, and for e2m1 to nearest-even against ml_dtypes;
- every byte widened back (int4x2 -> int16/half/bfloat16, fp4 -> bfloat16) from each of the four parts;
- the pairing (two b16 lanes share a byte), the layout parts, the mask (narrowing: the even lane's bit
  counts), the options the page lists, CTRL's global mode, table 34's fp4 rows and the C++ front end.
"""
from __future__ import annotations

import textwrap

import ml_dtypes
import numpy as np
import pytest
from conftest import SWEEP_ENGINES, run_source, sweep

from ascasm import AssemblyFailed, assemble
from ascasm.vm import Machine

FIVE = ("rint", "round", "floor", "ceil", "trunc")
ROUNDERS = {"rint": np.rint, "round": lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5), "floor": np.floor,
            "ceil": np.ceil, "trunc": np.trunc}
UB_CHUNK_REGISTERS = 480


def run_registers(engine: str, instruction: str, sources: np.ndarray, mask: str) -> np.ndarray:
    """Each 256-byte row of `sources` loaded into v1, `instruction` run (v2 from v1 under p0, set by
    `mask`); the bytes of v2 after each, one row per source row."""
    results = []
    for first in range(0, len(sources), UB_CHUNK_REGISTERS):
        chunk = sources[first:first + UB_CHUNK_REGISTERS]
        program = assemble(textwrap.dedent(f"""
            .ub src u8[{chunk.size}]
                {mask}
                mov s0, src
            loop:
                vld v1.u8, [s0]
                {instruction}
                add s0, s0, 256
                b loop
        """))
        machine = Machine(program, engine)
        program.buffers["src"].view(machine.state.ub)[:] = chunk.reshape(-1)
        assert machine.run(2) == 0
        for _ in range(len(chunk)):
            assert machine.run(4) == 0, machine.fault
            results.append(machine.state.vreg[2].copy())
    return np.array(results).reshape(len(sources), 256)


def packed(codes: np.ndarray, part: int) -> np.ndarray:
    """Registers of 4-bit codes (128 per register, lane order) as the narrowing writes them: lanes 2p
    and 2p + 1 in the low and high half of byte 4p + part, every other byte 0."""
    codes = codes.reshape(-1, 128).astype(np.uint8)
    out = np.zeros((len(codes), 256), np.uint8)
    out[:, part::4] = codes[:, 0::2] | codes[:, 1::2] << 4
    return out


def int4_model(x: np.ndarray, mode: str, sat: bool) -> np.ndarray:
    """Cast.md table 4, float or integer -> integer, for a 4-bit destination: rounded by the mode; beyond
    -8..7 the low 4 bits (sat: -8 / 7); NaN 0, +-inf 7 / -8 in both settings."""
    with np.errstate(invalid="ignore"):
        r = ROUNDERS[mode](np.where(np.isfinite(x), x, 0.0)).astype(np.int64)
    r = np.clip(r, -8, 7) if sat else r
    r = np.where(np.isnan(x), 0, np.where(x == np.inf, 7, np.where(x == -np.inf, -8, r)))
    return r & 0xF


def fp4_value(code: int, exponent_bits: int) -> float:
    """A 4-bit float: sign, exponent (bias 1, field 0 subnormal), mantissa; no inf, no NaN."""
    mantissa_bits = 3 - exponent_bits
    sign = -1.0 if code & 8 else 1.0
    field, mantissa = (code & 7) >> mantissa_bits, code & ((1 << mantissa_bits) - 1)
    if field == 0:
        return sign * mantissa / (1 << mantissa_bits)
    return sign * (1 + mantissa / (1 << mantissa_bits)) * 2.0 ** (field - 1)


FP4 = {"e2m1x2": 2, "e1m2x2": 1}          # the pair type: its exponent bits


def fp4_model(x: np.ndarray, name: str, mode: str) -> np.ndarray:
    """bfloat16 values to fp4 codes by rounding_mode.md: the two neighbours among fp4's magnitudes, the
    mode's choice; beyond the largest value (and +-inf) +-max, NaN 0 (Cast.md); signs kept."""
    magnitudes = np.array([fp4_value(c, FP4[name]) for c in range(8)])
    out = []
    for v in x.tolist():
        if np.isnan(v):
            out.append(0)
            continue
        sign, a = (8 if np.signbit(v) else 0), abs(v)
        k = int(np.searchsorted(magnitudes, a, side="right")) - 1
        if k == 7 or magnitudes[k] == a:
            out.append(sign | k)
            continue
        lo, hi = magnitudes[k], magnitudes[k + 1]
        up = {"rint": hi - a < a - lo or (hi - a == a - lo and k % 2 == 1), "round": hi - a <= a - lo,
              "floor": sign != 0, "ceil": sign == 0, "trunc": False}[mode]
        out.append(sign | (k + up))
    return np.array(out, np.uint8)


def every_bf16() -> np.ndarray:
    return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)


def bf16_values(words: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):         # signalling NaN patterns stay NaN
        return words.view(ml_dtypes.bfloat16).astype(np.float64)


# --- narrowing: half / int16 -> int4x2 -------------------------------------------------------------------

@pytest.mark.parametrize("engine", SWEEP_ENGINES)
@pytest.mark.parametrize("mode", FIVE)
@pytest.mark.parametrize("sat", (False, True))
def test_half_to_int4_every_pattern(engine, mode, sat):
    part = FIVE.index(mode) % 4
    engine, words = sweep(engine, every_bf16())
    x = words.view(np.float16).astype(np.float64)
    got = run_registers(engine, f"vcvt.{mode} v2.s4x2, v1.f16, p0{', sat' if sat else ''}, part{part}",
                        words.view(np.uint8).reshape(-1, 256), "mask p0.b16, ALL")
    np.testing.assert_array_equal(got, packed(int4_model(x, mode, sat), part))


@pytest.mark.parametrize("sat", (False, True))
def test_int16_to_int4_every_pattern(engine, sat):
    engine, words = sweep("cy" if engine == "cy" else "ref-sample", every_bf16())
    x = words.view(np.int16).astype(np.float64)
    got = run_registers(engine, f"vcvt v2.s4x2, v1.s16, p0{', sat' if sat else ''}, part3",
                        words.view(np.uint8).reshape(-1, 256), "mask p0.b16, ALL")
    np.testing.assert_array_equal(got, packed(int4_model(x, "trunc", sat), 3))


def test_half_to_int4_by_hand(engine):
    halves = np.zeros(128, np.float16)
    halves[:8] = [1.4, -2.5, 7.6, -9.0, np.inf, -np.inf, np.nan, 3.5]
    plain, = run_registers(engine, "vcvt.rint v2.s4x2, v1.f16, p0, part1", halves.view(np.uint8)[None],
                           "mask p0.b16, ALL")
    # 1 | -2 (ties to even) = 0xE1; 8 -> low bits 1000, -9 -> 0111: 0x78; 7 | -8: 0x87; 0 | 4: 0x40
    assert plain[:16].tolist() == [0, 0xE1, 0, 0, 0, 0x78, 0, 0, 0, 0x87, 0, 0, 0, 0x40, 0, 0]
    saturated, = run_registers(engine, "vcvt.rint v2.s4x2, v1.f16, p0, sat", halves.view(np.uint8)[None],
                               "mask p0.b16, ALL")
    assert saturated[:16].tolist() == [0xE1, 0, 0, 0, 0x87, 0, 0, 0, 0x87, 0, 0, 0, 0x40, 0, 0, 0]
    assert not saturated[16:].any()


def test_the_even_lane_decides_a_pair(engine):
    """VL3 at b16: lanes 0..2. Pair 1 (lanes 2, 3) is converted whole although lane 3 is inactive."""
    halves = np.arange(1, 129).astype(np.float16) % 7
    got, = run_registers(engine, "vcvt.trunc v2.s4x2, v1.f16, p0", halves.view(np.uint8)[None],
                         "mask p0.b16, VL3")
    assert got[[0, 4]].tolist() == [0x21, 0x43]
    assert not np.delete(got, [0, 4]).any()


# --- widening: int4x2 / fp4 -> b16 -------------------------------------------------------------------------

def every_byte_in(part: int) -> np.ndarray:
    """One register with bytes 0..255 in the positions `part` reads (byte 4p + part), the others 0x5A
    (which the conversion must ignore)."""
    register = np.full(1024, 0x5A, np.uint8)
    register[part::4] = np.arange(256)
    return register.reshape(4, 256)


def int4_value(nibbles: np.ndarray) -> np.ndarray:
    return np.where(nibbles >= 8, nibbles.astype(np.int64) - 16, nibbles)


@pytest.mark.parametrize("part", range(4))
@pytest.mark.parametrize("dst", ("s16", "f16", "bf16"))
def test_int4_widens_every_byte(engine, dst, part):
    got = run_registers(engine, f"vcvt v2.{dst}, v1.s4x2, p0, part{part}", every_byte_in(part), "mask p0.b8, ALL")
    values = np.stack((int4_value(np.arange(256) & 0xF), int4_value(np.arange(256) >> 4)), axis=1).reshape(-1)
    dtype = {"s16": np.int16, "f16": np.float16, "bf16": ml_dtypes.bfloat16}[dst]
    assert got.tobytes() == values.astype(dtype).tobytes()


@pytest.mark.parametrize("part", range(4))
@pytest.mark.parametrize("src", FP4)
def test_fp4_widens_every_byte(engine, src, part):
    got = run_registers(engine, f"vcvt v2.bf16, v1.{src}, p0, part{part}", every_byte_in(part), "mask p0.b8, ALL")
    values = [fp4_value(byte >> shift & 0xF, FP4[src]) for byte in range(256) for shift in (0, 4)]
    assert got.tobytes() == np.array(values, ml_dtypes.bfloat16).tobytes()


def test_fp4_values_by_hand():
    assert [fp4_value(c, 2) for c in range(8)] == [0, 0.5, 1, 1.5, 2, 3, 4, 6]
    assert [fp4_value(c, 1) for c in range(8)] == [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75]
    # ml_dtypes' float4_e2m1fn decodes the same 16 codes
    codes = np.arange(16, dtype=np.uint8)
    assert codes.view(ml_dtypes.float4_e2m1fn).astype(np.float64).tolist() == [fp4_value(c, 2) for c in range(16)]


def test_widening_mask_reads_the_source_byte(engine):
    """VL4 at b8 with part1: byte 1 is active, byte 5 not, so lanes 0 and 1 are written and the rest 0."""
    register = np.full(256, 0x21, np.uint8)
    got, = run_registers(engine, "vcvt v2.s16, v1.s4x2, p0, part1", register[None], "mask p0.b8, VL4")
    assert got.view(np.int16)[:4].tolist() == [1, 2, 0, 0]
    assert not got.view(np.int16)[2:].any()


# --- narrowing: bfloat16 -> fp4 ----------------------------------------------------------------------------

@pytest.mark.parametrize("engine", SWEEP_ENGINES)
@pytest.mark.parametrize("mode", FIVE)
@pytest.mark.parametrize("dst", FP4)
def test_bf16_to_fp4_every_pattern(engine, dst, mode):
    part = (FIVE.index(mode) + 1) % 4
    engine, words = sweep(engine, every_bf16())
    x = bf16_values(words)
    got = run_registers(engine, f"vcvt.{mode} v2.{dst}, v1.bf16, p0, part{part}",
                        words.view(np.uint8).reshape(-1, 256), "mask p0.b16, ALL")
    np.testing.assert_array_equal(got, packed(fp4_model(x, dst, mode), part))


def test_e2m1_model_agrees_with_ml_dtypes():
    """ml_dtypes' float4_e2m1fn rounds to nearest-even and saturates as the page says (overflow and
    +-inf to +-6); only its NaN differs (-0 where the page gives 0)."""
    x = bf16_values(every_bf16())
    x = x[~np.isnan(x)]
    theirs = x.astype(ml_dtypes.float4_e2m1fn).view(np.uint8) & 0xF
    np.testing.assert_array_equal(fp4_model(x, "e2m1x2", "rint"), theirs)


@pytest.mark.parametrize("dst, largest", (("e2m1x2", 6.0), ("e1m2x2", 1.75)))
def test_table_34_fp4_rows(engine, dst, largest):
    """Appendix table 34 (both columns alike): 0 -> 0, MIN/MAX and -inf/inf -> -+largest, nan -> 0;
    back to bfloat16, MIN/MAX are -+largest."""
    x = np.zeros(128, ml_dtypes.bfloat16)
    x[:6] = [0.0, -3.3895e38, 3.3895e38, np.inf, -np.inf, np.nan]
    got, = run_registers(engine, f"vcvt.rint v2.{dst}, v1.bf16, p0", x.view(np.uint8)[None], "mask p0.b16, ALL")
    back, = run_registers(engine, f"vcvt v2.bf16, v1.{dst}, p0", got[None], "mask p0.b8, ALL")
    assert back.view(ml_dtypes.bfloat16)[:6].astype(np.float64).tolist() == [0, -largest, largest, largest,
                                                                               -largest, 0]


# --- options, CTRL, the C++ front end ------------------------------------------------------------------

@pytest.mark.parametrize("text", (
    "vcvt.rint v2.e2m1x2, v1.bf16, p0, sat",     # fp4 always saturates: the page lists no SatMode
    "vcvt.rint v2.s4x2, v1.f16, p0, odd",        # a 4:1 pair: part0..part3
    "vcvt v2.s4x2, v1.f16, p0",                  # half -> int4x2 needs a rounding mode
    "vcvt.odd v2.s4x2, v1.f16, p0",              # not a mode the page lists for it
    "vcvt.rint v2.s4x2, v1.bf16, p0",            # not a pair the page lists
    "vcvt v2.f32, v1.s4x2, p0",
))
def test_options_the_page_does_not_list_are_rejected(text):
    with pytest.raises(AssemblyFailed):
        assemble(f"    mask p0.b16, ALL\n    {text}\n    halt\n")


@pytest.mark.parametrize("ctrl, want", ((1 << 60, 0x7), (1 << 60 | 1 << 59, 0x8), (0, 0x8)))
def test_ctrl_governs_half_to_int4(engine, ctrl, want):
    """24.0 to int4: its low 4 bits are 1000 (-8) without saturation, 7 with (Cast.md table 5: CTRL[60]
    makes the mode global, CTRL[59] = 0 saturating float -> integer)."""
    machine = run_source(f"""
        .ub a f16[128] = 24.0
            mask p0.b16, ALL
            mov s1, {ctrl}
            sprset.ctrl s1
            vld v1.f16, [a]
            vcvt.rint v2.s4x2, v1.f16, p0
            halt
    """, engine)
    assert machine.state.vreg[2][0] == want | want << 4


def test_fp4_saturates_whatever_ctrl_says(engine):
    machine = run_source("""
        .ub a bf16[128] = 100.0
            mask p0.b16, ALL
            mov s1, 0x1001000000000000
            sprset.ctrl s1
            vld v1.bf16, [a]
            vcvt.rint v2.e2m1x2, v1.bf16, p0
            halt
    """, engine)
    assert machine.state.vreg[2][0] == 0x77


def test_cpp_cast_traits_become_the_options(tmp_path):
    pytest.importorskip("clang.cindex")
    from ascasm.cpp.translate import translate
    path = tmp_path / "k.cpp"
    path.write_text(textwrap.dedent("""
        #include "kernel_operator.h"
        using namespace AscendC;
        constexpr Reg::CastTrait toInt4 = {Reg::RegLayout::TWO, Reg::SatMode::SAT, Reg::MaskMergeMode::ZEROING,
                                           RoundMode::CAST_FLOOR};
        constexpr Reg::CastTrait toFp4 = {Reg::RegLayout::THREE, Reg::SatMode::UNKNOWN,
                                          Reg::MaskMergeMode::ZEROING, RoundMode::CAST_RINT};
        constexpr Reg::CastTrait back = {Reg::RegLayout::ONE, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::ZEROING,
                                         RoundMode::UNKNOWN};
        __simd_vf__ inline void Quant(__ubuf__ half* x, __ubuf__ bfloat16_t* y)
        {
            Reg::RegTensor<half> h;
            Reg::RegTensor<bfloat16_t> b;
            Reg::RegTensor<int4x2_t> q;
            Reg::RegTensor<fp4x2_e2m1_t> f;
            Reg::MaskReg m = Reg::CreateMask<half>();
            Reg::LoadAlign(h, x);
            Reg::Cast<int4x2_t, half, toInt4>(q, h, m);
            Reg::Cast<half, int4x2_t, back>(h, q, m);
            Reg::LoadAlign(b, y);
            Reg::Cast<fp4x2_e2m1_t, bfloat16_t, toFp4>(f, b, m);
            Reg::Cast<bfloat16_t, fp4x2_e2m1_t, back>(b, f, m);
        }
    """))
    text = translate(path).text()
    assert "vcvt.floor" in text and ".s4x2" in text and ", sat, part2" in text
    assert ", part1" in text and ".e2m1x2" in text and ", part3" in text


def test_cpp_int4_quantisation_stores_the_values_in_order(tmp_path, engine):
    """The way public quantisation kernels write int4: float -> int16 -> half (at the even b16 lanes),
    Pack to the low half of the register, the ZERO-layout Cast to int4x2 (pairs to bytes 0, 4, 8, ...),
    then StoreAlign DIST_PACK4_B32, which stores the low byte of each 32-bit lane: 64 values in order,
    two per byte, the first in the low 4 bits."""
    pytest.importorskip("clang.cindex")
    import cpp_run
    from ascasm.cpp.translate import translate
    path = tmp_path / "q.cpp"
    path.write_text(textwrap.dedent("""
        #include "kernel_operator.h"
        using namespace AscendC;
        constexpr Reg::CastTrait toI16 = {Reg::RegLayout::ZERO, Reg::SatMode::SAT, Reg::MaskMergeMode::ZEROING,
                                          RoundMode::CAST_RINT};
        constexpr Reg::CastTrait toF16 = {Reg::RegLayout::UNKNOWN, Reg::SatMode::UNKNOWN,
                                          Reg::MaskMergeMode::ZEROING, RoundMode::CAST_RINT};
        constexpr Reg::CastTrait toI4 = {Reg::RegLayout::ZERO, Reg::SatMode::SAT, Reg::MaskMergeMode::ZEROING,
                                         RoundMode::CAST_RINT};
        __simd_vf__ inline void QuantInt4(__ubuf__ uint8_t* dst, __ubuf__ float* src)
        {
            Reg::RegTensor<float> x;
            Reg::RegTensor<int16_t> narrow;
            Reg::RegTensor<half> h;
            Reg::RegTensor<uint16_t> packed;
            Reg::RegTensor<uint8_t> q;
            Reg::MaskReg all = Reg::CreateMask<float>();
            Reg::MaskReg firstHalf = Reg::CreateMask<float, Reg::MaskPattern::H>();
            Reg::LoadAlign(x, src);
            Reg::Cast<int16_t, float, toI16>(narrow, x, all);
            Reg::Cast<half, int16_t, toF16>(h, narrow, all);
            Reg::Pack(packed, (Reg::RegTensor<uint32_t>&)h);
            Reg::Cast<int4x2_t, half, toI4>((Reg::RegTensor<int4x2_t>&)q, (Reg::RegTensor<half>&)packed, all);
            Reg::StoreAlign<uint8_t, Reg::StoreDist::DIST_PACK4_B32>(dst, q, firstHalf);
        }
    """))
    x = ((np.arange(64) - 32) * 0.37).astype(np.float32)
    result = cpp_run.run(translate(path), engine, dst=np.zeros(64, np.uint8), src=x)
    codes = np.clip(np.rint(x), -8, 7).astype(np.int64) & 0xF
    assert result["dst"][:32].tolist() == (codes[0::2] | codes[1::2] << 4).tolist()
    assert not result["dst"][32:].any()


def test_the_debugger_prints_both_values_of_a_pair():
    from test_debugger import session
    program = assemble(textwrap.dedent("""
        .ub a u8[256] = i
            mask p0.b8, ALL
            vld v0.u8, [a]
            halt
    """))
    text = session(program, "n\nn\np v0.s4x2[0x8f]\np v0.e2m1x2[0x21]\np v0.e1m2x2[0:2]\np/x v0.s4x2[0x8f]\nquit\n")
    assert "v0.s4x2[143] = -1|-8 (0x8f)" in text          # 1111 = -1, 1000 = -8
    assert "v0.e2m1x2[33] = 0.5|1 (0x21)" in text         # codes 1 and 2
    assert "[0]    0|0 0.25|0" in text                 # cells right-aligned to the widest
    assert "v0.s4x2[143] = 0x8f" in text


def test_cpp_int4_dequantisation_reads_the_bytes_in_order(tmp_path, engine):
    """The way the vendor's antiquant code reads int4: bytes loaded, UnPack u8 -> u16 -> u32 (byte k to
    byte 4k), then the ZERO-layout Cast to half reads byte 4p as lanes 2p, 2p + 1: the values in order.
    Its trait says SatMode::SAT, which the page does not list for this pair: nothing can overflow, so
    the front end drops it."""
    pytest.importorskip("clang.cindex")
    import cpp_run
    from ascasm.cpp.translate import translate
    path = tmp_path / "d.cpp"
    path.write_text(textwrap.dedent("""
        #include "kernel_operator.h"
        using namespace AscendC;
        constexpr Reg::CastTrait fromI4 = {Reg::RegLayout::ZERO, Reg::SatMode::SAT, Reg::MaskMergeMode::ZEROING,
                                           RoundMode::CAST_NONE};
        __simd_vf__ inline void DequantInt4(__ubuf__ half* dst, __ubuf__ uint8_t* src)
        {
            Reg::RegTensor<uint8_t> bytes;
            Reg::RegTensor<half> h;
            Reg::MaskReg pairs = Reg::CreateMask<uint32_t>();
            Reg::MaskReg all = Reg::CreateMask<half>();
            Reg::LoadAlign(bytes, src);
            Reg::UnPack<uint16_t, uint8_t>((Reg::RegTensor<uint16_t>&)bytes, (Reg::RegTensor<uint8_t>&)bytes);
            Reg::UnPack<uint32_t, uint16_t>((Reg::RegTensor<uint32_t>&)bytes, (Reg::RegTensor<uint16_t>&)bytes);
            Reg::Cast<half, int4x2_t, fromI4>(h, (Reg::RegTensor<int4x2_t>&)bytes, pairs);
            Reg::StoreAlign(dst, h, all);
        }
    """))
    packed_bytes = np.random.default_rng(4).integers(0, 256, 256, dtype=np.uint8)
    result = cpp_run.run(translate(path), engine, dst=np.zeros(128, np.float16), src=packed_bytes)
    values = int4_value(np.stack((packed_bytes[:64] & 0xF, packed_bytes[:64] >> 4), axis=1).reshape(-1))
    assert result["dst"].tolist() == values.astype(np.float16).tolist()
