"""The base of the three watch screens: a blah.dev run (``tui.screens.runs.watch``), a Blobfish
benchmark run (``tui.screens.runs.bench.watch``) and an errorbar bake-off
(``tui.screens.bakeoffs.watch``).

What they share: the run they watch, and how its end is told. A watch follows its run (its end
is news) and says the end through :func:`tui.run_end.announce_end`: one notification titled
``<NOUN> <status>`` naming the run, the bell with it when ``bell_on_run_end`` is on, once per
run and status app-wide (the Runs list, which sees ends too, stays quiet after the watch has
said it, and the other way round). How each watch reads its run stays its own: the app's
``Poller``, the server-paced ``watch_suite``, ``Reload``.
"""

from __future__ import annotations

from typing import ClassVar

from tui.base_screen import BlahScreen
from tui.run_end import BLAH_RUN, RunEnd, Severity, announce_end, notifier_for

__all__ = ["WatchScreen"]


class WatchScreen(BlahScreen):
    """One run, watched to its end; subclasses name it (``NOUN``) and may key it (``end_key``)."""

    NOUN: ClassVar[str] = BLAH_RUN
    """What the announcement calls the run."""

    def __init__(self, run_id: str) -> None:
        super().__init__()
        self.run_id = run_id

    @property
    def end_key(self) -> str:
        """The run in the app's notifier (the Runs list uses the same key for the same run)."""
        return self.run_id

    def follow_end(self) -> None:
        """The person watches this run: its end is news."""
        notifier_for(self.app).follow(self.end_key)

    def run_end(self, status: str, message: str, severity: Severity, *, noun: str | None = None) -> RunEnd:
        return RunEnd(self.end_key, noun or self.NOUN, status, message, severity)

    def announce_end(self, end: RunEnd) -> bool:
        """The end said once: the notification, and the bell unless ``bell_on_run_end`` is off."""
        return announce_end(self.app, end, bell=self.ctx.settings.bell_on_run_end)
