"""Debugging a translated C++ kernel with C++ names: variables, conditions, watches,
inline frames, stepping over and out of a helper; on both executors.

The expected values come from a numpy model of tests/kernels/scale_sum.cpp: with 64 float lanes,
block i of x (64 elements) gets mask_i = lanes below count - 64 i; t_i = x_i * scale + 1 on those
lanes and 0 elsewhere (the Reg API's zeroing); acc_i = acc_(i-1) + t_i (float32); y's block i is
acc_i on mask_i's lanes; `left`, after UpdateMask in block i, is max(count - 64 (i + 1), 0)."""
from __future__ import annotations

import io
import textwrap
from pathlib import Path

import numpy as np
import pytest

from ascasm.expr import machine as expressions
from ascasm.debugger import Debugger

pytest.importorskip("clang.cindex")

KERNEL = Path(__file__).parent / "kernels" / "scale_sum.cpp"
COUNT, SCALE, LANES = 200, 0.5, 64
X = ((np.arange(256) * 5) % 11 - 5).astype(np.float32) / 2       # halves: every sum is exact


def model():
    """Per block i: (active lanes, x_i, t_i, acc_i, left after UpdateMask)."""
    acc = np.zeros(LANES, np.float32)
    blocks = []
    for i in range(-(-COUNT // LANES)):
        active = np.arange(LANES) < COUNT - LANES * i
        x = X[LANES * i:LANES * (i + 1)]
        t = np.where(active, x * np.float32(SCALE) + np.float32(1), np.float32(0)).astype(np.float32)
        acc = (acc + t).astype(np.float32)
        blocks.append((active, x, t, acc, max(COUNT - LANES * (i + 1), 0)))
    return blocks


def kernel_program():
    from ascasm.cpp import harness
    translation = harness.translate_kernel(KERNEL, "ScaleSumVF")
    return harness.build(translation, {"yAddr": np.zeros(256, np.float32), "xAddr": X, "count": COUNT,
                                       "scale": SCALE}).program


def debugger(program, engine, script: str):
    out = io.StringIO()
    dbg = Debugger(program, engine, stdin=io.StringIO(textwrap.dedent(script).lstrip("\n")), stdout=out)
    dbg.cmdloop()
    return dbg, out.getvalue()


def value(dbg, text):
    return expressions.evaluate_text(text, dbg.control.env()).data


@pytest.fixture(scope="module")
def program():
    return kernel_program()


def test_a_conditional_breakpoint_on_a_cpp_variable(program, engine):
    """`b 27 if left < 64` stops in block 2 (left = 8) before its LoadAlign: x still holds block 1."""
    blocks = model()
    dbg, out = debugger(program, engine, "b 27 if left < 64\nc\np left\n")
    assert "Breakpoint 1, line 27 (condition `left < 64` is true)" in out
    assert "left (uint32_t in s" in out and ") = 8\n" in out
    assert int(value(dbg, "left")) == blocks[2][4] == 8
    assert int(value(dbg, "i")) == 2 and int(value(dbg, "blocks")) == 4
    assert np.array_equal(value(dbg, "acc"), blocks[1][3])
    assert np.array_equal(value(dbg, "x"), blocks[1][1])
    assert value(dbg, "x[3]") == blocks[1][1][3] and value(dbg, "xAddr[3]") == X[3]
    assert value(dbg, "acc").dtype == np.float32 and value(dbg, "i").dtype == np.uint16
    # a MaskReg's lanes as wide as UpdateMask<float>'s: 64, all active in block 2 (72 elements were left)
    assert np.array_equal(value(dbg, "mask"), np.ones(LANES, bool))


def test_inside_the_inlined_helper(program, engine):
    """`b 13` (ScaleBias's Adds) in block 0: its own variables, its caller's through up."""
    active, x, _t, _acc, _left = model()[0]
    dbg, out = debugger(program, engine, "b 13\nc\nwhere\ninfo args\ninfo locals\nup\ninfo locals\n")
    assert np.array_equal(value(dbg, "x"), x)                              # the caller's, after up
    dbg.control.frame_up = 0
    assert np.array_equal(value(dbg, "scaled"), np.where(active, x * np.float32(SCALE), 0).astype(np.float32))
    assert np.array_equal(value(dbg, "src"), x) and value(dbg, "scale") == np.float32(SCALE)
    where = out.split("(ascasm) where\n")[1].split("(ascasm)")[0].splitlines()
    assert where[0].startswith("#0  ScaleBias at scale_sum.cpp:13")
    assert where[2] == "#1  kernel at scale_sum.cpp:28" and where[3].strip() == "ScaleBias(t, x, scale, mask);"
    args = out.split("(ascasm) info args\n")[1].split("(ascasm)")[0]
    assert [line.split()[0] for line in args.splitlines()] == ["dst", "mask", "scale", "src"]
    locals_here, locals_up = (chunk.split("(ascasm)")[0] for chunk in out.split("(ascasm) info locals\n")[1:])
    assert [line.split()[0] for line in locals_here.splitlines()] == ["scaled"]
    assert {line.split()[0] for line in locals_up.splitlines()} == {"acc", "all", "blocks", "i", "lanes", "left",
                                                                    "mask", "t", "x"}


def test_before_the_store_and_a_watch(program, engine):
    """`b 30 if i == 1`: acc and t of block 1, y's block 0 stored; a watch on y[64 + 5] sees block 1's store."""
    blocks = model()
    dbg, out = debugger(program, engine, "b 30 if i == 1\nc\np/x i\nwatch yAddr[69]\nc\n")
    assert "i (uint16_t in s" in out and ") = 0x0001" in out
    assert np.array_equal(value(dbg, "acc"), blocks[1][3]) and np.array_equal(value(dbg, "t"), blocks[1][2])
    assert np.array_equal(value(dbg, "yAddr[0:64]"), blocks[0][3])
    assert "Watch 2: yAddr[69] changed" in out and value(dbg, "yAddr[69]") == blocks[1][3][5]


def test_next_steps_over_the_helper_and_finish_leaves_it(program, engine):
    _dbg, out = debugger(program, engine, "tbreak 27\nc\nn\nn\nb 12\nc\nfinish\n")
    stops = [line for line in out.splitlines() if line.startswith("> ")]
    assert [stop.split("(")[1].split(")")[0] for stop in stops[1:]] == ["27", "28", "29", "12", "29"]


def test_a_variable_whose_register_was_reused_is_optimised_out(program, engine):
    _dbg, out = debugger(program, engine, "b 27\nc\np count\np nonsense\n")
    assert "error: 'count' is optimised out here" in out
    assert "unknown name 'nonsense'" in out


def test_display_and_print_formats(program, engine):
    blocks = model()
    dbg, out = debugger(program, engine, "display left\nb 29\nc\nc\np/x blocks\n")
    assert f"1: left (uint32_t in s" in out and out.count("1: left") == 3
    assert ") = 0x0004" in out and int(value(dbg, "left")) == blocks[1][4]


def test_the_translated_s_file_debugs_the_same(program, engine, tmp_path):
    """`ascasm translate -o k.s` then `ascasm debug k.s`: the directives carry the same information."""
    from ascasm.asm.assembler import assemble
    from ascasm.cpp import harness
    translation = harness.translate_kernel(KERNEL, "ScaleSumVF")
    kernel = harness.build(translation, {"yAddr": np.zeros(256, np.float32), "xAddr": X, "count": COUNT,
                                         "scale": SCALE})
    text = harness.program_text(translation, kernel.bindings, KERNEL.parent)
    from_text = assemble(text, str(KERNEL.with_name("k.s")))
    for buf in from_text.buffers.values():
        buf.data = kernel.program.buffers[buf.name].data
    dbg, _out = debugger(from_text, engine, "b 27 if left < 64\nc\n")
    assert int(value(dbg, "left")) == 8 and np.array_equal(value(dbg, "acc"), model()[1][3])


def test_the_run_result_gives_variables_by_name(engine):
    import ascasm
    blocks = model()
    result = ascasm.run_kernel(KERNEL, "ScaleSumVF", engine=engine, yAddr=np.zeros(256, np.float32), xAddr=X,
                               count=COUNT, scale=SCALE)
    acc = result.var("acc")
    assert acc.dtype == np.float32 and np.array_equal(acc, blocks[-1][3])
    assert result.var("left") == 0 and result.var("left").dtype == np.uint32
    assert result.var("i") == 4 and result.var("lanes") == 64
    assert np.array_equal(result.var("yAddr")[:COUNT], result["yAddr"][:COUNT])
    with pytest.raises(ValueError, match="optimised out"):
        result.var("count")
    with pytest.raises(KeyError, match="no C\\+\\+ variable named 'nonsense'"):
        result.var("nonsense")


def test_the_cpp_session_of_docs_debugger_md(monkeypatch, engine):
    """docs/debugger.md's session with C++ names, replayed: its commands give its lines (a line the page
    shortens with `...` is compared up to there)."""
    from ascasm.cpp import harness
    root = Path(__file__).resolve().parents[1]
    doc = (root / "docs" / "debugger.md").read_text()
    session = doc.split("$ ascasm debug tests/kernels/scale_sum.cpp")[1].split("```")[0].splitlines()[1:]
    commands = [line[len("(ascasm) "):] for line in session if line.startswith("(ascasm) ")]
    monkeypatch.chdir(root)                    # the page's relative names
    translation = harness.translate_kernel(Path("tests/kernels/scale_sum.cpp"), "ScaleSumVF")
    program = harness.build(translation, {"yAddr": np.zeros(256, np.float32), "xAddr": X, "count": COUNT,
                                          "scale": SCALE}).program
    _dbg, out = debugger(program, engine, "\n".join(commands) + "\n")
    got = out.splitlines()
    got = got[next(k for k, line in enumerate(got) if line.startswith("(ascasm) ")):]
    assert len(got) >= len(session)
    for wanted, line in zip(session, got):
        if wanted.endswith("..."):
            assert line.startswith(wanted.rstrip(". ")), (wanted, line)
        else:
            assert line == wanted


def test_the_run_result_gives_variables_at_breakpoints(engine):
    """Line 27 (LoadAlign) in block i: acc of the blocks before, left after block i's UpdateMask; line 12
    (inside ScaleBias) in block i: its src is block i of x, its scale the kernel's."""
    import ascasm
    blocks = model()
    result = ascasm.run_kernel(KERNEL, "ScaleSumVF", engine=engine, yAddr=np.zeros(256, np.float32), xAddr=X,
                               count=COUNT, scale=SCALE, breakpoints=[27, "scale_sum.cpp:12"])
    assert [(stop.line, int(stop.var("i"))) for stop in result.stops] == [(27, 0), (12, 0), (27, 1), (12, 1),
                                                                          (27, 2), (12, 2), (27, 3), (12, 3)]
    for i in range(4):
        at_load, in_helper = result.stops[2 * i], result.stops[2 * i + 1]
        before = blocks[i - 1][3] if i else np.zeros(LANES, np.float32)
        assert np.array_equal(at_load.var("acc"), before) and at_load.var("left") == blocks[i][4]
        assert np.array_equal(in_helper.var("src"), blocks[i][1]) and in_helper.var("scale") == np.float32(SCALE)
        assert at_load.step < in_helper.step
    assert np.array_equal(result.var("acc"), blocks[-1][3])              # and at the halt, as before
    with pytest.raises(ValueError, match="optimised out"):
        result.stops[0].var("count")
    with pytest.raises(KeyError, match="no C\\+\\+ variable named 'nonsense'"):
        result.stops[0].var("nonsense")
    with pytest.raises(ValueError, match="no instruction comes from a file 'other.cpp'"):
        ascasm.run_kernel(KERNEL, "ScaleSumVF", yAddr=np.zeros(256, np.float32), xAddr=X, count=COUNT, scale=SCALE,
                          breakpoints="other.cpp:3")


# ---- tests/kernels/clamp_count.cpp: half and int16 lanes, half parameters ----
# Model: block b (128 half lanes) is active below n - 128 b; Clamp gives low = max(src, lo), then
# v = min(low, hi) on active lanes, 0 elsewhere (zeroing); moved = active & (v != src);
# diff = 1 on moved lanes, 0 elsewhere; n after UpdateMask in block b is max(N - 128 (b + 1), 0).

CLAMP = Path(__file__).parent / "kernels" / "clamp_count.cpp"
N, LO, HI, HALF_LANES = 300, -1.0, 1.5, 128
SRC = np.concatenate([(np.arange(N) % 9 - 4).astype(np.float16) / 2, np.zeros(84, np.float16)])


def clamp_model(b):
    active = np.arange(HALF_LANES) < N - HALF_LANES * b
    src = SRC[HALF_LANES * b:HALF_LANES * (b + 1)]
    low = np.where(active, np.maximum(src, np.float16(LO)), 0).astype(np.float16)
    v = np.where(active, np.minimum(low, np.float16(HI)), 0).astype(np.float16)
    diff = (active & (v != src)).astype(np.int16)
    return src, low, v, diff, max(N - HALF_LANES * (b + 1), 0)


@pytest.fixture(scope="module")
def clamp_program():
    from ascasm.cpp import harness
    translation = harness.translate_kernel(CLAMP, "ClampVF")
    return harness.build(translation, {"dst": np.zeros(384, np.float16), "changed": np.full(384, 7, np.int16),
                                       "src": SRC, "n": N, "lo": LO, "hi": HI}).program


def test_clamp_after_the_helper_in_block_1(clamp_program, engine):
    src, _low, v, _diff, n = clamp_model(1)
    dbg, out = debugger(clamp_program, engine, "b 29 if b == 1\nc\np v[0:4]\n")
    assert "v (RegTensor<half> in v" in out and ": f16, 4 lanes" in out
    assert value(dbg, "v").dtype == np.float16 and np.array_equal(value(dbg, "v"), v)
    assert np.array_equal(value(dbg, "before"), src)
    assert int(value(dbg, "n")) == n == 44 and int(value(dbg, "blocks")) == 3
    assert value(dbg, "lo") == np.float16(LO) and value(dbg, "hi").dtype == np.float16


def test_clamp_inside_the_helper_in_block_0(clamp_program, engine):
    src, low, _v, _diff, _n = clamp_model(0)
    dbg, out = debugger(clamp_program, engine, "b 12\nc\nbt\n")
    assert "#0  Clamp at clamp_count.cpp:12" in out and "#1  kernel at clamp_count.cpp:28" in out
    assert np.array_equal(value(dbg, "low"), low) and np.array_equal(value(dbg, "v"), src)   # v: before Mins
    assert value(dbg, "hi") == np.float16(HI)


def test_clamp_before_the_last_store(clamp_program, engine):
    _src, _low, v, diff, _n = clamp_model(2)
    dbg, out = debugger(clamp_program, engine, "b 33 if n == 0\nc\np/x diff[0:4]\n")
    assert value(dbg, "diff").dtype == np.int16 and np.array_equal(value(dbg, "diff"), diff)
    assert np.array_equal(value(dbg, "v"), v) and int(value(dbg, "b")) == 2
    assert np.array_equal(value(dbg, "mask"), np.arange(HALF_LANES) < N - 2 * HALF_LANES)   # UpdateMask<half>
    assert np.array_equal(value(dbg, "moved"), diff.astype(bool))
    stored = np.concatenate([clamp_model(0)[3], clamp_model(1)[3]])
    assert np.array_equal(value(dbg, "changed[0:256]"), stored)
    assert "diff (RegTensor<int16_t> in v" in out and ": s16, 4 lanes" in out


# ---- tests/kernels/rmsnorm.cpp, modelled as tests/test_cpp_kernels.py models its result ----

def test_rmsnorm_at_three_breakpoints(engine):
    from test_cpp_kernels import LANES_F32, lane_accumulate, padded, pairwise_sum, rounded
    from ascasm.cpp import harness
    count = 160
    rng = np.random.default_rng(11)
    x = rng.normal(0, 2, count).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, count).astype(np.float32)
    inv_count, epsilon = np.float32(1 / count), np.float32(1e-5)
    translation = harness.translate_kernel(Path(__file__).parent / "kernels" / "rmsnorm.cpp", "RmsNormVF")
    program = harness.build(translation, {"yAddr": np.zeros(192, np.float32), "xAddr": padded(x, LANES_F32),
                                          "gammaAddr": padded(gamma, LANES_F32), "count": count,
                                          "invCount": float(inv_count), "epsilon": float(epsilon)}).program
    squares = rounded(x.astype(np.float64) * x, np.float32)
    acc = lane_accumulate(squares)
    mean = rounded(np.float64(pairwise_sum(acc)) * inv_count, np.float32)
    rms = np.sqrt(rounded(np.float64(mean) + epsilon, np.float32))
    y = rounded(rounded(x.astype(np.float64) / rms, np.float32).astype(np.float64) * gamma, np.float32)
    # after the first loop, at the Reduce: the lanes' sums of squares, nothing left to do
    dbg, _out = debugger(program, engine, "b 28\nc\n")
    assert np.array_equal(value(dbg, "acc"), acc) and int(value(dbg, "remaining")) == 0
    assert value(dbg, "invCount") == inv_count and int(value(dbg, "repeatTimes")) == 3
    # at the helper's call: rms's lane 0
    dbg, _out = debugger(program, engine, "b 32\nc\n")
    assert value(dbg, "rms[0]") == rms
    # the second loop's last block, before its store: 32 lanes of y, x's block 2
    dbg, _out = debugger(program, engine, "b 41 if i == 2\nc\n")
    assert np.array_equal(value(dbg, "y[0:32]"), y[128:160]) and np.array_equal(value(dbg, "x[0:32]"), x[128:160])
    assert np.array_equal(value(dbg, "yAddr[0:128]"), y[:128])


STRUCT_KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;
struct Tile {
    uint32_t count;
    float scale;
};
__simd_vf__ inline void StructVF(__ubuf__ float* yAddr, __ubuf__ float* xAddr, uint32_t count, float scale)
{
    Tile tile{count, scale};
    MicroAPI::RegTensor<float> x;
    MicroAPI::MaskReg mask = MicroAPI::UpdateMask<float>(tile.count);
    MicroAPI::LoadAlign(x, xAddr);
    MicroAPI::Muls(x, x, tile.scale, mask);
    MicroAPI::StoreAlign(yAddr, x, mask);
}
"""


def test_struct_members_by_their_names(tmp_path, engine):
    from ascasm.cpp import harness
    path = tmp_path / "k.cpp"
    path.write_text(STRUCT_KERNEL)
    x = np.arange(64, dtype=np.float32) - 7
    program = harness.build(harness.translate_kernel(path, "StructVF"),
                            {"yAddr": np.zeros(64, np.float32), "xAddr": x, "count": 10, "scale": 2.5}).program
    dbg, out = debugger(program, engine, "b 13\nc\np tile.scale\ninfo locals\nn\n")
    assert "tile.scale (float in s" in out and "tile.count (uint32_t in s" in out
    assert value(dbg, "tile.scale") == np.float32(2.5)
    assert np.array_equal(value(dbg, "x[0:10]"), x[:10] * np.float32(2.5))      # after the Muls
