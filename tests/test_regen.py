"""Every generated file is current (`python tools/regen.py --check`), and the check names a stale one."""
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def regen_check(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(root / "tools" / "regen.py"), "--check"], capture_output=True,
                          text=True, cwd=root)


def test_every_generated_file_is_current():
    result = regen_check(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_check_names_each_stale_file(tmp_path):
    for part in ("ascasm", "grammar", "tools", "docs", "editors"):
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
