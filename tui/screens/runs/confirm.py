"""Resume or cancel a run: confirm first, send once, report what the answer means.

Shared by the runs list and the watch screen. One ``StatusWriter`` per screen: the app's
send-once flow (``tui.send_once``) with the dialog these two writes ask. While a confirmation
is open or a request is in flight, further presses are ignored, so a double key press never
sends twice; a lost answer is settled by ``application.runs.blah.actions`` (it reads the run).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from rich.text import Text
from textual.screen import Screen

from api_client.blahdev.shapes import Run
from application.runs.blah.actions import WriteOutcome, cancel_run, resume_run
from application.runs.blah.watch import CANCELLABLE_STATUSES, RESUMABLE_STATUSES
from tui.cell_format import progress_text
from tui.send_once import SendOnce
from widgets.safe_text import one_line

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["StatusWriter"]

Action = Literal["resume", "cancel"]


class StatusWriter(SendOnce):
    """Asks, then sends ``resume``/``cancel`` once and hands the outcome to ``on_done``."""

    def __init__(
        self,
        screen: Screen[Any],
        client: Callable[[], BlahClient | None],
        on_done: Callable[[WriteOutcome], None],
    ) -> None:
        """``client``: the session's blah.dev client when asked (None offline)."""
        super().__init__(screen, group="runs.write")
        self.screen = screen
        self.client = client
        self.on_done = on_done

    def ask(self, run: Run, action: Action) -> None:
        if self.busy:
            return
        if self.client() is None:
            self.screen.notify("Offline: this needs the platform.", severity="warning", markup=False)
            return
        self.start(lambda: self._flow(run, action))

    async def _flow(self, run: Run, action: Action) -> None:
        rid = one_line(run.id, max_len=60)
        status = one_line(run.status or "of unknown status", max_len=20)
        body = Text(end="")
        if action == "resume":
            title = "Resume run?"
            body.append(
                f"Run {rid} is {status} at {progress_text(run)}. Resuming continues it without redoing finished items."
            )
            fits = run.status in RESUMABLE_STATUSES
            label = "Resume run"
        else:
            title = "Cancel run?"
            body.append(f"Run {rid} is {status} at {progress_text(run)}. Cancelling stops it; results so far stay.")
            fits = run.status in CANCELLABLE_STATUSES
            label = "Cancel run"
        if not fits:
            body.append(
                f"\n\nThe list shows this run as {status}; the platform will refuse if that is still so.",
                style="italic",
            )
        body.append("\n\nThis needs a council-tier key and is sent once.", style="italic")
        if not await self.confirm(title, body, label=label, danger=action == "cancel"):
            return
        client = self.client()
        assert client is not None
        write = resume_run if action == "resume" else cancel_run
        outcome = await self.send(lambda: write(client, run.id))
        self.release()  # the answer is in: a press from on_done may ask again
        self.on_done(outcome)
