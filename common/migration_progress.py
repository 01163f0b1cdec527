"""Where a migration of a local archive (api_client.archives.migrate) reports its progress when its caller gives
no callback: the process's hook, set by the CLI (a bar on stderr) and the app (notifications).
A module of its own so that setting the hook imports none of the archive's code."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

OnProgress = Callable[[int, int], None]
"""``(rows done, rows in all)``."""

_hook: OnProgress | None = None


def current_hook() -> OnProgress | None:
    return _hook


def set_progress_hook(hook: OnProgress | None) -> None:
    """Where migrations report progress when their caller passes no ``on_progress``."""
    global _hook
    _hook = hook


@contextmanager
def progress_hook(hook: OnProgress) -> Iterator[None]:
    """``hook`` receives the progress of every migration inside (the previous one after)."""
    before = _hook
    set_progress_hook(hook)
    try:
        yield
    finally:
        set_progress_hook(before)
