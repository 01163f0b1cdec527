"""Issue 16, "One house": a module under ``tui/`` is Textual code. A Rich renderer lives in the
widget that shows it, a screen helper types the Textual objects it drives; a module with no
Textual in it belongs in ``application/`` or ``common/``. Checked here for the areas already
made so (the others join the list as they are): every module imports Textual at its top and
uses what it imports (an import only there to pass this check fails it too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
AREAS = ("compare", "evaluations", "inspector", "leaderboard", "logs", "runs")


def _modules() -> list[Path]:
    return sorted(p for area in AREAS for p in (REPO / "tui" / "screens" / area).glob("*.py") if p.name != "__init__.py")


def textual_names_used(source: str) -> tuple[set[str], set[str]]:
    """The names a module binds from Textual at its top level, and those of them it uses."""
    tree = ast.parse(source)
    bound: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "textual":
            bound.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names if a.name.split(".")[0] == "textual")
    # Type hints are names in the tree too (``from __future__ import annotations`` only defers them).
    loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return bound, bound & loaded


def test_the_check_tells_a_textual_module_from_a_textual_free_or_dead_import_one() -> None:
    assert textual_names_used("from textual.widgets import Static\nclass A(Static): ...\n") == ({"Static"}, {"Static"})
    assert textual_names_used("from rich.text import Text\nT = Text()\n") == (set(), set())
    assert textual_names_used("from textual.widgets import Static\nfrom rich.text import Text\nT = Text()\n") == (
        {"Static"}, set(),
    )


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_module_of_these_areas_is_textual_code(path: Path) -> None:
    bound, used = textual_names_used(path.read_text(encoding="utf-8"))
    assert bound, f"{path.name} imports no Textual: a renderer belongs in the widget that shows it"
    assert used, f"{path.name} imports {sorted(bound)} from Textual but uses none of it"
