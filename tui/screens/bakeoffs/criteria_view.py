"""Criteria (``i`` in the bake-off view): the workspace's saved judges and whether to trust
them. Top: each criterion's trust, TPR and TNR with their intervals, kappa, labels and drift,
with the app's own reading when the judge is near chance or never measured. Below: the
highlighted criterion's alignment report, every disagreement verbatim (inert). ``a`` aligns it
again: confirmed (it spends one judge call per label), sent once, then polled while the
queue says "in progress"; the report replaces the old one when it lands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from api_client.errors import BlahError
from application.bakeoffs.criteria import (
    AlignProgress,
    CriterionRow,
    align_and_wait,
    align_confirmation,
    alignment_lines,
    criterion_row,
    in_progress,
)
from common.format import DASH, plural
from common.safe_strings import one_line
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.platform_work import platform_work
from tui.send_once import SendOnce
from widgets.footer import KeyFooter
from widgets.key_table import KeyTable
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from api_client.errorbar.client import ErrorbarClient

__all__ = ["CriteriaScreen", "criterion_detail"]

POLL_S = 1.0


def _rate(value: float | None) -> str:
    return DASH if value is None else f"{value:.3f}"


def _ci(value: tuple[float, float] | None) -> str:
    return "" if value is None else f" [{value[0]:.2f}, {value[1]:.2f}]"


def criterion_detail(row: CriterionRow, report: assumed.Alignment | None, state: str | None) -> Text:
    text = Text(f"{one_line(row.name or row.id, 60)}", style="bold")
    text.append(f" · {one_line(row.id, 40)} · judge {one_line(row.judge_model or DASH, 40)}")
    if row.reading:
        text.append("\nthe app's reading: ", style="bold")
        text.append(one_line(row.reading, 300), style="yellow")
    text.append("\n\n")
    if report is None:
        text.append(one_line(state or "loading the alignment report…", 300), style="dim")
    else:
        for line in alignment_lines(report):
            text.append(one_line(line, 600) + "\n")
    text.append("\na aligns it again (spends one judge call per label)", style="dim")
    return text


class CriteriaScreen(BlahScreen):
    SCREEN_TITLE = "Criteria"
    DEFAULT_CSS = """
    CriteriaScreen #criteria-caption { height: auto; padding: 0 1; }
    CriteriaScreen #criteria-table { height: auto; max-height: 10; }
    CriteriaScreen #criteria-detail-scroll { height: 1fr; }
    CriteriaScreen #criteria-detail { height: auto; padding: 0 1; }
    """
    BINDINGS = [
        bindings.back("criteria"),
        Binding("a", "align", "Align (spends)", id="criteria.align"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.criteria: list[assumed.Criterion] = []
        self.reports: dict[str, assumed.Alignment | None] = {}
        self.states: dict[str, str] = {}
        self._aligns: dict[str, SendOnce] = {}
        """One align per criterion at a time, one POST per confirmation (``tui.send_once``)."""
        self.detail_text = Text()

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text("loading the criteria…"), id="criteria-caption")
        yield KeyTable(id="criteria-table")
        with VerticalScroll(id="criteria-detail-scroll"):
            yield Static(Text(""), id="criteria-detail")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.load()

    @platform_work(
        "errorbar", exclusive=True, group="criteria.list", offline=("criteria-caption", "errorbar is not configured")
    )
    async def load(self, client: ErrorbarClient) -> None:
        caption = self.query_one("#criteria-caption", Static)
        try:
            self.criteria = await client.criteria()
        except BlahError as error:
            caption.update(Text(f"couldn't list the criteria: {describe_error(error)}"))
            return
        caption.update(
            Text(
                f"{plural(len(self.criteria), 'criterion', 'criteria')} · the queue's trust, and the app's own reading"
            )
        )
        table = self.query_one("#criteria-table", KeyTable)
        keep = table.current_key
        table.set_columns(
            (
                ("Criterion", "name"),
                ("Reading", "reading"),
                ("Trust", "trust"),
                ("TPR", "tpr"),
                ("TNR", "tnr"),
                ("Kappa", "kappa"),
                ("Labels", "labels"),
                ("Drift", "drift"),
            )
        )
        for criterion in self.criteria:
            row = criterion_row(criterion)
            reading = Text(
                "says nothing"
                if row.reading and "says nothing" in row.reading
                else ("unmeasured" if row.reading else "usable"),
                style="bold red"
                if row.reading and "says nothing" in row.reading
                else ("yellow" if row.reading else "green"),
            )
            table.add_row(
                one_line(row.name or row.id, 28),
                reading,
                one_line(row.trust or DASH, 14),
                _rate(row.tpr) + _ci(row.tpr_ci),
                _rate(row.tnr) + _ci(row.tnr_ci),
                _rate(row.kappa),
                str(row.labels) if row.labels is not None else DASH,
                one_line(row.drift, 24),
                key=criterion.id,
            )
        if self.criteria:
            shown = keep if keep is not None and any(c.id == keep for c in self.criteria) else self.criteria[0].id
            table.move_to_key(shown)
            self.show(shown)

    def _current(self) -> assumed.Criterion | None:
        key = self.query_one("#criteria-table", KeyTable).current_key
        return next((c for c in self.criteria if c.id == key), None)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value is not None:
            self.show(event.row_key.value)

    def show(self, criterion_id: str) -> None:
        criterion = next((c for c in self.criteria if c.id == criterion_id), None)
        if criterion is None:
            return
        if criterion_id not in self.reports and criterion_id not in self.aligning:
            self.reports[criterion_id] = None
            self.load_report(criterion_id)
        self.draw(criterion)

    def draw(self, criterion: assumed.Criterion) -> None:
        self.detail_text = criterion_detail(
            criterion_row(criterion), self.reports.get(criterion.id), self.states.get(criterion.id)
        )
        self.query_one("#criteria-detail", Static).update(self.detail_text)

    @platform_work("errorbar", group="criteria.report")
    async def load_report(self, client: ErrorbarClient, criterion_id: str) -> None:
        try:
            self.reports[criterion_id] = await client.alignment(criterion_id)
        except BlahError as error:
            judged = in_progress(error)
            self.states[criterion_id] = (
                f"alignment in progress: {judged} labels judged so far"
                if judged is not None
                else f"no alignment report: {describe_error(error)}"
            )
        self._redraw(criterion_id)

    def _redraw(self, criterion_id: str) -> None:
        current = self._current()
        if current is not None and current.id == criterion_id:
            self.draw(current)

    @property
    def aligning(self) -> set[str]:
        """The criteria whose align is being asked or is in flight."""
        return {criterion_id for criterion_id, write in self._aligns.items() if write.busy}

    def action_align(self) -> None:
        criterion = self._current()
        if criterion is None or self.ctx.errorbar is None:
            return
        write = self._aligns.setdefault(
            criterion.id, SendOnce(self, group="criteria.align", busy_note=f"{criterion.id} is already being aligned")
        )
        write.start(lambda: self._align_flow(write, criterion))

    async def _align_flow(self, write: SendOnce, criterion: assumed.Criterion) -> None:
        if await write.confirm("Align this criterion?", Text(align_confirmation(criterion)), label="Align (spends)"):
            await write.send(lambda: self.align(criterion.id))

    async def align(self, criterion_id: str) -> None:
        client = self.ctx.errorbar
        if client is None:
            return

        def progress(state: AlignProgress) -> None:
            total = f" of {state.total}" if state.total else ""
            self.states[criterion_id] = f"alignment in progress: {state.judged}{total} labels judged so far"
            self.reports[criterion_id] = None
            self._redraw(criterion_id)

        try:
            report = await align_and_wait(
                client, criterion_id, sleep=self._sleep, on_progress=progress, interval=POLL_S
            )
            self.criteria = [await client.criterion(criterion_id) if c.id == criterion_id else c for c in self.criteria]
        except (BlahError, TimeoutError) as error:
            message = describe_error(error) if isinstance(error, BlahError) else str(error)
            self.notify(f"align {criterion_id}: {message}", severity="error", markup=False)
            self.states[criterion_id] = f"align did not finish: {message}"
            self._redraw(criterion_id)
            return
        self.reports[criterion_id] = report
        self.notify(f"{criterion_id} aligned", markup=False)
        self.load()

    async def _sleep(self, seconds: float) -> None:
        import asyncio

        await asyncio.sleep(seconds)
