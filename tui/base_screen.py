"""The base of every top-level screen: access to the session, and one place where failed
workers become notifications (so no screen crashes on a platform error)."""

from __future__ import annotations

import asyncio
import inspect
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual._context import active_app
from textual.await_remove import AwaitRemove
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widget import Widget
from textual.worker import Worker, WorkerState

from application.error_text import describe_error
from tui.messages import ModelEvent
from tui.text_focus import leave_text_box, typing_in
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from application.session.context import AppContext
    from tui.app_protocol import BlahAppApi


class BlahScreen(Screen[None]):
    """A screen of blah-tui. Subclasses run their IO in ``@work`` workers; a worker that
    fails is reported here as a notification and as the app's connection state.

    A screen that composes a ``StatusHeader`` gets it kept in step with the app (platform,
    model, connection state, ``SCREEN_TITLE``) automatically; call ``sync_status_header()``
    after changing ``ctx.model_id``."""

    SCREEN_TITLE: ClassVar[str] = ""

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._mark_styled_with_current_css()

    def _mark_styled_with_current_css(self) -> None:
        """Tell Textual this new screen needs no stylesheet refresh when its area opens.

        Textual marks a new screen as styled by no stylesheet yet, so the first switch to a
        mode re-parses every CSS source and restyles the app, twice (once for the screen
        being left): about a quarter of a CPU-second per area opened. A new screen is styled
        as it registers, with the stylesheet of the moment; after a theme change the app
        counts up again, and screens made before it are refreshed when shown, as before.
        (Private Textual state: ``tests/tui/app/test_screen_css.py`` fails if this stops applying.)
        """
        app = active_app.get(None)
        if app is not None and hasattr(app, "_css_update_count"):
            self._css_update_count = app._css_update_count

    @property
    def blah_app(self) -> BlahAppApi:
        return cast("BlahAppApi", self.app)

    @property
    def ctx(self) -> AppContext:
        return self.blah_app.ctx

    def remove(self) -> AwaitRemove:
        """Cancel this screen's workers, then remove it.

        Textual cancels a node's workers only when it unmounts, after its widgets are gone;
        a worker that came back from an await in between (a fetch, an analysis in a thread)
        queried a widget that no longer existed and crashed the app. Cancelled first, the
        worker stops at that await instead."""
        self._leaving = True
        for node in self.walk_children(with_self=True):
            self.workers.cancel_node(node)
        return super().remove()

    _leaving: bool = False

    @property
    def gone(self) -> bool:
        """This screen is being taken down (closed, or the app is quitting)."""
        return self._leaving or not self.app.is_running or not self.is_attached

    def run_worker(self, work: Any, *args: Any, **kwargs: Any) -> Worker[Any]:
        """Every worker of a screen (``@work`` included) stops quietly if it comes back from an
        await to a screen that is being taken down: when the app quits, Textual removes a
        screen's widgets before it cancels the screen's workers, and a worker that queried one
        in between crashed the app on the way out. On a live screen a missing widget is still
        a bug, and still fails loudly."""
        if not kwargs.get("thread", False) and (callable(work) or inspect.isawaitable(work)):
            kwargs.setdefault("name", getattr(work, "__name__", "") or "")
            kwargs.setdefault("description", repr(work))
            work = partial(self._stop_when_gone, work)  # a coroutine only once it runs
        return super().run_worker(work, *args, **kwargs)

    async def _stop_when_gone(self, work: Any) -> Any:
        try:
            result = work() if callable(work) else work
            if inspect.isawaitable(result):
                result = await result
            return result
        except NoMatches:
            if self.gone:
                raise asyncio.CancelledError() from None
            raise

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            error = event.worker.error
            self.blah_app.note_connection(error)
            self.notify(describe_error(error), title="Request failed", severity="error", markup=False)
        elif event.state is WorkerState.SUCCESS:
            self.blah_app.note_connection(None)

    # ----------------------------------------------------------------- text boxes and Esc

    #: Actions of a screen's own Esc binding that leave a text box: enabled (and shown in the
    #: footer) only while one is focused, so otherwise Esc goes on to the app (back).
    LEAVE_INPUT_ACTIONS: ClassVar[frozenset[str]] = frozenset({"leave_input", "leave_search"})

    @property
    def typing(self) -> bool:
        """A text box has the focus: printable keys are text, not this screen's keys."""
        return typing_in(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.LEAVE_INPUT_ACTIONS:
            return self.typing
        return True

    def input_exit_target(self) -> Widget | None:
        """Where the focus goes when Esc leaves a text box (None: the first widget that is not
        one). Screens name their main list or tabs."""
        return None

    def leave_text_input(self) -> None:
        """Esc in a text box: the keys go back to this screen."""
        leave_text_box(self, self.input_exit_target())

    # ----------------------------------------------------------------- status header

    def on_mount(self) -> None:
        # Textual calls on_mount of every class in the MRO: subclasses need not call super().
        if hasattr(self.app, "connection"):
            self.watch(self.app, "connection", self._connection_changed, init=True)
        model_signal = getattr(self.app, "model_signal", None)
        if model_signal is not None:  # model switched or muted/unmuted: headers follow
            model_signal.subscribe(self, self._model_event)

    def _connection_changed(self, _state: Any = None) -> None:
        self.sync_status_header()

    def _model_event(self, event: ModelEvent) -> None:
        self.sync_status_header()
        if event.kind == "switched":
            self.on_model_switched(event.model_id)
        else:
            self.on_model_state_changed(event.model_id)

    # ----------------------------------------------------------------- the model the app is about

    def on_model_switched(self, model_id: str) -> None:
        """The app is now about ``model_id`` (``ctx.model_id`` already says so): screens that
        show one model's data override this to show the new model's."""

    def on_model_state_changed(self, model_id: str) -> None:
        """The platform said something new about ``model_id`` (its chatroom was enabled or
        muted): screens that show that state override this to redraw it."""

    def sync_status_header(self) -> None:
        """Push the session's platform, model and connection state into this screen's header."""
        connection = getattr(self.app, "connection", None)
        for header in self.query(StatusHeader):
            header.platform = self.ctx.platform_label
            header.model_id = self.ctx.model_id
            header.screen_title = self.SCREEN_TITLE
            header.muted_model = getattr(self.app, "chatroom_enabled", {}).get(self.ctx.model_id) is False
            if connection is not None:
                header.connection = connection.state
                header.detail = connection.detail
