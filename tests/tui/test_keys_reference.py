"""The keys reference (docs/keys.md) is generated from the bindings, so a person can remap any key
from the documentation alone; a binding added, removed or changed without regenerating it fails
here, and so does a key id named anywhere in the README or docs/ that no binding has."""

from __future__ import annotations

import re
from pathlib import Path

from textual.keys import format_key

from tui import keys_reference
from tui.help import all_bindings

ROOT = Path(__file__).resolve().parents[2]
_FILE_ENDINGS = {"py", "md", "toml", "tcss", "json", "jsonl", "txt", "svg", "png"}  # `screen.py` is a file


def test_docs_keys_is_what_the_bindings_say() -> None:
    committed = keys_reference.DOCS_KEYS.read_text(encoding="utf-8")
    assert committed == keys_reference.render(), "docs/keys.md is stale: run `python -m tui.keys_reference`"


def test_every_binding_is_in_the_reference_with_its_default_key() -> None:
    text = keys_reference.DOCS_KEYS.read_text(encoding="utf-8")
    bindings = [b for b in all_bindings() if b.id]
    assert len(bindings) > 100  # the walk really found the app's keys
    rows = {line for line in text.splitlines() if line.startswith("| ")}
    missing = [
        b.id for b in bindings if not any(f"`{b.id}`" in row and f"`{format_key(b.keys[0])}`" in row for row in rows)
    ]
    assert not missing, f"bindings missing from docs/keys.md with their key: {missing}"


def test_every_key_id_the_documentation_names_exists() -> None:
    known = {b.id for b in all_bindings() if b.id}
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    unknown = []
    for page in pages:
        # ids are written `area.verb` inside parentheses: "`r` Refresh (`runs.refresh`)"
        for binding_id in re.findall(r"\(`([a-z_]+(?:\.[a-z_]+)+)`", page.read_text(encoding="utf-8")):
            if binding_id not in known and binding_id.rsplit(".", 1)[1] not in _FILE_ENDINGS:
                unknown.append(f"{page.name}: {binding_id}")
    assert not unknown, f"documented key ids that no binding has: {unknown}"


def test_the_check_mode_says_stale_and_exits_1(tmp_path, monkeypatch) -> None:
    stale = tmp_path / "keys.md"
    stale.write_text("# Keys\n", encoding="utf-8")
    monkeypatch.setattr(keys_reference, "DOCS_KEYS", stale)
    assert keys_reference.main(["--check"]) == 1
    assert keys_reference.main([]) == 0
    assert keys_reference.main(["--check"]) == 0
