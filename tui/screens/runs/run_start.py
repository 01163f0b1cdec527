"""Starting a blah.dev eval run from the Runs list: pick the models, confirm, send once.

The send-once flow is ``tui.send_once``; a lost answer is settled by
``application.runs.blah.actions.start_run`` (it looks for the new run in the list). What the
outcome means for the list (report it, follow the run, open its watch) is the Runs screen's,
handed in as ``on_outcome``.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import App

from application.runs.blah.actions import WriteOutcome, start_run
from tui.base_screen import BlahScreen
from tui.screens.runs.pick import ModelPickerScreen
from tui.send_once import SendOnce
from widgets.safe_text import one_line, safe_text

__all__ = ["RunStart"]


class RunStart(SendOnce):
    """The Runs screen's ``s``: one start at a time, each sent once."""

    def __init__(self, screen: BlahScreen, on_outcome: Callable[[WriteOutcome], None]) -> None:
        super().__init__(screen, group="runs.start", busy_note="A run is already being started.")
        self.screen = screen
        self._on_outcome = on_outcome

    def ask(self) -> None:
        """Start the flow, unless one is in progress (that is said) or it cannot be sent."""
        if self.busy or self._sendable():
            self.start(self._flow)

    def _sendable(self) -> bool:
        ctx = self.screen.ctx
        if ctx.client is None:
            self.screen.notify("Offline: starting a run needs the platform.", severity="warning", markup=False)
            return False
        if not ctx.has_key:
            self.screen.notify(
                "Starting a run needs an API key with council tier; none is configured.",
                severity="warning",
                markup=False,
            )
            return False
        return True

    async def _flow(self) -> None:
        ctx = self.screen.ctx
        client = ctx.client
        assert client is not None
        models = await client.list_models()
        known = {r.id for r in await client.list_runs()}
        app: App[object] = self.screen.app
        chosen = await app.push_screen_wait(
            ModelPickerScreen(
                models,
                title="Start an eval run",
                hint="Space toggles a model; y continues; Esc cancels. Every eval runs on every chosen model.",
                preselected=[ctx.model_id],
                own_id=ctx.model_id,
            )
        )
        if not chosen:
            return
        names = {m.id: m.name or m.id for m in models}
        body = Text("Start a run of every eval on:\n", end="")
        for model_id in chosen:
            body.append("  • ")
            body.append_text(safe_text(one_line(names.get(model_id, model_id), max_len=80)))
            body.append("\n")
        body.append("\nThis needs a council-tier key and is sent once.", style="italic")
        if not await self.confirm("Start run?", body, label="Start run"):
            return
        outcome = await self.send(
            lambda: start_run(client, chosen, known_run_ids=known, confirm_delay=ctx.settings.run_confirm_delay_s)
        )
        self._on_outcome(outcome)
