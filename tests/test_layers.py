"""The layering is checked, not hoped for: import-linter's contracts (pyproject.toml,
``[tool.importlinter]``) pass on the tree, and they do catch a widget that imports the app and
two modules that import each other."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = tuple(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"])
LINT = "from importlinter.cli import lint_imports; raise SystemExit(lint_imports(no_cache=True, no_logo=True))"


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", LINT], cwd=root, capture_output=True, text=True, timeout=120)


def test_the_layering_contracts_hold() -> None:
    done = _lint(REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_a_widget_importing_the_app_breaks_a_contract(tmp_path: Path) -> None:
    for name in PACKAGES:
        shutil.copytree(REPO / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "widgets" / "sneaky.py").write_text("from tui.app import BlahApp\n")
    done = _lint(tmp_path)
    assert done.returncode != 0
    assert "widgets.sneaky -> tui.app" in done.stdout


def test_two_modules_importing_each_other_break_a_contract(tmp_path: Path) -> None:
    for name in PACKAGES:
        shutil.copytree(REPO / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "diagnosis" / "sneaky_rows.py").write_text("from diagnosis import sneaky_text\n")
    (tmp_path / "diagnosis" / "sneaky_text.py").write_text("from diagnosis import sneaky_rows\n")
    done = _lint(tmp_path)
    assert done.returncode != 0
    assert "No import cycles between modules BROKEN" in done.stdout
    assert "No cycles are allowed in diagnosis." in done.stdout


def _imports_of_test_modules(tests_dir: Path) -> list[str]:
    """``file: module`` for each import of a ``tests.test_*`` module (helpers belong in tests/support)."""
    import ast

    found = []
    for path in sorted(tests_dir.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else ([alias.name for alias in node.names] if isinstance(node, ast.Import) else [])
            )
            found += [f"{path.relative_to(tests_dir)}: {name}" for name in names if name.startswith("tests.test_")]
    return found


def test_no_test_module_imports_another(tmp_path: Path) -> None:
    assert _imports_of_test_modules(REPO / "tests") == []
    (tmp_path / "test_sneaky.py").write_text("from tests.test_layers import REPO\n")
    assert _imports_of_test_modules(tmp_path) == ["test_sneaky.py: tests.test_layers"]
