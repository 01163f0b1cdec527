"""The form for a new webhook: URL, event types, optional shared secret. It only collects;
the Webhooks screen confirms and sends."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.widgets import Checkbox, Input, Static

from tui import bindings
from tui.screens.webhooks.listen import WEBHOOK_EVENT_TYPES
from widgets.dialog import answer_buttons
from widgets.form_dialog import FormDialog

__all__ = ["WebhookDraft", "WebhookFormScreen", "validate_draft"]

EVENT_HELP = {
    "run.completed": "a run finished",
    "run.failed": "a run failed",
    "run.stalled": "a run stopped part-way (resumable)",
    "chatroom.message": "every chatroom message (many)",
}


@dataclass(frozen=True)
class WebhookDraft:
    url: str
    event_types: tuple[str, ...]
    secret: str | None

    def __repr__(self) -> str:  # the secret is never shown
        return (
            f"WebhookDraft(url={self.url!r}, event_types={self.event_types!r}, secret={'set' if self.secret else None})"
        )


def validate_draft(url: str, event_types: list[str], secret: str) -> WebhookDraft | str:
    """The draft, or what is wrong with it (a sentence for the form)."""
    url = url.strip()
    if not url.startswith(("http://", "https://")) or len(url) <= len("https://"):
        return "The URL must start with http:// or https://"
    if any(c.isspace() for c in url):
        return "The URL must not contain spaces"
    if not event_types:
        return "Pick at least one event type"
    return WebhookDraft(url, tuple(event_types), secret or None)


class WebhookFormScreen(FormDialog[WebhookDraft]):
    """Collect a webhook; dismisses with the draft or None."""

    DEFAULT_CSS = """
    WebhookFormScreen > Vertical { width: 80; }
    WebhookFormScreen .wf-title { margin-bottom: 1; }
    WebhookFormScreen .wf-label { color: $foreground-muted; margin-top: 1; }
    WebhookFormScreen #wf-buttons { margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        bindings.cancel("webhook_form"),
        bindings.submit("webhook_form", "Create…", priority=True),
    ]
    ERROR_ID = "wf-problem"
    OK_ID = "wf-ok"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Static(Text("New webhook"), classes="wf-title dialog-title")
            yield Static(Text("URL the platform will POST events to"), classes="wf-label")
            yield Input(placeholder="https://your-host/hook", id="wf-url")
            yield Static(Text("Events"), classes="wf-label")
            for event in WEBHOOK_EVENT_TYPES:
                yield Checkbox(
                    Text(f"{event} — {EVENT_HELP.get(event, '')}"),
                    value=event == "run.completed",
                    id=f"wf-event-{event.replace('.', '-')}",
                    name=event,
                )
            yield Static(Text("Shared secret (optional: deliveries are then signed)"), classes="wf-label")
            yield Input(password=True, id="wf-secret")
            yield Static("", id="wf-problem", classes="dialog-error")
            yield answer_buttons("wf", "Create…")

    def on_mount(self) -> None:
        self.query_one("#wf-url", Input).focus()

    def request(self) -> tuple[WebhookDraft | None, str | None]:
        events = [str(box.name) for box in self.query(Checkbox) if box.value and box.name]
        draft = validate_draft(
            self.query_one("#wf-url", Input).value, events, self.query_one("#wf-secret", Input).value
        )
        return (None, draft) if isinstance(draft, str) else (draft, None)

    def action_submit(self) -> None:
        """ctrl+s: as Enter or Create…"""
        self.action_accept()
