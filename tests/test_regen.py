"""Every generated file is current (`python tools/regen.py --check`), and the check names a stale one."""
import difflib
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

from ascasm.isa import OPCODES

ROOT = Path(__file__).resolve().parent.parent


def regen_check(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(root / "tools" / "regen.py"), "--check"], capture_output=True,
                          text=True, cwd=root)


def test_every_generated_file_is_current():
    result = regen_check(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_check_names_each_stale_file(tmp_path):
    for part in ("ascasm", "grammar", "tools", "docs", "editors", "tests"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    with open(tmp_path / "docs" / "isa.md", "a") as isa:
        isa.write("an edit by hand\n")
    readme = tmp_path / "README.md"
    readme.write_text(readme.read_text().replace("`vsct vsta ", "`vsta ", 1))
    result = regen_check(tmp_path)
    assert result.returncode == 1
    assert "docs/isa.md" in result.stdout and "README.md" in result.stdout
    assert "cheatsheet.md" not in result.stdout


def added_and_removed(before: str, after: str) -> tuple[list[str], list[str]]:
    diff = [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
            if not line.startswith(("---", "+++", "@@"))]
    return [line[1:] for line in diff if line[0] == "+"], [line[1:] for line in diff if line[0] == "-"]


ENGINE_FILES = [Path("ascasm/isa/opcode_numbers.py"), *Path("ascasm/_engine").glob("*.pxi"),
                *Path("ascasm/_engine").glob("*.pxd"), Path("ascasm/_engine/kernel_rows.py")]


def changed_engine_lines(tmp_path, edit) -> dict:
    """{path: (lines added, lines removed)} of the engine's generated files, after `edit` (given the root
    of a copy of the tree) and a regeneration of that copy."""
    for part in ("ascasm", "tools", "docs"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    before = {path: (ROOT / path).read_text() for path in ENGINE_FILES if (ROOT / path).exists()}
    edit(tmp_path)
    subprocess.run([sys.executable, str(tmp_path / "tools" / "gen_tables.py")], check=True, cwd=tmp_path)
    changed = {}
    for path, old in before.items():
        added, removed = added_and_removed(old, (tmp_path / path).read_text())
        if added or removed:
            changed[str(path)] = (added, removed)
    return changed


def replace_once(path: Path, old: str, new: str):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def test_a_new_row_changes_only_its_own_lines_of_the_engine_tables(tmp_path):
    # opcodes are kept once given and kernels are named, not numbered: a trial scalar-operand row of an
    # existing family adds its own lines; of the lines already there only the kernel count and its
    # family's decoding (the list of opcodes sharing it) change
    def add_row(root):
        table = root / "ascasm" / "isa" / "table.py"
        text = table.read_text()
        start = text.index('    InsnSpec("vabssub", "", "vD.T, vA.T, vB.T, pM", "vcompound",')
        end = text.index("\n", text.index("mask=_LANE_MASK),", start)) + 1
        trial = text[start:end].replace('"vabssub", "", "vD.T, vA.T, vB.T, pM"', '"vabssubs", "", "vD.T, vA.T, X.T, pM"')
        table.write_text(text[:end] + trial + text[end:])

    changed = changed_engine_lines(tmp_path, add_row)
    assert set(changed) == {"ascasm/isa/opcode_numbers.py", "ascasm/_engine/dispatch.pxi",
                            "ascasm/_engine/dispatch_arith.pxi", "ascasm/_engine/kernel_rows.py"}
    top = max(OPCODES.values())
    assert changed["ascasm/isa/opcode_numbers.py"] == ([f"    'OP_VABSSUBS': {top + 1},"], [])
    removed = [line.strip() for _added, lines in changed.values() for line in lines]
    assert len(removed) == 2 and removed[0].startswith("elif opcode in (") and removed[1].startswith("KERNEL_COUNT = ")
    assert sum(len(added) for added, _removed in changed.values()) < 50


def test_a_new_family_in_the_middle_of_the_table_renumbers_no_other(tmp_path):
    # family numbers are kept once given too: a trial family declared and used after membar (early in
    # the table) takes the next free number; no other family's number or line changes
    def add_family(root):
        replace_once(root / "ascasm/isa/table.py", '    Family("membar", "control"),\n',
                     '    Family("membar", "control"),\n    Family("trial_nop", "control"),\n')
        replace_once(root / "ascasm/isa/table.py", '    InsnSpec("halt", "", "",',
                     '    InsnSpec("trialnop", "", "", "trial_nop", "nothing", "docs/language.md"),\n'
                     '    InsnSpec("halt", "", "",')
        replace_once(root / "ascasm/_engine/control.pyx", "# halt\n",
                     "cdef inline int k_trial_nop(Machine* m, const Ins* ins, const Args_trial_nop* a) noexcept nogil:\n"
                     "    return STOP_RUNNING\n\n\n# halt\n")

    recorded = runpy.run_path(str(ROOT / "ascasm/_engine/kernel_rows.py"))["FAMILY_NUMBERS"]
    number = max(recorded.values()) + 1
    changed = changed_engine_lines(tmp_path, add_family)
    added_lines = [line.strip() for added, _removed in changed.values() for line in added]
    removed = [line.strip() for _added, lines in changed.values() for line in lines]
    assert [line for line in removed if not line.startswith("KERNEL_COUNT = ")] == []
    assert f"FAM_TRIAL_NOP = {number}" in added_lines and f"'trial_nop': {number}," in added_lines
    assert sum(map(len, (added for added, _removed in changed.values()))) < 30
