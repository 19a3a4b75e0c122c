"""Running C++ kernels (ascasm/cpp/harness.py, `ascasm run|translate|debug KERNEL.cpp`, run_kernel).

The translator is replaced here by a hand-written translation of tests/cpp_harness/scale_relu.cpp
(dst = relu(src * scale) over `count` floats, 64 per repeat), so that these tests pin the harness:
argument specs, buffer placement, in-place and offset pointers, dtypes, errors and exit statuses,
`translate -o` then `run k.s`, and the debugger on C++ lines. Expected values come from numpy
(np.float32 products are rounded once, as the instruction rounds them)."""
from __future__ import annotations

import io
import json
import os
import sys
import tempfile
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import ascasm
from ascasm import MachineFault, cli
from ascasm.cpp import harness
from ascasm.cpp.clang import CppError
from ascasm.cpp.translate import AsmLine, Param, Translation

KERNEL = Path(__file__).resolve().parent / "cpp_harness" / "scale_relu.cpp"


def at(line: int, col: int, *texts: str) -> list[AsmLine]:
    return [AsmLine(text, (str(KERNEL), line, col)) for text in texts]


PARAMS = [Param("dstAddr", "pointer", "f32", 0, "__ubuf__ float*"),
          Param("srcAddr", "pointer", "f32", 1, "__ubuf__ float*"),
          Param("scale", "scalar", "f32", 2, "float"),
          Param("count", "scalar", "u32", 3, "uint32_t")]
LINES = [*at(10, 5, "add s4, s3, 63", "shr s4, s4, 6"),              # repeats = CeilDivision(count, 64)
         *at(11, 10, "mov s5, 0", "bge s5, s4, done"),                 # for (uint16_t i = 0; i < repeats; ...
         AsmLine("loop:", None),
         *at(12, 9, "mask.upd p0.b32, s3"),
         *at(13, 9, "vld v0.f32, [s1]"),
         *at(14, 9, "vmuls v1.f32, v0.f32, s2.f32, p0"),
         *at(15, 9, "vrelu v1.f32, v1.f32, p0"),
         *at(16, 9, "vsta [s0], v1.f32, p0"),
         *at(11, 39, "add s0, s0, 256", "add s1, s1, 256", "add s5, s5, 1", "blt s5, s4, loop"),   # i++
         AsmLine("done:", None),
         *at(18, 1, "halt")]


def fake_translate(path, entry=None, defines=(), include_dirs=()):
    if entry not in (None, "ScaleReluVF<float>"):
        raise harness.CppFailed([harness.as_asm_error(
            CppError(f"no vector function {entry!r}", str(path), 6, 25, ["candidates: ScaleReluVF"]))])
    return Translation("ScaleReluVF<float>", str(path), PARAMS, LINES)


@pytest.fixture(autouse=True)
def translator(monkeypatch):
    monkeypatch.setattr(harness, "translate_kernel", fake_translate)


def model(src: np.ndarray, scale: float, count: int, dst: np.ndarray) -> np.ndarray:
    out = dst.copy()
    product = src[:count] * np.float32(scale)
    out[:count] = np.where(product > 0, product, np.float32(0))
    return out


def source_values(n: int, seed: int = 7) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-4, 4, n).astype(np.float32)


# ------------------------------------------------------------------ the Python API

def test_run_kernel_returns_each_pointer_parameters_buffer(engine):
    x = source_values(1024)
    result = ascasm.run_kernel(KERNEL, "ScaleReluVF<float>", srcAddr=x, dstAddr=np.zeros(1024, np.float32),
                               scale=0.75, count=1000, engine=engine)
    expected = model(x, 0.75, 1000, np.zeros(1024, np.float32))
    assert result["dstAddr"].dtype == np.float32
    assert result["dstAddr"].view(np.uint32).tolist() == expected.view(np.uint32).tolist()
    assert result["srcAddr"].view(np.uint32).tolist() == x.view(np.uint32).tolist()


def test_in_place_and_offset_pointers(engine):
    x = source_values(1024 + 64)
    # in place: dst is src's own buffer
    result = ascasm.run_kernel(KERNEL, srcAddr=x, dstAddr="@srcAddr", scale=-1.5, count=1000, engine=engine)
    expected = model(x, -1.5, 1000, x)
    assert result["srcAddr"].view(np.uint32).tolist() == expected.view(np.uint32).tolist()
    assert result["dstAddr"].view(np.uint32).tolist() == expected.view(np.uint32).tolist()
    # src is 256 bytes (64 floats) into dst's buffer: each repeat reads a chunk before the one it writes
    result = ascasm.run_kernel(KERNEL, dstAddr=x, srcAddr="@dstAddr+256", scale=0.5, count=1024, engine=engine)
    expected = x.copy()
    expected[:1024] = model(x[64:], 0.5, 1024, x[:1024])
    assert result["dstAddr"].view(np.uint32).tolist() == expected.view(np.uint32).tolist()
    assert not result.warnings


def test_buffers_are_32_byte_aligned_in_parameter_order_a_guard_apart():
    kernel = harness.build(fake_translate(KERNEL), {"dstAddr": "f32[3]", "srcAddr": "f32[5]", "scale": 1,
                                                     "count": 3})
    # dstAddr 12 bytes, rounded to 32, then the 256-byte guard
    assert [(b.name, b.addr) for b in kernel.program.buffers.values()] == [("dstAddr", 0), ("srcAddr", 288)]


def test_a_fault_raises_with_the_cpp_line(engine):
    # 4 floats of source but count 64: the first vld reads 256 bytes past the buffer's end... which is
    # still UB; a UB too small for the buffer's neighbour does fault: ub_usable 32 leaves only the source
    with pytest.raises(MachineFault) as fault:
        ascasm.run_kernel(KERNEL, srcAddr=np.ones(8, np.float32), dstAddr="@srcAddr", scale=2.0, count=8,
                          engine=engine, ub_usable=64)
    assert str(fault.value).splitlines()[0].endswith(
        "scale_relu.cpp:13:9: fault: UB access out of range: 256 bytes at address 0x0; the usable UB is 64 bytes "
        "(0x0..0x40)")


def test_set_ctrl_spr_before_the_call_sets_the_ctrl_register(engine):
    # SetCtrlSpr<60, 60>(1) then SetCtrlSpr<48, 50>(5): bits 60, 48 and 50 (5 = 0b101 from bit 48)
    translation = fake_translate(KERNEL)
    translation.ctrl = {"SetCtrlSpr": [(("60", "60"), (1,)), (("48", "50"), (5,))]}
    kernel = harness.build(translation, {"dstAddr": "f32[64]", "srcAddr": "f32[64]", "scale": 1, "count": 0})
    result = ascasm.run(kernel.program, engine=engine)
    assert int(result.state.ctrlreg[0]) == (1 << 60) | (1 << 48) | (1 << 50)
    translation.ctrl = {"SetCtrlSpr": [(("60", "60"), (None,))]}
    with pytest.raises(harness.CppFailed, match="the bits .* and the value must be constants"):
        harness.build(translation, {"dstAddr": "f32[64]", "srcAddr": "f32[64]", "scale": 1, "count": 0})


# ------------------------------------------------------------------ argument specs

def bind(**given):
    return harness.bind(PARAMS, given)


def test_a_scalar_float_is_held_as_its_bits_and_an_integer_as_itself():
    bindings = bind(dstAddr="f32[64]", srcAddr="f32[64]", scale="0.75", count="0x10")
    assert (bindings[2].value, bindings[3].value) == (0x3F400000, 16)


@pytest.mark.parametrize("given, message", [
    (dict(srcAddr="f32[64]", scale=1, count=1), "no argument for dstAddr (__ubuf__ float*)"),
    (dict(dstAddr="f32[64]", srcAddr="f32[64]", scale=1, count=1, size=3), "the kernel has no parameter 'size'"),
    (dict(dstAddr="f16[64]", srcAddr="f32[64]", scale=1, count=1), "dstAddr points to f32 (__ubuf__ float*), "
                                                                    "not f16: write f32[64]"),
    (dict(dstAddr="f32[64]", srcAddr="f32[64]", scale=1, count=-1), "count=-1 is outside u32's range 0..4294967295"),
    (dict(dstAddr="f32[64]", srcAddr="f32[64]", scale=1, count=1.5), "count (uint32_t) takes an integer, not '1.5'"),
    (dict(dstAddr="f32[64]", srcAddr="f32[64]", scale="1e39", count=1), "scale=1e39 does not fit in f32"),
    (dict(dstAddr="f32[64]", srcAddr="f32[64]", scale="x", count=1), "scale (float) takes a number, not 'x'"),
    (dict(dstAddr="@scale", srcAddr="f32[64]", scale=1, count=1), "dstAddr=@scale: 'scale' is not a pointer"),
    (dict(dstAddr="@srcAddr", srcAddr="@dstAddr", scale=1, count=1), "go round in a circle"),
    (dict(dstAddr="@srcAddr+256", srcAddr="f32[64]", scale=1, count=1), "256 bytes into srcAddr's buffer is past"),
    (dict(dstAddr="f32[64]@+2", srcAddr="f32[64]", scale=1, count=1), "2 bytes in is not a whole f32 element"),
    (dict(dstAddr="f32[40000]", srcAddr="f32[40000]", scale=1, count=1), "the buffers need 320,256 bytes of UB"),
    (dict(dstAddr="f32[0]", srcAddr="f32[64]", scale=1, count=1), "a buffer holds 1 to 63,488 f32 elements"),
    (dict(dstAddr="out.txt", srcAddr="f32[64]", scale=1, count=1), "a pointer takes FILE.npy"),
    # numbers longer than Python's int() takes are refused in words too
    (dict(dstAddr="f32[" + "9" * 5000 + "]", srcAddr="f32[64]", scale=1, count=1), "a pointer takes FILE.npy"),
    (dict(dstAddr="f32[64]", srcAddr="f32[64]", scale=1, count="9" * 5000), "count (uint32_t) takes an integer"),
    (dict(dstAddr=np.zeros(4, np.float64), srcAddr="f32[64]", scale=1, count=1),
     "dstAddr points to f32 (__ubuf__ float*) but the array holds float64 values"),
])
def test_arguments_that_do_not_fit_are_explained(given, message):
    with pytest.raises(harness.KernelArgError, match=None) as error:
        harness.bind(PARAMS, given)
    assert message in str(error.value)


def test_bf16_and_fp8_npy_files_saved_by_ml_dtypes_are_read_as_the_parameters_type(tmp_path):
    params = [Param("a", "pointer", "bf16", 0, "__ubuf__ bfloat16_t*"),
              Param("b", "pointer", "e4m3", 1, "__ubuf__ fp8_e4m3fn_t*")]
    a = np.array([1.5, -2.0, 3.25], ml_dtypes.bfloat16)
    b = np.array([0.5, 448.0], ml_dtypes.float8_e4m3fn)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    bindings = harness.bind(params, {"a": "a.npy", "b": "b.npy"}, base=tmp_path)
    assert bindings[0].storage.data.dtype == ml_dtypes.bfloat16
    assert bindings[0].storage.data.view(np.uint16).tolist() == a.view(np.uint16).tolist()
    assert bindings[1].storage.data.view(np.uint8).tolist() == b.view(np.uint8).tolist()
    np.save(tmp_path / "f.npy", np.ones(3, np.float32))
    with pytest.raises(harness.KernelArgError, match="a points to bf16 .* holds float32 values: convert them first "
                                                     r"\(e.g. .astype\(ml_dtypes.bfloat16\)\)"):
        harness.bind(params, {"a": "f.npy", "b": "b.npy"}, base=tmp_path)


def test_an_assembly_files_file_init_reads_a_bf16_npy_too(tmp_path, engine):
    a = np.array([1.5, -2.0, 3.25], ml_dtypes.bfloat16)
    np.save(tmp_path / "a.npy", a)
    program = ascasm.assemble('.ub x bf16[3] = file("a.npy")\nhalt\n', str(tmp_path / "p.s"))
    assert ascasm.run(program, engine=engine)["x"].view(np.uint16).tolist() == a.view(np.uint16).tolist()


# ------------------------------------------------------------------ the command line

def cli_run(monkeypatch, cwd, *argv, stdin: str | None = None):
    monkeypatch.chdir(cwd)
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return cli.main([str(a) for a in argv])


def test_run_dumps_the_buffer_and_translate_then_run_gives_the_same_bytes(tmp_path, monkeypatch, capsys, engine):
    x = source_values(1024, seed=3)
    np.save(tmp_path / "x.npy", x)
    common = ["--entry", "ScaleReluVF<float>", "--arg", "srcAddr=x.npy", "--arg", "dstAddr=f32[1024]",
              "--arg", "scale=0.75", "--arg", "count=1000"]
    assert cli_run(monkeypatch, tmp_path, "run", KERNEL, *common, "--engine", engine,
                   "--dump", "dstAddr=cpp.npy") == 0
    expected = model(x, 0.75, 1000, np.zeros(1024, np.float32))
    assert np.load(tmp_path / "cpp.npy").view(np.uint32).tolist() == expected.view(np.uint32).tolist()
    (tmp_path / "out").mkdir()
    assert cli_run(monkeypatch, tmp_path, "translate", KERNEL, *common, "-o", "out/k.s") == 0
    text = (tmp_path / "out" / "k.s").read_text()
    assert '.ub srcAddr f32[1024] = file("../x.npy")' in text
    assert "        " + "mov s2, 1061158912".ljust(40) + "; scale = 0.75" in text
    assert "vmuls v1.f32, v0.f32, s2.f32, p0" in text and "; 14: Reg::Muls(y, x, scale, mask);" in text
    assert cli_run(monkeypatch, tmp_path, "run", "out/k.s", "--engine", engine, "--dump", "dstAddr=asm.npy") == 0
    assert (tmp_path / "asm.npy").read_bytes() == (tmp_path / "cpp.npy").read_bytes()
    capsys.readouterr()
    # the .s run shows the C++ line of a fault too: the same program with too small a UB
    assert cli_run(monkeypatch, tmp_path, "run", "out/k.s", "--ub-usable", "4096") == 1   # its buffers no longer fit
    assert cli_run(monkeypatch, tmp_path, "run", KERNEL, *common, "--ub-usable", "4096") == 64


def test_translate_writes_to_standard_output_and_never_replaces_a_file(tmp_path, monkeypatch, capsys):
    args = ["--arg", "srcAddr=f32[64]", "--arg", "dstAddr=@srcAddr", "--arg", "scale=2", "--arg", "count=64"]
    assert cli_run(monkeypatch, tmp_path, "translate", KERNEL, *args) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1] == ".ub srcAddr f32[64]"
    assert "        " + "mov s0, srcAddr".ljust(40) + "; dstAddr" in out
    # the .loc path is relative to the current directory, or absolute when the two share only the root
    shared = os.path.commonpath([str(KERNEL), str(tmp_path)])
    shown = KERNEL if shared == os.sep else os.path.relpath(KERNEL, tmp_path)
    assert f'.loc "{shown}" 10 5' in out
    (tmp_path / "k.s").write_text("keep")
    assert cli_run(monkeypatch, tmp_path, "translate", KERNEL, *args, "-o", "k.s") == 64
    assert "k.s exists; add --force to overwrite it" in capsys.readouterr().err
    assert (tmp_path / "k.s").read_text() == "keep"


@pytest.mark.parametrize("argv, status, message", [
    (["--arg", "srcAddr=f32[64]", "--arg", "dstAddr=f32[64]", "--arg", "scale=1"], 64,
     "ascasm: error: no argument for count (uint32_t)"),
    (["--arg", "srcAddr=f32[64]", "--arg", "srcAddr=f32[64]"], 64, "ascasm: error: --arg srcAddr is given twice"),
    (["--arg", "srcAddr"], 64, "ascasm: error: --arg 'srcAddr': write NAME=VALUE"),
    (["--arg", "srcAddr=missing.npy", "--arg", "dstAddr=f32[64]", "--arg", "scale=1", "--arg", "count=1"], 64,
     "ascasm: error: srcAddr: cannot read missing.npy"),
    (["--entry", "Nope", "--arg", "count=1"], 1, "scale_relu.cpp:6:25: error: no vector function 'Nope'"),
])
def test_bad_kernel_arguments_are_usage_errors(tmp_path, monkeypatch, capsys, argv, status, message):
    assert cli_run(monkeypatch, tmp_path, "run", KERNEL, *argv) == status
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_the_json_report_locates_a_cpp_error(tmp_path, monkeypatch, capsys):
    assert cli_run(monkeypatch, tmp_path, "run", KERNEL, "--entry", "Nope", "--json") == 1
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "assembly_error"
    assert report["errors"][0]["line"] == 6 and report["errors"][0]["col"] == 25
    assert report["errors"][0]["notes"] == ["candidates: ScaleReluVF"]


def test_kernel_options_on_an_assembly_file_are_a_usage_error(tmp_path, monkeypatch, capsys):
    (tmp_path / "p.s").write_text("halt\n")
    assert cli_run(monkeypatch, tmp_path, "run", "p.s", "--arg", "n=1") == 64
    assert "--arg is for C++ kernels; p.s is assembly" in capsys.readouterr().err
    assert cli_run(monkeypatch, tmp_path, "translate", "p.s") == 64


def test_without_libclang_a_cpp_file_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    monkeypatch.undo()                                   # the real translate_kernel, with no clang to import
    monkeypatch.setitem(sys.modules, "clang", None)
    monkeypatch.setitem(sys.modules, "clang.cindex", None)
    assert cli_run(monkeypatch, tmp_path, "run", KERNEL, "--arg", "count=1") == 1
    err = capsys.readouterr().err
    assert err.startswith('ascasm: error: the C++ front end needs libclang: pip install "ascasm[cpp]" (')
    assert len(err.splitlines()) == 1
    with pytest.raises(harness.LibclangMissing):
        ascasm.run_kernel(KERNEL, count=1)


def test_importing_ascasm_does_not_import_the_front_end():
    import subprocess
    code = "import sys, ascasm; print('ascasm.cpp.harness' in sys.modules, 'clang' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=tempfile.gettempdir())
    assert done.stdout.split() == ["False", "False"]


# ------------------------------------------------------------------ the debugger

def test_debug_lists_the_cpp_source_steps_statements_and_breaks_at_cpp_lines(tmp_path, monkeypatch, capsys, engine):
    np.save(tmp_path / "x.npy", np.array([-1.0, 1.5] * 32, np.float32))
    script = "l 12\nn\nn\nn\ns\nb 15\nc\nwhy dstAddr[1]\nc\nwhy dstAddr[1]\np dstAddr[0:2]\nq\n"
    args = ["--arg", "srcAddr=x.npy", "--arg", "dstAddr=f32[64]", "--arg", "scale=2", "--arg", "count=64"]
    assert cli_run(monkeypatch, tmp_path, "debug", KERNEL, *args, "--engine", engine, stdin=script) == 0
    out = capsys.readouterr().out

    def after(command, nth=1):
        return out.split(f"(ascasm) {command}\n")[nth].split("(ascasm)")[0]
    listing = after("l 12").splitlines()
    assert listing[:4] == ["   7     {", "   8         Reg::RegTensor<T> x, y;", "   9         Reg::MaskReg mask;",
                           "  10  ->     uint16_t repeats = CeilDivision(count, 64);"]
    assert listing[5] == "  12             mask = Reg::UpdateMask<T>(count);"
    # the prologue's four movs take the first C++ position (line 10) with line 10's own two instructions:
    # the first n runs all six, the second line 11's two, the third line 12's one; s one instruction
    assert "scale_relu.cpp(11) pc=6 steps=6" in after("n", 1)
    assert "scale_relu.cpp(12) pc=8 steps=8" in after("n", 2)
    assert "scale_relu.cpp(13) pc=9 steps=9" in after("n", 3)
    assert "scale_relu.cpp(14) pc=10 steps=10" in after("s")
    assert "scale_relu.cpp:15 (pc 11)" in after("b 15")
    assert "Breakpoint 1, line 15" in after("c")
    assert "not written by any instruction yet" in after("why dstAddr[1]")
    assert "the program halted after 18 steps" in after("c", 2)
    assert ("line 16 (pc 12): Reg::StoreAlign(dstAddr + i * 64, y, mask); [vsta [s0], v1.f32, p0]"
            in after("why dstAddr[1]", 2))
    assert after("p dstAddr[0:2]").splitlines()[1] == "  [0] 0 3"


def test_stats_and_draw_take_a_kernel_too(tmp_path, monkeypatch, capsys):
    args = ["--arg", "srcAddr=f32[64]", "--arg", "dstAddr=@srcAddr", "--arg", "scale=2", "--arg", "count=64"]
    assert cli_run(monkeypatch, tmp_path, "stats", KERNEL, *args, "--json") == 0
    assert json.loads(capsys.readouterr().out)["steps"] == 18
    assert cli_run(monkeypatch, tmp_path, "draw", KERNEL, *args, "--step", "10", "-o", "s.svg") == 0
    assert "step 10, line 13: Reg::LoadAlign(x, srcAddr + i * 64);" in (tmp_path / "s.svg").read_text()


def test_a_dump_never_replaces_the_kernel_or_its_inputs(tmp_path, monkeypatch, capsys):
    np.save(tmp_path / "x.npy", np.ones(64, np.float32))
    args = ["--arg", "srcAddr=x.npy", "--arg", "dstAddr=f32[64]", "--arg", "scale=2", "--arg", "count=64"]
    before = KERNEL.read_bytes()
    for target in (KERNEL, tmp_path / "x.npy"):
        assert cli_run(monkeypatch, tmp_path, "run", KERNEL, *args, "--dump", f"dstAddr={target}", "--force") == 64
        assert "the program reads it" in capsys.readouterr().err
    assert KERNEL.read_bytes() == before
    assert np.load(tmp_path / "x.npy").tolist() == [1.0] * 64
