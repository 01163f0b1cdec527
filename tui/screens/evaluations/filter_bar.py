"""The line above the evaluations list: each filter and the sort with the key that changes it,
how many rows are shown of how many, and how far the diagnosis has got."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from application.evaluations.listing import REWARD_BANDS, SORTS, EvaluationFilter
from widgets.safe_text import one_line

__all__ = ["FilterBar", "filter_bar"]


def filter_bar(how: EvaluationFilter, sort: str, shown: int, total: int, diagnosed: int) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    parts = [
        ("t", "task", how.task or "all"),
        ("m", "model", how.model or "all"),
        ("r", "", REWARD_BANDS[how.reward]),
        ("f", "", "failed only" if how.failed_only else "all outcomes"),
        ("s", "sort", SORTS[sort]),
    ]
    for index, (key, label, value) in enumerate(parts):
        if index:
            text.append("  ")
        text.append(f"{key} ", style="bold")
        if label:
            text.append(f"{label} ", style="dim")
        text.append(one_line(value, max_len=40))
    text.append(f"   {shown} of {total}", style="dim")
    if diagnosed < total:
        text.append(f" · diagnosing {diagnosed}/{total}", style="italic")
    return text


class FilterBar(Static):
    """The filters, the sort and the counts of the evaluations list."""

    def show(self, how: EvaluationFilter, sort: str, shown: int, total: int, diagnosed: int) -> None:
        self.update(filter_bar(how, sort, shown, total, diagnosed))
