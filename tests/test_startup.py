"""Start-up stays light: a command imports only what it needs (the figures: bench/startup.py).
Each check runs in a fresh interpreter and looks at sys.modules, which is deterministic."""
import ast
import subprocess
import tempfile
import sys
import textwrap
from pathlib import Path

import pytest

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


def value_after(code: str, expression: str):
    """`expression` (a Python literal) evaluated after running `code` in a fresh interpreter, whose
    standard output is discarded; the check itself imports nothing (os is loaded at start-up)."""
    script = ("import os, sys\n"
              "_stdout, sys.stdout = sys.stdout, open(os.devnull, 'w')\n"
              + textwrap.dedent(code).rstrip("\n") + "\n"
              + f"sys.stdout = _stdout\nprint(repr({expression}))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=tempfile.gettempdir()).stdout  # (the installed ascasm, not the source tree)
    return ast.literal_eval(out.splitlines()[-1])


def modules_after(code: str) -> set:
    """The modules imported by running `code` in a fresh interpreter."""
    return set(value_after(code, "sorted(sys.modules)"))


def test_version_imports_neither_numpy_nor_lark():
    modules = modules_after("""\
        from ascasm.cli import main
        try:
            main(["--version"])
        except SystemExit:
            pass
        """)
    assert "ascasm.cli" in modules
    assert not {"numpy", "lark", "ml_dtypes", "json"} & modules


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
    # the debugger's expressions (float printing), a --json report, a did-you-mean note: not needed here
    assert not {"ascasm.expr.machine", "ascasm.formatting", "json", "difflib"} & modules


def test_an_f32_cpp_run_does_not_import_ml_dtypes():
    pytest.importorskip("clang.cindex")         # the C++ front end's optional extra
    # ml_dtypes only views bf16 and the fp8 formats; importing it took most of a cold f32 kernel run
    kernel = Path(__file__).resolve().parent.parent / "programs" / "kernels" / "silu.cpp"
    modules = modules_after(f"""\
        from ascasm.cli import main
        assert main(["run", {str(kernel)!r}, "--entry", "SiluVF<float>", "--arg", "srcAddr=f32[64]",
                     "--arg", "dstAddr=f32[64]", "--arg", "count=64"]) == 0
        """)
    assert "ascasm.cpp.harness" in modules
    assert "ml_dtypes" not in modules


def test_a_run_prepares_only_the_mnemonics_it_uses(tmp_path):
    source = tmp_path / "ten.s"
    source.write_text(INTEGER_PROGRAM)
    prepared = value_after(f"""\
        from ascasm.cli import main
        assert main(["run", {str(source)!r}]) == 0
        from ascasm.asm import assembler
        """, "sorted(assembler._FORMS)")
    assert prepared == ["add", "blt", "halt", "mov", "st"]


def test_the_appendix_facts_of_a_row_are_found_when_read():
    # (explain and stats read them; a run does not.) The appendix's pages: VADDS is in the dual-issue
    # table, and asc_add_scalar on float does 32 elements per cycle.
    unread, issue, rate = value_after("""\
        from ascasm.isa import BY_MNEMONIC, INSNS
        unread = sum("issue" in vars(spec) or "throughput" in vars(spec) for spec in INSNS)
        [vadds] = BY_MNEMONIC["vadds"]
        """, "[unread, vadds.issue, dict(vadds.throughput)['f32']]")
    assert (unread, issue, rate) == (0, "dual", 32)


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


# A command's arguments are parsed by a parser holding that command alone (cli.build_parser(only)):
# it must read them as the whole command line's parser does.
PARSED_ALIKE = [
    ["run", "x.s"],
    ["run", "x.s", "--json", "--max-steps", "99", "--dump", "out=o.npy", "--trace=t.jsonl", "--force"],
    ["run", "k.cpp", "--entry", "K", "--arg", "x=f32[8]", "-D", "N=4", "-I", "inc", "--engine", "ref"],
    ["translate", "k.cpp", "-o", "k.s", "--ub-usable", "128K"],
    ["explain"], ["explain", "vadd"],
    ["stats", "x.s", "--json", "--strict"],
    ["draw", "x.s", "--step", "3", "-o", "s.svg"],
    ["debug", "x.s", "--history", "1M", "--store-inactive", "zero"],
]


def _namespace(args) -> dict:
    fields = vars(args)
    fields.pop("command_parser", None)
    return fields


def test_one_command_parser_reads_arguments_as_the_whole_parser():
    from ascasm.cli import build_parser
    for argv in PARSED_ALIKE:
        assert _namespace(build_parser(argv[0]).parse_args(argv)) == _namespace(build_parser().parse_args(argv)), argv


def test_one_command_parser_reports_usage_as_the_whole_parser(capsys):
    from ascasm.cli import main
    from ascasm import cli
    # the usage line names every command, and an unknown option is reported for the command
    assert main(["run", "x.s", "--no-such-option"]) == cli.EXIT_USAGE
    err = capsys.readouterr().err
    usage = " ".join(err.split("ascasm: error:")[0].split())
    assert usage == "usage: ascasm [-h] [--version] {run,translate,explain,stats,draw,debug,dap,help} ...", err
    assert "unrecognized arguments: --no-such-option" in err
    assert main(["draw", "x.s"]) == cli.EXIT_USAGE
    err = capsys.readouterr().err
    assert err.splitlines()[0].startswith("usage: ascasm draw [-h]")
    assert "the following arguments are required: --step" in err
