"""A DataTable that never keeps lines painted at column widths it has since outgrown.

Textual's DataTable measures the cells of new rows on its next Idle, not in ``add_row``. A
frame painted between the two (the screen refreshes on its own schedule: a load that fills
the table from a worker and moves the cursor, a second load superseding the first) draws the
rows at the widths of that moment (only the labels' on a table's first fill) and caches those
lines. The measurement widens the columns but changes nothing the line cache is keyed on, so
the table kept showing cut-off cells until something else redrew it (a resize, a cursor move):
Textual issue #3533. Here the table drops its rendered lines whenever its measured width
changes, so the next frame draws the rows as their data wants.
"""

from __future__ import annotations

from typing import Any

from textual.geometry import Size
from textual.widgets import DataTable

__all__ = ["FittedTable"]


class FittedTable(DataTable[Any]):
    """DataTable whose painted lines follow its measured column widths."""

    def watch_virtual_size(self, old: Size, new: Size) -> None:
        if new.width != old.width:
            # The public way to make DataTable drop every cached line and cell and repaint.
            self.notify_style_update()
