"""Screening from Runs (``s`` on an errorbar row, or on Runs when only errorbar is configured):
"is there a cheaper model worth testing?".

Confirm first (it spends), send ``{"screening": true}`` once, then watch it in the bake-off
watch (which follows it, so its end rings the bell); ``v`` there opens the screening's result
(``tui.screens.bakeoffs.screening_view``). While the confirmation is open or the create in
flight, a further ``s`` only says so. 402 (no funds), 422 (nothing to screen) and 403 (the
role, and which key) are said in a sentence; nothing is resent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

from rich.text import Text
from textual.app import App
from textual.notifications import SeverityLevel
from textual.widget import Widget

from api_client.errorbar import CreateOutcomeUnknown, FundsError, NothingToScreenError, RoleError
from api_client.errors import BlahError
from application.bakeoffs.screening import SCREENING_BODY_HINT, screening_body
from common.safe_strings import one_line
from tui.base_screen import describe_error
from tui.screens.bakeoffs.notify import follow_bakeoff
from tui.send_once import SendOnce

if TYPE_CHECKING:
    from application.session.context import AppContext
    from tui.screens.bakeoffs.run_rows import BakeoffRuns
    from widgets.key_table import KeyTable


class RunsLike(Protocol):
    """What screening needs of the Runs screen (named so, not imported: no import cycle)."""

    bakeoffs: BakeoffRuns

    @property
    def ctx(self) -> AppContext: ...

    @property
    def table(self) -> KeyTable: ...

    @property
    def app(self) -> App[object]: ...

    def notify(
        self,
        message: str,
        *,
        title: str = ...,
        severity: SeverityLevel = ...,
        timeout: float | None = ...,
        markup: bool = ...,
    ) -> None: ...

    def run_worker(self, work: object, **kw: object) -> object: ...


__all__ = ["ScreeningStarter", "confirm_body"]


def confirm_body() -> Text:
    body = Text("Screen your traffic for a cheaper model?\n\n", end="", style="bold")
    body.append(SCREENING_BODY_HINT, style="")
    body.append("\n\nSent once; the watch opens on the queued run and rings when it ends.", style="italic")
    return body


def refusal_sentence(error: BlahError) -> str:
    """What a refused screening means, first words first."""
    if isinstance(error, FundsError):
        return f"Not screened: {describe_error(error)}"
    if isinstance(error, NothingToScreenError):
        return f"Nothing to screen: {describe_error(error)}"
    if isinstance(error, RoleError):
        return f"Not screened (a role problem): {one_line(str(error), 500)}"  # whole: the role and the key
    if isinstance(error, CreateOutcomeUnknown):
        return (
            f"Outcome unknown: {describe_error(error)}. The bake-off list is read again: look for the "
            "screening there before screening again."
        )
    return f"The screening was not queued: {describe_error(error)}"


class ScreeningStarter(SendOnce):
    """Runs' ``s`` for errorbar: one screening at a time, confirmed, sent once (``tui.send_once``)."""

    def __init__(self, screen: RunsLike) -> None:
        super().__init__(
            cast(Widget, screen),
            group="runs.bakeoff.screen",
            busy_note="A screening is already being asked for or sent.",
        )
        self.screen = screen

    def wanted(self) -> bool:
        """``s`` means screening: on an errorbar row, or when Runs has no blah.dev platform."""
        screen = self.screen
        if screen.ctx.errorbar is None:
            return False
        return screen.ctx.client is None or screen.bakeoffs.row(screen.table.current_key) is not None

    def ask(self) -> None:
        self.start(self._flow)

    async def _flow(self) -> None:
        screen = self.screen
        app: App[object] = screen.app
        client = screen.ctx.errorbar
        if client is None or not await self.confirm("Screen for a cheaper model?", confirm_body(), label="Screen"):
            return
        try:
            created = await self.send(lambda: client.create_run(screening_body()))
        except BlahError as error:
            message = refusal_sentence(error)
            screen.notify(message, severity="error", markup=False, timeout=20)
            if isinstance(error, CreateOutcomeUnknown):
                screen.bakeoffs.load(now=True)
            return
        self.release()  # the answer is in: what follows is reading and showing it
        run = created.run
        follow_bakeoff(app, run.id)
        found = " (its answer was lost; found in the list)" if created.settled else ""
        screen.notify(f"Screening {run.id} queued{found}.", markup=False)
        screen.bakeoffs.load(now=True)
        from tui.screens.bakeoffs.watch import BakeoffWatchScreen

        app.push_screen(BakeoffWatchScreen(run.id, initial=run))
