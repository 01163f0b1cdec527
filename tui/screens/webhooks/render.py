"""Pure rendering for the Webhooks screen (rows, the listener line) and the one wording of a
failed write, shared with the Training sets screens."""

from __future__ import annotations

from rich.text import Text

from api_client.errors import (
    AuthError,
    BadRequestError,
    BlahError,
    ConflictError,
    MissingKeyError,
    OutcomeUnknownError,
)
from api_client.models import Webhook
from common.format import DASH
from tui.base_screen import describe_error
from tui.screens.runs.format import fmt_time as fmt_utc
from application.webhooks.receiver import WebhookDelivery
from widgets.safe_text import one_line, one_line_text

__all__ = [
    "DASH",
    "delivery_row",
    "fmt_utc",
    "listener_text",
    "webhook_row",
    "write_problem",
]

def webhook_row(hook: Webhook, listening_id: str | None) -> tuple[Text, ...]:
    events = ", ".join(hook.event_types) if hook.event_types else ""
    here = Text("← this app listens here", style="bold") if hook.id == listening_id else Text("")
    return (
        one_line_text(hook.id, max_len=40),
        one_line_text(hook.url, max_len=70),
        one_line_text(events, max_len=60) if events else Text("none listed", style="italic"),
        Text(fmt_utc(hook.created_at)),
        here,
    )


def delivery_row(delivery: WebhookDelivery) -> tuple[Text, ...]:
    from tui.screens.webhooks.events import delivery_summary

    return (
        Text(fmt_utc(delivery.received_at_ms)),
        one_line_text(delivery.event, max_len=30),
        Text(delivery_summary(delivery)),
    )


def listener_text(
    url: str | None,
    webhook_id: str | None,
    events: list[str],
    accepted: int,
    rejected: int,
) -> Text:
    """The listener line: where it listens and what it has seen, or how to start it."""
    if url is None:
        return Text(
            "Not listening. l starts a receiver on this machine (loopback only) and registers a "
            "webhook pointing at it, so the end of a run reaches you at once.",
            style="italic",
            end="",
        )
    text = Text(end="")
    text.append("● listening ", style="bold")
    text.append(one_line(url, max_len=80))
    text.append(f" · webhook {one_line(webhook_id or DASH, max_len=40)}")
    text.append(f" · {', '.join(events) or DASH}")
    text.append(f" · {accepted} received, {rejected} refused (bad signature or request)")
    text.append(" · l stops", style="italic")
    return text


def write_problem(error: BaseException, what: str) -> str:
    """What a failed write means, in a sentence (``what``: e.g. "creating a webhook")."""
    if isinstance(error, MissingKeyError):
        return f"{what.capitalize()} needs an API key: nothing was sent."
    if isinstance(error, AuthError):
        if error.status == 403:
            return f"The platform refused {what}: this needs council tier."
        return f"The platform refused the key for {what}."
    if isinstance(error, OutcomeUnknownError):
        return f"The request for {what} timed out: outcome unknown."
    if isinstance(error, ConflictError):
        return f"The platform refused {what} in the current state: {describe_error(error)}"
    if isinstance(error, BadRequestError):
        return f"The platform rejected {what}: {describe_error(error)}"
    if isinstance(error, BlahError):
        return f"{what.capitalize()} failed: {describe_error(error)}"
    return f"{what.capitalize()} failed: {describe_error(error)}"
