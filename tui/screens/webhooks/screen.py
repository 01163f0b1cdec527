"""The Webhooks screen: your webhooks, creating and deleting one, and "listen here".

"Listen here" (``l``) starts a receiver on this machine and registers a webhook pointing at
it, as one confirmed action: the end of a run then reaches the app at once (a notification,
and the Runs screens refresh). Every write is confirmed first and sent once; a timed-out
write is checked with a GET and said to be of unknown outcome until then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from api_client.blahdev.shapes import Webhook
from api_client.errors import AuthError, BlahError, OutcomeUnknownError
from application.error_text import write_problem
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.platform_work import open_list, platform_work
from tui.screens.webhooks.form import WebhookDraft, WebhookFormScreen
from tui.screens.webhooks.listen import (
    LISTEN_EVENTS,
    ListenerSession,
    ListenOptions,
    listener_for,
)
from tui.screens.webhooks.listener_line import ListenerLine
from tui.screens.webhooks.tables import ReceivedTable, WebhookTable
from tui.send_once import SendOnce
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["WebhooksScreen"]


class WebhooksScreen(BlahScreen):
    """Top-level screen (command palette: "Webhooks")."""

    SCREEN_TITLE = "Webhooks"

    DEFAULT_CSS = """
    WebhooksScreen #wh-status { height: auto; padding: 0 1; color: $foreground-muted; }
    WebhooksScreen #wh-message { height: auto; padding: 0 1; }
    WebhooksScreen #wh-listener { height: auto; padding: 0 1; margin-bottom: 1; }
    WebhooksScreen #wh-table { height: 1fr; }
    WebhooksScreen .wh-section { height: 1; padding: 0 1; text-style: bold; color: $primary; }
    WebhooksScreen #wh-received { height: 12; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        bindings.new("webhooks", "new_webhook", "New webhook"),
        bindings.delete("webhooks", "delete_webhook", "Delete"),
        Binding("l", "listen", "Listen here / stop", id="webhooks.listen"),
        bindings.refresh("webhooks"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.webhooks: list[Webhook] = []
        self.write = SendOnce(self, group="webhooks-write")  # one write at a time, each sent once

    @property
    def session(self) -> ListenerSession:
        return listener_for(self.blah_app)

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text("loading…"), id="wh-status")
        yield Caption(id="wh-message")
        yield ListenerLine("", id="wh-listener")
        yield WebhookTable(id="wh-table")
        yield Static(Text("Received here"), id="wh-received-title", classes="wh-section")
        yield ReceivedTable(id="wh-received")
        yield KeyFooter()

    def on_mount(self) -> None:
        if not self.query("#wh-table"):
            return  # closed while it opened: nothing to show or listen for
        self.session.changed.subscribe(self, self._listener_changed)
        self._listener_changed()
        open_list(
            self,
            "#wh-table",
            self.load,
            lambda: self.query_one("#wh-status", Static).update(Text("offline: webhooks need the platform")),
        )

    # ----------------------------------------------------------------- data

    def _say(self, text: str, *, error: bool = False) -> None:
        self.query_one("#wh-message", Caption).say(text, error=error)

    @platform_work(exclusive=True, group="webhooks-load")
    async def load(self, client: BlahClient, select: str | None = None) -> None:
        try:
            hooks = await client.list_webhooks()
        except AuthError as error:
            if error.status == 403 or self.ctx.has_key:
                self.query_one("#wh-status", Static).update(Text(f"couldn't load: {describe_error(error)}"))
                raise
            self.query_one("#wh-status", Static).update(
                Text("couldn't load: webhooks belong to an account, so listing them needs an API key")
            )
            return
        except BlahError as error:
            self.query_one("#wh-status", Static).update(Text(f"couldn't load: {describe_error(error)}"))
            raise
        self.webhooks = hooks
        self._fill(select)

    def _fill(self, select: str | None = None) -> None:
        listening = self.session.webhook.id if self.session.webhook is not None else None
        self.query_one("#wh-table", WebhookTable).show(self.webhooks, listening, select)
        count = len(self.webhooks)
        status = (
            f"{count} webhook{'s' if count != 1 else ''} · n new · d delete · l listen here"
            if count
            else "the platform returned no webhooks · n new · l listen here"
        )
        self.query_one("#wh-status", Static).update(Text(status))

    def _listener_changed(self, _: object = None) -> None:
        session = self.session
        receiver = session.receiver
        events = list(session.webhook.event_types) if session.webhook is not None else []
        self.query_one("#wh-listener", ListenerLine).show(
            session.url,
            session.webhook.id if session.webhook is not None else None,
            events,
            receiver.stats.accepted if receiver is not None else 0,
            receiver.stats.rejected if receiver is not None else 0,
        )
        self.query_one("#wh-received", ReceivedTable).show(session.deliveries)
        title = "Received here: verified deliveries, newest first"
        if not session.deliveries:
            title += " (nothing yet)" if session.listening else " (not listening)"
        self.query_one("#wh-received-title", Static).update(Text(title))
        if self.webhooks:
            self._fill()

    # ----------------------------------------------------------------- actions

    def action_refresh(self) -> None:
        self.load()

    def _can_write(self) -> bool:
        if self.write.busy:
            return False
        if self.ctx.client is None:
            self.notify("Offline: this needs the platform.", severity="warning", markup=False)
            return False
        return True

    def action_new_webhook(self) -> None:
        if self._can_write():
            self.write.start(self._create_flow)

    def action_delete_webhook(self) -> None:
        key = self.query_one("#wh-table", WebhookTable).current_key
        hook = next((h for h in self.webhooks if h.id == key), None)
        if hook is None:
            self.notify("Highlight a webhook first", severity="warning", markup=False)
            return
        if self._can_write():
            self.write.start(lambda: self._delete_flow(hook))

    def action_listen(self) -> None:
        if self.session.busy or not self._can_write():
            return
        self.write.start(self._listen_flow)

    # ----------------------------------------------------------------- write flows (each: ask, then send once)

    async def _create_flow(self) -> None:
        draft = await self.app.push_screen_wait(WebhookFormScreen())
        if draft is None:
            return
        body = Text(end="")
        body.append(f"POST {one_line(draft.url, max_len=200)}\n", style="bold")
        body.append(f"events: {', '.join(draft.event_types)}\n")
        body.append("signed with your secret" if draft.secret else "unsigned (no secret)")
        if not await self.write.confirm("Create webhook?", body, label="Create"):
            return
        await self._create(draft)

    async def _create(self, draft: WebhookDraft) -> None:
        client = self.ctx.client
        assert client is not None

        async def settle(error: OutcomeUnknownError) -> None:
            self._say(write_problem(error, "creating a webhook") + " Checking the list…", error=True)
            hooks = await client.list_webhooks()
            found = [h for h in hooks if h.url == draft.url]
            self._say("It was created (found in the list)." if found else "It was not created (not in the list).")
            self.webhooks = hooks
            self._fill(found[-1].id if found else None)

        try:
            hook = await self.write.send(
                lambda: client.create_webhook(draft.url, list(draft.event_types), secret=draft.secret), settle=settle
            )
        except BlahError as error:
            self._say(write_problem(error, "creating a webhook"), error=True)
            return
        if hook is None:  # settled by the list
            return
        self._say(f"Created webhook {one_line(hook.id, max_len=40)}.")
        self.notify(f"Webhook {one_line(hook.id, max_len=40)} created", markup=False)
        self.load(select=hook.id)

    async def _delete_flow(self, hook: Webhook) -> None:
        ours = self.session.forget_webhook(hook.id)
        body = Text(end="")
        body.append(f"{one_line(hook.id, max_len=40)} → {one_line(hook.url, max_len=160)}\n")
        body.append("The platform stops sending these events there.")
        if ours:
            body.append("\nIt is this app's receiver: it stops listening too.", style="italic")
        if not await self.write.confirm("Delete webhook?", body, label="Delete", danger=True):
            return
        await self._delete(hook, ours)

    async def _delete(self, hook: Webhook, ours: bool) -> None:
        client = self.ctx.client
        assert client is not None
        try:
            await self.write.send(lambda: self.session.stop(client) if ours else client.delete_webhook(hook.id))
        except OutcomeUnknownError as error:
            self._say(write_problem(error, "deleting the webhook") + " Checking the list…", error=True)
            self.load()
            return
        except BlahError as error:
            self._say(write_problem(error, "deleting the webhook"), error=True)
            return
        self._say(f"Deleted webhook {one_line(hook.id, max_len=40)}.")
        self.load()

    async def _listen_flow(self) -> None:
        session = self.session
        if session.listening:
            await self._stop_listening(session)
        else:
            await self._start_listening(session)

    async def _start_listening(self, session: ListenerSession) -> None:
        options = ListenOptions.from_settings(self.ctx.settings)
        body = Text(end="")
        where = f"{options.host}:{options.port or 'any free port'}"
        body.append(f"Start a receiver on {where}", style="bold")
        body.append(
            " (loopback only)\n" if not options.allow_remote else " (REMOTE listening allowed by your settings)\n"
        )
        body.append(f"and register a webhook for {', '.join(LISTEN_EVENTS)} pointing at it")
        if options.public_url:
            body.append(f" as {one_line(options.public_url, max_len=120)}")
        body.append(".\nA secret is generated now; deliveries not signed with it are refused.")
        if not await self.write.confirm("Listen here?", body, label="Listen"):
            return
        client = self.ctx.client
        assert client is not None
        session.busy = True
        try:
            hook = await self.write.send(lambda: session.start(client, options))
        except (OSError, ValueError) as error:
            self._say(f"Couldn't start the receiver: {one_line(str(error), max_len=200)}", error=True)
            return
        except (AuthError, BlahError) as error:
            self._say(write_problem(error, "registering the receiver") + " Nothing is listening.", error=True)
            return
        finally:
            session.busy = False
        self._say(f"Listening: webhook {one_line(hook.id, max_len=40)} points at this app.")
        self.notify("Listening for webhooks here", markup=False)
        self.load(select=hook.id)

    async def _stop_listening(self, session: ListenerSession) -> None:
        hook = session.webhook
        body = Text("Close the receiver and delete ", end="")
        body.append(f"webhook {one_line(hook.id, max_len=40)}" if hook else "its webhook")
        body.append(" on the platform?")
        if not await self.write.confirm("Stop listening?", body, label="Stop", danger=True):
            return
        session.busy = True
        try:
            await self.write.send(lambda: session.stop(self.ctx.client))
        except BlahError as error:
            self._say(write_problem(error, "deleting the receiver's webhook") + " The receiver is closed.", error=True)
        else:
            self._say("Stopped listening; the webhook was deleted.")
        finally:
            session.busy = False
        self.load()
