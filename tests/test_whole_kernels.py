"""Whole kernels from C++ (docs/frontend.md "Whole kernels"): a `__global__ __aicore__` entry with its
scalar code, queues, data moves and tiling, run over several blocks and checked against numpy."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("clang.cindex")

from ascasm.api import run                                   # noqa: E402
from ascasm.vm import MachineFault                            # noqa: E402
from ascasm.cpp import harness                                # noqa: E402
from ascasm.cpp.tiling import TilingError, parse_option       # noqa: E402

WHOLE = Path(__file__).parent / "kernels" / "whole"
ADD = Path(__file__).resolve().parent.parent / "programs" / "kernels" / "add_tail.cpp"   # the bundled one


def build(path, entry, args, tiling=None, tiling_key=None):
    translation = harness.translate_kernel(path, entry, tiling=tiling, tiling_key=tiling_key)
    return harness.build(translation, args)


@pytest.mark.parametrize("blocks, total, tile", [(1, 1000, 64), (3, 1000, 64), (8, 1000, 128), (4, 64, 64)])
def test_elementwise_add_over_blocks_with_a_tail(engine, blocks, total, tile):
    rng = np.random.default_rng(blocks)
    x = rng.standard_normal(total).astype(np.float32)
    y = rng.standard_normal(total).astype(np.float32)
    kernel = build(ADD, "add_tail", {"x": x, "y": y, "z": f"f32[{total}]"},
                   tiling={"totalLength": total, "tileLength": tile})
    result = run(kernel.program, engine=engine, blocks=blocks)
    np.testing.assert_array_equal(result["z"], x + y)       # one f32 rounding, as numpy's


def test_the_tiling_is_laid_out_as_the_struct_and_given_to_its_parameter():
    translation = harness.translate_kernel(ADD, "add_tail", tiling={"totalLength": 1000, "tileLength": 64})
    name, raw = translation.tiling
    assert name == "tiling"
    assert np.frombuffer(raw, np.uint32).tolist() == [1000, 64]     # two uint32_t fields at offsets 0 and 4


def test_queue_blocks_are_placed_in_initbuffer_order_rounded_to_32_bytes():
    translation = harness.translate_kernel(ADD, "add_tail", tiling={"totalLength": 100, "tileLength": 20})
    # three queues of two blocks of 20 floats (80 bytes, rounded up to 96)
    assert [(name, at, size) for name, at, size in translation.ub_regions] == [
        ("inQueueX_0", 0, 96), ("inQueueX_1", 96, 96), ("inQueueY_0", 192, 96), ("inQueueY_1", 288, 96),
        ("outQueueZ_0", 384, 96), ("outQueueZ_1", 480, 96)]


@pytest.mark.parametrize("given, message", [
    ({"totalLength": 10}, "gives no value for 'AddTiling.tileLength'"),
    ({"totalLength": 10, "tileLength": 8, "extra": 1}, "'AddTiling.extra' is not a member of AddTiling"),
    (None, "this kernel reads its tiling"),
])
def test_tiling_fields_missing_or_unknown_are_errors_listing_the_fields(given, message):
    with pytest.raises(harness.CppFailed) as failed:
        harness.translate_kernel(ADD, "add_tail", tiling=given)
    text = str(failed.value)
    assert message in text and "totalLength (uint32_t), tileLength (uint32_t)" in text
    assert "add_tail.cpp:106:" in text


@pytest.mark.parametrize("entry, line, message", [
    ("deque_empty", 10, "DeQue of the empty queue 'que'"),
    ("never_freed", 21, "is never freed"),
    ("tensor_op", 33, "AscendC::Adds on LocalTensors"),
    ("unbalanced_loop", 41, "this loop body leaves queue 'que'"),
])
def test_queue_misuse_is_a_located_error(entry, line, message):
    with pytest.raises(harness.CppFailed) as failed:
        harness.translate_kernel(WHOLE / "queue_errors.cpp", entry)
    text = str(failed.value)
    assert message in text and f"queue_errors.cpp:{line}:" in text


def test_tiling_option_forms(tmp_path):
    assert parse_option("a=3,b.c=4, d=0.5") == {"a": 3, "b": {"c": 4}, "d": 0.5}
    (tmp_path / "t.json").write_text(json.dumps({"a": [1, 2]}))
    assert parse_option("t.json", tmp_path) == {"a": [1, 2]}
    with pytest.raises(TilingError):
        parse_option("a")
    with pytest.raises(TilingError):
        parse_option("missing.json", tmp_path)


def test_command_line_runs_blocks_with_a_tiling_file_and_dumps_gm(tmp_path):
    rng = np.random.default_rng(7)
    x = rng.standard_normal(1000).astype(np.float32)
    y = rng.standard_normal(1000).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "y.npy", y)
    (tmp_path / "t.json").write_text(json.dumps({"totalLength": 1000, "tileLength": 64}))
    done = subprocess.run([sys.executable, "-m", "ascasm", "run", str(ADD), "--entry", "add_tail", "--blocks", "4",
                           "--arg", "x=x.npy", "--arg", "y=y.npy", "--arg", "z=f32[1000]", "--tiling", "t.json",
                           "--dump", "z=z.npy"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "z.npy"), x + y)


def test_command_line_output_buffer_too_small_faults_at_the_cpp_line(tmp_path):
    np.save(tmp_path / "x.npy", np.ones(100, np.float32))
    done = subprocess.run([sys.executable, "-m", "ascasm", "run", str(ADD), "--entry", "add_tail",
                           "--arg", "x=x.npy", "--arg", "y=x.npy", "--arg", "z=f32[99]",
                           "--tiling", "totalLength=100,tileLength=32"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 2
    assert "add_tail.cpp:92:9: fault: GM access outside every buffer" in done.stderr


@pytest.mark.parametrize("blocks", [1, 4])
def test_row_softmax_with_double_buffered_queues(engine, blocks):
    rows, cols = 13, 100
    x = np.random.default_rng(3).standard_normal((rows, cols)).astype(np.float32)
    kernel = build(WHOLE / "softmax_rows.cpp", "softmax_rows", {"x": x.reshape(-1), "y": f"f32[{rows * cols}]"},
                   tiling={"rows": rows, "cols": cols})
    y = run(kernel.program, engine=engine, blocks=blocks)["y"].reshape(rows, cols)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("blocks", [1, 3, 8])
def test_cross_block_sum_with_syncall(engine, blocks):
    x = np.random.default_rng(5).integers(-8, 9, 960).astype(np.float32)    # small integers: every sum exact
    kernel = build(WHOLE / "sum_all.cpp", "sum_all", {"x": x, "y": "f32[1]", "workspace": f"f32[{blocks}]"},
                   tiling={"totalLength": 960})
    result = run(kernel.program, engine=engine, blocks=blocks)
    assert result["y"][0] == x.astype(np.float64).sum()
    np.testing.assert_array_equal(result["workspace"], x.reshape(blocks, -1).astype(np.float64).sum(axis=1))


@pytest.mark.parametrize("key, branch", [(2, 2.0), (5, -1.0)])
def test_nested_tiling_layout_key_and_scalar_tensor_access(engine, key, branch):
    tiling = {"flag": 3, "inner": {"a": 513, "b": 0.25}, "arr": [10, 20, 30], "h": 1.5}
    translation = harness.translate_kernel(WHOLE / "tiling_probe.cpp", "probe", tiling=tiling, tiling_key=key)
    # C's layout, worked by hand: flag at 0; Inner (4-byte aligned) at 4: a at 4, b at 8; arr at 12, 16, 20;
    # h at 24; 28 bytes in all (a multiple of the 4-byte alignment)
    expected = bytearray(28)
    expected[0] = 3
    expected[4:6] = np.uint16(513).tobytes()
    expected[8:12] = np.float32(0.25).tobytes()
    expected[12:24] = np.array([10, 20, 30], np.uint32).tobytes()
    expected[24:26] = np.float16(1.5).tobytes()
    assert translation.tiling == ("tiling", bytes(expected))
    y = run(harness.build(translation, {"y": "f32[8]"}).program, engine=engine)["y"]
    np.testing.assert_array_equal(y[:7], [0.25, 513, 3, branch, 1.25, 20, 6])
    assert y.view(np.uint32)[7] == 7                                   # through ReinterpretCast<uint32_t>


def test_tiling_key_is_needs_the_key():
    with pytest.raises(harness.CppFailed, match="give the tiling key"):
        harness.translate_kernel(WHOLE / "tiling_probe.cpp", "probe",
                                 tiling={"flag": 0, "inner": {"a": 0, "b": 0}, "arr": [0, 0, 0], "h": 0})


def test_class_template_static_tensors_and_asc_vf_call(engine):
    x = np.random.default_rng(11).standard_normal(4 * 128).astype(np.float32)
    kernel = build(WHOLE / "static_tensors.cpp", "scale_add<128>", {"x": x, "y": "f32[512]", "scale": 0.5})
    y = run(kernel.program, engine=engine, blocks=4)["y"]
    np.testing.assert_array_equal(y, x * np.float32(0.5) + np.float32(1))     # each step one f32 rounding


def test_global_tensor_scalar_access_and_registered_tiling(engine):
    x = np.arange(-5, 12, dtype=np.int16)
    kernel = build(WHOLE / "tiling_probe.cpp", "reverse", {"x": x, "y": "s16[17]"}, tiling={"count": 17})
    np.testing.assert_array_equal(run(kernel.program, engine=engine)["y"], x[::-1])


# The vendor's API examples (mirror-cann/asc-devkit, read from a bare git mirror at run time, never
# copied here): each whole kernel runs from its own entry with the block count its host program
# launches, on the inputs its data script writes, against the golden file that script computes with
# numpy (docs/frontend.md "Whole kernels of the public examples").
MIRRORS = Path(os.environ.get("ASCASM_MIRRORS", "/work/.mirror"))
DEVKIT = MIRRORS / "mirror-cann+asc-devkit" / "repo"
DEVKIT_COMMIT = "82b89a15f26329511fc7fbc807d5132a1f9b4ba7"
BASIC = "examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute"
# (directory, entry, blocks, {parameter: input file}, output parameter)
DEVKIT_KERNELS = [
    ("examples/01_simd_cpp_api/00_introduction/04_reg_compute/add", "vector_add<16384>", 4,
     {"x": "input_x.bin"}, "y"),
    (f"{BASIC}/muls", "muls", 1, {"x": "input_x.bin"}, "z"),
    (f"{BASIC}/mul", "mul", 4, {"x": "input_x.bin", "y": "input_y.bin"}, "z"),
    (f"{BASIC}/abs", "abs", 1, {"x": "input_x.bin"}, "y"),
    (f"{BASIC}/duplicate", "duplicate", 1, {}, "y"),
    (f"{BASIC}/arange", "arange", 1, {}, "y"),
    (f"{BASIC}/reduce", "reduce", 1, {"x": "input_x.bin"}, "y"),
    (f"{BASIC}/select", "select", 1, {"x": "input_x.bin", "y": "input_y.bin", "mask": "input_mask.bin"}, "z"),
    (f"{BASIC}/squeeze", "squeeze", 1, {"x": "input_x.bin"}, "y"),
    (f"{BASIC}/truncate", "truncate", 1, {"x": "input_x.bin"}, "y"),
]


def _export(directory, target):
    names = subprocess.run(["git", "--git-dir", str(DEVKIT), "ls-tree", "-r", "--name-only", DEVKIT_COMMIT,
                            directory], capture_output=True, text=True, check=True).stdout.split()
    for name in names:
        dest = target / Path(name).relative_to(directory)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(subprocess.run(["git", "--git-dir", str(DEVKIT), "show", f"{DEVKIT_COMMIT}:{name}"],
                                        capture_output=True, check=True).stdout)


@pytest.mark.skipif(not DEVKIT.is_dir(), reason="no asc-devkit mirror")
@pytest.mark.parametrize("directory, entry, blocks, inputs, output", DEVKIT_KERNELS,
                         ids=[k[0].rsplit("/", 1)[-1] for k in DEVKIT_KERNELS])
def test_devkit_whole_kernel_matches_its_golden_file(tmp_path, directory, entry, blocks, inputs, output):
    _export(directory, tmp_path)
    subprocess.run([sys.executable, "scripts/gen_data.py"], cwd=tmp_path, check=True, capture_output=True)
    golden = (tmp_path / "output" / "golden.bin").read_bytes()
    source = next(tmp_path.glob("*.asc"))
    args = {name: np.fromfile(tmp_path / "input" / file, np.uint8) for name, file in inputs.items()}
    args[output] = f"u8[{len(golden)}]"
    kernel = build(source, entry, args)
    got = run(kernel.program, engine="ref", blocks=blocks)[output]
    want = np.frombuffer(golden, np.float32)         # every one of these examples' outputs is float32
    np.testing.assert_allclose(got.view(np.float32), want, rtol=1e-4, atol=1e-4)   # their own check's EPS


def test_run_kernel_takes_gm_arrays_and_a_tiling_dict():
    import ascasm
    x = np.arange(100, dtype=np.float32)
    result = ascasm.run_kernel(ADD, "add_tail", engine="ref", tiling={"totalLength": 100, "tileLength": 32},
                               x=x, y=x, z=np.zeros(100, np.float32))
    np.testing.assert_array_equal(result["z"], 2 * x)


def test_tiling_for_a_vector_function_is_an_error():
    with pytest.raises(harness.CppFailed, match="are for whole kernels"):
        harness.translate_kernel(WHOLE / "sum_all.cpp", "SumVF", tiling={"n": 1})


def test_a_data_copy_form_not_supported_is_a_located_error(tmp_path):
    kernel = tmp_path / "k.cpp"
    kernel.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                      'extern "C" __global__ __aicore__ void k(GM_ADDR x)\n{\n    TPipe pipe;\n'
                      '    TBuf<TPosition::VECCALC> buf;\n    pipe.InitBuffer(buf, 256);\n'
                      '    GlobalTensor<float> g;\n    g.SetGlobalBuffer((__gm__ float*)x);\n'
                      '    LocalTensor<float> t = buf.Get<float>();\n'
                      '    DataCopy(t, g, DataCopyParams{1, 8, 0, 0});\n}\n')
    with pytest.raises(harness.CppFailed) as failed:
        harness.translate_kernel(kernel, "k")
    assert "k.cpp:11:20: error: DataCopy with DataCopyParams" in str(failed.value)


def test_translate_writes_a_program_that_runs_the_same(tmp_path):
    x = np.arange(200, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    base = [sys.executable, "-m", "ascasm"]
    done = subprocess.run(base + ["translate", str(ADD), "--entry", "add_tail", "--arg", "x=x.npy", "--arg", "y=x.npy",
                                  "--arg", "z=f32[200]", "--tiling", "totalLength=200,tileLength=64", "-o", "k.s"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert ".gm tiling u8[8] = [200, 0, 0, 0, 64, 0, 0, 0]" in (tmp_path / "k.s").read_text()
    done = subprocess.run(base + ["run", "k.s", "--blocks", "3", "--dump", "z=z.npy"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "z.npy"), 2 * x)


# The checks of docs/semantics.md "Hazards" and "Synchronisation" at the C++ line, each planted in
# tests/kernels/whole/sync_errors.cpp (add_one<wait>: y = x + 1 over 64 floats).
SYNC = WHOLE / "sync_errors.cpp"
X64 = np.arange(64, dtype=np.float32)


def test_a_vector_read_of_a_data_move_with_no_wait_is_a_hazard_at_the_load(engine):
    kernel = build(SYNC, "add_one<0>", {"x": X64, "y": "f32[64]"})
    result = run(kernel.program, engine=engine)
    np.testing.assert_array_equal(result["y"], X64 + 1)      # ascasm runs in program order: the value is right
    [warning] = [str(w) for w in result.warnings]
    assert "sync_errors.cpp:9:5: warning: memory hazard: UB bytes 0x0..0xff were written by the data move at " \
           "line 25" in warning and "no wait between" in warning
    with pytest.raises(MachineFault) as fault:                # --strict: a fault at the load
        run(kernel.program, engine=engine, strict=True)
    assert fault.value.kind == "HAZARD" and fault.value.loc.line == 9


def test_a_data_move_waited_for_is_no_hazard(engine):
    kernel = build(SYNC, "add_one<1>", {"x": X64, "y": "f32[64]"})
    result = run(kernel.program, engine=engine, strict=True)
    np.testing.assert_array_equal(result["y"], X64 + 1)
    assert result.warnings == []


def test_a_waitflag_with_no_setflag_faults_at_its_line(engine):
    kernel = build(SYNC, "add_one<2>", {"x": X64, "y": "f32[64]"})
    with pytest.raises(MachineFault) as fault:
        run(kernel.program, engine=engine)
    assert fault.value.kind == "SYNC_UNPAIRED" and fault.value.loc.line == 30
    assert "has no setflag to take" in str(fault.value)


@pytest.mark.parametrize("path, entry, args, tiling", [
    (ADD, "add_tail", {"x": np.ones(1000, np.float32), "y": np.ones(1000, np.float32), "z": "f32[1000]"},
     {"totalLength": 1000, "tileLength": 64}),
    (WHOLE / "softmax_rows.cpp", "softmax_rows", {"x": np.ones(300, np.float32), "y": "f32[300]"},
     {"rows": 3, "cols": 100}),
    (WHOLE / "tiling_probe.cpp", "reverse", {"x": np.arange(17, dtype=np.int16), "y": "s16[17]"}, {"count": 17}),
])
def test_queue_kernels_wait_at_deque_and_scalar_gm_reads_wait_for_their_move(engine, path, entry, args, tiling):
    """DeQue is the wait for a queue's data move, and GlobalTensor::GetValue waits for its one-element move:
    kernels written as the pages show run without a hazard."""
    kernel = build(path, entry, args, tiling=tiling)
    assert run(kernel.program, engine=engine, strict=True).warnings == []


@pytest.mark.parametrize("blocks", [1, 3])
def test_member_initialiser_lists_set_members_as_assignments_would(engine, blocks):
    # length(128) sizes the queues (a translation-time constant), scale(scale * 2) and offset(block * 128)
    x = np.random.default_rng(17).standard_normal(128 * blocks).astype(np.float32)
    kernel = build(WHOLE / "init_list.cpp", "scale_rows", {"x": x, "y": f"f32[{128 * blocks}]", "scale": 0.75})
    result = run(kernel.program, engine=engine, blocks=blocks, strict=True)
    np.testing.assert_array_equal(result["y"], x * np.float32(1.5))       # one f32 rounding, as numpy's
    assert [(name, size) for name, _, size in kernel.translation.ub_regions] == [("inQueue", 512), ("outQueue", 512)]
