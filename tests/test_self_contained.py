"""What a user reads stands alone: the docs, the bundled programs, `ascasm explain` and the package's own
text cite the public pages by name (asc_NAME, Reg::NAME) and ascasm's own docs, never a file a user
does not have (the project's specification, its research notes, reference pages by path) or an issue
number of the project's tracker."""
import re
from pathlib import Path

import pytest

from ascasm.explain import explain_lines, instruction_list
from ascasm.isa import BY_MNEMONIC

ROOT = Path(__file__).resolve().parent.parent
OWN_DOCS = {"README.md", "CONTRIBUTING.md", "CHANGELOG.md"} | {path.name for path in (ROOT / "docs").glob("*.md")}
OUTSIDE = re.compile(r"LANGUAGE\.md|shared/|\bseeds? 00\d|seed page|facts ?§|facts file|ascend-vf-facts|page-ambiguit"
                     r"|c-api-reg|reg-api|appendix/|[Ii]ssues? \d")
ISSUE_NUMBER = re.compile(r"[Ii]ssues? \d")


def outside_references(text: str) -> list[str]:
    """Each reference in `text` to something outside the repository: the patterns above, and any NAME.md
    that is not one of the repository's own documents."""
    found = [m.group() for m in OUTSIDE.finditer(text)]
    found += [name for name in re.findall(r"\b[\w-]+\.md\b", text) if name not in OWN_DOCS]
    return found


@pytest.mark.parametrize("text", ["LANGUAGE.md §4", "seed 003 Reduce", "the seed page", "facts §2.1", "the facts file",
                                  "shared/reference/", "page-ambiguities 19", "issue" + " 13", "c-api-reg/reg_load/",
                                  "reg-api Cast", "appendix/precision", "asc_copy.md", "Cast.md table 7"])
def test_the_check_catches_an_outside_reference(text):
    assert outside_references(f"see {text} here") != []


def test_the_check_passes_public_names_and_own_docs():
    text = "asc_copy; Reg::Cast table 7; the precision appendix; docs/language.md §8; README.md; --seed 7"
    assert outside_references(text) == []


DOCS = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md"),
               *(ROOT / "programs").glob("**/*.s")])


@pytest.mark.parametrize("path", DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_document_cites_nothing_outside_the_repository(path):
    assert outside_references(path.read_text()) == []


def test_explain_cites_nothing_outside_the_repository():
    text = "\n".join(instruction_list() + [line for mnemonic in BY_MNEMONIC for line in explain_lines(mnemonic)])
    assert outside_references(text) == []


PYTHON = sorted(path for part in ("ascasm", "tools", "bench") for path in (ROOT / part).glob("**/*.py"))


@pytest.mark.parametrize("path", PYTHON, ids=lambda path: str(path.relative_to(ROOT)))
def test_the_package_and_its_tools_cite_nothing_outside_the_repository(path):
    """Messages, help and comments alike (a comment may name a page, asc_copy, but not its file)."""
    assert outside_references(path.read_text()) == []


def test_no_test_names_an_issue_number():
    named = [path.name for path in (ROOT / "tests").glob("**/*.py") if ISSUE_NUMBER.search(path.read_text())]
    assert named == []
