"""vredsum / vredmax / vredmin (seed 003 Reduce; LANGUAGE.md §4 Reductions) on both executors.
Expected values come from an independent numpy model written here: a pairwise tree in the
destination type for sums, a first-occurrence scan with -0 < +0 for max/min."""
import numpy as np
import pytest
from conftest import run_source

F16_NAN, F32_NAN = 0x7FFF, 0x7FFFFFFF        # the hardware NaN (reg-api Div table 8 shows f32's)
SUM_PAIRS = [("f16", "f16"), ("f32", "f32"), ("s32", "s16"), ("u32", "u16"), ("s32", "s32"), ("u32", "u32"),
             ("s64", "s64"), ("u64", "u64")]
MAXMIN_TYPES = ["s16", "u16", "f16", "s32", "u32", "f32", "s64", "u64"]
DTYPES = {"f16": np.float16, "f32": np.float32, "s16": np.int16, "u16": np.uint16, "s32": np.int32,
          "u32": np.uint32, "s64": np.int64, "u64": np.uint64}


def run_reduce(engine, mnemonic, dest, source, values, mask_bits=None):
    """Load `values` (bit patterns as a numpy array of the source dtype), reduce under a mask given
    as per-lane booleans (default all), return v1 as raw bytes."""
    raw = np.asarray(values).view(np.uint8)
    lanes = raw.size // np.dtype(DTYPES[source]).itemsize
    width = 256 // lanes
    mask = np.ones(lanes, bool) if mask_bits is None else np.asarray(mask_bits, bool)
    bits = np.zeros(256, bool)
    bits[::width] = mask
    mask_bytes = np.packbits(bits, bitorder="little")
    source_text = f"""
        .ub data u8[256] = [{", ".join(str(b) for b in raw)}]
        .ub m u8[32] = [{", ".join(str(b) for b in mask_bytes)}]
            vld v0.{source}, [data]
            vld p0, [m]
            {mnemonic} v1.{dest}, v0.{source}, p0
            halt
    """
    machine = run_source(source_text, engine)
    assert machine.stop_name == "HALTED"
    return machine.state.vreg[1].copy()


def tree_sum(values: np.ndarray, dtype) -> np.ndarray:
    level = values.astype(dtype)
    with np.errstate(all="ignore"):
        while level.size > 1:
            level = (level[0::2] + level[1::2]).astype(dtype)
    return level[0]


def expected_vector(first_lanes, dtype) -> np.ndarray:
    out = np.zeros(256 // np.dtype(dtype).itemsize, dtype)
    out[:len(first_lanes)] = first_lanes
    return out.view(np.uint8)


# ---- sums ----
@pytest.mark.parametrize("dest,source", SUM_PAIRS)
def test_vredsum_random_values_random_mask(engine, dest, source):
    rng = np.random.default_rng(hash((dest, source)) % 2**32)
    lanes = 256 // np.dtype(DTYPES[source]).itemsize
    if source.startswith("f"):
        values = (rng.standard_normal(lanes) * 100).astype(DTYPES[source])
    else:
        info = np.iinfo(DTYPES[source])
        values = rng.integers(info.min, info.max, lanes, dtype=DTYPES[source], endpoint=True)
    mask = rng.random(lanes) < 0.6
    got = run_reduce(engine, "vredsum", dest, source, values, mask)
    expected = tree_sum(np.where(mask, values, 0), DTYPES[dest])
    assert got.tobytes() == expected_vector([expected], DTYPES[dest]).tobytes()


def test_vredsum_f16_tree_order_differs_from_sequential(engine):
    # 2048 + 1 rounds back to 2048 in f16, but the tree adds 1 + 1 first: (2048+1) + (1+1) = 2048 + 2
    values = np.zeros(128, np.float16)
    values[:4] = [2048, 1, 1, 1]
    got = run_reduce(engine, "vredsum", "f16", "f16", values).view(np.float16)
    assert got[0] == 2050
    sequential = np.float16(0)
    for v in values:
        sequential = np.float16(sequential + v)
    assert sequential == 2048       # the order matters: this is why the spec pins the tree


@pytest.mark.parametrize("dest,source", [("f16", "f16"), ("f32", "f32")])
def test_vredsum_nan_in_any_lane_gives_canonical_nan(engine, dest, source):
    dtype = DTYPES[source]
    lanes = 256 // np.dtype(dtype).itemsize
    for lane in (0, 1, lanes // 2 + 3, lanes - 1):
        values = np.ones(lanes, dtype)
        payload_nan = np.array(0x7D01 if source == "f16" else 0x7F800123, f"u{np.dtype(dtype).itemsize}")
        values[lane] = payload_nan.view(dtype)           # a signalling NaN with a payload
        got = run_reduce(engine, "vredsum", dest, source, values).view(f"u{np.dtype(dtype).itemsize}")
        assert got[0] == (F16_NAN if source == "f16" else F32_NAN)
        assert not got[1:].any()


@pytest.mark.parametrize("source", ["f16", "f32"])
def test_vredsum_infinities(engine, source):
    dtype = DTYPES[source]
    lanes = 256 // np.dtype(dtype).itemsize
    values = np.zeros(lanes, dtype)
    values[5] = np.inf
    assert run_reduce(engine, "vredsum", source, source, values).view(dtype)[0] == np.inf
    values[9] = -np.inf                                   # inf + -inf: NaN made by arithmetic
    bits = run_reduce(engine, "vredsum", source, source, values).view(f"u{np.dtype(dtype).itemsize}")
    assert bits[0] == (F16_NAN if source == "f16" else F32_NAN)


@pytest.mark.parametrize("source", ["f16", "f32"])
def test_vredsum_signed_zeros_and_no_active_lane(engine, source):
    dtype = DTYPES[source]
    lanes = 256 // np.dtype(dtype).itemsize
    negative_zeros = np.full(lanes, -0.0, dtype)
    every = run_reduce(engine, "vredsum", source, source, negative_zeros).view(dtype)
    assert every[0] == 0 and np.signbit(every[0])        # -0 + -0 = -0 all the way up
    some = run_reduce(engine, "vredsum", source, source, negative_zeros, np.arange(lanes) < 3).view(dtype)
    assert some[0] == 0 and not np.signbit(some[0])       # inactive lanes count as +0
    none = run_reduce(engine, "vredsum", source, source, negative_zeros, np.zeros(lanes, bool))
    assert not none.any()                                 # no active lane: +0, every byte 0


def test_vredsum_f16_subnormals_are_kept(engine):
    smallest = np.array(1, np.uint16).view(np.float16)    # 2^-24
    values = np.zeros(128, np.float16)
    values[:3] = smallest
    got = run_reduce(engine, "vredsum", "f16", "f16", values).view(np.uint16)
    assert got[0] == 3                                    # 3 * 2^-24, no flush to zero


def test_vredsum_s16_widens_before_summing(engine):
    values = np.full(128, 30000, np.int16)               # would overflow s16, fits s32
    got = run_reduce(engine, "vredsum", "s32", "s16", values).view(np.int32)
    assert got[0] == 128 * 30000


def test_vredsum_s32_wraps(engine):
    values = np.full(64, 2**31 - 1, np.int32)
    got = run_reduce(engine, "vredsum", "s32", "s32", values).view(np.int32)
    assert got[0] == np.array([64 * (2**31 - 1) % 2**32], np.uint32).view(np.int32)[0]   # 64 * (2^31-1) mod 2^32


# ---- max / min ----
def first_extreme(values, mask, want_max):
    """Independent model: (value bits, index) of the first active extreme; -0 < +0; first NaN wins."""
    dtype = values.dtype
    active = np.flatnonzero(mask)
    if dtype.kind == "f":
        nans = [i for i in active if np.isnan(values[i])]
        if nans:
            return values[nans[0]], nans[0]
        if active.size == 0:
            return dtype.type(-np.inf if want_max else np.inf), 0
        key = [(float(values[i]), bool(not np.signbit(values[i]))) for i in active]
    else:
        if active.size == 0:
            info = np.iinfo(dtype)
            return dtype.type(info.min if want_max else info.max), 0
        key = [(int(values[i]), True) for i in active]
    best = max(key) if want_max else min(key)
    return values[active[key.index(best)]], int(active[key.index(best)])


@pytest.mark.parametrize("mnemonic", ["vredmax", "vredmin"])
@pytest.mark.parametrize("type_name", MAXMIN_TYPES)
def test_vredmaxmin_random(engine, mnemonic, type_name):
    dtype = np.dtype(DTYPES[type_name])
    rng = np.random.default_rng(len(type_name) * 7 + (mnemonic == "vredmax"))
    lanes = 256 // dtype.itemsize
    if dtype.kind == "f":
        values = rng.integers(-5, 5, lanes).astype(dtype)   # many ties: the first occurrence must win
    else:
        values = rng.integers(0, 7, lanes).astype(dtype)
    mask = rng.random(lanes) < 0.5
    got = run_reduce(engine, mnemonic, type_name, type_name, values, mask).view(dtype)
    value, index = first_extreme(values, mask, mnemonic == "vredmax")
    bits = f"u{dtype.itemsize}"
    assert got.view(bits)[0] == np.array(value, dtype).view(bits)
    assert got.view(bits)[1] == index
    assert not got.view(bits)[2:].any()


def test_vredmax_half_index_reads_as_the_seed_says(engine):
    values = (1.14 - 0.01 * (np.arange(128) - 114.0) ** 2).astype(np.float16)
    got = run_reduce(engine, "vredmax", "f16", "f16", values).view(np.float16)
    assert got[0] == np.float16(1.14)
    assert got.view(np.uint16)[1] == 114 and f"{got[1]:.1e}" == "6.8e-06"   # seed 003's example


@pytest.mark.parametrize("type_name", ["f16", "f32"])
def test_vredmax_and_vredmin_signed_zero_ties(engine, type_name):
    dtype = DTYPES[type_name]
    lanes = 256 // np.dtype(dtype).itemsize
    values = np.full(lanes, -1, dtype)
    values[3], values[7] = -0.0, 0.0
    mx = run_reduce(engine, "vredmax", type_name, type_name, values).view(dtype)
    assert mx[0] == 0 and not np.signbit(mx[0]) and mx.view(f"u{np.dtype(dtype).itemsize}")[1] == 7
    values = np.full(lanes, 1, dtype)
    values[3], values[7] = 0.0, -0.0
    mn = run_reduce(engine, "vredmin", type_name, type_name, values).view(dtype)
    assert mn[0] == 0 and np.signbit(mn[0]) and mn.view(f"u{np.dtype(dtype).itemsize}")[1] == 7


@pytest.mark.parametrize("mnemonic", ["vredmax", "vredmin"])
def test_vredmaxmin_first_nan_wins_with_its_own_bits(engine, mnemonic):
    values = np.arange(64, dtype=np.float32)
    bits = values.view(np.uint32)
    bits[10], bits[20] = 0x7F800001, 0xFFC00002          # two different NaNs; lane 10 comes first
    got = run_reduce(engine, mnemonic, "f32", "f32", values).view(np.uint32)
    assert (got[0], got[1]) == (0x7F800001, 10)


@pytest.mark.parametrize("type_name", MAXMIN_TYPES)
def test_vredmaxmin_no_active_lane_gives_identity_and_index_0(engine, type_name):
    dtype = np.dtype(DTYPES[type_name])
    values = np.ones(256 // dtype.itemsize, dtype)
    none = np.zeros(values.size, bool)
    for mnemonic, want_max in (("vredmax", True), ("vredmin", False)):
        got = run_reduce(engine, mnemonic, type_name, type_name, values, none).view(dtype)
        if dtype.kind == "f":
            assert got[0] == (-np.inf if want_max else np.inf)
        else:
            assert got[0] == (np.iinfo(dtype).min if want_max else np.iinfo(dtype).max)
        assert got.view(f"u{dtype.itemsize}")[1] == 0


def test_vredmax_infinities(engine):
    values = np.full(128, -np.inf, np.float16)
    got = run_reduce(engine, "vredmax", "f16", "f16", values).view(np.float16)
    assert got[0] == -np.inf and got.view(np.uint16)[1] == 0      # all -inf: the first one
    values[40] = np.inf
    got = run_reduce(engine, "vredmax", "f16", "f16", values).view(np.float16)
    assert got[0] == np.inf and got.view(np.uint16)[1] == 40
