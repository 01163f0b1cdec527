"""Watching one Blobfish benchmark run: a suite to its end, or a single task's record.

The pace is the server's (``application.runs.bench.watch.watch_suite``: the 202's ``Retry-After``,
then each record's ``poll_after_seconds``; a passing error never ends the watch). Shown:
progress ``done/total`` with the rate and the ETA, each task as it is graded (score, strict
pass, checks passed), the highlighted task's grader explanation, evidence link and how long
that link stays valid, and its recorded steps (Enter opens them in the Inspector). The final
states say what they mean (``application.runs.bench.view.suite_state``): ``interrupted`` is never a
score, a rejected credential names its task. ``P`` publishes a completed suite run. The run's
full-suite command (the frozen release on Harbor, same model; ``application.runs.bench.full_suite``)
is shown whole under the state, and ``y`` copies it. A suite watched to its end is announced as every
watch announces its run's end (``tui.run_watch.WatchScreen``: the notification and the bell).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Static

from api_client.blobfish.shapes_bench import SingleRun, SuiteRun, TaskResult
from api_client.errors import BlahError
from application.runs.bench.full_suite import FullSuiteCommand, full_suite_command
from application.runs.bench.task_steps import TaskSteps
from application.runs.bench.view import (
    SuiteState,
    eta_text,
    evidence_validity,
    finished_epoch,
    pace_per_s,
    score_text,
    strict_text,
    suite_state,
    task_checks,
)
from application.runs.bench.watch import WatchEvent, watch_suite
from common.format import DASH
from tui import bindings
from tui.base_screen import describe_error
from tui.cell_format import cell, tone_style
from tui.run_watch import BENCH_RUN, Severity, WatchScreen
from widgets.bars import NO_DATA, ProgressLine
from widgets.footer import KeyFooter
from widgets.key_table import KeyTable
from widgets.safe_text import one_line, safe_text
from widgets.status_header import StatusHeader

__all__ = ["BenchWatchScreen", "SuiteProgress"]

Run = SuiteRun | SingleRun


class SuiteProgress(ProgressLine):
    """The bar with the pace in tasks per minute (a task takes tens of seconds: per second
    would read 0.0)."""

    def label(self) -> str:
        done = NO_DATA if self.done is None else str(self.done)
        total = NO_DATA if self.total is None else str(self.total)
        pace = NO_DATA if self.rate_per_s is None else f"{self.rate_per_s * 60:.1f} tasks/min"
        return f"{done}/{total} · {pace} · ETA {self.eta or NO_DATA}"


class BenchWatchScreen(bindings.RowAction, WatchScreen):
    """One Blobfish benchmark run, live. Pushed from Runs (Enter on a Blobfish row) or right
    after starting one (with the POST's ``Location`` and ``Retry-After``)."""

    SCREEN_TITLE = BENCH_RUN
    NOUN = BENCH_RUN
    DEFAULT_CSS = """
    BenchWatchScreen #bw-title { height: auto; padding: 0 1; text-style: bold; }
    BenchWatchScreen #bw-progress { margin: 0 1; }
    BenchWatchScreen #bw-state { height: auto; padding: 0 1; }
    BenchWatchScreen #bw-command { height: auto; padding: 0 1; }
    BenchWatchScreen #bw-message { height: auto; padding: 0 1; color: $error; }
    BenchWatchScreen #bw-body { height: 1fr; }
    BenchWatchScreen #bw-tasks { width: 1fr; height: 1fr; }
    BenchWatchScreen #bw-side { width: 1fr; height: 1fr; padding: 0 1; }
    """

    ROW_ACTION = "inspect"  # a chosen row (Enter, a click) does what Enter does
    BINDINGS = [
        bindings.back("runs.bench"),
        Binding("enter", "inspect", "Steps in Inspector", id="runs.bench.inspect"),
        bindings.publish("runs.bench"),
        bindings.refresh("runs.bench", "Poll now"),
        Binding("y", "copy_command", "Copy full-suite command", id="runs.bench.copy_command"),
    ]

    wall_clock: Callable[[], float] = staticmethod(time.time)
    """Epoch seconds, for when evidence links expire (a test may fix it)."""
    sleep: Callable[[float], Awaitable[None]] = staticmethod(asyncio.sleep)
    clock: Callable[[], float] = staticmethod(time.monotonic)
    """The watch's pace (a test runs it on a fake clock, as ``watch_suite`` allows)."""

    def __init__(
        self,
        slug: str,
        run_id: str,
        *,
        initial: Run | None = None,
        location: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(run_id)
        self.slug = slug
        self.record: Run | None = initial
        self._location = location
        self._retry_after = retry_after
        self._history: list[tuple[float, int]] = []
        self._graded_by: dict[str, float] = {}
        self.eta_s: float | None = None
        self.polls = 0
        self.poll_state = "starting"  # polling | retrying | finished | stopped
        self.full_suite: FullSuiteCommand | None = None

    @property
    def end_key(self) -> str:
        return f"blobfish:{self.slug}:{self.run_id}"  # the run's key in the Runs list

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(
            Text(f"Blobfish · {one_line(self.slug, max_len=60)} · {one_line(self.run_id, max_len=60)}"), id="bw-title"
        )
        yield SuiteProgress(id="bw-progress")
        yield Static(Text("loading the run…"), id="bw-state")
        yield Static("", id="bw-command")
        yield Static("", id="bw-message")
        with Horizontal(id="bw-body"):
            yield KeyTable(
                id="bw-tasks",
                columns=(
                    ("Task", "task"),
                    ("Name", "name"),
                    ("Score", "score"),
                    ("Strict", "strict"),
                    ("Checks", "checks"),
                ),
            )
            with VerticalScroll(id="bw-side"):
                yield Static("", id="bw-detail")
        yield KeyFooter()

    def on_mount(self) -> None:
        if not self.query("#bw-tasks"):
            return  # closed while it opened
        self._say("")
        self.follow_end()
        if self.record is not None:
            self._show(self.record)
        self.query_one("#bw-tasks", KeyTable).focus()
        self.poll()

    # ----------------------------------------------------------------- polling

    @work(exclusive=True, group="runs.bench.watch", exit_on_error=False)
    async def poll(self) -> None:
        """Read the run (unless the start gave its first record), then poll it to its end."""
        client = self.ctx.bench
        if client is None:
            self._say("Blobfish is not configured: watching a benchmark run needs it")
            return
        record = self.record
        first_wait = self._retry_after
        if record is None or not (isinstance(record, SuiteRun) and first_wait is not None):
            try:
                record = await client.get_run(self.slug, self.run_id)
            except BlahError as error:
                self.poll_state = "stopped"
                self._say(f"couldn't load the run: {describe_error(error)} · r tries again")
                return
            self.polls += 1
            self._show(record)
            first_wait = record.poll_after_seconds if isinstance(record, SuiteRun) else None
        self._find_full_suite_command(record)
        if isinstance(record, SingleRun) or record.is_final:
            self._finished(record, announce=False)
            return
        self.poll_state = "polling"
        path = client.poll_path(self.slug, self.run_id, self._location)
        try:
            result = await watch_suite(
                lambda: client.poll_suite(path),
                first_wait=first_wait,
                first_record=record,
                sleep=self.sleep,
                clock=self.clock,
                on_event=self._on_event,
            )
        except BlahError as error:
            self.poll_state = "stopped"
            self._say(f"stopped watching: {describe_error(error)} · r tries again")
            return
        self._finished(result.record, announce=True)

    @work(exclusive=True, group="runs.bench.full_suite", exit_on_error=False)
    async def _find_full_suite_command(self, record: Run) -> None:
        """The run's own command, else (a suite) a same-model sandbox run's: one list read."""
        found = full_suite_command(record)
        if found.command is None and self.ctx.bench is not None:
            try:
                found = full_suite_command(record, await self.ctx.bench.list_runs(self.slug))
            except BlahError:
                pass  # said as "not in this record" below; the watch goes on
        self.full_suite = found
        self._show_command()

    def _show_command(self) -> None:
        found = self.full_suite
        text = Text("Full suite on Harbor: ", style="bold", end="")
        if found is None:
            text.append("looking…", style="italic")
        elif found.command:
            text.append_text(safe_text(one_line(found.command, max_len=2000)))
            if found.from_run:
                text.append(f"  (from sandbox run {one_line(found.from_run, max_len=60)})", style="dim")
            text.append("  · y copies", style="dim")
        else:
            text.append(
                "not in this record; a sandbox-task run of this model gives the platform's command", style="italic"
            )
        self.query_one("#bw-command", Static).update(text)

    def action_copy_command(self) -> None:
        found = self.full_suite
        if found is None or not found.command:
            self.notify("No full-suite command to copy (the record has none).", markup=False, timeout=4)
            return
        self.app.copy_to_clipboard(one_line(found.command, max_len=2000))
        self.notify("Copied the full-suite command.", markup=False, timeout=3)

    def _on_event(self, event: WatchEvent) -> None:
        if event.record is None:
            self.poll_state = "retrying"
            wait = f"{event.wait:.0f} s" if event.wait is not None else "a moment"
            error = describe_error(event.error) if event.error else "no answer"
            self._say(f"couldn't poll: {error} · trying again in {wait} (the run goes on)")
            return
        self.polls += 1
        self.poll_state = "polling"
        self._say("")
        self.eta_s = event.eta_s
        self._show(event.record)

    def _finished(self, record: Run, *, announce: bool) -> None:
        self.poll_state = "finished"
        self._show(record)
        if announce:
            state = suite_state(record)
            severity: Severity = "information" if state.status == "completed" else "warning"
            said = f"{self.NOUN} {one_line(record.run_id, max_len=60)} {state.sentence}"
            self.announce_end(self.run_end(state.status, said, severity))

    # ----------------------------------------------------------------- rendering

    def _say(self, text: str) -> None:
        message = self.query_one("#bw-message", Static)
        message.update(Text(text))
        message.display = bool(text)

    def tasks(self) -> list[TaskResult]:
        record = self.record
        if isinstance(record, SingleRun):
            return [record]
        return list(record.tasks or []) if record is not None else []

    def _task_key(self, n: int, task: TaskResult) -> str:
        return f"{n}:{task.task_id or ''}"

    def _show(self, record: Run) -> None:
        self.record = record
        state = suite_state(record)
        now = self.wall_clock()
        ended = finished_epoch(record) if state.final else None
        for n, task in enumerate(self.tasks()):
            self._graded_by.setdefault(self._task_key(n, task), min(now, ended) if ended else now)
        done, total = self._progress(record)
        if done is not None and not state.final:
            self._history.append((self.clock(), done))
        rate = pace_per_s(self._history)
        self.query_one("#bw-progress", ProgressLine).update(done, total, rate, eta_text(self.eta_s, state))
        self.query_one("#bw-title", Static).update(self._title(record))
        self.query_one("#bw-state", Static).update(self._state_text(state))
        self._show_tasks()

    @staticmethod
    def _progress(record: Run) -> tuple[int | None, int | None]:
        if isinstance(record, SingleRun):
            return 1, 1
        progress = record.progress
        return (progress.done, progress.total) if progress else (None, None)

    def _title(self, record: Run) -> Text:
        title = Text(f"Blobfish · {one_line(self.slug, max_len=60)} · {one_line(record.run_id, max_len=60)}", end="")
        suite = (
            "single task" if isinstance(record, SingleRun) else f"suite {one_line(record.suite or DASH, max_len=20)}"
        )
        title.append(f" · {suite} · ")
        model = one_line(record.model or DASH, max_len=60)
        title.append(f"{one_line(record.provider, max_len=30)}/{model}" if record.provider else model)
        title.append(f" · credential {one_line(record.credential_source or DASH, max_len=20)}")
        return title

    def _state_text(self, state: SuiteState) -> Text:
        style = tone_style(state.tone, self.app.get_css_variables(), bold=True)
        text = Text(one_line(state.status, max_len=20), style=style, end="")
        text.append(" · ")
        text.append(state.sentence.split(": ", 1)[-1] if ": " in state.sentence else state.sentence)
        return text

    def _show_tasks(self) -> None:
        table = self.query_one("#bw-tasks", KeyTable)
        keep = table.current_key
        table.clear()
        for n, task in enumerate(self.tasks()):
            table.add_row(
                cell(task.task_id, max_len=16),
                cell(task.name, max_len=40),
                Text(score_text(task)),
                Text(strict_text(task)),
                Text(task_checks(task)),
                key=self._task_key(n, task),
            )
        table.move_to_key(keep)
        self._show_detail()

    def current_task(self) -> tuple[str, TaskResult] | None:
        key = self.query_one("#bw-tasks", KeyTable).current_key
        for n, task in enumerate(self.tasks()):
            if self._task_key(n, task) == key:
                return key, task
        return None

    def _show_detail(self) -> None:
        detail = self.query_one("#bw-detail", Static)
        current = self.current_task()
        if current is None:
            graded = (
                "no task graded yet"
                if self.record is None or not suite_state(self.record).final
                else "no task was graded"
            )
            detail.update(Text(graded, style="italic"))
            return
        key, task = current
        text = Text(end="")
        text.append_text(cell(task.task_id, max_len=40))
        text.append(" · ")
        text.append_text(safe_text(one_line(task.name, max_len=200) or DASH))
        text.append(f"\nscore {score_text(task)} · strict pass {strict_text(task)} · checks {task_checks(task)}")
        text.append("\n\nGrader: ", style="bold")
        explanation = task.grader.explanation if task.grader else None
        text.append_text(
            safe_text(explanation) if explanation else Text("the record gives no explanation", style="italic")
        )
        text.append("\n\nEvidence: ", style="bold")
        if task.evidence_url:
            text.append_text(safe_text(one_line(task.evidence_url, max_len=300)))
            text.append(f"\n  {evidence_validity(self._graded_by.get(key), self.wall_clock())}", style="dim")
        else:
            text.append("no link in the record", style="italic")
        steps = task.steps or []
        text.append(f"\n\nSteps: {len(steps)} recorded tool call(s)", style="bold")
        if steps:
            text.append(" · Enter opens them in the Inspector", style="dim")
        for n, step in enumerate(steps[:12]):
            text.append(f"\n  {n + 1}. ")
            text.append_text(safe_text(one_line(step.tool or "(unnamed tool)", max_len=40)))
            text.append(" → ")
            result = step.result if isinstance(step.result, str) else DASH if step.result is None else str(step.result)
            text.append_text(safe_text(one_line(result, max_len=60)))
        detail.update(text)

    # ----------------------------------------------------------------- actions

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    def action_inspect(self) -> None:
        current = self.current_task()
        if current is None or self.record is None:
            return
        _, task = current
        source = TaskSteps(self.slug, self.record.run_id, task, self.record.model)
        if not source.ids:
            self.notify("This task recorded no steps.", markup=False, timeout=3)
            return
        from tui.screens.inspector.screen import InspectorScreen

        self.app.push_screen(InspectorScreen(source.ids[0], source=source))

    def action_refresh(self) -> None:
        self._retry_after = None
        self.poll()

    def action_publish(self) -> None:
        record = self.record
        if not isinstance(record, SuiteRun) or record.status != "completed":
            what = (
                "a single-task run"
                if isinstance(record, SingleRun)
                else f"this run is {one_line(record.status or 'not loaded', max_len=20)}"
                if record
                else "not loaded yet"
            )
            self.notify(
                f"Only a completed suite run can be published ({what}).", severity="warning", markup=False, timeout=5
            )
            return
        self.blah_app.open_bench_publish(self.slug, record.run_id)
