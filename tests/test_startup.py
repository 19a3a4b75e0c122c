"""Start-up stays light: a command imports only what it needs (the figures: bench/startup.py).
Each check runs in a fresh interpreter and looks at sys.modules, which is deterministic."""
import json
import subprocess
import tempfile
import sys
import textwrap

INTEGER_PROGRAM = """\
.ub out s32[8] = 0
.out out
        mov   s0, 0
        mov   s1, 0
loop:   add   s1, s1, s0
        add   s0, s0, 1
        blt   s0, 10, loop
        mov   s2, out
        st    [s2], s1.s32
        halt
"""


def modules_after(code: str) -> set:
    """The modules imported after running `code` in a fresh interpreter (its stdout is discarded)."""
    script = ("import contextlib, io, json, sys\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n"
              + textwrap.indent(textwrap.dedent(code).rstrip("\n") + "\n", "    ")
              + "print(json.dumps(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=tempfile.gettempdir()).stdout  # (the installed ascasm, not the source tree)
    return set(json.loads(out.splitlines()[-1]))


def test_version_imports_neither_numpy_nor_lark():
    modules = modules_after("""\
        from ascasm.cli import main
        try:
            main(["--version"])
        except SystemExit:
            pass
        """)
    assert "ascasm.cli" in modules
    assert not {"numpy", "lark", "ml_dtypes"} & modules


def test_an_integer_run_imports_neither_ml_dtypes_nor_the_reference_executor(tmp_path):
    source = tmp_path / "ten.s"
    source.write_text(INTEGER_PROGRAM)
    modules = modules_after(f"""\
        from ascasm.cli import main
        assert main(["run", {str(source)!r}]) == 0
        """)
    assert "ascasm._engine.core" in modules
    assert "ml_dtypes" not in modules
    assert "ascasm.ref.executor" not in modules


def test_the_float_formats_still_reach_ml_dtypes():
    # bf16 lanes are viewed through ml_dtypes, imported on first use
    modules = modules_after("""\
        from ascasm.isa import dtypes
        assert dtypes.lookup("bf16").np_dtype.name == "bfloat16"
        """)
    assert "ml_dtypes" in modules


def test_importing_the_package_defers_its_exports():
    modules = modules_after("import ascasm")
    assert "numpy" not in modules
    modules = modules_after("""\
        import ascasm
        assert ascasm.Machine.__name__ == "Machine" and callable(ascasm.assemble)
        """)
    assert "ascasm.vm" in modules and "ascasm.api" in modules
