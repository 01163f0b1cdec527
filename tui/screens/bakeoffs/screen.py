"""Bake-offs (``o`` in Compare): runs of the errorbar eval-run queue, one at a time.

Top: the runs (status chip; a running one shows its progress and an ETA, polled until it
ends). Middle, in one scroll pane, the run read as panels, the answer first: its head line, the
verdict ("Switch? …"), its results as the platform sent them (per candidate: wins,
ties and losses as a bar, the win rate's interval against the 50% line, failed, unreportable,
truncated, latency, cost, savings, the orderings' disagreement and position bias; for a
criterion run: observed and corrected pass rates on one axis with the frozen judge's figures),
the gate panel (the queue's own gate; ``t`` steps the threshold), the calibration, the app's own
reading and a comparison; each panel is one key away (``panels.PanelKeys``). Bottom: the
samples, losses first; Enter opens one in the Inspector. ``x`` marks a finished run "before",
then ``x`` on another finished run compares them (``/v1/evals/compare``).
Rows and sentences come from ``application.bakeoffs``; the panels are drawn by ``detail.detail_texts``
in ``detail.RunPanel``s.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable

from api_client.errors import BlahError
from application.bakeoffs.assertions import failed_assertions
from application.bakeoffs.calls import SampleCalls
from application.bakeoffs.gate import gate_thresholds
from application.bakeoffs.progress import RunProgress
from application.bakeoffs.readings import SwitchReadings
from application.bakeoffs.samples import SampleRow, sample_rows
from application.bakeoffs.words import baseline_text, kind_text, model_text
from common.format import plural
from common.safe_strings import one_line as one
from diagnosis.text import user_text
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.cell_format import DASH, cell
from tui.platform_work import platform_work
from tui.reload import Reload, retry_note
from tui.screens.bakeoffs.detail import RunPanel, detail_texts
from tui.screens.bakeoffs.labels import VERDICT_CELL, LabelActions
from tui.screens.bakeoffs.panels import PANELS, PanelKeys
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.key_table import KeyTable
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from api_client.errorbar.client import ErrorbarClient

__all__ = ["GATE_THRESHOLDS", "NOT_CONFIGURED", "BakeoffScreen"]

NOT_CONFIGURED = (
    "errorbar is not configured: add an errorbar profile (blah-tui profiles add) or set "
    "$ERRORBAR_API_KEY with a profile's address; --demo runs a local queue"
)
GATE_THRESHOLDS = (0.30, 0.40, 0.50, 0.55, 0.60, 0.70, 0.80)
"""The gate's minimum rate, stepped with ``t`` (from 0.50); the CLI takes any value."""
POLL_S = 1.0
_CHIP = {"DONE": "green", "RUNNING": "yellow", "PENDING": "yellow", "ERROR": "red", "CANCELLED": "dim"}


class BakeoffScreen(PanelKeys, LabelActions, BlahScreen):
    """The errorbar queue's bake-offs: pick one, read it, gate it, open its losses."""

    SCREEN_TITLE = "Bake-offs"
    DEFAULT_CSS = """
    BakeoffScreen #bakeoff-caption { height: auto; padding: 0 1; }
    BakeoffScreen #bakeoff-runs { height: auto; max-height: 8; }
    BakeoffScreen #bakeoff-detail-scroll { height: 1fr; border-left: blank; }
    BakeoffScreen #bakeoff-detail-scroll:focus { border-left: tall $accent; background-tint: $foreground 4%; }
    BakeoffScreen #bakeoff-detail-scroll > RunPanel { height: auto; padding: 0 1 0 0; margin-bottom: 1; }
    BakeoffScreen #bakeoff-detail-scroll > #bakeoff-head { margin-bottom: 0; }
    BakeoffScreen #bakeoff-samples { height: 1fr; }
    """

    BINDINGS = [
        bindings.back("bakeoffs"),
        *PanelKeys.PANEL_BINDINGS,
        Binding("t", "gate_threshold", "Gate threshold", id="bakeoffs.gate"),
        Binding("x", "compare", "Compare runs", id="bakeoffs.compare"),
        Binding("X", "swap", "Swap before/after", id="bakeoffs.swap"),
        Binding("s", "samples", "Samples", id="bakeoffs.samples"),
        bindings.refresh("bakeoffs"),
        *LabelActions.LABEL_BINDINGS,
    ]

    def __init__(self, select_id: str | None = None) -> None:
        """``select_id``: the run to read first (the run watch opens its results so); the
        newest when absent or not listed."""
        super().__init__()
        self.select_id = select_id
        self.runs: list[assumed.Run] = []
        self.run: assumed.Run | None = None
        self.rows: list[SampleRow] = []
        self.samples: list[assumed.Sample] = []
        self.threshold_index = GATE_THRESHOLDS.index(0.50)
        self.gate: tuple[int, Any] | None = None
        self.before_id: str | None = None
        self.comparison: assumed.Comparison | None = None
        self.progress: dict[str, RunProgress] = {}
        self.detail_text = Text()
        self._pairwise: Any = None
        self.readings: SwitchReadings | None = None
        self._reload = Reload(self, self._poll, interval=POLL_S, max_interval=15.0)  # no idle: ended runs stay

    @property
    def threshold(self) -> float:
        return GATE_THRESHOLDS[self.threshold_index]

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Caption("loading the bake-offs…", id="bakeoff-caption")
        yield KeyTable(id="bakeoff-runs")
        with VerticalScroll(id="bakeoff-detail-scroll"):
            # the answer first: which run, then "Switch? …" unscrolled at 80x24, then what it
            # rests on (the panels.PANELS order)
            for widget_id in ("bakeoff-head", *(spec.widget_id for spec in PANELS)):
                yield RunPanel(id=widget_id)
        yield KeyTable(id="bakeoff-samples")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.load_runs()

    # ----------------------------------------------------------------- loading

    def _caption(self, text: str, *, error: bool = False) -> None:
        self.query_one("#bakeoff-caption", Caption).say(one(text, 400), error=error)

    @work(exclusive=True, group="bakeoffs.runs", exit_on_error=False)
    async def load_runs(self) -> None:
        client = self.ctx.errorbar
        if client is None:
            self._caption(self.ctx.errorbar_problem or NOT_CONFIGURED)
            return
        try:
            self.runs = await client.list_runs()
        except BlahError as error:
            delay = self._reload.after_error(error)
            self._caption(f"couldn't list the bake-offs: {describe_error(error)} · {retry_note(delay)}", error=True)
            return
        now = time.monotonic()
        for run in self.runs:
            self.progress.setdefault(run.id, RunProgress(run.id)).add(now, run.progress_ratio)
        self._show_runs()
        self._reload.after_read(active=self._moving())
        if not self.runs:
            self._caption("the queue has no bake-offs yet (blah-tui bakeoff create queues one)")
            return
        self._caption(f"{plural(len(self.runs), 'bake-off')} · Enter reads one · x marks two finished runs to compare")
        if self.run is None:
            wanted = self.select_id
            first = wanted if wanted is not None and any(r.id == wanted for r in self.runs) else self.runs[0].id
            self.query_one("#bakeoff-runs", KeyTable).move_to_key(first)
            self.select(first)

    def _show_runs(self) -> None:
        table = self.query_one("#bakeoff-runs", KeyTable)
        keep = table.current_key
        table.set_columns(
            (
                ("Run", "id"),
                ("Name", "name"),
                ("Kind", "kind"),
                ("Status", "status"),
                ("Progress", "progress"),
                ("Baseline", "baseline"),
                ("Candidates", "candidates"),
            )
        )
        for run in self.runs:
            chip = Text(f" {one(run.status or '?', 12)} ", style=f"bold {_CHIP.get(run.status or '', '')}".strip())
            progress = self.progress.get(run.id) or RunProgress(run.id)
            table.add_row(
                cell(run.id, max_len=16),
                cell(run.name, max_len=32),
                cell(kind_text(run), max_len=10),
                chip,
                Text(progress.describe(run.status, run.progress_ratio).split(" · ", 1)[-1]),
                cell(baseline_text(run.baseline_model), max_len=24),
                cell(", ".join(run.candidate_models), max_len=40),
                key=run.id,
            )
        if keep is not None:
            table.move_to_key(keep)

    def select(self, run_id: str) -> None:
        if self.run is None or self.run.id != run_id:  # another run: its answer first, at the pane's top
            self.query_one("#bakeoff-detail-scroll", VerticalScroll).scroll_home(animate=False)
        self.run = next((r for r in self.runs if r.id == run_id), None)
        self.gate, self.rows, self.samples, self._pairwise, self.readings = None, [], [], None, None
        self.load_run(run_id)

    @platform_work("errorbar", exclusive=True, group="bakeoffs.run")
    async def load_run(self, client: ErrorbarClient, run_id: str) -> None:
        try:
            run = await client.get_run(run_id)
            self.run = run
            self.progress.setdefault(run.id, RunProgress(run.id)).add(time.monotonic(), run.progress_ratio)
            if run.status == "DONE":
                self.samples = await client.samples(run_id)
                self.rows = sample_rows(self.samples)
                self._pairwise = await client.pairwise(run_id) if run.eval_kind != "criterion" else None
            self.gate = await client.gate(run_id, gate_thresholds(run, self.threshold))
        except BlahError as error:
            delay = self._reload.after_error(error)
            self._caption(f"couldn't read {run_id}: {describe_error(error)} · {retry_note(delay)}", error=True)
            return
        self._replace_run(run)
        self._reload.after_read(active=self._moving())
        self._show_detail()
        self._show_samples()
        self.show_calibration()  # decides the run: verdict, figures and the readings below

    def _threshold_name(self, run: assumed.Run) -> str:
        return "min_pass_rate" if run.eval_kind == "criterion" else "min_win_rate"

    def _replace_run(self, run: assumed.Run) -> None:
        self.runs = [run if r.id == run.id else r for r in self.runs]
        self._show_runs()

    def _moving(self) -> bool:
        return any(not run.terminal for run in self.runs) or (self.run is not None and not self.run.terminal)

    def _poll(self) -> None:
        """While the shown run is not finished: read it again (progress, ETA, then results)."""
        if self.ctx.errorbar is None:
            return
        if self.run is not None and not self.run.terminal:
            self.load_run(self.run.id)
        if any(not run.terminal for run in self.runs if run.id != (self.run.id if self.run else None)):
            self.load_runs()

    # ----------------------------------------------------------------- drawing

    def draw_panel(self, widget_id: str, text: Text) -> None:
        """Draw one panel; a panel with nothing to say takes no room (its key says why)."""
        self.query_one(f"#{widget_id}", RunPanel).draw(text)

    def _show_detail(self) -> None:
        run = self.run
        if run is None:
            return
        texts = detail_texts(
            run,
            progress=self.progress.get(run.id) or RunProgress(run.id),
            gate=self.gate,
            threshold=self.threshold,
            samples=self.rows,
            pairwise=self._pairwise,
            comparison=self.comparison,
            before_id=self.before_id,
        )
        for widget_id, text in (
            ("bakeoff-head", texts.head),
            ("bakeoff-results", texts.results),
            ("bakeoff-gate", texts.gate),
            ("bakeoff-comparison", texts.comparison),
        ):
            self.draw_panel(widget_id, text)
        self.detail_text = texts.whole()

    def _show_samples(self) -> None:
        table = self.query_one("#bakeoff-samples", KeyTable)
        checked = bool(self.run is not None and self.run.assertions)
        table.set_columns(
            (
                ("#", "index"),
                ("Candidate", "arm"),
                ("Outcome", "outcome"),
                ("Label", "label"),
                ("Cap", "cap"),
                ("Flag", "flag"),
                *((("Assertions", "assertions"),) if checked else ()),
                ("Prompt", "prompt"),
                ("Answer", "answer"),
            )
        )
        for row in self.rows:
            outcome = Text(
                one(row.outcome or DASH, 10),
                style={"loss": "red", "fail": "red", "win": "green", "pass": "green"}.get(row.outcome or "", ""),
            )
            cap = "cut" if row.truncated else ("" if row.truncated is False else DASH)
            flag = Text("doubtful", style="bold yellow") if row.doubtful else Text("")
            failed = failed_assertions(self.run, row.answer) if checked and self.run is not None else None
            verdict = (
                ()
                if not checked
                else (Text(DASH),)
                if failed is None
                else (Text("all passed", style="green"),)
                if not failed
                else (cell("failed " + "; ".join(failed), max_len=36, style="red"),)
            )
            label = VERDICT_CELL.get(row.answer.human_verdict or "", "")
            table.add_row(
                str(row.index + 1),
                cell(model_text(row.arm), max_len=24),
                outcome,
                label,
                cap,
                flag,
                *verdict,
                cell(user_text(row.sample.prompt), max_len=40),
                cell(row.answer.text, max_len=50),
                key=row.key,
            )

    # ----------------------------------------------------------------- actions

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        key = event.row_key.value
        if event.data_table.id == "bakeoff-runs" and key is not None:
            self.comparison = None if self.before_id is None else self.comparison
            self.select(key)
        elif event.data_table.id == "bakeoff-samples" and key is not None:
            self.open_sample(key)

    def open_sample(self, key: str) -> None:
        if self.run is None:
            return
        from tui.screens.inspector.screen import InspectorScreen

        self.app.push_screen(InspectorScreen(key, source=SampleCalls(self.run, self.rows)))

    def action_gate_threshold(self) -> None:
        self.threshold_index = (self.threshold_index + 1) % len(GATE_THRESHOLDS)
        if self.run is not None:
            self.load_run(self.run.id)

    def action_refresh(self) -> None:
        self._reload.now()
        self.load_runs()
        if self.run is not None:
            self.load_run(self.run.id)

    def action_compare(self) -> None:
        run_id = self.query_one("#bakeoff-runs", KeyTable).current_key
        run = next((r for r in self.runs if r.id == run_id), None)
        if run is None:
            return
        if run.status != "DONE":
            self.notify(
                f"{one(run.id, 30)} is {one(run.status or '?', 12)}: only finished runs compare",
                severity="warning",
                markup=False,
            )
            return
        if self.before_id is None or self.before_id == run.id:
            self.before_id, self.comparison = run.id, None
            self.notify(f"before: {one(run.id, 30)}; x on another finished run compares", markup=False)
            self._show_detail()
            return
        self.load_comparison(self.before_id, run.id)

    def action_swap(self) -> None:
        """The comparison the other way round: what was after is before (sent as a new read)."""
        comparison = self.comparison
        a = str((comparison.a or {}).get("id") or "") if comparison else ""
        b = str((comparison.b or {}).get("id") or "") if comparison else ""
        if not (a and b):
            self.notify(
                "No comparison to swap: x marks a finished run as before, x on another compares.",
                markup=False,
                timeout=4,
            )
            return
        self.load_comparison(b, a)

    def action_samples(self) -> None:
        """To the samples (Enter opens one in the Inspector); again: back to the runs."""
        samples = self.query_one("#bakeoff-samples", KeyTable)
        if samples.has_focus:
            self.query_one("#bakeoff-runs", KeyTable).focus()
            return
        if not samples.row_count:
            self.notify("This run has no samples to open yet.", markup=False, timeout=3)
        samples.focus()

    @platform_work("errorbar", exclusive=True, group="bakeoffs.compare")
    async def load_comparison(self, client: ErrorbarClient, before_id: str, after_id: str) -> None:
        try:
            self.comparison = await client.compare(before_id, after_id)
        except BlahError as error:
            self._caption(f"couldn't compare: {describe_error(error)}", error=True)
            return
        self.before_id = None
        self._show_detail()
        self.call_after_refresh(self.scroll_to_panel, "comparison")  # what x asked for, in view
