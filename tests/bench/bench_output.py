"""What every benchmark does with its figures at the end, written once: the JSON file that
``run_all`` collects (``--json``), and the line that says where it went."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def save_json(out: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {path}")
