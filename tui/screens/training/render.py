"""How the Training sets screens show a set: its size, its row in the list, its detail."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from api_client.models import TrainingSet
from common.format import format_size as fmt_bytes
from tui.screens.webhooks.render import DASH, fmt_utc
from widgets.safe_text import one_line, one_line_text

__all__ = ["fmt_bytes", "training_set_detail", "training_set_row"]


def training_set_row(item: TrainingSet) -> tuple[Text, ...]:
    status = item.status or DASH
    style = {"ready": "bold", "pending_upload": "italic"}.get(status, "")
    return (
        one_line_text(item.name or item.id, max_len=50),
        one_line_text(status, max_len=20, style=style),
        Text(DASH if item.example_count is None else f"{item.example_count:,}", justify="right"),
        Text(fmt_bytes(item.size_bytes), justify="right"),
        Text(fmt_utc(item.created_at)),
    )


def training_set_detail(item: TrainingSet) -> Table:
    """Every field the platform gave, missing ones said as such."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    rows = (
        ("Id", one_line(item.id, max_len=80)),
        ("Name", one_line(item.name, max_len=120) or DASH),
        ("File", one_line(item.filename, max_len=120) or DASH),
        ("Status", one_line(item.status, max_len=40) or DASH),
        ("Examples", DASH if item.example_count is None else f"{item.example_count:,}"),
        ("Size", DASH if item.size_bytes is None else f"{fmt_bytes(item.size_bytes)} ({item.size_bytes:,} bytes)"),
        ("Created", fmt_utc(item.created_at)),
    )
    for label, value in rows:
        table.add_row(Text(label), Text(value))
    if item.status == "pending_upload":
        table.add_row(Text(""), Text("No file was received for this set (an upload that never finished).", style="italic"))
    return table
