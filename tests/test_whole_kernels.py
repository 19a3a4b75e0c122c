"""Whole kernels from C++ (docs/frontend.md "Whole kernels"): a `__global__ __aicore__` entry with its
scalar code, queues, data moves and tiling, run over several blocks and checked against numpy."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("clang.cindex")

from ascasm.api import run                                   # noqa: E402
from ascasm.cpp import harness                                # noqa: E402
from ascasm.cpp.tiling import TilingError, parse_option       # noqa: E402

WHOLE = Path(__file__).parent / "kernels" / "whole"
ADD = WHOLE / "add_tail.cpp"


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
