"""The grammar ships as package data and has no LALR conflicts or terminal collisions."""
import os
import subprocess
import sys
from importlib import resources

from lark import Lark


def test_grammar_is_package_data():
    assert resources.files("ascasm.grammar").joinpath("ascasm.lark").is_file()


def test_grammar_is_conflict_free_under_strict_mode():
    text = resources.files("ascasm.grammar").joinpath("ascasm.lark").read_text()
    Lark(text, parser="lalr", strict=True)   # raises on shift/reduce conflicts and regex collisions


def test_no_parser_cache_is_written(tmp_path):
    # Lark's cache=True reads and writes a pickle in the shared temporary directory: anyone who plants
    # that file first runs code as the next user. The parser is built in-process; the temporary
    # directory stays empty.
    code = "from ascasm import assemble; assemble('halt', 't.s')"
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=tmp_path.parent)
    assert list(tmp_path.iterdir()) == []
