"""How the Training sets screen shows the sets: the list (one row a set, newest first; the
cursor stays on its set across a reload) and one set in full (every field the platform gave,
a missing one said as such)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from api_client.blahdev.shapes import TrainingSet
from common.format import DASH, format_size, format_utc
from widgets.key_table import KeyTable
from widgets.safe_text import one_line, one_line_text

__all__ = ["COLUMNS", "TrainingSetDetail", "TrainingSetTable", "training_set_detail", "training_set_row"]

COLUMNS = (
    ("Name", "name"),
    ("Status", "status"),
    ("Examples", "examples"),
    ("Size", "size"),
    ("Created (UTC)", "created"),
)


def training_set_row(item: TrainingSet) -> tuple[Text, ...]:
    status = item.status or DASH
    style = {"ready": "bold", "pending_upload": "italic"}.get(status, "")
    return (
        one_line_text(item.name or item.id, max_len=50),
        one_line_text(status, max_len=20, style=style),
        Text(DASH if item.example_count is None else f"{item.example_count:,}", justify="right"),
        Text(format_size(item.size_bytes), justify="right"),
        Text(format_utc(item.created_at)),
    )


class TrainingSetTable(KeyTable):
    """Every training set on the platform; a row's key is the set's id."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        for label, key in COLUMNS:
            self.add_column(label, key=key)

    def show(self, sets: Sequence[TrainingSet], select: str | None = None) -> None:
        """Fill the list, the cursor on ``select`` or else on the set it was on."""
        keep = select or self.current_key
        self.clear()
        for item in sets:
            self.add_row(*training_set_row(item), key=item.id)
        self.move_to_key(keep)


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
        ("Size", DASH if item.size_bytes is None else f"{format_size(item.size_bytes)} ({item.size_bytes:,} bytes)"),
        ("Created", format_utc(item.created_at)),
    )
    for label, value in rows:
        table.add_row(Text(label), Text(value))
    if item.status == "pending_upload":
        table.add_row(
            Text(""), Text("No file was received for this set (an upload that never finished).", style="italic")
        )
    return table


class TrainingSetDetail(Static):
    """The highlighted set (or why it could not be loaded)."""

    def show(self, item: TrainingSet) -> None:
        self.update(training_set_detail(item))

    def show_problem(self, text: str) -> None:
        self.update(Text(text))
