"""The Playground's Chat tab: the conversation so far (the person's turns and the model's
replies, inert), the queued job's state, and the box to write the next turn. Enter asks the
screen to send (``ChatPane.Send``); the screen runs the turn and tells the pane what came of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Input, Static, TabPane

from api_client.blahdev.shapes import ChatJob
from widgets.safe_text import one_line_text, safe_text

__all__ = ["ChatPane", "job_status_text", "transcript_text"]


def job_status_text(job: ChatJob | None, *, next_poll_s: float | None, error: str | None = None) -> Text:
    if error is not None:
        text = Text(f"couldn't poll the job: {error}", end="")
        if next_poll_s is not None:  # a transient error: the poller tries again
            text.append(f" · retrying in {next_poll_s:.1f} s", style="dim")
        return text
    if job is None:
        return Text("", end="")
    text = Text("job ", end="")
    text.append_text(one_line_text(job.id, max_len=40))
    text.append(f" · {job.status or 'unknown status'}")
    if next_poll_s is not None:
        text.append(f" · checking again in {next_poll_s:.1f} s", style="dim")
    return text


def transcript_text(messages: Sequence[dict[str, str]], *, pending: bool) -> Text:
    """The chat so far: the person's turns and the model's replies, inert."""
    text = Text(end="")
    if not messages:
        text.append("Start a conversation: type below and press Enter.", style="dim italic")
        return text
    for index, message in enumerate(messages):
        if index:
            text.append("\n\n")
        role = message.get("role", "?")
        text.append("you" if role == "user" else "model" if role == "assistant" else role, style="bold")
        text.append("\n")
        content = message.get("content")
        text.append_text(safe_text(content) if content else Text("(empty)", style="dim italic"))
    if pending:
        text.append("\n\nmodel\n", style="bold")
        text.append("… waiting for the queued job", style="dim italic")
    return text


class ChatPane(TabPane):
    """The transcript (``#chat-log``), the job line (``#chat-job``) and the box (``#chat-input``).
    The pane keeps the conversation; ``pending`` is True while a turn is in flight."""

    DEFAULT_CSS = """
    ChatPane #chat-transcript { height: 1fr; border: round $panel; }
    ChatPane #chat-job { height: 1; padding: 0 1; color: $foreground-muted; }
    """

    @dataclass
    class Send(Message):
        """The person wrote this (not blank) and pressed Enter, no turn being in flight."""

        content: str

    def __init__(self, title: str = "Chat", *, id: str | None = None) -> None:
        super().__init__(title, id=id)
        self.messages: list[dict[str, str]] = []
        self.pending = False

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="chat-transcript"):
            yield Static(transcript_text([], pending=False), id="chat-log")
        yield Static(Text("", end=""), id="chat-job")
        yield Input(
            id="chat-input", placeholder="Your message… (Enter sends the whole conversation)", select_on_focus=False
        )

    @on(Input.Submitted, "#chat-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        content = event.value.strip()
        if content and not self.pending:
            self.post_message(self.Send(content))

    def begin_turn(self, content: str) -> list[dict[str, str]]:
        """Take the person's turn out of the box into the transcript; returns a copy of the
        whole conversation, to send."""
        self.query_one("#chat-input", Input).value = ""
        self.pending = True
        self.messages.append({"role": "user", "content": content})
        self.refresh_transcript()
        return [dict(m) for m in self.messages]

    def add_reply(self, content: str) -> None:
        self.messages.append({"role": "assistant", "content": content})

    def drop_last(self) -> None:
        """Take back the last turn (the platform refused to start it)."""
        self.messages.pop()

    def end_turn(self) -> None:
        self.pending = False
        self.refresh_transcript()

    def clear(self) -> None:
        """Start over: an empty conversation."""
        self.messages = []
        self.refresh_transcript()

    def refresh_transcript(self) -> None:
        self.query_one("#chat-log", Static).update(transcript_text(self.messages, pending=self.pending))
        self.query_one("#chat-transcript", VerticalScroll).scroll_end(animate=False)

    def show_job(self, job: ChatJob | None, *, next_poll_s: float | None, error: str | None = None) -> None:
        self.query_one("#chat-job", Static).update(job_status_text(job, next_poll_s=next_poll_s, error=error))

    def show_job_note(self, text: Text) -> None:
        self.query_one("#chat-job", Static).update(text)
