"""One record of a call (issue 39): outside ``api_client`` the app reads the product's own
``common.records`` types; blah.dev's wire models of a call (``LogEntry``, ``ChatMessage``,
``LogPage``) are imported only by the client that maps them (``api_client.blahdev.records``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIRE_CALL = {"LogEntry", "ChatMessage", "LogPage"}
READERS = ("application", "cli", "common", "diagnosis", "tui", "widgets")


def _imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("api_client"):
            names.update(alias.name for alias in node.names)
    return names


def test_no_module_outside_the_client_imports_blah_devs_wire_call() -> None:
    found = {
        str(path.relative_to(ROOT)): sorted(_imports_of(path) & WIRE_CALL)
        for package in READERS
        for path in sorted((ROOT / package).rglob("*.py"))
        if _imports_of(path) & WIRE_CALL
    }
    assert found == {}
