"""Queuing an errorbar bake-off from the Runs list (``e``): ask, confirm, send once, watch it.

``BakeoffNewScreen`` asks what to compare; the send-once flow is ``tui.send_once``; a lost
answer is settled by the errorbar client (it looks for the run in the list). Going back from
the confirmation, or a field the queue refused, shows the same dialog again with everything
typed kept (the refused field focused). The rows
themselves are ``BakeoffRuns``'.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.app import App, ScreenStackError
from textual.screen import Screen

from api_client.errors import BlahError
from application.bakeoffs.screening import BakeoffPrefill
from tui.base_screen import BlahScreen, describe_error
from tui.screens.bakeoffs.notify import follow_bakeoff
from tui.send_once import SendOnce

__all__ = ["BakeoffCreate"]


class BakeoffCreate(SendOnce):
    """One new bake-off at a time, each sent once; then the list is read and its watch opened."""

    def __init__(self, screen: BlahScreen, *, client: Callable[[], Any], reload: Callable[[], None]) -> None:
        """``client``: the errorbar client (None: not configured); ``reload``: read the list
        again at the normal pace."""
        super().__init__(
            screen, group="runs.bakeoff.new", busy_note="A new bake-off is already being asked for or sent."
        )
        self.screen = screen
        self._client = client
        self._reload = reload

    def ask(self, prefill: BakeoffPrefill | None = None, candidates: list[str] | None = None) -> None:
        """``prefill``: the dialog's first values (a screening's recommendation); ``candidates``:
        ticked at the start."""
        if self._client() is not None:
            self.start(lambda: self._flow(prefill, candidates))

    async def _flow(self, prefill: BakeoffPrefill | None, candidates: list[str] | None) -> None:
        from application.bakeoffs.dialog_text import confirm_text
        from application.bakeoffs.new_run.request import Problem
        from application.bakeoffs.refusals import create_refusal
        from tui.screens.bakeoffs.new_dialog import BakeoffNewScreen
        from widgets.confirm import WideConfirmScreen

        app: App[object] = self.screen.app
        client = self._client()
        dialog = BakeoffNewScreen(candidates, prefill=prefill)
        # Installed, the dialog outlives its dismissal: the confirmation's "back" and the queue's
        # refusal show the very same form again, everything typed in it kept.
        app.install_screen(dialog, name=f"bakeoff-new-{id(dialog)}")
        try:
            while True:
                request = await app.push_screen_wait(dialog)
                if request is None:
                    return
                chosen = dialog.chosen_criterion()
                text = confirm_text(request, chosen, dialog.runs)
                if not await self.confirm(
                    "Queue this bake-off?",
                    text,
                    label="Queue bake-off",
                    cancel_label="Back to the form",
                    dialog_type=WideConfirmScreen,
                ):
                    dialog.ask_again()
                    continue
                try:  # a lost answer is settled by the client (it looks for the run in the list)
                    created = await self.send(partial(client.create_run, request.body()))
                    break
                except BlahError as error:
                    judge = (chosen.tpr, chosen.tnr) if chosen is not None else (None, None)
                    refusal = create_refusal(error, request, judge) if error.status in (400, 412) else None
                    if refusal is None or refusal.field is None:
                        self.screen.notify(
                            f"The bake-off was not queued: {describe_error(error)}",
                            severity="error",
                            markup=False,
                            timeout=15,
                        )
                        return
                    # said on its field; the person changes it and confirms again (nothing is resent by itself)
                    dialog.ask_again(Problem(refusal.field, refusal.sentence))
        finally:
            _let_go(app, dialog)
        self.release()  # the answer is in: what follows is reading and showing it
        run = created.run
        follow_bakeoff(app, run.id)
        found = " (its answer was lost; found in the list)" if created.settled else ""
        self.screen.notify(f"Bake-off {run.id} queued{found}.", markup=False)
        self._reload()
        from tui.screens.bakeoffs.watch import BakeoffWatchScreen

        app.push_screen(BakeoffWatchScreen(run.id, initial=run))


def _let_go(app: App[object], dialog: Screen[Any]) -> None:
    """Uninstall the dialog once the flow is over and remove it, unless it is still on a screen
    stack (the flow was stopped with it open: the app removes it with the stack)."""
    try:
        app.uninstall_screen(dialog)
    except ScreenStackError:
        return
    if dialog.is_attached:
        dialog.remove()
