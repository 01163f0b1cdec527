"""`bakeoff watch`'s progress on stderr: the status, how much is done and the ETA, in the words
the app's watch uses (``application.bakeoffs.progress.RunProgress``). On a terminal it is one
line redrawn in place (rich's progress bar); piped, one plain line per poll, so a log keeps them."""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

from application.bakeoffs.progress import STEPS, RunProgress
from common.safe_strings import clip

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from api_client.errorbar import shapes as assumed

__all__ = ["WatchLine"]


class WatchLine:
    def __init__(self, run_id: str, err: TextIO, clock: Callable[[], float]) -> None:
        self.progress = RunProgress(run_id)
        self.err = err
        self.clock = clock
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> WatchLine:
        if self.err.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn

            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), console=Console(file=self.err))
            self._task = self._bar.add_task("", total=STEPS)
            self._bar.start()
        return self

    def poll(self, run: assumed.Run) -> None:
        ratio = run.progress_ratio
        self.progress.add(self.clock(), ratio)
        said = clip(self.progress.describe(run.status, ratio), 120)
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, description=said, completed=round((ratio or 0) * STEPS))
        else:
            self.err.write(said + "\n")
            self.err.flush()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
