"""Hostile and odd C++ input: a crash, hang or unbounded growth of libclang's parse is a
clear error with exit status 1 within the front end's limits (ascasm/cpp/sandbox.py), Ctrl-C ends it
(130), and every file the front end reads, includes too, is read as the kernel file is."""
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import ascasm
from ascasm import cli, limits
from ascasm.cpp import harness

pytest.importorskip("clang.cindex")          # the C++ extra (pip install ".[cpp]")

ROOT = Path(__file__).resolve().parents[1]
BODY = """__simd_vf__ inline void K(__ubuf__ uint32_t* dst, uint32_t n)
{
    uint32_t c = VALUE;
    AscendC::Reg::RegTensor<uint32_t> x;
    AscendC::Reg::MaskReg m = AscendC::Reg::UpdateMask<uint32_t>(n);
    AscendC::Reg::Duplicate(x, c, m);
    AscendC::Reg::StoreAlign(dst, x, m);
}
"""


def kernel(tmp_path, value="n", before=""):
    path = tmp_path / "k.cpp"
    path.write_text(f'#include "kernel_operator.h"\n{before}' + BODY.replace("VALUE", value))
    return path


def run_cli(monkeypatch, cwd, *argv):
    monkeypatch.chdir(cwd)
    return cli.main([str(a) for a in argv])


def test_a_plain_kernel_runs_in_the_bounded_front_end(tmp_path, engine):
    path = kernel(tmp_path, "n + 4u")
    result = ascasm.run_kernel(path, "K", dst=np.zeros(64, np.uint32), n=3, engine=engine)
    assert result["dst"][:4].tolist() == [7, 7, 7, 0]


def test_a_libclang_crash_is_an_error_not_the_end_of_ascasm(tmp_path, monkeypatch, capsys):
    # 3,500 `~` in one statement overflow libclang's parse stack (it segfaulted ascasm: exit 139)
    kernel(tmp_path, "~" * 3500 + "n")
    assert run_cli(monkeypatch, tmp_path, "run", "k.cpp", "--arg", "dst=u32[64]", "--arg", "n=3") == 1
    err = capsys.readouterr().err
    assert err.startswith("ascasm: error: k.cpp: the C++ front end ") and "Traceback" not in err
    with pytest.raises(harness.CppFailed, match=r"the C\+\+ front end crashed"):
        ascasm.run_kernel(tmp_path / "k.cpp", "K", dst=np.zeros(64, np.uint32), n=3)


@pytest.mark.parametrize("name", ["/dev/zero", "/dev/urandom", "/dev/stdin", "fifo.h", "big.h", "."])
def test_an_include_is_read_as_the_kernel_file_is(tmp_path, monkeypatch, capsys, name):
    os.mkfifo(tmp_path / "fifo.h")
    with open(tmp_path / "big.h", "wb") as big:           # sparse: one byte over the limit
        big.truncate(limits.MAX_SOURCE_BYTES + 1)
    kernel(tmp_path, before=f'#include "{name}"\n')
    assert run_cli(monkeypatch, tmp_path, "run", "k.cpp", "--arg", "dst=u32[64]", "--arg", "n=3") == 1
    err = capsys.readouterr().err
    assert err.startswith("k.cpp:2:10: error: ")
    assert ("not a regular file" in err) if name != "big.h" else \
        f"big.h is {limits.MAX_SOURCE_BYTES + 1:,} bytes; the limit is {limits.MAX_SOURCE_BYTES:,}" in err


def test_a_nested_include_is_located_in_the_header(tmp_path, monkeypatch, capsys):
    (tmp_path / "inner.h").write_text("// a header\n  #  include </dev/zero>\n")
    kernel(tmp_path, before='#include "inner.h"\n')
    assert run_cli(monkeypatch, tmp_path, "translate", "k.cpp", "--entry", "K") == 1
    assert capsys.readouterr().err.startswith("inner.h:2:14: error: cannot read /dev/zero: not a regular file")


DOUBLING = "#define D0 1u +\n" + "".join(f"#define D{k} D{k - 1} D{k - 1}\n" for k in range(1, 41))


@pytest.mark.parametrize("before, value", [('#define ZERO "/dev/zero"\n#include ZERO\n', "n"),
                                           (DOUBLING, "D40 n")])          # 2^40 terms from 1 KB
def test_a_parse_that_grows_is_bounded_by_memory(tmp_path, monkeypatch, before, value):
    monkeypatch.setattr(limits, "CPP_MEMORY_BYTES", 768 << 20)
    kernel(tmp_path, value, before=before)
    with pytest.raises(harness.CppFailed) as failed:
        harness.translate_kernel(tmp_path / "k.cpp", "K")
    assert "memory" in str(failed.value)


def test_an_include_a_macro_names_is_bounded_in_time(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "CPP_SECONDS", 2)
    os.mkfifo(tmp_path / "fifo.h")                 # no writer: opening it waits for ever
    kernel(tmp_path, before='#define F "fifo.h"\n#include F\n')
    start = time.monotonic()
    with pytest.raises(harness.CppFailed, match="took longer than its time limit"):
        harness.translate_kernel(tmp_path / "k.cpp", "K")
    assert time.monotonic() - start < 10


def sigint_as_a_terminal_sends_it():
    """(Run in the child before Python starts.) A suite started in the background (`pytest &`, as CI
    may be) hands its children SIGINT ignored, and Python keeps it ignored, as a background job
    should: the child would never see the signal and run on to the front end's time limit."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_ends_a_parse_that_waits_and_nothing_of_it_goes_on(tmp_path):
    fifo = tmp_path / "fifo.h"
    os.mkfifo(fifo)
    kernel(tmp_path, before='#define F "fifo.h"\n#include F\n')
    process = subprocess.Popen([sys.executable, "-m", "ascasm", "run", "k.cpp", "--arg", "dst=u32[64]", "--arg",
                                "n=3"], cwd=tmp_path, stderr=subprocess.PIPE, text=True,
                               preexec_fn=sigint_as_a_terminal_sends_it)
    try:
        writer = None
        while writer is None and process.poll() is None:    # until the parse has the FIFO open, then it
            try:                                            # waits for bytes that never come
                writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=600)           # (a guard against a hang, not a speed test)
    finally:
        process.kill()
    assert (process.returncode, err) == (130, "ascasm: interrupted\n")
    with pytest.raises(BrokenPipeError):            # no process reads the FIFO any more
        os.write(writer, b"//")
    os.close(writer)


def test_ctrl_c_while_the_front_ends_helper_starts_stops_it(tmp_path, monkeypatch):
    """A SIGINT that arrives inside Popen, after the helper was forked, is held until the helper is
    known, then stops it: raised inside Popen it lost the process, which ran on."""
    from ascasm.cpp import sandbox
    started = []

    def popen_then_sigint(*args, **kwargs):
        started.append(real_popen(*args, **kwargs))
        os.kill(os.getpid(), signal.SIGINT)
        return started[-1]

    real_popen = subprocess.Popen
    helper = sandbox._Helper()
    monkeypatch.setattr(sandbox, "_HELPER", helper)
    monkeypatch.setattr(sandbox.subprocess, "Popen", popen_then_sigint)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            harness.translate_kernel(kernel(tmp_path), "K")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert len(started) == 1 and started[0].returncode == -signal.SIGKILL and helper.process is None


def test_the_front_ends_helper_ends_quietly_when_its_asker_is_gone(tmp_path):
    """The asking process killed (a fuzzer stopped, a test runner's worker killed) while its helper
    translates: the answer has nowhere to go and the helper ends, with no traceback on the terminal."""
    import pickle
    import struct
    from ascasm import limits
    from ascasm.cpp import sandbox
    process = sandbox._start()
    process.stdout.close()                          # the asker is gone before the answer is written
    request = pickle.dumps((str(tmp_path), (str(kernel(tmp_path)), "K"), {}, limits.CPP_MEMORY_BYTES,
                            limits.CPP_SECONDS))
    process.stdin.write(struct.pack("!Q", len(request)) + request)
    process.stdin.flush()
    try:
        process.wait(timeout=600)                   # (a guard against a hang, not a speed test)
    finally:
        process.kill()
        process.stdin.close()
    assert process.returncode == 0                  # a BrokenPipeError's traceback ended it with 1


# ------------------------------------------------------------------ .loc on the assembly path

LOC_PROGRAM = """.loc "{name}" 2
        mov s0, 1
"""


def test_one_file_named_200_ways_by_loc_is_read_once(tmp_path):
    # a 7 MB file behind symlinks and /proc/self/root spellings: each spelling was a copy of its lines
    (tmp_path / "big.cpp").write_bytes(b"// first\nint second;\n" + b"x\n" * (3_500_000))
    names = []
    for i in range(100):
        (tmp_path / f"link{i}.cpp").symlink_to(tmp_path / "big.cpp")
        names += [f"link{i}.cpp", f"/proc/self/root{tmp_path}/./" + "/" * i + "big.cpp"]
    (tmp_path / "p.s").write_text("".join(LOC_PROGRAM.format(name=n) for n in names) + "halt\n")
    code = ("import resource, sys, ascasm; p = ascasm.assemble_file(sys.argv[1]); "
            "assert p.insns[0].loc.text == 'int second;', p.insns[0].loc; "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "p.s")], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) < 600_000                  # KiB: the file's lines once (it peaked at 2.6 GB)


def test_loc_text_is_read_only_from_the_programs_directory_or_a_source_dir(tmp_path, monkeypatch, capsys):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.txt").write_text("one\nthe secret line\n")
    (tmp_path / "prog").mkdir()
    (tmp_path / "prog" / "mine.txt").write_text("one\nmy own line\n")
    program = tmp_path / "prog" / "p.s"
    program.write_text(LOC_PROGRAM.format(name="../elsewhere/secret.txt") + LOC_PROGRAM.format(name="mine.txt")
                       + "halt\n")
    loaded = ascasm.assemble_file(program)
    assert [i.loc.text for i in loaded.insns[:2]] == ["", "my own line"]
    assert str(outside / "secret.txt") not in [str(Path(f).resolve()) for f in loaded.origin_files]
    loaded = ascasm.assemble(program, source_dirs=[outside])
    assert loaded.insns[0].loc.text == "the secret line"
    for argv, shown in ((), False), (("--source-dir", outside), True):
        trace = tmp_path / f"trace{len(argv)}.txt"
        assert run_cli(monkeypatch, tmp_path, "run", program, f"--trace={trace}", *argv) == 0
        assert ("the secret line" in trace.read_text()) is shown


# ------------------------------------------------------------------ outputs never replace a source

@pytest.mark.parametrize("option", ["--dump", "-o", "--trace"])
def test_force_never_replaces_a_header_the_kernel_includes(tmp_path, monkeypatch, capsys, option):
    # the header declares only a constant: no translated row comes from it, yet the kernel reads it
    (tmp_path / "consts.h").write_text("constexpr uint32_t FOUR = 4u;\n")
    kernel(tmp_path, "n + FOUR", before='#include "consts.h"\n')
    before = (tmp_path / "consts.h").read_bytes()
    args = ["--arg", "dst=u32[64]", "--arg", "n=3", "--force"]
    argv = {"--dump": ["run", "k.cpp", *args, "--dump", "dst=consts.h"],
            "-o": ["translate", "k.cpp", *args, "-o", "consts.h"],
            "--trace": ["run", "k.cpp", *args, "--trace=consts.h"]}[option]
    assert run_cli(monkeypatch, tmp_path, *argv) == 64
    assert "refusing to overwrite consts.h: the program reads it" in capsys.readouterr().err
    assert (tmp_path / "consts.h").read_bytes() == before


# ------------------------------------------------------------------ no traceback

def test_a_chain_of_600_operators_translates(tmp_path, engine):
    path = kernel(tmp_path, "n" + " + 1u" * 600)             # past Python's default recursion limit
    result = ascasm.run_kernel(path, "K", dst=np.zeros(64, np.uint32), n=3, engine=engine)
    assert result["dst"][:4].tolist() == [603, 603, 603, 0]


@pytest.mark.parametrize("value, extra, col, shown", [
    ("INFINITY", "", 5, "inf"),
    ("(uint32_t)(1.0f/0.0f)", "", 5, "inf"),
    ("n", "AscendC::Reg::Duplicate(x, NAN, m);", 5, "nan"),
])
def test_a_float_that_is_not_finite_converted_to_an_integer_is_located(tmp_path, monkeypatch, capsys, value, extra,
                                                                        col, shown):
    path = kernel(tmp_path, value, before="#include <cmath>\n")
    if extra:
        path.write_text(path.read_text().replace("    AscendC::Reg::StoreAlign", f"    {extra}\n    AscendC::Reg::StoreAlign"))
    line = 5 if not extra else 9
    assert run_cli(monkeypatch, tmp_path, "run", "k.cpp", "--arg", "dst=u32[64]", "--arg", "n=3") == 1
    err = capsys.readouterr().err
    assert err.startswith(f"k.cpp:{line}:{col}: error: {shown} converted to uint32_t: C++ leaves the result undefined")


def test_a_register_times_a_mask_in_a_template_is_located(tmp_path, monkeypatch, capsys):
    (tmp_path / "k.cpp").write_text("""#include "kernel_operator.h"
template <typename T>
__simd_vf__ inline void K(__ubuf__ T* dst, uint32_t n)
{
    AscendC::Reg::RegTensor<T> x;
    AscendC::Reg::MaskReg m = AscendC::Reg::UpdateMask<T>(n);
    x = x * m;
    AscendC::Reg::StoreAlign(dst, x, m);
}
""")
    assert run_cli(monkeypatch, tmp_path, "translate", "k.cpp", "--entry", "K<float>") == 1
    assert capsys.readouterr().err.startswith("k.cpp:7:9: error: operator '*' on RegTensor<float> and MaskReg: "
                                              "operators take scalars")


def test_a_npy_shape_of_true_is_a_bad_header(tmp_path, monkeypatch, capsys):
    header = b"{'descr': '<u4', 'fortran_order': False, 'shape': (True,), }"
    header += b" " * (63 - (10 + len(header)) % 64) + b"\n"
    (tmp_path / "x.npy").write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + bytes(4))
    kernel(tmp_path)
    assert run_cli(monkeypatch, tmp_path, "run", "k.cpp", "--arg", "dst=x.npy", "--arg", "n=3") == 64
    assert "x.npy: bad .npy header: shape (True,)" in capsys.readouterr().err
    (tmp_path / "p.s").write_text('.ub a u32[4] = file("x.npy")\nhalt\n')
    with pytest.raises(ascasm.AssemblyFailed, match=r"bad \.npy header: shape \(True,\)"):
        ascasm.assemble_file(tmp_path / "p.s")


# ------------------------------------------------------------------ slow

def test_the_kernel_file_is_read_once_for_the_program_text(tmp_path, monkeypatch):
    path = kernel(tmp_path, "n + 4u")
    translation = harness.translate_kernel(path, "K")
    reads = []
    real = harness._read_lines
    monkeypatch.setattr(harness, "_read_lines", lambda file: reads.append(file) or real(file))
    harness.build(translation, {"dst": "u32[64]", "n": "3"})
    assert reads == [str(path)]


def test_a_kernel_file_over_the_size_limit_is_refused(tmp_path, monkeypatch, capsys):
    path = kernel(tmp_path)
    with open(path, "ab") as f:                       # a trailing comment past 8 MiB
        f.write(b"// " + b"x" * limits.MAX_SOURCE_BYTES + b"\n")
    assert run_cli(monkeypatch, tmp_path, "run", "k.cpp", "--arg", "dst=u32[64]", "--arg", "n=3") == 1
    assert f"k.cpp is {path.stat().st_size:,} bytes; the limit is {limits.MAX_SOURCE_BYTES:,}" in capsys.readouterr().err


def test_a_chain_of_5000_operators_translates_in_seconds(tmp_path, monkeypatch):
    # the operator of each binary node was found among all its tokens: N^2 tokens (over a minute)
    monkeypatch.setattr(limits, "CPP_SECONDS", 30)
    path = kernel(tmp_path, "n" + " + 1u" * 5000)
    assert len(harness.translate_kernel(path, "K").lines) > 5000


def test_a_65_kb_assembly_line_of_sums_assembles_in_linear_time():
    # each `+ 1` copied the list of the terms before it: 12.7 s for one line
    text = "mov s0, " + "+".join(["1"] * 32_000) + "\nhalt\n"
    assert len(text) < 65_536
    start = time.process_time()
    program = ascasm.assemble(text, "long.s")
    assert time.process_time() - start < 3
    assert ascasm.run(program).state.sreg[0] == 32_000


# ------------------------------------------------------------------ the right message

HELPERS = """#include "kernel_operator.h"
inline uint32_t Odd(uint32_t k);
inline uint32_t Even(uint32_t k) { return k == 0u ? 1u : Odd(k - 1u); }
inline uint32_t Odd(uint32_t k) { return k == 0u ? 0u : Even(k - 1u); }
"""


@pytest.mark.parametrize("value, expected", [("Odd(n + 2u)", 1), ("Even(4u)", 1), ("Odd(4u)", 0)])
def test_a_helper_declared_before_its_use_and_defined_after(tmp_path, engine, value, expected):
    # Odd's body is defined after Even calls it: its parameter `k` was "not a parameter or local"
    (tmp_path / "k.cpp").write_text(HELPERS + BODY.replace("VALUE", value))
    if value.startswith("Odd(n"):                   # a run-time argument: the recursion has no end here
        with pytest.raises(harness.CppFailed, match="k.cpp:3:58: error: helper calls nested deeper than"):
            harness.translate_kernel(tmp_path / "k.cpp", "K")
        return
    result = ascasm.run_kernel(tmp_path / "k.cpp", "K", dst=np.zeros(64, np.uint32), n=3, engine=engine)
    assert result["dst"][:4].tolist() == [expected] * 3 + [0]


def test_a_file_name_the_assembly_cannot_hold(tmp_path, monkeypatch, capsys):
    (tmp_path / 'we"ird').mkdir()
    kernel(tmp_path / 'we"ird')
    assert run_cli(monkeypatch, tmp_path, "translate", 'we"ird/k.cpp', "--arg", "dst=u32[64]", "--arg", "n=3",
                   "-o", "k.s") == 1
    assert capsys.readouterr().err.startswith("ascasm: error: 'we\"ird/k.cpp': ascasm cannot name a C++ file whose "
                                              "name holds a double quote or a line feed")
    assert not (tmp_path / "k.s").exists()


def test_unicode_parameter_names(tmp_path, monkeypatch, engine):
    (tmp_path / "k.cpp").write_text('#include "kernel_operator.h"\n' + BODY.replace("dst", "über").replace(
        "VALUE", "änz + 4u").replace("uint32_t n", "uint32_t änz").replace("(n)", "(änz)"))
    result = ascasm.run_kernel(tmp_path / "k.cpp", "K", über=np.zeros(64, np.uint32), änz=3, engine=engine)
    assert result["über"][:4].tolist() == [7, 7, 7, 0]
    assert harness.parse_arg_options(["änz=3"]) == {"änz": "3"}


def test_a_file_that_includes_itself_lists_each_unit_once(tmp_path, monkeypatch, capsys):
    (tmp_path / "k.cpp").write_text('#include "kernel_operator.h"\n' + BODY + BODY.replace("void K", "void J") +
                                    '#if __INCLUDE_LEVEL__ < 20\n#include "k.cpp"\n#endif\n')
    assert run_cli(monkeypatch, tmp_path, "translate", "k.cpp") == 1
    assert capsys.readouterr().err.count("note: ") == 2


def test_a_long_entry_is_echoed_in_200_characters(tmp_path, monkeypatch, capsys):
    kernel(tmp_path)
    assert run_cli(monkeypatch, tmp_path, "translate", "k.cpp", "--entry", "N" * 100_000) == 1
    err = capsys.readouterr().err
    assert "(100,000 characters)" in err and len(err) < 1000


def test_a_npy_header_that_calls_is_named_without_python_internals(tmp_path):
    header = b"{'descr': f(), 'fortran_order': False, 'shape': (4,), }"
    header += b" " * (63 - (10 + len(header)) % 64) + b"\n"
    (tmp_path / "x.npy").write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + bytes(16))
    (tmp_path / "p.s").write_text('.ub a u32[4] = file("x.npy")\nhalt\n')
    with pytest.raises(ascasm.AssemblyFailed) as failed:
        ascasm.assemble_file(tmp_path / "p.s")
    assert "bad .npy header: not a Python literal of the .npy header's form" in str(failed.value)
    assert "object at 0x" not in str(failed.value)


@pytest.mark.parametrize("value", ["\u0663", "1\u0660", "\uff11.5", "1e400", "-1e400"])
def test_scalars_are_ascii_numbers_in_the_double_range(tmp_path, value):
    (tmp_path / "k.cpp").write_text('#include "kernel_operator.h"\n__simd_vf__ inline void K(__ubuf__ float* dst, '
                                    'float scale, uint32_t n) {}\n')
    name = "scale" if "e" in value or "." in value else "n"
    with pytest.raises(harness.KernelArgError, match="does not fit in f32|takes a number|takes an integer"):
        ascasm.run_kernel(tmp_path / "k.cpp", "K", dst="f32[8]", **{"scale": 1.0, "n": 1, name: value})


def test_one_include_dir_given_as_a_string(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "four.h").write_text("constexpr uint32_t FOUR = 4u;\n")
    path = kernel(tmp_path, "n + FOUR", before='#include "four.h"\n')
    result = ascasm.run_kernel(path, "K", include_dirs=str(tmp_path / "inc"), defines="UNUSED=1",
                               dst=np.zeros(64, np.uint32), n=3)
    assert result["dst"][:4].tolist() == [7, 7, 7, 0]


def test_stats_names_the_kernel_file(tmp_path, monkeypatch, capsys):
    kernel(tmp_path)
    assert run_cli(monkeypatch, tmp_path, "stats", "k.cpp", "--arg", "dst=u32[64]", "--arg", "n=3") == 0
    assert capsys.readouterr().out.startswith("k.cpp: ")


def test_int64_work_in_an_init_expression_is_bounded_too():
    # 64-bit work was not counted: a 64 KB line of `i+i+...` over 200,000 elements took 28 s
    text = ".ub a u8[200000] = (" + "+".join(["i"] * 20_000) + ") & 255\nhalt\n"
    start = time.process_time()
    with pytest.raises(ascasm.AssemblyFailed, match=f"needs more than {limits.MAX_ELEMENT_OPS:,} element operations"):
        ascasm.assemble(text, "p.s")
    assert time.process_time() - start < 5
    assert ascasm.assemble(".ub a u8[200000] = (" + "+".join(["i"] * 200) + ") & 255\nhalt\n", "p.s")


def test_an_ambiguous_entry_lists_the_candidates(tmp_path, monkeypatch, capsys):
    body = BODY.replace("VALUE", "n")
    (tmp_path / "k.cpp").write_text('#include "kernel_operator.h"\nnamespace a {\n' + body + '}\nnamespace b {\n' +
                                    body + "}\n" + body.replace("void K(", "void K(__ubuf__ uint32_t* other, "))
    assert run_cli(monkeypatch, tmp_path, "translate", "k.cpp", "--entry", "K") == 1
    err = capsys.readouterr().err
    assert err.startswith("ascasm: error: the entry 'K' names 3 vector functions in k.cpp: qualify it")
    assert "note: a::K (line 3)\nnote: b::K (line 13)\nnote: K (line 22)\n" in err
    assert harness.translate_kernel(tmp_path / "k.cpp", "b::K").entry == "b::K"
    assert [p.name for p in harness.translate_kernel(tmp_path / "k.cpp", "@22").params] == ["other", "dst", "n"]


# ------------------------------------------------------------------ constants folded in their C type

FLOAT_BODY = """#include "kernel_operator.h"
__simd_vf__ inline void K(__ubuf__ float* dst, uint32_t n)
{
    float c = VALUE;
    AscendC::Reg::RegTensor<float> x;
    AscendC::Reg::MaskReg m = AscendC::Reg::UpdateMask<float>(n);
    AscendC::Reg::Duplicate(x, c, m);
    AscendC::Reg::StoreAlign(dst, x, m);
}
"""
f32, f16 = np.float32, np.float16


@pytest.mark.parametrize("value, expected", [
    ("0.0f / 0.0f", np.nan),                                       # was +inf
    ("1.0f / -0.0f", -np.inf),                                     # was +inf
    ("-1.0f / 0.0f", -np.inf),
    ("16777216.0f + 1.0f + 1.0f", f32(f32(f32(16777216) + f32(1)) + f32(1))),   # 2^24: each sum rounds back
    ("3.0e38f * 10.0f", np.inf),                                   # float overflow
    ("0.1f * 3.0f", f32(0.1) * f32(3)),
    ("(float)(half)0.1f", float(f16(0.1))),                        # the cast rounds to half
    ("(float)(half)65520.0f", np.inf),                             # past half's largest finite (65504)
    ("(float)16777217", f32(16777217)),                            # int to float rounds
])
def test_float_constants_fold_in_their_c_type(tmp_path, engine, value, expected):
    (tmp_path / "k.cpp").write_text(FLOAT_BODY.replace("VALUE", value))
    result = ascasm.run_kernel(tmp_path / "k.cpp", "K", dst=np.zeros(64, np.float32), n=1, engine=engine)
    assert result["dst"][:1].tobytes() == np.array([expected], np.float32).tobytes() or \
        (np.isnan(expected) and np.isnan(result["dst"][0]))


def test_a_forked_copy_of_ascasm_translates_with_a_helper_of_its_own(tmp_path):
    path = kernel(tmp_path, "n + 4u")
    assert harness.translate_kernel(path, "K").entry == "K"          # the helper runs
    pid = os.fork()
    if pid == 0:                     # the child: the parent's helper must not answer it (or be killed)
        code = 1
        try:
            code = 0 if harness.translate_kernel(path, "K").entry == "K" else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert harness.translate_kernel(path, "K").entry == "K"


def test_an_entry_line_is_an_ascii_number(tmp_path):
    kernel(tmp_path)
    with pytest.raises(harness.CppFailed, match="@ takes a line number"):
        harness.translate_kernel(tmp_path / "k.cpp", "@\u0663")
    assert harness.translate_kernel(tmp_path / "k.cpp", "@3").entry == "K"


def test_double_constants_fold_in_double(tmp_path, engine):
    path = kernel(tmp_path, "(uint32_t)(16777216.0 + 1.0)")        # exact in double, not in float
    result = ascasm.run_kernel(path, "K", dst=np.zeros(64, np.uint32), n=1, engine=engine)
    assert result["dst"][:2].tolist() == [16777217, 0]
