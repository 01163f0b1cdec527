"""Resume or cancel a run: confirm first, send once, report what the answer means.

Shared by the runs list and the watch screen. One ``StatusWriter`` per screen: it pushes the
confirmation over that screen and sends from the screen's worker. While a confirmation is open
or a request is in flight, further presses are ignored, so a double key press never sends twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from rich.text import Text
from textual.screen import Screen

from api_client.blahdev.shapes import Run
from application.runs.actions import WriteOutcome, cancel_run, resume_run
from application.runs.watch import CANCELLABLE_STATUSES, RESUMABLE_STATUSES
from tui.screens.runs.format import progress_text
from widgets.confirm import ConfirmScreen
from widgets.safe_text import one_line

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["StatusWriter"]

Action = Literal["resume", "cancel"]


class StatusWriter:
    """Asks, then sends ``resume``/``cancel`` once and hands the outcome to ``on_done``."""

    def __init__(
        self,
        screen: Screen[Any],
        client: Callable[[], BlahClient | None],
        on_done: Callable[[WriteOutcome], None],
    ) -> None:
        """``client``: the session's blah.dev client when asked (None offline)."""
        self.screen = screen
        self.client = client
        self.on_done = on_done
        self.busy = False
        self.sent = 0  # requests sent (for tests: one per confirmation)

    def ask(self, run: Run, action: Action) -> None:
        if self.busy:
            return
        if self.client() is None:
            self.screen.notify("Offline: this needs the platform.", severity="warning", markup=False)
            return
        self.busy = True
        rid = one_line(run.id, max_len=60)
        status = one_line(run.status or "of unknown status", max_len=20)
        body = Text(end="")
        if action == "resume":
            title = "Resume run?"
            body.append(f"Run {rid} is {status} at {progress_text(run)}. Resuming continues it without redoing "
                        "finished items.")
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

        def answered(ok: bool | None) -> None:
            if not ok:
                self.busy = False
                return
            self.screen.run_worker(self._send(run.id, action), group="runs.write", exit_on_error=False)

        self.screen.app.push_screen(
            ConfirmScreen(title, body, confirm_label=label, danger=action == "cancel"), answered
        )

    async def _send(self, run_id: str, action: Action) -> None:
        client = self.client()
        assert client is not None
        try:
            self.sent += 1
            if action == "resume":
                outcome = await resume_run(client, run_id)
            else:
                outcome = await cancel_run(client, run_id)
        finally:
            self.busy = False
        self.on_done(outcome)
