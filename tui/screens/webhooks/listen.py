""" "Listen here": one local receiver per app, and the webhook registered to reach it.

Starting is one action: generate a secret, start :class:`WebhookReceiver` on loopback (or, only
when the person configured it explicitly, beyond), then register a webhook with that URL and
secret. Stopping removes the registration and closes the receiver. The session outlives the
Webhooks screen (it belongs to the app) and is closed when the app exits.

Settings (``ctx.settings``, typed in ``application.session.settings.typed``):
``webhook_listen_host`` (default 127.0.0.1),
``webhook_listen_port`` (default 0: any free port), ``webhook_allow_remote`` (default False;
required for a non-loopback host), ``webhook_public_url`` (the URL to register when the
platform must reach this machine by another name; default: the receiver's own URL).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from textual.signal import Signal

from api_client.blahdev.shapes import Webhook
from api_client.errors import NotFoundError, OutcomeUnknownError
from application.webhooks.receiver import DEFAULT_PATH, WebhookDelivery, WebhookReceiver, generate_secret

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient
    from application.session.settings.typed import Settings
    from tui.app_protocol import BlahAppApi

__all__ = [
    "LISTEN_EVENTS",
    "WEBHOOK_EVENT_TYPES",
    "ListenOptions",
    "ListenerSession",
    "close_listener",
    "listener_for",
]

#: The event types the platform offers (the simulator's list; the live guide names run.completed).
WEBHOOK_EVENT_TYPES: tuple[str, ...] = ("run.completed", "run.failed", "run.stalled", "chatroom.message")
#: What "listen here" subscribes to: the ends of runs (the chatroom would be a flood).
LISTEN_EVENTS: tuple[str, ...] = ("run.completed", "run.failed", "run.stalled")
MAX_KEPT = 200


@dataclass(frozen=True)
class ListenOptions:
    host: str = "127.0.0.1"
    port: int = 0
    allow_remote: bool = False
    public_url: str | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> ListenOptions:
        return cls(
            host=settings.webhook_listen_host or "127.0.0.1",
            port=settings.webhook_listen_port,
            allow_remote=settings.webhook_allow_remote,
            public_url=settings.webhook_public_url or None,
        )


class ListenerSession:
    """The app's receiver, its registration and what it received (newest last)."""

    def __init__(self, app: BlahAppApi) -> None:
        self.app = app
        self.receiver: WebhookReceiver | None = None
        self.webhook: Webhook | None = None
        self.deliveries: deque[WebhookDelivery] = deque(maxlen=MAX_KEPT)
        # The app behind the protocol is a Textual App, a DOMNode (a Protocol cannot say so)
        self.changed: Signal[None] = Signal(app, "webhook-listener")  # type: ignore[arg-type]
        self.busy = False  # a start/stop is in flight: further presses are ignored

    @property
    def listening(self) -> bool:
        return self.receiver is not None and self.receiver.listening

    @property
    def url(self) -> str | None:
        return self.receiver.url if self.receiver is not None else None

    # ------------------------------------------------------------------ start / stop

    async def start(self, client: BlahClient, options: ListenOptions, events: Sequence[str] = LISTEN_EVENTS) -> Webhook:
        """Start the receiver and register it. On any failure nothing is left listening.

        A registration that timed out is looked for in the list before giving up.
        """
        if self.listening:
            raise RuntimeError("already listening")
        secret = generate_secret()
        receiver = WebhookReceiver(
            self._received,
            secret=secret,
            host=options.host,
            port=options.port,
            path=DEFAULT_PATH,
            allow_remote=options.allow_remote,
        )
        url = await receiver.start()
        target = options.public_url or url
        try:
            try:
                webhook = await client.create_webhook(target, list(events), secret=secret)
            except OutcomeUnknownError:
                found = [w for w in await client.list_webhooks() if w.url == target]
                if not found:
                    raise
                webhook = found[-1]
        except BaseException:
            await receiver.stop()
            raise
        self.receiver, self.webhook = receiver, webhook.model_copy(update={"secret": None})
        self.changed.publish(None)
        return self.webhook

    async def stop(self, client: BlahClient | None) -> None:
        """Remove the registration (already gone is fine) and close the receiver."""
        webhook, receiver = self.webhook, self.receiver
        try:
            if webhook is not None and client is not None:
                try:
                    await client.delete_webhook(webhook.id)
                except NotFoundError:
                    pass
        finally:
            self.webhook, self.receiver = None, None
            if receiver is not None:
                await receiver.stop()
            self.changed.publish(None)

    def forget_webhook(self, webhook_id: str) -> bool:
        """The person deleted our registration from the list: True when it was ours."""
        return self.webhook is not None and self.webhook.id == webhook_id

    def close(self) -> None:
        """At app exit: stop listening (the registration stays; it points at a closed port)."""
        if self.receiver is not None:
            self.receiver.close()
        self.receiver = None

    # ------------------------------------------------------------------ deliveries

    def _received(self, delivery: WebhookDelivery) -> None:
        self.deliveries.append(delivery)
        self.app.handle_webhook_event(delivery)
        self.changed.publish(None)


_SESSIONS: WeakKeyDictionary[BlahAppApi, ListenerSession] = WeakKeyDictionary()


def listener_for(app: BlahAppApi) -> ListenerSession:
    """The app's one listener session (created on first use)."""
    session = _SESSIONS.get(app)
    if session is None:
        session = _SESSIONS[app] = ListenerSession(app)
    return session


def close_listener(app: BlahAppApi) -> None:
    """Close the app's receiver, if it has one (called when the app exits)."""
    session = _SESSIONS.pop(app, None)
    if session is not None:
        session.close()
