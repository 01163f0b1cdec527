"""The Blobfish benchmarks this person knows of, kept between sessions (issue 31).

The contract has no route that lists benchmarks (only a slug's own ``/runs`` and
``/community``), so Runs cannot ask which exist. It lists instead: the benchmarks this person
has run (from the app or `blah-tui bench run`), those whose community board they opened, and
the ones the session was told of (the demo's world). The file holds slugs only, nothing
secret; a missing or broken file is an empty list, never an error.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Literal

from application.session.paths import data_dir

__all__ = ["known_slugs", "remember_slug"]

FILE_NAME = "blobfish_benchmarks.json"
MAX_SLUGS = 50
_SLUG = re.compile(r"[a-z0-9][a-z0-9._-]{0,99}")
Source = Literal["run", "board"]


def _path() -> Path:
    return data_dir() / FILE_NAME


def _read() -> dict[str, list[str]]:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        key: [s for s in value if isinstance(s, str) and _SLUG.fullmatch(s)][:MAX_SLUGS]
        for key, value in data.items()
        if key in ("run", "board") and isinstance(value, list)
    }


def known_slugs() -> list[str]:
    """Run first (most recent first), then boards opened; each once."""
    data = _read()
    return list(dict.fromkeys([*data.get("run", []), *data.get("board", [])]))


def remember_slug(slug: str, source: Source) -> None:
    """Keep ``slug`` (most recent first); a slug of the wrong shape, or a file that cannot be
    written, is left alone (the list is a convenience, never a reason to fail)."""
    if not _SLUG.fullmatch(slug):
        return
    data = _read()
    slugs = [slug, *(s for s in data.get(source, []) if s != slug)][:MAX_SLUGS]
    if data.get(source) == slugs:
        return
    data[source] = slugs
    path = _path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(".tmp")
        temp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(temp, path)
    except OSError:
        pass
