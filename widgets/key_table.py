"""A row-cursor DataTable with vim keys, used by the runs/results/leaderboard/compare/health screens."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.binding import Binding

from widgets.fitted_table import FittedTable
from widgets.keys import vim_cursor


class KeyTable(FittedTable):
    """DataTable in row mode with ``j``/``k``/``g``/``G`` beside the arrows and Home/End."""

    BINDINGS = [
        *vim_cursor("table"),
        Binding("g", "scroll_top", "Top", show=False, id="table.top"),
        Binding("G", "scroll_bottom", "Bottom", show=False, id="table.bottom"),
    ]

    def __init__(
        self,
        *,
        id: str | None = None,
        classes: str | None = None,
        columns: Iterable[tuple[str | Text, str]] = (),
    ) -> None:
        """``columns``: ``(label, key)`` of the columns to start with."""
        super().__init__(id=id, classes=classes, cursor_type="row", zebra_stripes=True)
        self.add_keyed_columns(columns)

    def add_keyed_columns(self, columns: Iterable[tuple[str | Text, str]]) -> None:
        """Add a column for each ``(label, key)``, in order."""
        for label, key in columns:
            self.add_column(label, key=key)

    def set_columns(self, columns: Iterable[tuple[str | Text, str]]) -> None:
        """Empty the table (rows and columns) and give it these ``(label, key)`` columns."""
        self.clear(columns=True)
        self.add_keyed_columns(columns)

    @property
    def current_key(self) -> str | None:
        """The key of the row under the cursor (the value given as ``key=`` to ``add_row``)."""
        if self.row_count == 0:
            return None
        try:
            row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        except Exception:
            return None
        return row_key.value

    def move_to_key(self, key: str | None) -> None:
        """Put the cursor back on the row with ``key`` (after a reload), if it still exists."""
        if key is None:
            return
        try:
            index = self.get_row_index(key)
        except Exception:
            return
        self.move_cursor(row=index, animate=False)
