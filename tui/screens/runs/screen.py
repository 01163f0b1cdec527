"""The Runs screen (key 3): every eval run, starting one, resuming and cancelling.

Enter opens a run's watch screen; ``v`` its results; ``m`` the results of the person's model.
Running runs and the newest ended ones are listed; older ones fold into one line of the
summary (``a`` lists them all), so a long session does not grow the list without end.
While any run is queued or running the list refreshes itself, backing off when nothing
changes and on errors (otherwise once a minute, ``runs_idle_refresh_s``), and a run that ends
is announced once (see ``runs_notify``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from api_client.blahdev.shapes import Run
from api_client.errors import BlahError
from application.runs.blah.actions import WriteOutcome
from application.runs.blah.events import RunEvent, ended_message
from application.runs.blah.listing import RECENT_RUNS, fold_runs
from application.runs.blah.statuses import ACTIVE_STATUSES, ATTENTION_STATUSES
from common.format import format_duration, plural
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.cell_format import DASH, cell, fmt_time, progress_text, status_style
from tui.messages import RunChanged
from tui.platform_work import platform_work
from tui.reload import Reload, retry_note
from tui.run_watch import BLAH_RUN, RunEnd, announce_end, notifier_for
from tui.screens.bakeoffs.run_rows import BakeoffRuns
from tui.screens.bakeoffs.screening import ScreeningStarter
from tui.screens.runs.bench.rows import BenchRuns, chip
from tui.screens.runs.confirm import Action, StatusWriter
from tui.screens.runs.run_start import RunStart
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.key_table import KeyTable
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["RunsScreen", "run_models_text"]


def run_models_text(run: Run, own_id: str) -> Text:
    """``3 (incl. yours)``; the count the platform gave, the ids when it listed them."""
    count = len(run.model_ids) if run.model_ids is not None else run.total_models
    text = Text(DASH if count is None else str(count), end="")
    if run.model_ids is not None and own_id in run.model_ids:
        text.append(" (incl. yours)", style="bold")
    return text


def _took(run: Run) -> str:
    if isinstance(run.started_at, int) and isinstance(run.completed_at, int):
        return format_duration((run.completed_at - run.started_at) / 1000)
    return DASH


NARROW_BELOW = 110
"""Terminal widths under this cut the Run column to ``NARROW_RUN_CELL`` characters."""
NARROW_RUN_CELL = 26


class RunsScreen(bindings.RowAction, BlahScreen):
    """Every run with status, progress, start and end, and error."""

    SCREEN_TITLE = "Runs"
    DEFAULT_CSS = """
    RunsScreen #runs-summary { height: auto; padding: 0 1; color: $foreground-muted; }
    RunsScreen #runs-message { height: auto; padding: 0 1; }
    RunsScreen KeyTable { height: 1fr; }
    """

    ROW_ACTION = "watch"  # a chosen row (Enter, a click) does what Enter does
    BINDINGS = [
        Binding("enter", "watch", "Watch", id="runs.watch"),
        Binding("s", "start_run", "Start run", id="runs.start"),
        bindings.resume("runs"),
        bindings.cancel_run("runs"),
        bindings.results("runs", "run_results", "Run results"),
        Binding("m", "my_results", "My results", id="runs.my_results"),
        bindings.refresh("runs"),
        Binding("b", "start_bench", "Start benchmark", id="runs.bench.start"),
        Binding("e", "new_bakeoff", "New bake-off", id="runs.bakeoff.new"),
        Binding("a", "toggle_all", "All runs", id="runs.all"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[Run] = []
        self._status: dict[str, str | None] = {}  # last status seen per run (for transitions)
        self._reload = Reload(
            self, self.load_runs, interval=2.0, max_interval=15.0, idle=lambda: self.ctx.settings.runs_idle_refresh_s
        )
        self.starter = RunStart(self, self._run_started)
        self.show_all = False
        """``a``: list every run, not only the active and the newest ended ones."""
        self.writer = StatusWriter(self, lambda: self.ctx.client, self._status_write_done)
        self.bench = BenchRuns(self, self._render_table, lambda text, error: self._say(text, error=error))
        """Blobfish benchmark runs, listed beside these when ``ctx.bench`` is set."""
        self.bakeoffs = BakeoffRuns(self, self._render_table)
        """errorbar bake-offs, listed beside these when ``ctx.errorbar`` is set."""
        self.screening = ScreeningStarter(self)
        """``s`` on an errorbar row (or with errorbar alone): screen for a cheaper model."""

    @property
    def with_chip(self) -> bool:
        """Another platform's runs are listed too: each row names its platform."""
        return self.ctx.bench is not None or self.ctx.errorbar is not None

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text("loading runs…"), id="runs-summary")
        yield Caption(id="runs-message", hide_when_empty=True)
        yield KeyTable(
            id="runs-table",
            columns=(
                *((("Platform", "platform"),) if self.with_chip else ()),
                ("Run", "id"),
                ("Status", "status"),
                ("Progress", "progress"),
                ("Models", "models"),
                ("Started (UTC)", "started"),
                ("Ended (UTC)", "ended"),
                ("Took", "took"),
                ("Error", "error"),
            ),
        )
        yield KeyFooter()

    def on_mount(self) -> None:
        self.load_runs()
        self.bench.load()
        self.bakeoffs.load()

    def on_screen_resume(self) -> None:
        if self.runs:
            self.load_runs()  # back on this screen: show the runs as they are now
        if self.bench.loaded:
            self.bench.load()
        if self.bakeoffs.loaded:
            self.bakeoffs.load()

    def on_run_changed(self, message: RunChanged) -> None:
        """A webhook said a run changed: the list reloads at once."""
        self.load_runs()

    def on_model_switched(self, model_id: str) -> None:
        """The app is now about another model: show this screen for it."""
        self._render_table()

    # ----------------------------------------------------------------- loading

    @property
    def table(self) -> KeyTable:
        return self.query_one("#runs-table", KeyTable)

    def current_run(self) -> Run | None:
        key = self.table.current_key
        return next((r for r in self.runs if r.id == key), None)

    def _say(self, text: Text | str, *, error: bool = False) -> None:
        self.query_one("#runs-message", Caption).say(text, error=error)

    @platform_work(exclusive=True, group="runs.load", offline=("runs-summary", "offline: runs need the platform"))
    async def load_runs(self, client: BlahClient) -> None:
        asked_at = time.monotonic()
        try:
            runs = await client.list_runs()
        except BlahError as error:
            delay = self._reload.after_error(error)  # fatal (key refused, ...): no timer, r asks
            # One state at a time: before any list has arrived, the error replaces "loading runs…".
            self.query_one("#runs-summary", Static).display = bool(self.runs)
            self._say(Text(f"couldn't load runs: {describe_error(error)} · {retry_note(delay)}"), error=True)
            raise
        self._say("")
        changed = self._apply(runs, asked_at)
        # nothing moving: look again now and then (a run may be started elsewhere)
        self._reload.after_read(active=any(r.status in ACTIVE_STATUSES for r in runs), progress=changed)

    def _apply(self, runs: list[Run], asked_at: float) -> bool:
        """Show ``runs``; announce runs that ended since the last look. True if anything changed."""
        changed = [(r.id, r.status, r.completed_count) for r in runs] != [
            (r.id, r.status, r.completed_count) for r in self.runs
        ]
        notifier = notifier_for(self.app)
        bell = self.ctx.settings.bell_on_run_end
        for run in runs:
            before = self._status.get(run.id, "unseen")
            notifier.note_status(run.id, run.status, seen_at=asked_at)
            # Only a run the person follows, seen moving before, is news when it ends (not old
            # runs on first look, nor runs started elsewhere).
            if (
                notifier.follows(run.id)
                and before in (*ACTIVE_STATUSES, None)
                and run.status != before
                and run.status in ATTENTION_STATUSES
            ):
                event = RunEvent("ended", run.status, ended_message(run))
                end = RunEnd(run.id, BLAH_RUN, run.status or "?", event.message, event.severity)
                announce_end(self.app, end, bell=bell)
            self._status[run.id] = run.status
        self.runs = runs
        self._render_table()
        return changed

    def _run_cell_width(self) -> int | None:
        """On a narrow terminal the Run column is cut to leave Status and Progress in view (the
        columns after them fold off to the right); None: no cut."""
        width = self.size.width
        return NARROW_RUN_CELL if 0 < width < NARROW_BELOW else None

    def on_resize(self) -> None:
        if self._run_cell_width() != getattr(self, "_drawn_run_width", None) and self.is_mounted:
            self._render_table()

    def _fit_run(self, cells: tuple[Text, ...]) -> tuple[Text, ...]:
        width = self._run_cell_width()
        if width is None or not cells:
            return cells
        run = cells[0].copy()
        run.truncate(width, overflow="ellipsis")
        return (run, *cells[1:])

    def _render_table(self) -> None:
        table = self.table
        keep = table.current_key
        table.clear()
        variables = self.app.get_css_variables()
        with_chip = self.with_chip
        folded = fold_runs(self.runs, show_all=self.show_all, keep=keep)
        self._drawn_run_width = self._run_cell_width()
        for run in folded.shown:
            table.add_row(
                *((chip("blah.dev", variables),) if with_chip else ()),
                *self._fit_run((cell(run.id, max_len=40),)),
                cell(run.status, max_len=20, style=status_style(run.status, variables)),
                Text(progress_text(run)),
                run_models_text(run, self.ctx.model_id),
                Text(fmt_time(run.started_at)),
                Text(fmt_time(run.completed_at)),
                Text(_took(run)),
                cell(run.error, max_len=36),
                key=run.id,
            )
        if self.ctx.bench is not None:
            for row in self.bench.rows:
                table.add_row(
                    chip("Blobfish", variables), *self._fit_run(self.bench.cells(row, variables)), key=row.key
                )
        if self.ctx.errorbar is not None:
            for bakeoff in self.bakeoffs.rows:
                table.add_row(
                    chip("errorbar", variables),
                    *self._fit_run(self.bakeoffs.cells(bakeoff, variables)),
                    key=bakeoff.key,
                )
        table.move_to_key(keep)
        counts: dict[str, int] = {}
        for run in self.runs:
            counts[run.status or "unknown"] = counts.get(run.status or "unknown", 0) + 1
        if self.ctx.client is None:
            summary = Text("offline: blah.dev runs need the platform")
        elif not self.runs:
            summary = Text("the platform returned no runs")
        else:
            parts = ", ".join(f"{n} {one_line(status, max_len=20)}" for status, n in sorted(counts.items()))
            summary = Text(f"{plural(len(self.runs), 'run')}: {parts}. Enter watches a run; s starts one.")
            if folded.older:
                summary.append(f"\n{folded.older_summary()}; a lists them all.", style="dim")
            elif self.show_all and len(folded.shown) > RECENT_RUNS:
                summary.append("\nEvery run listed; a folds the older ones.", style="dim")
        if self.ctx.bench is not None:
            summary.append(f"\n{self.bench.summary()}")
            for problem in self.bench.problems:
                summary.append(f"\n{problem}", style="bold")
        if self.ctx.errorbar is not None:
            summary.append(f"\n{self.bakeoffs.summary()}", style="bold" if self.bakeoffs.problem else "")
        shown = self.query_one("#runs-summary", Static)
        shown.update(summary)
        shown.display = True

    # ----------------------------------------------------------------- navigation

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        self._render_table()

    def action_refresh(self) -> None:
        self._reload.now()
        self.load_runs()
        self.bench.load()
        self.bakeoffs.load(now=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "start_bench" and self.ctx.bench is None:
            return False  # no Blobfish configured: the key is not offered
        if action == "new_bakeoff" and self.ctx.errorbar is None:
            return False  # no errorbar queue configured: the key is not offered
        return super().check_action(action, parameters)

    def action_start_bench(self) -> None:
        self.bench.start()

    def action_new_bakeoff(self) -> None:
        self.bakeoffs.create()

    def _blobfish_row_says(self, what: str) -> bool:
        """On a Blobfish or errorbar row, say that ``what`` is for blah.dev runs (True: said)."""
        key = self.table.current_key
        if self.bench.row(key) is not None:
            self.notify(f"{what} is for blah.dev runs; Enter watches this Blobfish run.", markup=False, timeout=4)
            return True
        if self.bakeoffs.row(key) is not None:
            self.notify(
                f"{what} is for blah.dev runs; Enter watches this errorbar bake-off (its watch can cancel it).",
                markup=False,
                timeout=4,
            )
            return True
        return False

    def action_watch(self) -> None:
        bench_row = self.bench.row(self.table.current_key)
        if bench_row is not None:
            self.bench.watch(bench_row)
            return
        bakeoff_row = self.bakeoffs.row(self.table.current_key)
        if bakeoff_row is not None:
            self.bakeoffs.watch(bakeoff_row)
            return
        run = self.current_run()
        if run is not None:
            from tui.screens.runs.watch import RunWatchScreen

            self.app.push_screen(RunWatchScreen(run.id, initial=run))

    def action_run_results(self) -> None:
        if self._blobfish_row_says("Run results"):
            return
        run = self.current_run()
        if run is not None:
            from tui.screens.runs.results import ResultsScreen

            self.app.push_screen(ResultsScreen(run_id=run.id))

    def action_my_results(self) -> None:
        from tui.screens.runs.results import ResultsScreen

        self.app.push_screen(ResultsScreen(model_id=self.ctx.model_id))

    # ----------------------------------------------------------------- start

    def action_start_run(self) -> None:
        if self.screening.wanted():
            self.screening.ask()
            return
        self.starter.ask()

    def _run_started(self, outcome: WriteOutcome) -> None:
        self._report(outcome)
        if outcome.run is not None:
            self._status[outcome.run.id] = outcome.run.status
            notifier_for(self.app).follow(outcome.run.id)
            notifier_for(self.app).note_status(outcome.run.id, outcome.run.status)
            self._reload.now()
            self.load_runs()
            from tui.screens.runs.watch import RunWatchScreen

            self.app.push_screen(RunWatchScreen(outcome.run.id, initial=outcome.run))
        elif outcome.kind == "done":
            self.load_runs()

    def _report(self, outcome: WriteOutcome) -> None:
        self.notify(outcome.message, severity=outcome.severity, markup=False, timeout=10)
        self._say(Text(outcome.message), error=not outcome.ok)

    # ----------------------------------------------------------------- resume / cancel

    def action_resume(self) -> None:
        self._ask_about_run("resume", "Resume")

    def action_cancel_run(self) -> None:
        self._ask_about_run("cancel", "Cancel")

    def _ask_about_run(self, write: Action, key_name: str) -> None:
        """Confirm, then send the write for the highlighted blah.dev run (a Blobfish row says why not)."""
        if self._blobfish_row_says(key_name):
            return
        run = self.current_run()
        if run is not None:
            self.writer.ask(run, write)

    def _status_write_done(self, outcome: WriteOutcome) -> None:
        if outcome.run is None:
            self._report(outcome)
        else:
            notifier = notifier_for(self.app)
            notifier.follow(outcome.run.id)
            notifier.note_status(outcome.run.id, outcome.run.status)
            if notifier.claim(outcome.run.id, outcome.run.status):
                self._report(outcome)
            else:
                self._say(Text(outcome.message), error=not outcome.ok)
            self._status[outcome.run.id] = outcome.run.status
        self._reload.now()
        self.load_runs()
