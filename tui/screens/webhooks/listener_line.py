"""The Webhooks screen's listener line: where this app listens and what it has seen, or how
to start listening."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from common.format import DASH
from widgets.safe_text import one_line

__all__ = ["ListenerLine", "listener_text"]


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


class ListenerLine(Static):
    """One line under the status: the local receiver's state."""

    def show(self, url: str | None, webhook_id: str | None, events: list[str], accepted: int, rejected: int) -> None:
        self.update(listener_text(url, webhook_id, events, accepted, rejected))
