"""The four C++ commands end to end, with the real translator (libclang): `ascasm run KERNEL.cpp`,
`ascasm translate` then `ascasm run k.s`, `ascasm debug KERNEL.cpp`, `ascasm.run_kernel`, on
tests/cpp_harness/scale_relu.cpp (dst = relu(src * scale) over `count` floats). Expected values come
from numpy: an np.float32 product is rounded once, as vmuls rounds it."""
from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("clang.cindex")

import ascasm  # noqa: E402
from ascasm import cli  # noqa: E402

KERNEL = Path(__file__).resolve().parent / "cpp_harness" / "scale_relu.cpp"


def model(src: np.ndarray, scale: float, count: int, dst: np.ndarray) -> np.ndarray:
    out = dst.copy()
    product = src[:count] * np.float32(scale)
    out[:count] = np.where(product > 0, product, np.float32(0))
    return out


def main(monkeypatch, cwd, *argv, stdin: str | None = None) -> int:
    monkeypatch.chdir(cwd)
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return cli.main([str(a) for a in argv])


def test_run_kernel(engine):
    x = np.random.default_rng(5).uniform(-3, 3, 1024).astype(np.float32)
    result = ascasm.run_kernel(KERNEL, "ScaleReluVF<float>", srcAddr=x, dstAddr=np.zeros(1024, np.float32),
                               scale=0.75, count=1000, engine=engine)
    assert result["dstAddr"].tobytes() == model(x, 0.75, 1000, np.zeros(1024, np.float32)).tobytes()


def test_run_then_translate_and_run_the_assembly(tmp_path, monkeypatch, engine):
    x = np.random.default_rng(6).uniform(-3, 3, 1024).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    args = ["--entry", "ScaleReluVF<float>", "--arg", "srcAddr=x.npy", "--arg", "dstAddr=f32[1024]",
            "--arg", "scale=0.75", "--arg", "count=1000"]
    assert main(monkeypatch, tmp_path, "run", KERNEL, *args, "--engine", engine, "--dump", "dstAddr=cpp.npy") == 0
    assert np.load(tmp_path / "cpp.npy").tobytes() == model(x, 0.75, 1000, np.zeros(1024, np.float32)).tobytes()
    assert main(monkeypatch, tmp_path, "translate", KERNEL, *args, "-o", "k.s") == 0
    assert main(monkeypatch, tmp_path, "run", "k.s", "--engine", engine, "--dump", "dstAddr=asm.npy") == 0
    assert (tmp_path / "asm.npy").read_bytes() == (tmp_path / "cpp.npy").read_bytes()


def test_debug_a_kernel_by_its_cpp_lines(tmp_path, monkeypatch, capsys, engine):
    np.save(tmp_path / "x.npy", np.array([-1.0, 1.5] * 32, np.float32))
    args = ["--entry", "ScaleReluVF<float>", "--arg", "srcAddr=x.npy", "--arg", "dstAddr=f32[64]", "--arg",
            "scale=2", "--arg", "count=64"]
    script = "b 15\nc\nl\nn\nc\nwhy dstAddr[1]\np dstAddr[0:2]\n"
    assert main(monkeypatch, tmp_path, "debug", KERNEL, *args, "--engine", engine, stdin=script) == 0
    out = capsys.readouterr().out

    def after(command):
        return out.split(f"(ascasm) {command}\n")[1].split("(ascasm)")[0]
    assert "scale_relu.cpp:15" in after("b 15")
    assert "Breakpoint 1, line 15" in after("c")
    assert "-> Reg::Relu(y, y, mask);" in after("c")
    assert "the program halted" in out.split("(ascasm) c\n")[2]
    assert "  15 B->         Reg::Relu(y, y, mask);" in after("l").splitlines()
    assert "scale_relu.cpp(16)" in after("n")
    assert "line 16 (pc " in after("why dstAddr[1]")
    assert "): Reg::StoreAlign(dstAddr + i * 64, y, mask); [vsta " in after("why dstAddr[1]")
    assert after("p dstAddr[0:2]").splitlines()[1] == "  [0] 0 3"


@pytest.mark.parametrize("text, message", [
    ("__simd_vf__ void F(__ubuf__ float* p) { int x = ; }\n", "k.cpp:3:"),
    ("__simd_vf__ void F(__ubuf__ float* p) { Reg::NoSuchThing(p); }\n", "k.cpp:3:"),
])
def test_bad_cpp_is_a_located_error_with_status_1(tmp_path, monkeypatch, capsys, text, message):
    (tmp_path / "k.cpp").write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n' + text)
    assert main(monkeypatch, tmp_path, "run", "k.cpp", "--arg", "p=f32[64]") == 1
    err = capsys.readouterr().err
    assert message in err and ": error: " in err and "^" in err
    assert "Traceback" not in err


def test_the_executors_agree_step_by_step_on_a_translated_kernel():
    from ascasm.cpp import harness
    from ascasm.lockstep import run_lockstep
    x = np.random.default_rng(8).uniform(-3, 3, 512).astype(np.float32)
    kernel = harness.build(harness.translate_kernel(KERNEL, "ScaleReluVF<float>"),
                           {"srcAddr": x, "dstAddr": "@srcAddr", "scale": 1.25, "count": 500})
    ref, cy = run_lockstep(kernel.program)
    assert ref.stop_name == cy.stop_name == "HALTED"


def test_an_error_without_a_position_is_one_line(tmp_path, monkeypatch, capsys):
    # the kernel's one vector function is a template: the entry must give its arguments
    assert main(monkeypatch, tmp_path, "run", KERNEL, "--arg", "count=1") == 1
    err = capsys.readouterr().err
    assert err.startswith("ascasm: error: ScaleReluVF is a template: give its arguments in the entry")
    assert "0 errors" not in err and "Traceback" not in err
