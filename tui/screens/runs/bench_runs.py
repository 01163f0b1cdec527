"""Blobfish benchmark runs inside the Runs screen: their rows, their refresh, starting one.

``RunsScreen`` owns one ``BenchRuns`` (when ``ctx.bench`` is set) and draws its rows beside
the blah.dev runs, each with a platform chip. Which slugs are listed is decided in
``application.runs.bench_runs`` (the contract has no list-benchmarks route). Starting asks
(``BenchStartScreen``), confirms (``ConfirmScreen``), then sends once: while a start is open
or in flight, further presses only say so.
"""

from __future__ import annotations

from collections.abc import Callable
from weakref import WeakKeyDictionary

from rich.text import Text
from textual.app import App
from textual.timer import Timer

from api_client.blobfish.shapes_bench import DEFAULT_POLL_S
from api_client.errors import BlahError
from application.runs.bench_runs import BenchRow, BenchSlugs, BenchStartOutcome, bench_rows, iso_ms, start_bench
from common.format import DASH, format_duration
from tui.base_screen import BlahScreen, describe_error
from tui.screens.runs.bench_start import BenchStartScreen, confirm_text
from tui.screens.runs.format import cell, fmt_time, status_style, tone_style
from widgets.confirm import ConfirmScreen
from widgets.safe_text import one_line

__all__ = ["BenchRuns", "chip", "slugs_for"]

_SLUGS: WeakKeyDictionary[App[object], BenchSlugs] = WeakKeyDictionary()
_STATUS_TONES = {"interrupted": "warning"}


def slugs_for(app: App[object]) -> BenchSlugs:
    """The app's one list of benchmark slugs (the default, and each one run in this session)."""
    slugs = _SLUGS.get(app)
    if slugs is None:
        slugs = _SLUGS[app] = BenchSlugs()
    return slugs


def chip(platform: str, variables: dict[str, str] | None) -> Text:
    """The platform chip of a row: ``blah.dev``, ``Blobfish`` or ``errorbar``."""
    tone = {"Blobfish": "accent", "errorbar": "secondary"}.get(platform, "primary")
    return Text(f" {platform} ", style=tone_style(tone, variables, bold=True), end="")


def _when(text: str | None) -> Text:
    """A time as the blah.dev rows show theirs (UTC); as sent when it does not read as one."""
    ms = iso_ms(text)
    return Text(fmt_time(ms)) if ms is not None else cell(text, max_len=24)


class BenchRuns:
    """The Blobfish part of the Runs screen."""

    def __init__(self, screen: BlahScreen, on_change: Callable[[], None],
                 say: Callable[[str, bool], None]) -> None:
        """``on_change``: the rows changed (draw them); ``say``: a line under the summary
        (text, whether it is an error)."""
        self.screen = screen
        self._on_change = on_change
        self._say = say
        self.rows: list[BenchRow] = []
        self.problems: list[str] = []
        self.loaded = False
        self.starting = False
        self.sent = 0
        """Start requests sent (one per confirmation: a double press never adds one)."""
        self._timer: Timer | None = None

    @property
    def client(self):  # type: ignore[no-untyped-def]
        return self.screen.ctx.bench

    def row(self, key: str | None) -> BenchRow | None:
        return next((r for r in self.rows if r.key == key), None)

    # ----------------------------------------------------------------- loading

    def load(self) -> None:
        if self.client is not None:
            self.screen.run_worker(self._load, group="runs.bench.load", exclusive=True, exit_on_error=False)

    async def _load(self) -> None:
        client = self.client
        rows: list[BenchRow] = []
        problems: list[str] = []
        for slug in slugs_for(self.screen.app).slugs:
            try:
                rows += bench_rows(slug, await client.list_runs(slug))
            except BlahError as error:
                problems.append(f"couldn't load Blobfish runs of {one_line(slug, max_len=60)}: {describe_error(error)}")
        self.rows, self.problems, self.loaded = rows, problems, True
        self._on_change()
        active = [r for r in rows if r.is_active]
        if problems:
            self._schedule(15.0)
        elif active:  # at the pace the platform asks of a suite's poll
            asks = [r.record.poll_after_seconds for r in active if getattr(r.record, "poll_after_seconds", None)]
            self._schedule(max(min(asks, default=DEFAULT_POLL_S), 1.0))
        else:  # nothing moving: look again now and then (a run may be started elsewhere)
            self._schedule(self.screen.ctx.settings.runs_idle_refresh_s)

    def _schedule(self, delay: float) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.screen.set_timer(delay, self.load)

    def cells(self, row: BenchRow, variables: dict[str, str]) -> tuple[Text, ...]:
        """The row's cells, in the Runs table's column order (after the chip)."""
        tone = _STATUS_TONES.get(row.status or "")
        style = tone_style(tone, variables) if tone else status_style(row.status, variables)
        what = row.suite or DASH if row.kind == "suite" else "task"
        if len(slugs_for(self.screen.app).slugs) > 1:
            what = f"{row.slug} · {what}"
        run = cell(row.run_id, max_len=40)
        run.append(f" {one_line(what, max_len=60)}", style="dim")
        return (run, cell(row.status, max_len=20, style=style), Text(row.progress_text()),
                cell(row.model_text(), max_len=40), _when(row.created_at), _when(row.finished_at),
                Text(format_duration(row.took_s)), cell(row.error, max_len=36))

    def summary(self) -> str:
        if not self.loaded:
            return "Blobfish: loading benchmark runs…"
        slugs = ", ".join(one_line(s, max_len=40) for s in slugs_for(self.screen.app).slugs)
        active = sum(r.is_active for r in self.rows)
        return (f"Blobfish ({slugs}): {len(self.rows)} benchmark runs, {active} in flight. "
                "b starts a benchmark run.")

    # ----------------------------------------------------------------- watching

    def watch(self, row: BenchRow) -> None:
        self.open_watch(row.slug, row.run_id, row.record)

    def open_watch(self, slug: str, run_id: str, record: object = None, location: str | None = None,
                   retry_after: float | None = None) -> None:
        from tui.screens.runs.bench_watch import BenchWatchScreen

        self.screen.app.push_screen(BenchWatchScreen(slug, run_id, initial=record, location=location,  # type: ignore[arg-type]
                                                     retry_after=retry_after))

    # ----------------------------------------------------------------- starting

    def start(self) -> None:
        screen = self.screen
        if self.client is None:
            screen.notify("Blobfish is not configured: a benchmark run needs BLOBFISH_API_KEY.", severity="warning",
                          markup=False)
            return
        if self.starting:
            screen.notify("A benchmark run is already being started.", markup=False)
            return
        self.starting = True
        screen.run_worker(self._start_flow, group="runs.bench.start", exclusive=True, exit_on_error=False)

    async def _start_flow(self) -> None:
        app = self.screen.app
        try:
            slugs = slugs_for(app).slugs
            request = await app.push_screen_wait(BenchStartScreen(slug=slugs[-1]))
            if request is None:
                return
            title = "Start the suite run?" if request.is_suite else "Run the sandbox task?"
            if not await app.push_screen_wait(ConfirmScreen(title, confirm_text(request), confirm_label="Start run")):
                return
            if not request.is_suite:
                self._say("Running the sandbox task: the platform answers within about four minutes…", False)
            self.sent += 1
            outcome = await start_bench(self.client, request)
            slugs_for(app).add(request.slug)
            await self._report(outcome)
        finally:
            self.starting = False

    async def _report(self, outcome: BenchStartOutcome) -> None:
        screen = self.screen
        screen.notify(outcome.message, severity=outcome.severity, markup=False, timeout=10)
        self._say(outcome.message, outcome.kind != "started")
        self.load()
        if outcome.kind == "started" and outcome.run_id:
            self.open_watch(outcome.slug, outcome.run_id, outcome.record, outcome.location, outcome.retry_after)
        elif outcome.kind == "in_progress" and outcome.run_id:
            body = Text(f"{outcome.message}\n\nFollow the running suite ", end="")
            body.append(one_line(outcome.run_id, max_len=60), style="bold")
            body.append(" instead?")
            follow = await screen.app.push_screen_wait(ConfirmScreen("A suite run is in progress", body,
                                                                     confirm_label="Follow it"))
            if follow:
                self.open_watch(outcome.slug, outcome.run_id)
