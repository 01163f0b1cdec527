"""Watching one run land: progress with rate and ETA, per-eval status, results as they arrive.

Polling (the app's one :class:`application.poller.Poller`) backs off while nothing changes
and on errors, never gives up on a transient error, stops on a fatal one (the run is gone,
the key refused), and stops when the run is completed or cancelled (a stalled or failed run
is still polled, slowly: it may be resumed from elsewhere). The end of the run is announced once with a
notification and, unless ``bell_on_run_end`` is False, the terminal bell, as every watch says it
(``tui.run_watch.WatchScreen``). How the ETA is
estimated is documented in ``application/runs/eta.py``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Static

from api_client.blahdev.shapes import Result, Run
from api_client.errors import BlahError
from application.poller import Poller, PollStep
from application.runs.blah.actions import WriteOutcome
from application.runs.blah.events import RunWatch
from application.runs.blah.progress import eval_progress
from application.runs.eta import Eta
from common.format import format_duration, format_latency
from tui import bindings
from tui.base_screen import describe_error
from tui.cell_format import (
    DASH,
    cell,
    fmt_clock,
    fmt_score,
    fmt_time,
    progress_text,
    status_style,
)
from tui.messages import RunChanged
from tui.platform_work import platform_work
from tui.run_watch import WatchScreen, notifier_for
from tui.screens.runs.confirm import StatusWriter
from widgets.bars import ProgressLine
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.key_table import KeyTable
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["RunWatchScreen"]


def _eta_field(eta: Eta) -> str | None:
    """The ETA part of the progress line (the rate is shown separately)."""
    if eta.phase == "eta":
        return format_duration(eta.seconds_left)
    return {"done": "done", "no_total": "no total"}.get(eta.phase, eta.describe())


class RunWatchScreen(WatchScreen):
    """One run, live. Pushed from the runs list (Enter) or right after starting a run."""

    SCREEN_TITLE = "Run"
    DEFAULT_CSS = """
    RunWatchScreen #watch-title { height: auto; padding: 0 1; text-style: bold; }
    RunWatchScreen #watch-progress { margin: 0 1; }
    RunWatchScreen #watch-eta { height: auto; padding: 0 1; color: $foreground-muted; }
    RunWatchScreen #watch-message { height: auto; padding: 0 1; }
    RunWatchScreen #watch-body { height: 1fr; }
    RunWatchScreen #watch-evals-box { width: 1fr; }
    RunWatchScreen #watch-results-box { width: 1fr; }
    RunWatchScreen .pane-title { height: 1; padding: 0 1; text-style: bold; color: $primary; }
    RunWatchScreen #watch-evals-empty { display: none; height: auto; padding: 0 1; color: $foreground-muted; }
    RunWatchScreen KeyTable { height: 1fr; }
    """

    BINDINGS = [
        bindings.back("watch"),
        bindings.open_row("watch", "Open result", action="open_result"),
        bindings.resume("watch"),
        bindings.cancel_run("watch"),
        bindings.results("watch", "all_results", "All results"),
        bindings.refresh("watch", "Poll now"),
        Binding("tab", "app.focus_next", "Next pane", show=False, id="watch.next_pane"),
    ]

    def __init__(self, run_id: str, *, initial: Run | None = None) -> None:
        super().__init__(run_id)
        self.run: Run | None = initial
        self.results: dict[str, Result] = {}
        self.eval_names: dict[str, str] = {}
        self.watch_state = RunWatch(run_id, clock=time.monotonic)
        self.writer = StatusWriter(self, lambda: self.ctx.client, self._write_done)
        self.polls = 0
        self.poll_state = "starting"
        self.poll_interval = 1.0

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text(f"Run {one_line(self.run_id, max_len=60)}"), id="watch-title")
        yield ProgressLine(id="watch-progress")
        yield Static(Text("estimating…"), id="watch-eta")
        yield Caption(id="watch-message", hide_when_empty=True)
        with Horizontal(id="watch-body"):
            with Vertical(id="watch-evals-box"):
                yield Static("Per eval", classes="pane-title")
                # Said here, not in a table row: a long row would widen the Eval column for good.
                yield Static("", id="watch-evals-empty")
                yield KeyTable(
                    id="watch-evals",
                    columns=(
                        ("Eval", "eval"),
                        ("Results", "n"),
                        ("Models", "models"),
                        ("Errors", "errors"),
                        ("Mean", "score"),
                        ("Status", "status"),
                    ),
                )
            with Vertical(id="watch-results-box"):
                yield Static("Results as they land (newest first)", classes="pane-title")
                yield KeyTable(
                    id="watch-results",
                    columns=(
                        ("UTC", "time"),
                        ("Eval", "eval"),
                        ("Model", "model"),
                        ("Score", "score"),
                        ("Latency", "latency"),
                        ("Error", "error"),
                    ),
                )
        yield KeyFooter()

    def on_mount(self) -> None:
        if not self.query("#watch-results"):
            return  # closed while it opened (an area key pressed at once): nothing to watch for
        self.follow_end()
        self.poll_interval = self.ctx.settings.run_poll_interval or self.ctx.settings.poll_interval
        if self.run is not None:
            self._show_run(self.run)
        self.query_one("#watch-results", KeyTable).focus()
        self.load_names()
        self.poll()

    # ----------------------------------------------------------------- polling

    @platform_work(group="watch.names")
    async def load_names(self, client: BlahClient) -> None:
        try:
            evals = await client.list_evals()
        except BlahError:
            return  # ids are shown instead; the poll reports connection trouble
        self.eval_names = {e.id: e.name or e.id for e in evals}
        self._show_results()

    def on_run_changed(self, message: RunChanged) -> None:
        """A webhook said a run changed: the watch of that run polls at once."""
        if message.run_id == self.run_id:
            self.poll()

    @work(exclusive=True, group="watch.poll", exit_on_error=False)
    async def poll(self) -> None:
        """Poll the run until it is completed or cancelled, or a fatal error (then raised, so the
        worker ends in error); r polls now (a new worker, at the normal pace)."""
        if self.ctx.client is None:
            self._say("offline: watching a run needs the platform", error=True)
            return
        poller = Poller(
            self._fetch_run,
            judge=self._show_polled,
            interval=self.poll_interval,
            max_interval=max(10.0, self.poll_interval),
            on_error=self._poll_failed,
        )
        end = await poller.run()
        if end.reason == "fatal" and end.error is not None:
            raise end.error
        if end.reason == "done":
            self.poll_state = "finished"
            self._say("")
            status = self.run.status if self.run is not None else None
            self._show_eta(f"run {one_line(status or '', max_len=20)}: no more polling")

    async def _fetch_run(self) -> tuple[float, Run, list[Result] | None]:
        """The run, and its results when it moved (or on the first look)."""
        client = self.ctx.client
        assert client is not None
        asked_at = time.monotonic()
        run = await client.get_run(self.run_id)
        moved = (
            self.run is None
            or self.polls == 0
            or (run.completed_count, run.status)
            != (
                self.run.completed_count,
                self.run.status,
            )
        )
        results = await client.run_results(self.run_id) if moved else None
        return asked_at, run, results

    def _show_polled(self, polled: tuple[float, Run, list[Result] | None]) -> PollStep:
        """Show one poll, announce what is news; progress is the run moving."""
        asked_at, run, results = polled
        self.blah_app.note_connection(None)
        self.polls += 1
        events, moved = self.watch_state.observe(run)
        notifier_for(self.app).note_status(run.id, run.status, seen_at=asked_at)
        self.run = run
        if results is not None:
            self.results = {r.id: r for r in results}
        self._show_run(run)
        self._show_results()
        for event in events:
            if event.kind == "resumed":
                self.notify(event.message, title=self.NOUN, markup=False)
            else:
                key = (run.status or "?") if event.kind == "ended" else "no_progress"
                self.announce_end(self.run_end(key, event.message, event.severity))
        if run.status in ("completed", "cancelled"):
            return "done"
        self.poll_state = "polling"
        self._say("")
        return "progress" if moved else "idle"

    def _poll_failed(self, error: BlahError, retry_in: float | None) -> None:
        self.blah_app.note_connection(error)
        if retry_in is None:
            self.poll_state = "stopped"
            self._say(f"stopped watching: {describe_error(error)}", error=True)
            return
        self.poll_state = "retrying"
        self._say(f"couldn't load: {describe_error(error)} — retrying in {retry_in:.0f} s", error=True)

    # ----------------------------------------------------------------- rendering

    def _say(self, text: str, *, error: bool = False) -> None:
        self.query_one("#watch-message", Caption).say(text, error=error)

    def _show_eta(self, note: str | None = None) -> None:
        eta = self.watch_state.eta()
        text = Text(eta.describe(), end="")
        if eta.window_s is not None and eta.phase in ("eta", "no_total"):
            text.append(f"  (rate over the last {eta.window_s:.0f} s: {eta.rate_text()})", style="dim")
        if note:
            text.append(f"  · {note}", style="dim")
        self.query_one("#watch-eta", Static).update(text)

    def _show_run(self, run: Run) -> None:
        variables = self.app.get_css_variables()
        title = Text(f"Run {one_line(run.id, max_len=60)} · ", end="")
        title.append(one_line(run.status or "unknown status", max_len=20), style=status_style(run.status, variables))
        title.append(f" · {progress_text(run)} · started {fmt_time(run.started_at)}")
        title.append(f" · ended {fmt_time(run.completed_at)}")
        if run.error:
            title.append(" · error: ")
            title.append(one_line(run.error, max_len=120), style=status_style("failed", variables))
        self.query_one("#watch-title", Static).update(title)
        eta = self.watch_state.eta()
        self.query_one("#watch-progress", ProgressLine).update(
            run.completed_count, run.total_items, eta.rate_per_s, _eta_field(eta)
        )
        self._show_eta()

    def _show_results(self) -> None:
        run = self.run
        ordered = sorted(
            self.results.values(),
            key=lambda r: (r.created_at if isinstance(r.created_at, int) else 0, r.id),
            reverse=True,
        )
        table = self.query_one("#watch-results", KeyTable)
        keep = table.current_key
        table.clear()
        for result in ordered:
            table.add_row(
                Text(fmt_clock(result.created_at)),
                cell(self.eval_names.get(result.eval_id or "", result.eval_id), max_len=18),
                cell(result.model_id, max_len=18),
                Text(fmt_score(result.score)),
                Text(format_latency(result.latency_ms)),
                cell(result.error, max_len=24),
                key=result.id,
            )
        table.move_to_key(keep)
        evals = self.query_one("#watch-evals", KeyTable)
        keep = evals.current_key
        evals.clear()
        expected = run.total_models if run is not None else None
        status = run.status if run is not None else None
        for progress in eval_progress(ordered[::-1], eval_order=()):
            evals.add_row(
                cell(self.eval_names.get(progress.eval_id, progress.eval_id), max_len=24),
                Text(str(progress.results)),
                Text(f"{progress.models}/{expected if expected is not None else DASH}"),
                Text(str(progress.errors)),
                Text(fmt_score(progress.mean_score)),
                cell(progress.status(expected, status), max_len=20),
                key=progress.eval_id,
            )
        evals.move_to_key(keep)
        empty = self.query_one("#watch-evals-empty", Static)
        empty.update(Text("the platform returned no results for this run yet"))
        empty.display = not ordered and run is not None and self.polls > 0

    # ----------------------------------------------------------------- actions

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.data_table.id == "watch-results":
            self.action_open_result()

    def action_open_result(self) -> None:
        key = self.query_one("#watch-results", KeyTable).current_key
        result = self.results.get(key or "")
        if result is not None:
            from tui.screens.runs.results_detail import ResultDetailScreen

            self.app.push_screen(ResultDetailScreen(result.id, initial=result))

    def action_all_results(self) -> None:
        from tui.screens.runs.results import ResultsScreen

        self.app.push_screen(ResultsScreen(run_id=self.run_id))

    def action_refresh(self) -> None:
        self.poll()

    def action_resume(self) -> None:
        if self.run is not None:
            self.writer.ask(self.run, "resume")

    def action_cancel_run(self) -> None:
        if self.run is not None:
            self.writer.ask(self.run, "cancel")

    def _write_done(self, outcome: WriteOutcome) -> None:
        notifier = notifier_for(self.app)
        if outcome.run is not None:
            notifier.note_status(outcome.run.id, outcome.run.status)
        # A poll that already announced the same end has said it: once is enough.
        if outcome.run is None or notifier.claim(outcome.run.id, outcome.run.status):
            self.notify(outcome.message, severity=outcome.severity, markup=False, timeout=10)
        self._say(outcome.message, error=not outcome.ok)
        self.poll()
