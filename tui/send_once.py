"""The one confirm-then-send-once flow of every write the TUI makes.

A write that spends money, starts a job or changes the platform is: asked (a
:class:`widgets.confirm.ConfirmScreen`), sent once, and never blindly sent again. One
:class:`SendOnce` per write of a screen holds that:

- :meth:`SendOnce.start` runs the write's flow in a worker unless one is already being asked
  or sent: a second key press while the dialog is open or the request in flight does nothing
  (or says ``busy_note``), so a double press can never send twice;
- :meth:`SendOnce.confirm` asks (True: go ahead);
- :meth:`SendOnce.send` sends the request once (counted in :attr:`SendOnce.sent`) and, when
  the answer was lost (:class:`api_client.errors.OutcomeUnknownError`), hands the error to the
  ``settle`` read that finds out what happened; nothing is resent.

Usage::

    self.create = SendOnce(self, group="webhooks-write")

    def action_create(self) -> None:
        self.create.start(self._create_flow)

    async def _create_flow(self) -> None:
        if not await self.create.confirm("Create webhook?", body, label="Create"):
            return
        hook = await self.create.send(lambda: client.create_webhook(...), settle=self._look_in_the_list)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from rich.console import RenderableType
from rich.text import Text
from textual.widget import Widget

from api_client.errors import OutcomeUnknownError
from widgets.confirm import ConfirmScreen

__all__ = ["SendOnce"]

T = TypeVar("T")


class SendOnce:
    """One write of ``host`` (a screen or a widget): guard, confirm, send once, settle."""

    def __init__(self, host: Widget, *, group: str = "write", busy_note: str | None = None, once: bool = False) -> None:
        """``group``: the worker group of the flow; ``busy_note``: what a press while the
        write is being asked or sent says (nothing when None); ``once``: a write that can be
        made only once (cancelling this run): after it was sent (and not refused) it stays busy."""
        self._host = host
        self._group = group
        self._busy_note = busy_note
        self._once = once
        self._held = False
        self._spent = False
        self.sent = 0
        """Requests sent: one per confirmation, never more (tests read it)."""

    @property
    def busy(self) -> bool:
        """A confirmation is open or the request in flight (or a ``once`` write was sent)."""
        return self._held or self._spent

    def claim(self) -> bool:
        """Take the guard for a flow run by the caller; False (and the busy note) when taken."""
        if self.busy:
            if self._busy_note:
                self._host.notify(self._busy_note, markup=False)
            return False
        self._held = True
        return True

    def release(self) -> None:
        self._held = False

    def start(self, flow: Callable[[], Awaitable[Any]]) -> bool:
        """Run ``flow`` in a worker of the host unless this write is busy; True when started.
        The guard is released when the flow ends, however it ends."""
        if not self.claim():
            return False

        async def guarded() -> None:
            try:
                await flow()
            finally:
                self.release()

        # A coroutine function matches two members of Textual's WorkType union, so mypy infers Never
        self._host.run_worker(guarded, group=self._group, exit_on_error=False)  # type: ignore[arg-type]
        return True

    async def guarded(self, flow: Callable[[], Awaitable[T]]) -> T | None:
        """Await ``flow`` under the guard (the caller is already in a worker); None when busy."""
        if not self.claim():
            return None
        try:
            return await flow()
        finally:
            self.release()

    async def confirm(
        self,
        title: str | Text,
        body: RenderableType | str,
        *,
        label: str,
        danger: bool = False,
        cancel_label: str = "Cancel",
        dialog_type: type[ConfirmScreen] = ConfirmScreen,
    ) -> bool:
        """Ask over the host (from its worker); True when the person confirmed. ``dialog_type``:
        a ConfirmScreen laid out for a long body (a bake-off's spend)."""
        dialog = dialog_type(title, body, confirm_label=label, cancel_label=cancel_label, danger=danger)
        answer = await self._host.app.push_screen_wait(dialog)  # (no bool() around it: mypy would infer object)
        return bool(answer)

    async def send(
        self,
        call: Callable[[], Awaitable[T]],
        *,
        settle: Callable[[OutcomeUnknownError], Awaitable[T]] | None = None,
    ) -> T:
        """Send once. A lost answer goes to ``settle`` (a read that finds out whether the write
        happened) when given, else propagates; the request is never sent again."""
        self.sent += 1
        try:
            answer = await call()
        except OutcomeUnknownError as error:
            self._spent = self._once  # it may have happened: a once-only write is not asked again
            if settle is None:
                raise
            return await settle(error)
        self._spent = self._once
        return answer
