"""A progress bar on standard error while an archive of an older layout is rewritten (the first
time this version opens it: api_client.archives.migrate). Nothing is drawn when none is."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from common.migration_progress import progress_hook


@contextmanager
def migration_progress_bar() -> Iterator[None]:
    """Inside: a migration draws a bar (rich's, as ``export``'s) on stderr, gone when it ends; when
    stderr is not a terminal, one plain line says what is happening instead."""
    state: dict[str, Any] = {}

    def report(done: int, total: int) -> None:
        if not sys.stderr.isatty():  # a bar only on a terminal (cli/output.py's rule): one plain line
            if "said" not in state:
                state["said"] = True
                sys.stderr.write(f"compacting the local archive (once, for this version): {total} calls\n")
            return
        if "bar" not in state:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn

            bar = Progress(
                TextColumn("compacting the local archive (once, for this version)"),
                BarColumn(),
                MofNCompleteColumn(),
                TaskProgressColumn(),
                console=Console(file=sys.stderr),
            )
            bar.start()
            state["bar"], state["task"] = bar, bar.add_task("migrate", total=total)
        state["bar"].update(state["task"], completed=done, total=total)
        if done >= total:
            state.pop("bar").stop()

    try:
        with progress_hook(report):
            yield
    finally:
        if "bar" in state:  # interrupted
            state.pop("bar").stop()
