"""Issue 16, "One house": under ``tui/`` every module is Textual code. A Rich renderer belongs
to the widget that shows what it renders, a screen helper types the Textual objects it drives,
a pure helper goes to ``application/`` or ``common/``; so each module under ``tui/`` imports
Textual at its top and uses what it imports (a dead import to pass this check fails it too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TUI = Path(__file__).resolve().parents[1] / "tui"


def _modules() -> list[Path]:
    return sorted(p for p in TUI.rglob("*.py") if p.name != "__init__.py")


def textual_names_used(source: str) -> tuple[set[str], set[str]]:
    """The names a module binds by a top-level Textual import, and those of them it uses."""
    tree = ast.parse(source)
    bound: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "textual":
            bound |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            bound |= {
                alias.asname or alias.name.split(".")[0]
                for alias in node.names
                if alias.name.split(".")[0] == "textual"
            }
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id in bound}
    return bound, used


def test_the_check_catches_a_renderer_and_a_dead_import() -> None:
    renderer = "from rich.text import Text\n\ndef row() -> Text:\n    return Text('x')\n"
    dead = "from textual.widgets import Static\n" + renderer
    honest = "from textual.widgets import Static\n\nclass Row(Static):\n    pass\n"
    assert textual_names_used(renderer) == (set(), set())
    assert textual_names_used(dead) == ({"Static"}, set())
    assert textual_names_used(honest) == ({"Static"}, {"Static"})


def test_the_areas_are_all_walked() -> None:
    walked = {p.parent.name for p in _modules()}
    assert {"logs", "inspector", "diagnosis", "runs", "playground", "webhooks"} <= walked


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(TUI.parent)))
def test_each_module_is_textual_code(path: Path) -> None:
    bound, used = textual_names_used(path.read_text(encoding="utf-8"))
    assert bound, f"{path.relative_to(TUI.parent)} imports no Textual: it belongs to a widget, application/ or common/"
    assert used, f"{path.relative_to(TUI.parent)} imports {sorted(bound)} from Textual and uses none of it"
