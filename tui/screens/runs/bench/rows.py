"""Blobfish benchmark runs inside the Runs screen: their rows, their refresh, their watch.

``RunsScreen`` owns one ``BenchRuns`` (when ``ctx.bench`` is set) and draws its rows beside
the blah.dev runs, each with a platform chip. Which slugs are listed is decided in
``application.runs.bench.rows`` (the contract has no list-benchmarks route). Starting one is
``bench_start_flow.BenchStart`` (asked, confirmed, sent once).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from rich.text import Text
from textual.app import App

from api_client.blobfish.shapes_bench import DEFAULT_POLL_S, SingleRun, SuiteRun
from api_client.errors import BlahError
from api_client.transport.polling import is_fatal
from application.runs.bench.known import known_slugs
from application.runs.bench.rows import BenchRow, BenchSlugs, bench_rows
from common.format import DASH, format_duration, plural
from common.iso_time import iso_ms
from tui.base_screen import BlahScreen, describe_error
from tui.cell_format import cell, fmt_time, status_style, tone_style
from tui.reload import Reload
from tui.screens.runs.bench.start import PENDING_TASK, BenchStart
from widgets.safe_text import one_line

if TYPE_CHECKING:
    from api_client.blobfish.benchmarks import BenchmarkClient

__all__ = ["BenchRuns", "chip", "slugs_for"]

_SLUGS: WeakKeyDictionary[App[object], BenchSlugs] = WeakKeyDictionary()
_STATUS_TONES = {"interrupted": "warning"}


def slugs_for(app: App[object]) -> BenchSlugs:
    """The app's one list of benchmark slugs (the default, and each one run in this session)."""
    slugs = _SLUGS.get(app)
    if slugs is None:
        told = getattr(getattr(app, "ctx", None), "bench_slugs", ())
        slugs = _SLUGS[app] = BenchSlugs(known=[*told, *known_slugs()])
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

    def __init__(self, screen: BlahScreen, on_change: Callable[[], None], say: Callable[[str, bool], None]) -> None:
        """``on_change``: the rows changed (draw them); ``say``: a line under the summary
        (text, whether it is an error)."""
        self.screen = screen
        self._on_change = on_change
        self.rows: list[BenchRow] = []
        self.problems: list[str] = []
        self.loaded = False
        self.pending_task: str | None = None
        """The benchmark of a sandbox task sent and not answered yet (up to four minutes; the
        platform has no cancel, so the person can leave the wait: the run is kept)."""
        self.starter = BenchStart(
            screen,
            client=lambda: self.client,
            slugs=lambda: slugs_for(screen.app),
            say=say,
            reload=self.load,
            open_watch=self.open_watch,
            pending=self._pending,
        )
        """Starting a run (``bench_start_flow``): one at a time, each sent once."""
        self._reload = Reload(
            screen, self.load, interval=1.0, max_interval=15.0, idle=lambda: screen.ctx.settings.runs_idle_refresh_s
        )

    def _pending(self, slug: str | None) -> None:
        """A sandbox task sent (its slug) or answered (None): said in the summary meanwhile."""
        self.pending_task = slug
        self._on_change()

    @property
    def client(self) -> BenchmarkClient | None:
        return self.screen.ctx.bench

    def row(self, key: str | None) -> BenchRow | None:
        return next((r for r in self.rows if r.key == key), None)

    # ----------------------------------------------------------------- loading

    def load(self) -> None:
        if self.client is not None:
            self.screen.run_worker(self._load, group="runs.bench.load", exclusive=True, exit_on_error=False)

    async def _load(self) -> None:
        client = self.client
        if client is None:  # (started only with a client)
            return
        rows: list[BenchRow] = []
        problems: list[str] = []
        errors: list[BlahError] = []
        for slug in slugs_for(self.screen.app).slugs:
            try:
                rows += bench_rows(slug, await client.list_runs(slug))
            except BlahError as error:
                errors.append(error)
                problems.append(f"couldn't load Blobfish runs of {one_line(slug, max_len=60)}: {describe_error(error)}")
        self.rows, self.problems, self.loaded = rows, problems, True
        self._on_change()
        active = [r for r in rows if r.is_active]
        # at the pace the platform asks of a suite's poll (never sooner)
        asks: list[float] = [ask for r in active if (ask := getattr(r.record, "poll_after_seconds", None))]
        hint = min(asks, default=DEFAULT_POLL_S) if active else None
        if errors:  # one slug's passing error keeps the refresh going; only fatal ones all round stop it
            self._reload.after_error(next((e for e in errors if not is_fatal(e)), errors[0]), hint=hint)
        else:  # nothing moving: look again now and then (a run may be started elsewhere)
            self._reload.after_read(active=bool(active), hint=hint)

    def cells(self, row: BenchRow, variables: dict[str, str]) -> tuple[Text, ...]:
        """The row's cells, in the Runs table's column order (after the chip)."""
        tone = _STATUS_TONES.get(row.status or "")
        style = tone_style(tone, variables) if tone else status_style(row.status, variables)
        what = row.suite or DASH if row.kind == "suite" else "task"
        if len(slugs_for(self.screen.app).slugs) > 1:
            what = f"{row.slug} · {what}"
        run = cell(row.run_id, max_len=40)
        run.append(f" {one_line(what, max_len=60)}", style="dim")
        return (
            run,
            cell(row.status, max_len=20, style=style),
            Text(row.progress_text()),
            cell(row.model_text(), max_len=40),
            _when(row.created_at),
            _when(row.finished_at),
            Text(format_duration(row.took_s)),
            cell(row.error, max_len=36),
        )

    def summary(self) -> str:
        if not self.loaded:
            return "Blobfish: loading benchmark runs…"
        slugs = ", ".join(one_line(s, max_len=40) for s in slugs_for(self.screen.app).slugs)
        active = sum(r.is_active for r in self.rows)
        pending = "" if self.pending_task is None else f" {PENDING_TASK.format(slug=one_line(self.pending_task, 60))}"
        return (
            f"Blobfish ({slugs}): {plural(len(self.rows), 'benchmark run')}, {active} in flight.{pending} "
            "b starts a benchmark run."
        )

    # ----------------------------------------------------------------- watching

    def watch(self, row: BenchRow) -> None:
        self.open_watch(row.slug, row.run_id, row.record)

    def open_watch(
        self,
        slug: str,
        run_id: str,
        record: SuiteRun | SingleRun | None = None,
        location: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        from tui.screens.runs.bench.watch import BenchWatchScreen

        self.screen.app.push_screen(
            BenchWatchScreen(slug, run_id, initial=record, location=location, retry_after=retry_after)
        )

    # ----------------------------------------------------------------- starting

    def start(self) -> None:
        self.starter.ask()
