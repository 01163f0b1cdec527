"""The Webhooks screen's two lists: your webhooks on the platform (the one this app listens
on marked), and the deliveries its local receiver has verified, newest first."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import DataTable

from api_client.blahdev.shapes import Webhook
from application.webhooks.receiver import WebhookDelivery
from common.format import DASH, format_utc
from tui.screens.webhooks.events import delivery_summary
from widgets.key_table import KeyTable
from widgets.safe_text import one_line, one_line_text

__all__ = ["ReceivedTable", "WebhookTable", "delivery_row", "webhook_row"]

COLUMNS = (("Id", "id"), ("URL", "url"), ("Events", "events"), ("Created (UTC)", "created"), ("", "here"))
RECEIVED_COLUMNS = ("Received (UTC)", "Event", "What")


def _when(value: int | str | None) -> str:
    """A platform time in UTC; a string (an older service's) as sent."""
    if isinstance(value, str):
        return one_line(value, max_len=40) or DASH
    return format_utc(value)


def webhook_row(hook: Webhook, listening_id: str | None) -> tuple[Text, ...]:
    events = ", ".join(hook.event_types) if hook.event_types else ""
    here = Text("← this app listens here", style="bold") if hook.id == listening_id else Text("")
    return (
        one_line_text(hook.id, max_len=40),
        one_line_text(hook.url, max_len=70),
        one_line_text(events, max_len=60) if events else Text("none listed", style="italic"),
        Text(_when(hook.created_at)),
        here,
    )


def delivery_row(delivery: WebhookDelivery) -> tuple[Text, ...]:
    return (
        Text(_when(delivery.received_at_ms)),
        one_line_text(delivery.event, max_len=30),
        Text(delivery_summary(delivery)),
    )


class WebhookTable(KeyTable):
    """Your webhooks; a row's key is the webhook's id."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        for label, key in COLUMNS:
            self.add_column(label, key=key)

    def show(self, hooks: Sequence[Webhook], listening_id: str | None, select: str | None = None) -> None:
        """Fill the list, the cursor on ``select`` or else on the webhook it was on."""
        keep = select or self.current_key
        self.clear()
        for hook in hooks:
            self.add_row(*webhook_row(hook, listening_id), key=hook.id)
        self.move_to_key(keep)


class ReceivedTable(DataTable[Text]):
    """What reached the local receiver, verified, newest first."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.add_columns(*RECEIVED_COLUMNS)

    def show(self, deliveries: Sequence[WebhookDelivery]) -> None:
        """``deliveries`` oldest first, as the receiver keeps them."""
        self.clear()
        for delivery in reversed(deliveries):
            self.add_row(*delivery_row(delivery))
