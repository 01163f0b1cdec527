"""docs/layout.md ("How the code is laid out"), and every Markdown page under docs/, name only
folders and modules of the repository that exist: a package renamed or moved without its
description fails here. (Outside the layout's code block only paths from the top of the repository
are checked, ``tui/screens/``, ``tests/bench/``, and dotted modules, ``common.format``: a docs page
also names files the app writes, ``archives/profiles/NAME/``.)
And the other way round: every package of ``application/`` and area of ``tui/screens/`` is named
in the layout, so the description covers the tree as it is."""

from __future__ import annotations

import re
from pathlib import Path

from tui.help import all_bindings

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "docs" / "layout.md"
LAYOUT_HEADING = "# How the code is laid out"

_PATHLIKE = re.compile(
    r"(?<![\w./<>-])((?:[\w*.-]+/)+(?:[\w*.-]+\.(?:py|tcss|toml|md|svg|png))?"
    r"|[\w*-]+\.(?:py|tcss|toml))(?![\w/>-])"
)
"""``tui/app.py``, ``session/``, ``runs/bench/``, ``send_once.py``, ``test_*.py``: a folder (ends in
``/``) or a file; ``<area>``-style placeholders are left out."""
_DOTTED = re.compile(r"`((?:api_client|application|cli|common|diagnosis|simulator|themes|tui|widgets)(?:\.\w+)+)`")
"""A module named in code quotes by its import path: ``common.format``."""
_SKIPPED = {"pyproject.toml", "setup.py", ".tcss"}
"""Files outside the packages that the text names in passing (they exist, at the top)."""


def layout_section(readme: str) -> str:
    return readme.split(LAYOUT_HEADING, 1)[1].split("\n## ", 1)[0]


def _top_package(line: str, current: str | None) -> str | None:
    """The code block's lines start with the package they describe (``tui/``); the lines after it
    continue it."""
    first = re.match(r"([a-z_]+)/\s", line)
    return first.group(1) if first else current


def _exists(name: str, bases: list[Path]) -> bool:
    """``name`` (a relative path, maybe with ``*``) is there under one of ``bases``, directly or
    deeper (``shapes.py`` is in every platform's package)."""
    name = name.rstrip("/")
    return any(any(base.glob(name)) or any(base.glob(f"**/{name}")) for base in bases)


def missing_names(text: str, root: Path, key_ids: frozenset[str] = frozenset()) -> list[str]:
    """Each folder, file or dotted module ``text`` names that is not in the tree under ``root``
    (``key_ids``: binding ids, ``diagnosis.refresh``, which read like modules and are not)."""
    missing: list[str] = []
    top = {entry.name for entry in root.iterdir() if not entry.name.startswith(".")}
    package: str | None = None
    in_block = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_block, package = not in_block, None
            continue
        if in_block:
            package = _top_package(line, package)
        for name in _PATHLIKE.findall(line):
            if name in _SKIPPED or name.startswith(("http", "__")) or "<" in name:
                continue
            if name.split("/")[0] in top:
                ok = any(root.glob(name.rstrip("/")))  # a path from the top: exactly there
            elif in_block and package:
                ok = _exists(name, [root / package])  # the block's package describes its own parts
            else:
                continue  # not a path in the repository (a file the app writes, say)
            if not ok:
                missing.append(name)
        for dotted in _DOTTED.findall(line):
            if dotted in key_ids:
                continue
            module = root.joinpath(*dotted.split("."))
            if not (module.with_suffix(".py").is_file() or (module / "__init__.py").is_file()):
                missing.append(dotted)
    return missing


def _packages(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if (p / "__init__.py").is_file())


def test_the_layout_names_only_what_exists() -> None:
    assert missing_names(layout_section(README.read_text(encoding="utf-8")), ROOT) == []


def test_docs_pages_name_only_what_exists() -> None:
    key_ids = frozenset(binding.id for binding in all_bindings())
    pages = sorted((ROOT / "docs").rglob("*.md"))
    assert pages and "diagnosis.refresh" in key_ids
    assert {page.name: missing_names(page.read_text(encoding="utf-8"), ROOT, key_ids) for page in pages} == {
        page.name: [] for page in pages
    }


def test_every_application_package_and_screen_area_is_in_the_layout() -> None:
    section = layout_section(README.read_text(encoding="utf-8"))
    block = section.split("```")[1]
    application = block.split("\napplication/", 1)[1].split("\ndiagnosis/", 1)[0]
    assert [name for name in _packages(ROOT / "application") if f"{name}/" not in application] == []
    areas = section.split("The areas under `tui/screens/`:", 1)[1].split(". ", 1)[0]
    assert [name for name in _packages(ROOT / "tui" / "screens") if f"`{name}`" not in areas] == []


def test_a_renamed_folder_or_module_is_caught(tmp_path: Path) -> None:
    (tmp_path / "application" / "runs" / "bench").mkdir(parents=True)
    (tmp_path / "application" / "runs" / "eta.py").write_text("")
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "format.py").write_text("")
    text = (
        "```\napplication/  runs/ (bench/, eta.py), compare/bakeoff/ for bake-offs, runs/bench_*.py\n"
        "common/       format.py\n```\nA value is written with `common.format`, never `common.formats`;\n"
        "`application/runs/bench/` and `application/runs/blah/`; the app writes `archives/NAME/`.\n"
    )
    assert missing_names(text, tmp_path) == [
        "compare/bakeoff/",
        "runs/bench_*.py",
        "common.formats",
        "application/runs/blah/",
    ]
