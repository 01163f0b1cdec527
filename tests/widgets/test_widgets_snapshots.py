"""Visual snapshots (pytest-textual-snapshot). Update with ``--snapshot-update`` after a
deliberate visual change, and look at the SVG diff before committing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

APPS = Path(__file__).parents[1] / "snapshot_apps"


def test_log_list_with_badges_snapshot(snap_compare: Any) -> None:
    assert snap_compare(APPS / "log_list_app.py", terminal_size=(150, 10), press=["up", "up"])


def test_text_viewer_whitespace_snapshot(snap_compare: Any) -> None:
    assert snap_compare(APPS / "text_viewer_app.py", terminal_size=(60, 10))
