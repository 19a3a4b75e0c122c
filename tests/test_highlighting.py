"""The TextMate grammar scopes a line (tests/test_regen.py checks it is current), and the Pygments lexer
(an optional extra, `ascasm[highlight]`; pytest itself depends on Pygments, so CI always runs these)
colours the bundled programs without error tokens."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = """\
.ub out u16[128] = i // 2          ; on .ub lines // is floor division
loop:   vsct [s1], v0.u16, v1.u16, p0   // a comment here
        mask p0.b16, M4
"""


def test_the_textmate_grammar_scopes_a_line():
    grammar = json.loads((ROOT / "editors" / "ascasm.tmLanguage.json").read_text())
    assert grammar["scopeName"] == "source.ascasm"
    rules = {rule.get("name"): rule for rule in grammar["patterns"]}
    line = "loop:   vsct [s1], v0.u16, v1.u16, p0"
    assert re.search(rules["keyword.mnemonic.ascasm"]["match"], line).group() == "vsct"
    register = next(r for r in grammar["patterns"] if "captures" in r and "3" in r["captures"])
    assert [m.group(1, 3) for m in re.finditer(register["match"], line)] == [
        ("s1", None), ("v0", "u16"), ("v1", "u16"), ("p0", None)]
    directive_line = grammar["patterns"][0]
    assert re.match(directive_line["begin"], ".expect out = [1, 2]")
    assert not any(r.get("name", "").startswith("comment.line.double") for r in directive_line["patterns"])


def test_the_pygments_lexer_is_registered_and_clean():
    pygments = pytest.importorskip("pygments")
    from pygments.lexers import get_lexer_by_name
    from pygments.token import Comment, Error, Keyword, Name, Operator
    lexer = get_lexer_by_name("ascasm")                 # found through the entry point
    for program in sorted((ROOT / "programs").glob("**/*.s")):
        tokens = list(lexer.get_tokens(program.read_text()))
        assert not [t for t in tokens if t[0] is Error], program.name
    tokens = [(kind, text) for kind, text in lexer.get_tokens(SAMPLE) if text.strip()]
    assert (Keyword.Declaration, ".ub") in tokens and (Keyword.Type, "u16") in tokens
    assert (Operator, "//") in tokens                       # floor division on the .ub line
    assert (Comment.Single, "// a comment here") in tokens
    assert (Name.Label, "loop") in tokens and (Keyword, "vsct") in tokens
    assert (Name.Builtin, "v0") in tokens and (Name.Constant, "M4") in tokens
    assert pygments.__version__


def test_pygmentize_dash_l_ascasm():
    pytest.importorskip("pygments")
    result = subprocess.run([sys.executable, "-m", "pygments", "-l", "ascasm", "-f", "html",
                             str(ROOT / "programs" / "scatter.s")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert '<span class="k">vsct</span>' in result.stdout and 'class="err"' not in result.stdout
