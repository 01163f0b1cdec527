"""The base of every top-level screen: access to the session, and one place where failed
workers become notifications (so no screen crashes on a platform error)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.screen import Screen
from textual.worker import Worker, WorkerState

from api_client.errors import BlahError
from widgets.safe_text import one_line

if TYPE_CHECKING:
    from tui.app import BlahApp
    from tui.context import AppContext


def describe_error(error: BaseException) -> str:
    """A short, sanitised, human sentence for an exception (never contains the key)."""
    if isinstance(error, BlahError):
        return one_line(str(error), max_len=300)
    return one_line(f"{type(error).__name__}: {error}", max_len=300)


class BlahScreen(Screen[None]):
    """A screen of blah-tui. Subclasses run their IO in ``@work`` workers; a worker that
    fails is reported here as a notification and as the app's connection state."""

    @property
    def blah_app(self) -> BlahApp:
        return cast("BlahApp", self.app)

    @property
    def ctx(self) -> AppContext:
        return self.blah_app.ctx

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            error = event.worker.error
            self.blah_app.note_connection(error)
            self.notify(describe_error(error), title="Request failed", severity="error", markup=False)
        elif event.state is WorkerState.SUCCESS:
            self.blah_app.note_connection(None)
