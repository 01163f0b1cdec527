"""Starting a Blobfish benchmark run from the Runs list (``b``): ask, confirm, send once.

``BenchStartScreen`` asks what to run; the send-once flow is ``tui.send_once``; a lost answer
is settled by ``application.runs.bench.rows.start_bench``. A started run opens its watch; a suite
already running is offered to follow instead. The rows themselves are ``BenchRuns``'.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import App

from application.runs.bench.rows import BenchStartOutcome, start_bench
from tui.base_screen import BlahScreen
from tui.screens.runs.bench.start_dialog import BenchStartScreen, confirm_text
from tui.send_once import SendOnce
from widgets.safe_text import one_line

__all__ = ["PENDING_TASK", "BenchStart"]

PENDING_TASK = (
    "A sandbox task of {slug} is running (its answer comes within about four minutes; the platform "
    "has no cancel): go on elsewhere, it is kept and listed here when graded."
)

OpenWatch = Callable[..., None]


class BenchStart(SendOnce):
    """One benchmark start at a time, each sent once."""

    def __init__(
        self,
        screen: BlahScreen,
        *,
        client: Callable[[], Any],
        slugs: Callable[[], Any],
        say: Callable[[str, bool], None],
        reload: Callable[[], None],
        open_watch: OpenWatch,
        pending: Callable[[str | None], None] = lambda slug: None,
    ) -> None:
        """``client``: the Blobfish benchmark client (None: not configured); ``slugs``: the
        app's benchmark slugs; ``say``: a line under the summary; ``reload``: read the list
        again; ``open_watch(slug, run_id, record, location, retry_after)``; ``pending``: a
        sandbox task's slug while its answer is awaited (None once it came)."""
        super().__init__(screen, group="runs.bench.start", busy_note="A benchmark run is already being started.")
        self.screen = screen
        self._client = client
        self._slugs = slugs
        self._say = say
        self._reload = reload
        self._open_watch = open_watch
        self._pending = pending

    def ask(self) -> None:
        if self._client() is None:
            self.screen.notify(
                "Blobfish is not configured: a benchmark run needs BLOBFISH_API_KEY.", severity="warning", markup=False
            )
            return
        self.start(self._flow)

    async def _flow(self) -> None:
        app: App[object] = self.screen.app
        slugs = self._slugs()
        request = await app.push_screen_wait(BenchStartScreen(slug=slugs.slugs[-1]))
        if request is None:
            return
        title = "Start the suite run?" if request.is_suite else "Run the sandbox task?"
        if not await self.confirm(title, confirm_text(request), label="Start run"):
            return
        if not request.is_suite:
            self._say(PENDING_TASK.format(slug=one_line(request.slug, 60)), False)
            self._pending(request.slug)
        client = self._client()
        try:
            outcome = await self.send(lambda: start_bench(client, request, known_slugs=slugs.slugs))
        finally:
            self._pending(None)
        if outcome.kind != "refused":  # a slug refused before anything ran is not kept
            slugs.add(request.slug)
            slugs.add(outcome.slug)  # a running suite found on another benchmark
        await self._report(outcome)

    async def _report(self, outcome: BenchStartOutcome) -> None:
        self.screen.notify(outcome.message, severity=outcome.severity, markup=False, timeout=10)
        self._say(outcome.message, outcome.kind != "started")
        self._reload()
        if outcome.kind == "started" and outcome.run_id and self.screen.app.screen is not self.screen:
            # The person left the wait (another area, or a screen over Runs): the run is listed;
            # Enter on it there opens it. Nothing is pushed over what they are doing now.
            self.screen.notify(
                f"{outcome.message} It is listed in Runs (3); Enter on it opens it.", markup=False, timeout=10
            )
        elif outcome.kind == "started" and outcome.run_id:
            self._open_watch(outcome.slug, outcome.run_id, outcome.record, outcome.location, outcome.retry_after)
        elif outcome.kind == "in_progress" and outcome.run_id:
            body = Text(f"{outcome.message}\n\nFollow the running suite ", end="")
            body.append(one_line(outcome.run_id, max_len=60), style="bold")
            body.append(" instead?")
            if await self.confirm("A suite run is in progress", body, label="Follow it"):
                self._open_watch(outcome.slug, outcome.run_id)
