"""run_kernel and the compiled handle over several blocks (docs/api.md "C++ kernels"): a whole kernel
from C++ run as `ascasm run --blocks N` runs it, checked against numpy and against the command line."""
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("clang.cindex")

import ascasm                                                  # noqa: E402
from ascasm import cli                                         # noqa: E402
from ascasm.cpp import harness                                 # noqa: E402

ADD = Path(__file__).resolve().parent.parent / "programs" / "kernels" / "add_tail.cpp"
TILING = {"totalLength": 1000, "tileLength": 64}


def _inputs():
    rng = np.random.default_rng(29)
    return rng.standard_normal(1000).astype(np.float32), rng.standard_normal(1000).astype(np.float32)


@pytest.mark.parametrize("blocks", [1, 3, 8])
def test_run_kernel_runs_the_blocks_over_the_shared_gm(engine, blocks):
    x, y = _inputs()
    result = ascasm.run_kernel(ADD, "add_tail", engine=engine, tiling=TILING, blocks=blocks, x=x, y=y,
                               z=np.zeros(1000, np.float32))
    np.testing.assert_array_equal(result["z"], x + y)        # one f32 rounding, as numpy's
    assert len(result.blocks) == blocks and result.blocks[0] is result
    assert all(block.steps > 0 for block in result.blocks)     # (block 0's result counts every block's steps)


def test_the_compiled_handle_takes_blocks_and_jobs_and_checks_the_expectation(engine):
    x, y = _inputs()
    kernel = ascasm.compile_kernel(ADD, "add_tail", tiling=TILING)
    one_process = kernel.run(x=x, y=y, z="f32[1000]", engine=engine, blocks=4, expect={"z": lambda x, y, z: x + y})
    two = kernel.run(x=x, y=y, z="f32[1000]", engine=engine, blocks=4, jobs=2, expect=x + y)   # z found as written
    assert [c.ok for c in one_process.comparisons] == [True] and two.comparisons[0].name == "z"
    np.testing.assert_array_equal(two["z"], one_process["z"])


def test_each_block_computes_its_own_share():
    # 4 blocks of 1000: each takes CeilDivision(1000, 4) = 250 elements, 3 tiles of 64 and a tail of 58, so
    # every block runs the same steps; block 0's result counts all four blocks' (as ascasm.run's)
    x, y = _inputs()
    result = ascasm.run_kernel(ADD, "add_tail", tiling=TILING, blocks=4, x=x, y=y, z=np.zeros(1000, np.float32))
    per_block = {block.steps for block in result.blocks[1:]}
    assert len(per_block) == 1 and result.steps == 4 * per_block.pop()


def test_run_kernel_blocks_give_what_the_command_line_gives(tmp_path, monkeypatch):
    x, y = _inputs()
    monkeypatch.chdir(tmp_path)
    np.save("x.npy", x)
    np.save("y.npy", y)
    assert cli.main(["run", str(ADD), "--entry", "add_tail", "--blocks", "5", "--arg", "x=x.npy", "--arg", "y=y.npy",
                     "--arg", "z=f32[1000]", "--tiling", "totalLength=1000,tileLength=64", "--dump", "z=z.npy"]) == 0
    result = ascasm.run_kernel(ADD, "add_tail", tiling=TILING, blocks=5, x=x, y=y, z=np.zeros(1000, np.float32))
    np.testing.assert_array_equal(result["z"], np.load("z.npy"))
    np.testing.assert_array_equal(result["z"], x + y)


def test_breakpoints_with_several_blocks_are_an_argument_error():
    x, y = _inputs()
    with pytest.raises(harness.KernelArgError, match="breakpoints stop one block's run"):
        ascasm.run_kernel(ADD, "add_tail", tiling=TILING, blocks=2, breakpoints=[20], x=x, y=y, z="f32[1000]")


def test_a_fault_in_a_block_carries_the_kernel_result():
    x, y = _inputs()
    with pytest.raises(ascasm.MachineFault) as fault:      # z holds 500 elements: the blocks past it fault
        ascasm.run_kernel(ADD, "add_tail", tiling=TILING, blocks=4, x=x, y=y, z="f32[500]")
    assert isinstance(fault.value.result, harness.KernelResult) and len(fault.value.result.blocks) == 4
