"""Evaluations: a person's Blobfish SDK evaluations, diagnosed (area ``E``, or "Go to
Evaluations" in the palette; offered when a Blobfish client is configured).

The list comes first (the platform's summaries); each evaluation's evidence is then read and
diagnosed in the background, filling in its taskset, failed rollouts, tool-call loops and the
share of failed tool calls. Filters: ``t`` task, ``m`` model, ``r`` reward, ``f`` failed only;
``s`` sorts (newest, most failed, most tool loops, highest failed tool share, ...). Enter opens
the evaluation's rollouts; ``x`` exports it as JSONL. ``space`` marks evaluations (1-50) and
``x`` then exports the marked ones as one file with its receipt (records, bytes, SHA-256:
``marking``); ``P`` publishes the evaluation's job, built from its evidence, confirmed and sent
once (``publishing``).
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from application.evaluations.diagnosed import list_summaries, read_diagnosed
from application.evaluations.listing import (
    REWARD_BANDS,
    SORTS,
    EvaluationFilter,
    EvaluationRow,
    choices,
    filter_rows,
    sort_rows,
)
from application.evaluations.source import EvaluationSource
from application.session.settings.timezone import screen_tz
from tui import bindings
from tui.base_screen import describe_error
from tui.screens.evaluations.exporting import export_evaluation
from tui.screens.evaluations.filter_bar import FilterBar
from tui.screens.evaluations.header import BlobfishHeaderScreen
from tui.screens.evaluations.marking import Marks, export_marked
from tui.screens.evaluations.publishing import EvaluationPublisher
from tui.screens.evaluations.tables import EvaluationTable
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

__all__ = ["EvaluationsScreen"]

REBUILD_S = 0.25
"""While the list is diagnosed, redraw the rows whose diagnosis arrived (or rebuild the list,
under a sort or filter that depends on it) at most this often. A change to one cell makes the
table draw every row on screen again (~0.1 s at 45 rows): one redraw per diagnosis, four at a
time, kept the screen slow to answer keys until the whole list was diagnosed."""

DETAIL_CONCURRENCY = 4
"""Evaluations read at once while diagnosing the list."""

NO_SOURCE = (
    "No Blobfish client is configured. `blah-tui --demo` starts a local Blobfish too; "
    "on the real platform set BLOBFISH_API_KEY."
)


def _cycle(options: list[Any], current: Any) -> Any:
    """The option after ``current`` (``None`` = all comes first and after the last)."""
    ring = [None, *options]
    try:
        return ring[(ring.index(current) + 1) % len(ring)]
    except ValueError:
        return None


PROVENANCE = "Published jobs: private, executed and graded by your SDK client; not a certified benchmark."
"""The SDK evaluations page's own words on what a published job is (and is not)."""


class EvaluationsScreen(bindings.RowAction, BlobfishHeaderScreen):
    SCREEN_TITLE = "Evaluations"

    DEFAULT_CSS = """
    EvaluationsScreen #ev-filters { height: 1; padding: 0 1; background: $panel; }
    EvaluationsScreen #ev-provenance { height: auto; padding: 0 1; color: $foreground-muted; }
    EvaluationsScreen #ev-message { height: auto; padding: 0 1; }
    EvaluationsScreen #ev-message.hidden { display: none; }
    EvaluationsScreen #ev-marks { height: auto; padding: 0 1; color: $accent; }
    EvaluationsScreen #ev-outcome { height: auto; padding: 0 1; }
    EvaluationsScreen #ev-table { height: 1fr; }
    """

    ROW_ACTION = "open"  # a chosen row (Enter, a click) does what Enter does
    BINDINGS: ClassVar[list[BindingType]] = [
        bindings.open_row("evaluations", "Rollouts", priority=True),
        Binding("t", "cycle_task", "Task", id="evaluations.task"),
        Binding("m", "cycle_model", "Model", id="evaluations.model"),
        Binding("r", "cycle_reward", "Reward", id="evaluations.reward"),
        Binding("f", "toggle_failed", "Failed only", id="evaluations.failed"),
        Binding("s", "cycle_sort", "Sort", id="evaluations.sort"),
        bindings.export("evaluations", "Export JSONL"),
        Binding("space", "mark", "Mark", id="evaluations.mark"),
        bindings.publish("evaluations"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="evaluations.reload"),
    ]

    def __init__(self, source: EvaluationSource | None = None) -> None:
        super().__init__()
        self._given_source = source
        self.rows: dict[str, EvaluationRow] = {}
        self.shown: list[EvaluationRow] = []
        self.filter = EvaluationFilter()
        self.sort = "newest"
        self._rebuild_due = False
        self._redraw_due: dict[str, EvaluationRow] = {}  # diagnosed since the last redraw
        self.set_reactive(EvaluationsScreen.blobfish_state, "connecting")  # before mount: no header yet
        self.loaded = False
        """The list has arrived (diagnosis may still be running: see ``diagnosed``)."""
        self.marks = Marks()
        """``space``: the evaluations marked for one export (1-50)."""
        self.publisher = EvaluationPublisher(self, lambda: getattr(self.source, "client", None), self._outcome)

    @property
    def source(self) -> EvaluationSource | None:
        return self._given_source or getattr(self.ctx, "blobfish", None)

    @property
    def diagnosed(self) -> int:
        return sum(row.diagnosis is not None or row.problem is not None for row in self.rows.values())

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield FilterBar(id="ev-filters", markup=False)
        yield Static(Text(PROVENANCE, style="italic"), id="ev-provenance", markup=False)
        yield Caption(Text("loading the evaluations…", style="italic"), id="ev-message")
        yield Caption(id="ev-marks", hide_when_empty=True)
        yield Caption(id="ev-outcome", hide_when_empty=True)
        narrow = 0 < self.app.size.width < EvaluationTable.NARROW_BELOW
        yield EvaluationTable(narrow=narrow, id="ev-table", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self._show_filters()
        self._show_marks()
        self.query_one("#ev-outcome", Caption).display = False  # until a publication or export says something
        if self.source is None:
            self._message(Text(NO_SOURCE), error=True)
            self.blobfish_state = "error"
            self.loaded = True
            return
        self._load()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # Blobfish errors are reported here, on this screen; blah.dev's connection state is not theirs.
        if event.worker.group.startswith("evaluations-"):
            event.prevent_default()
            if event.state is WorkerState.ERROR and event.worker.error is not None:
                self._message(Text(f"couldn't read the evaluations: {describe_error(event.worker.error)}"), error=True)
                self.blobfish_state = "error"
                self.loaded = True

    def _message(self, text: Text | None, *, error: bool = False) -> None:
        message = self.query_one("#ev-message", Caption)
        if text is None:
            message.add_class("hidden")
            return
        message.say(text, error=error)
        message.remove_class("hidden")

    # ------------------------------------------------------------------ loading

    @work(exclusive=True, group="evaluations-load")
    async def _load(self) -> None:
        source = self.source
        assert source is not None
        rows = [EvaluationRow(summary) for summary in await list_summaries(source)]
        self.rows = {row.evaluation_id: row for row in rows if row.evaluation_id}
        self.marks.keep_only(self.rows)
        self._show_marks()
        self.blobfish_state = "connected"
        self.loaded = True
        self._message(None if self.rows else Text("no evaluations published on this account yet", style="italic"))
        self._refresh_table()
        semaphore = asyncio.Semaphore(DETAIL_CONCURRENCY)
        await asyncio.gather(*(self._diagnose(row, semaphore) for row in list(self.rows.values())))

    async def _diagnose(self, row: EvaluationRow, semaphore: asyncio.Semaphore) -> None:
        source = self.source
        assert source is not None
        async with semaphore:
            try:
                ready = await read_diagnosed(source, row.evaluation_id)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                row.problem = describe_error(error)
            else:
                row.evaluation, row.diagnosis = ready.evaluation, ready.diagnosis
        try:
            self._refresh_row(row)
        except NoMatches:  # the screen was closed meanwhile
            pass

    # ------------------------------------------------------------------ the table

    def _refresh_table(self, *, keep_cursor: bool = True) -> None:
        """Rebuild the rows shown (filter and sort), keeping the cursor on the same evaluation
        (a new filter or sort puts it on the first row instead: the worst, when sorted)."""
        table = self.query_one("#ev-table", EvaluationTable)
        tz = screen_tz(self.ctx.settings)
        current = None
        if keep_cursor and self.shown and table.cursor_row < len(self.shown):
            current = self.shown[table.cursor_row].evaluation_id
        self.shown = sort_rows(filter_rows(self.rows.values(), self.filter), self.sort)
        table.clear()
        for row in self.shown:
            table.add_evaluation(row, tz, marked=row.evaluation_id in self.marks)
        if current is not None:
            index = next((i for i, row in enumerate(self.shown) if row.evaluation_id == current), 0)
            table.move_cursor(row=index, animate=False)
        self._show_filters()

    def _refresh_row(self, row: EvaluationRow) -> None:
        """A row's diagnosis arrived: redraw it in place, or re-sort/re-filter if that matters."""
        if self.sort != "newest" or self.filter != EvaluationFilter(reward=self.filter.reward):
            # Sorted or filtered by what diagnosis finds: rebuild, at most every REBUILD_S.
            if not self._rebuild_due:
                self._rebuild_due = True
                self.set_timer(REBUILD_S, self._rebuild)
            return
        if not self._redraw_due:
            self.set_timer(REBUILD_S, self._redraw_diagnosed)
        self._redraw_due[row.evaluation_id] = row
        if self.diagnosed == len(self.rows):
            self._redraw_diagnosed()  # the last one: the whole list is shown as it is now

    def _redraw_diagnosed(self) -> None:
        rows, self._redraw_due = self._redraw_due, {}
        try:
            table = self.query_one("#ev-table", EvaluationTable)
        except NoMatches:
            return  # the screen is closing
        shown = {row.evaluation_id for row in self.shown}
        tz = screen_tz(self.ctx.settings)
        for evaluation_id, row in rows.items():
            if evaluation_id in shown:
                table.update_evaluation(row, tz, marked=evaluation_id in self.marks)
        self._show_filters()

    def _rebuild(self) -> None:
        self._rebuild_due = False
        self._refresh_table()

    def _show_filters(self) -> None:
        bar = self.query_one("#ev-filters", FilterBar)
        bar.show(self.filter, self.sort, len(self.shown), len(self.rows), self.diagnosed)

    # ------------------------------------------------------------------ keys

    def _set_filter(self, **changes: Any) -> None:
        self.filter = EvaluationFilter(**{**self.filter.__dict__, **changes})
        self._refresh_table(keep_cursor=False)

    def action_cycle_task(self) -> None:
        tasks, _ = choices(self.rows.values())
        self._set_filter(task=_cycle(tasks, self.filter.task))

    def action_cycle_model(self) -> None:
        _, models = choices(self.rows.values())
        self._set_filter(model=_cycle(models, self.filter.model))

    def action_cycle_reward(self) -> None:
        bands = list(REWARD_BANDS)
        self._set_filter(reward=bands[(bands.index(self.filter.reward) + 1) % len(bands)])

    def action_toggle_failed(self) -> None:
        self._set_filter(failed_only=not self.filter.failed_only)

    def action_cycle_sort(self) -> None:
        sorts = list(SORTS)
        self.sort = sorts[(sorts.index(self.sort) + 1) % len(sorts)]
        self._refresh_table(keep_cursor=False)
        self.notify(f"sorted by {SORTS[self.sort]}", markup=False, timeout=2)

    def action_reload(self) -> None:
        if self.source is not None:
            self._load()

    def _current(self) -> EvaluationRow | None:
        table = self.query_one("#ev-table", EvaluationTable)
        if not self.shown or not 0 <= table.cursor_row < len(self.shown):
            return None
        return self.shown[table.cursor_row]

    def action_open(self) -> None:
        row = self._current()
        if row is None:
            return
        if row.evaluation is None or row.diagnosis is None:
            why = row.problem or "still being read"
            self.notify(f"this evaluation is not ready: {why}", markup=False)
            return
        from tui.screens.evaluations.rollouts import RolloutsScreen

        self.app.push_screen(RolloutsScreen(row.evaluation, row.diagnosis))

    def action_export(self) -> None:
        if len(self.marks):
            marked = [self.rows[i] for i in self.marks.ordered() if i in self.rows]
            export_marked(self, marked, self.source, self._outcome)
            return
        row = self._current()
        if row is not None and row.evaluation is not None:
            export_evaluation(self, row.evaluation)
        elif row is not None:
            self.notify("this evaluation is not ready yet", markup=False)

    # ------------------------------------------------------------------ marks, publishing

    def _outcome(self, message: str, error: bool) -> None:
        """The outcome line: the last publication's or export's answer (ids, URLs and refusals
        come from the platform: shown inert, on one line that wraps)."""
        self.query_one("#ev-outcome", Caption).say(one_line(message, max_len=2000), error=error)

    def _show_marks(self) -> None:
        self.query_one("#ev-marks", Caption).say(self.marks.line())

    def action_mark(self) -> None:
        """Mark (or unmark) the row under the cursor and move down, to mark the next."""
        row = self._current()
        if row is None:
            return
        marked = self.marks.toggle(row.evaluation_id)
        table = self.query_one("#ev-table", EvaluationTable)
        table.set_marked(row, screen_tz(self.ctx.settings), marked)
        self._show_marks()
        table.action_cursor_down()

    def action_publish(self) -> None:
        self.publisher.start(self._current())
