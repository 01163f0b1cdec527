"""Where a call came from, opened from the Inspector: the eval, the run, the judged result
and the chatroom message, each fetched from the platform and shown in a modal.

``DetailsModal`` shows any renderable (built from sanitized ``Text``) and closes on Esc/q.
The ``*_details`` functions turn one resource into that renderable (pure, testable).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from api_client.blahdev.shapes import ChatroomMessageDetail, Eval, Result, Run
from common.records import Call
from tui.screens.inspector.panels import DASH, format_timestamp, result_renderable
from widgets.safe_text import one_line, safe_text

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = [
    "DetailsModal",
    "eval_details",
    "link_target",
    "load_link",
    "message_details",
    "result_details",
    "run_details",
]

LINK_FIELDS = {"eval": "eval_id", "run": "run_id", "result": "result_id", "message": "message_id"}


def link_target(entry: Call, which: str) -> str | None:
    """The id the call records for ``which`` (eval, run, result, message), or None."""
    field = LINK_FIELDS.get(which)
    return None if field is None else getattr(entry, field, None)


async def load_link(
    client: BlahClient, which: str, target: str, *, known_result: Result | None = None
) -> RenderableType:
    """Fetch one linked resource and build what the modal shows (raises BlahError)."""
    if which == "eval":
        return eval_details(await client.get_eval(target))
    if which == "run":
        return run_details(await client.get_run(target))
    if which == "result":
        result = known_result if known_result is not None and known_result.id == target else None
        return result_details(result or await client.get_result(target))
    return message_details(await client.chatroom_message(target))


def _grid(rows: list[tuple[str, Text]]) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="dim", no_wrap=True)
    table.add_column()
    for label, value in rows:
        table.add_row(Text(label), value)
    return table


def _opt(value: object) -> Text:
    if value is None:
        return Text(DASH, style="dim")
    return Text(one_line(str(value), max_len=200))


def eval_details(item: Eval) -> RenderableType:
    head = _grid(
        [
            ("id", _opt(item.id)),
            ("name", _opt(item.name)),
            ("type", _opt(item.eval_type)),
            ("subject", _opt(item.subject)),
            ("instruction", _opt(item.instruction_type)),
        ]
    )
    parts: list[RenderableType] = [head]
    for label, value in (
        ("description", item.description),
        ("prompt", item.prompt),
        ("expected behaviour", item.expected_behavior),
        ("criteria", item.eval_criteria),
    ):
        parts.append(Text(f"\n{label}", style="bold"))
        parts.append(safe_text(value) if value else Text(DASH, style="dim"))
    return Group(*parts)


def run_details(run: Run) -> RenderableType:
    total = run.total_items
    done = run.completed_count
    progress = DASH if total is None or done is None else f"{done:,} of {total:,}"
    started = format_timestamp(run.started_at) if isinstance(run.started_at, int) else run.started_at
    ended = format_timestamp(run.completed_at) if isinstance(run.completed_at, int) else run.completed_at
    return _grid(
        [
            ("id", _opt(run.id)),
            ("status", _opt(run.status)),
            ("progress", Text(progress)),
            ("started", _opt(started)),
            ("ended", _opt(ended)),
            ("models", _opt(", ".join(run.model_ids) if run.model_ids else None)),
            ("error", safe_text(run.error) if run.error else Text(DASH, style="dim")),
        ]
    )


def message_details(message: ChatroomMessageDetail) -> RenderableType:
    head = _grid(
        [
            ("id", _opt(message.id)),
            ("author", _opt(message.author_name or message.model_id)),
            ("kind", _opt(message.author_kind)),
            ("posted", Text(format_timestamp(message.created_at))),
            ("reply to", _opt(message.reply_to)),
            ("log", _opt(message.log_id)),
        ]
    )
    body = safe_text(message.content) if message.content is not None else Text(DASH, style="dim")
    return Group(head, Text("\nmessage", style="bold"), body)


def result_details(result: Result) -> RenderableType:
    raw = safe_text(result.raw_data) if result.raw_data else Text(DASH, style="dim")
    reply = safe_text(result.response) if result.response is not None else Text(DASH, style="dim")
    return Group(
        result_renderable(result),
        Text("\nreply the judge saw", style="bold"),
        reply,
        Text("\nraw exchange", style="bold"),
        raw,
    )


class DetailsModal(ModalScreen[None]):
    """A scrollable panel over the Inspector; Esc or q closes it."""

    DEFAULT_CSS = """
    DetailsModal { align: center middle; }
    DetailsModal > #details-box {
        width: 90%;
        height: 85%;
        border: thick $primary;
        background: $surface;
        padding: 0 1;
    }
    DetailsModal #details-title { text-style: bold; height: auto; margin-bottom: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close", id="details.close")]

    def __init__(self, title: Text, body: RenderableType) -> None:
        super().__init__()
        self._title = title
        self._body = body

    def compose(self) -> ComposeResult:
        with Vertical(id="details-box"):
            yield Static(self._title, id="details-title", markup=False)
            with VerticalScroll(id="details-scroll"):
                yield Static(self._body, id="details-body", markup=False)

    def on_mount(self) -> None:
        self.query_one("#details-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
