"""The negative corpus: every file in tests/asm_errors/ must fail to assemble with the error its
first line states: `; expect LINE:COL: MESSAGE | NOTE | NOTE ...` (MESSAGE is the error's message,
each NOTE a part of one of its notes). A file that assembles fails the test ("failed to fail")."""
import re
from pathlib import Path

import pytest

from ascasm import AssemblyFailed, assemble_file

CORPUS = sorted((Path(__file__).parent / "asm_errors").glob("*.s"))
EXPECT = re.compile(r"^; expect (\d+):(\d+): (.*)$")


def expectation(path: Path):
    m = EXPECT.match(path.read_text().splitlines()[0])
    assert m, f"{path.name}: first line must be '; expect LINE:COL: MESSAGE [| NOTE ...]'"
    message, *notes = [part.strip() for part in m.group(3).split("|")]
    return int(m.group(1)), int(m.group(2)), message, notes


def test_corpus_is_not_empty():
    assert len(CORPUS) >= 30


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_error_is_reported_at_its_position(path):
    line, col, message, notes = expectation(path)
    with pytest.raises(AssemblyFailed) as failed:
        assemble_file(path)
    reported = [(e.loc.line, e.loc.col, e.message) for e in failed.value.errors]
    matching = [e for e in failed.value.errors if (e.loc.line, e.loc.col, e.message) == (line, col, message)]
    assert matching, f"expected {line}:{col}: {message}; got {reported}"
    for note in notes:
        assert any(note in n for n in matching[0].notes), f"note {note!r} not in {matching[0].notes}"
    text = str(failed.value)
    assert f"{path}:{line}:{col}: error: {message}" in text
    caret_line = text.splitlines()[text.splitlines().index(f"{path}:{line}:{col}: error: {message}") + 2]
    assert caret_line.index("^") == 4 + col - 1, "the caret stands under the offending column"


def test_every_error_of_a_file_is_reported(tmp_path):
    source = tmp_path / "many.s"
    source.write_text("    vsat [x], v1.u16, p0\n    mask p9.b16, ALL\n    vld v0.q16, [y]\n    b nowhere\n")
    with pytest.raises(AssemblyFailed) as failed:
        assemble_file(source)
    assert [e.loc.line for e in failed.value.errors] == [1, 2, 3, 4]
    assert str(failed.value).endswith("4 errors")
