"""The README's key tables name every binding the app has, by id, so a person can remap any
key from the documentation alone; a binding added without documenting it fails here."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

from textual.binding import Binding

import tui.screens
import widgets
from tui.app import BlahApp

README = Path(__file__).resolve().parent.parent / "README.md"


def _all_bindings() -> dict[str, Binding]:
    found: dict[str, Binding] = {}
    classes: list[type] = [BlahApp]
    for package in (tui.screens, widgets):
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
            module = importlib.import_module(info.name)
            classes += [c for _, c in inspect.getmembers(module, inspect.isclass) if c.__module__ == module.__name__]
    for cls in classes:
        for binding in vars(cls).get("BINDINGS", []):
            if isinstance(binding, Binding) and binding.id:
                found[binding.id] = binding
    return found


def test_every_binding_id_is_documented_in_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    bindings = _all_bindings()
    assert len(bindings) > 100  # the walk really found the app's keys
    undocumented = sorted(i for i in bindings if f"`{i}`" not in text and not i.startswith("mode."))
    assert not undocumented, f"binding ids missing from README.md's Keys section: {undocumented}"


def test_the_readme_gives_each_screen_key_as_bound() -> None:
    """`key` Description (`id`) in the README matches the binding's first key."""
    text = README.read_text(encoding="utf-8")
    display = {"escape": "esc", "enter": "⏎", "question_mark": "?", "slash": "/", "percent_sign": "%",
               "left_square_bracket": "[", "right_square_bracket": "]", "colon": ":",
               "up": "↑", "down": "↓", "pageup": "pgup", "pagedown": "pgdn", "equals_sign": "="}
    wrong = []
    for binding_id, binding in _all_bindings().items():
        marker = f"(`{binding_id}`)"
        at = text.find(marker)
        if at < 0 or binding_id.startswith("app."):
            continue
        before = text[max(0, text.rfind("·", 0, at), text.rfind("|", 0, at), text.rfind(";", 0, at)):at]
        first_key = binding.key.split(",")[0].strip()
        shown = display.get(first_key, first_key)
        if f"`{shown}" not in before and f"/{shown}`" not in before:
            wrong.append(f"{binding_id}: bound to {binding.key!r}, README says {before.strip()!r}")
    assert not wrong, "\n".join(wrong)
