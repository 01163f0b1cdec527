"""Queuing an errorbar bake-off from the Runs list (``e``): ask, confirm, send once, watch it.

``BakeoffNewScreen`` asks what to compare; the send-once flow is ``tui.send_once``; a lost
answer is settled by the errorbar client (it looks for the run in the list). The rows
themselves are ``BakeoffRuns``'.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from api_client.errors import BlahError
from application.bakeoff.screening import BakeoffPrefill
from tui.base_screen import BlahScreen, describe_error
from tui.screens.runs.bakeoff_notify import follow_bakeoff
from tui.send_once import SendOnce

__all__ = ["BakeoffCreate"]


class BakeoffCreate(SendOnce):
    """One new bake-off at a time, each sent once; then the list is read and its watch opened."""

    def __init__(self, screen: BlahScreen, *, client: Callable[[], Any], reload: Callable[[], None]) -> None:
        """``client``: the errorbar client (None: not configured); ``reload``: read the list
        again at the normal pace."""
        super().__init__(screen, group="runs.bakeoff.new", busy_note="A new bake-off is already being asked for or sent.")
        self.screen = screen
        self._client = client
        self._reload = reload

    def ask(self, prefill: BakeoffPrefill | None = None) -> None:
        """``prefill``: the dialog's first values (a screening's recommendation)."""
        if self._client() is not None:
            self.start(lambda: self._flow(prefill))

    async def _flow(self, prefill: BakeoffPrefill | None) -> None:
        from tui.screens.runs.bakeoff_new import BakeoffNewScreen, confirm_text

        app = self.screen.app
        request = await app.push_screen_wait(BakeoffNewScreen(prefill=prefill))
        if request is None:
            return
        if not await self.confirm("Queue this bake-off?", confirm_text(request), label="Queue bake-off"):
            return
        client = self._client()
        try:  # a lost answer is settled by the client (it looks for the run in the list)
            created = await self.send(lambda: client.create_run(request.body()))
        except BlahError as error:
            self.screen.notify(f"The bake-off was not queued: {describe_error(error)}", severity="error",
                               markup=False, timeout=15)
            return
        self.release()  # the answer is in: what follows is reading and showing it
        run = created.run
        follow_bakeoff(app, run.id)
        found = " (its answer was lost; found in the list)" if created.settled else ""
        self.screen.notify(f"Bake-off {run.id} queued{found}.", markup=False)
        self._reload()
        from tui.screens.runs.bakeoff_watch import BakeoffWatchScreen

        app.push_screen(BakeoffWatchScreen(run.id, initial=run))
