"""Means with their intervals on one 0-1 axis, models that cannot be told apart drawn as one
group: the honest chart of a board (a bar per mean would draw noise as a rank).

Each line: the label, the interval drawn ``├───●───┤`` at its place on the axis, the numbers.
A model with an average only gets its dot and "(no interval)", never bars. Labels are
untrusted (model names, display names): made inert (``widgets.safe_text.sanitize``).
:func:`strip_text` is pure, so tests and other screens can use the drawing without a widget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from widgets.safe_text import sanitize

__all__ = ["IntervalStrip", "StripRow", "strip_text"]

_LABEL_MAX = 26
_NUMBERS = 18  # "0.79 [0.70–0.88]" and a space


@dataclass(frozen=True, slots=True)
class StripRow:
    label: str
    mean: float | None
    interval: tuple[float, float] | None  # None: average only, no interval
    group: str | None = None  # the heading of the group this row opens (None: same group)
    highlight: bool = False


def _place(value: float, width: int) -> int:
    return min(width - 1, max(0, round(min(max(value, 0.0), 1.0) * (width - 1))))


def _line(row: StripRow, width: int) -> Text:
    cells = [" "] * width
    if row.mean is not None:
        if row.interval is not None:
            low, high = _place(row.interval[0], width), _place(row.interval[1], width)
            for i in range(low, high + 1):
                cells[i] = "─"
            cells[low], cells[high] = "├", "┤"
        cells[_place(row.mean, width)] = "●"
    return Text("".join(cells), end="")


def strip_text(rows: Sequence[StripRow], width: int, *, accent: str = "bold") -> Text:
    """The strip ``width`` cells wide (at least 30)."""
    width = max(width, 30)
    label_width = min(
        _LABEL_MAX, max((len(sanitize(r.label, keep_newlines=False, max_len=_LABEL_MAX)) for r in rows), default=0)
    )
    axis = max(8, width - label_width - _NUMBERS - 2)
    text = Text(end="")
    for row in rows:
        if row.group is not None:
            text.append(sanitize(row.group, keep_newlines=False, max_len=width) + "\n", style="italic")
        label = sanitize(row.label, keep_newlines=False, max_len=_LABEL_MAX)
        style = accent if row.highlight else ""
        text.append(label.ljust(label_width) + " ", style=style)
        text.append_text(_line(row, axis))
        if row.mean is None:
            numbers = "no score"
        elif row.interval is None:
            numbers = f"{row.mean:.2f} (no interval)"
        else:
            numbers = f"{row.mean:.2f} [{row.interval[0]:.2f}–{row.interval[1]:.2f}]"
        text.append(" " + numbers + "\n", style=style)
    ticks = [" "] * axis
    for value, mark in ((0.0, "0"), (0.5, "0.5"), (1.0, "1")):
        start = min(axis - len(mark), _place(value, axis) - (len(mark) // 2 if value else 0))
        ticks[start : start + len(mark)] = list(mark)
    text.append(" " * (label_width + 1) + "".join(ticks), style="dim")
    return text


class IntervalStrip(Widget):
    """:func:`strip_text` drawn at the widget's width."""

    DEFAULT_CSS = """
    IntervalStrip { height: auto; padding: 0 1; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._rows: list[StripRow] = []

    def set_rows(self, rows: Sequence[StripRow]) -> None:
        self._rows = list(rows)
        self.refresh(layout=True)

    @property
    def rows(self) -> list[StripRow]:
        return list(self._rows)

    def render(self) -> Text:
        if not self._rows:
            return Text("no scores to draw", style="italic")
        accent = self.app.get_css_variables().get("accent", "bold") if self.is_attached else "bold"
        return strip_text(self._rows, self.content_size.width or 60, accent=f"bold {accent}")

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if not self._rows:
            return 1
        return len(self._rows) + sum(r.group is not None for r in self._rows) + 1
