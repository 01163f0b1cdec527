"""errorbar bake-offs inside the Runs screen: their rows, their refresh, opening the watch.

``RunsScreen`` owns one ``BakeoffRuns`` (when ``ctx.errorbar`` is set) and draws its rows
beside the blah.dev runs with an ``errorbar`` chip. The list refreshes by the blah.dev rows'
rules: every 2 s while a bake-off is PENDING or RUNNING, backing off to 15 s while nothing
changes and on errors; otherwise once a minute (``runs_idle_refresh_s``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import App

from api_client.errors import BlahError
from application.bakeoffs.run_rows import BakeoffRow
from application.bakeoffs.screening import BakeoffPrefill
from common.format import plural
from common.iso_time import iso_ms
from tui.base_screen import BlahScreen, describe_error
from tui.cell_format import cell, fmt_time, tone_style
from tui.reload import Reload
from tui.screens.bakeoffs.create import BakeoffCreate
from tui.screens.bakeoffs.notify import note_bakeoff

if TYPE_CHECKING:
    from api_client.errorbar.client import ErrorbarClient

__all__ = ["BakeoffRuns"]

_TONES = {
    "DONE": "success",
    "RUNNING": "primary",
    "PENDING": "secondary",
    "ERROR": "error",
    "CANCELLED": "foreground-muted",
}


def _when(text: str | None) -> Text:
    """An ISO time as the blah.dev rows show theirs (UTC); as sent when it does not read as one."""
    ms = iso_ms(text)
    return Text(fmt_time(ms)) if ms is not None else cell(text, max_len=24)


class BakeoffRuns:
    """The errorbar part of the Runs screen."""

    def __init__(self, screen: BlahScreen, on_change: Callable[[], None]) -> None:
        """``on_change``: the rows changed (draw them)."""
        self.screen = screen
        self._on_change = on_change
        self.rows: list[BakeoffRow] = []
        self.problem: str | None = None
        self.loaded = False
        self._reload = Reload(
            screen, self.load, interval=2.0, max_interval=15.0, idle=lambda: screen.ctx.settings.runs_idle_refresh_s
        )
        self.creator = BakeoffCreate(screen, client=lambda: self.client, reload=lambda: self.load(now=True))
        """Queuing a new bake-off (``bakeoff_create``): one at a time, each sent once."""

    @property
    def client(self) -> ErrorbarClient | None:
        return self.screen.ctx.errorbar

    def row(self, key: str | None) -> BakeoffRow | None:
        return next((r for r in self.rows if r.key == key), None)

    # ----------------------------------------------------------------- loading

    def load(self, *, now: bool = False) -> None:
        """Read the list (``now``: the person asked, so back to the normal pace)."""
        if now:
            self._reload.now()
        if self.client is not None:
            self.screen.run_worker(self._load, group="runs.bakeoff.load", exclusive=True, exit_on_error=False)

    async def _load(self) -> None:
        client = self.client
        if client is None:  # (started only with a client)
            return
        try:
            runs = await client.list_runs()
        except BlahError as error:
            self._reload.after_error(error)  # fatal (key refused, ...): r asks again
            self.problem = f"couldn't load the errorbar bake-offs: {describe_error(error)}"
            self.loaded = True
            self._on_change()
            return
        before = {r.run.id: r for r in self.rows}
        rows = [BakeoffRow(run) for run in runs]
        for row in rows:  # a followed bake-off seen ending here is announced (once, app-wide)
            seen = before.get(row.run.id)
            note_bakeoff(
                self.screen.app,
                row.run,
                seen.run.status if seen else None,
                bell=self.screen.ctx.settings.bell_on_run_end,
            )
        changed = len(rows) != len(before) or any(r.changed_from(before.get(r.run.id)) for r in rows)
        self.rows, self.problem, self.loaded = rows, None, True
        self._on_change()
        # nothing moving: look again now and then (a bake-off may be queued elsewhere)
        self._reload.after_read(active=any(r.is_active for r in rows), progress=changed)

    # ----------------------------------------------------------------- drawing

    def cells(self, row: BakeoffRow, variables: dict[str, str]) -> tuple[Text, ...]:
        """The row's cells, in the Runs table's column order (after the chip): the id with its
        name and kind, status, progress, models, created, ended (not sent), took, error."""
        run = row.run
        tone = _TONES.get(run.status or "")
        status_style = tone_style(tone, variables) if tone else ""
        label = cell(run.id, max_len=24)
        label.append(" ")
        label.append_text(cell(run.name, max_len=28, style="bold"))
        label.append(f" · {row.kind}", style="dim")
        return (
            label,
            cell(run.status, max_len=20, style=status_style),
            Text(row.progress_text()),
            cell(row.models_text(), max_len=40),
            _when(run.created_at),
            Text(row.ended_text()),
            Text(row.ended_text()),
            cell(run.error, max_len=36),
        )

    def summary(self) -> str:
        if self.problem is not None:
            return self.problem
        if not self.loaded:
            return "errorbar: loading bake-offs…"
        active = sum(r.is_active for r in self.rows)
        count = len(self.rows)
        if count == 0:
            return "errorbar: no bake-offs yet. e queues one; s screens for a cheaper model."
        return (
            f"errorbar: {plural(count, 'bake-off')}, {active} in flight. Enter watches one; e queues a new one; "
            "s on one screens for a cheaper model."
        )

    # ----------------------------------------------------------------- watching

    def watch(self, row: BakeoffRow) -> None:
        from tui.screens.bakeoffs.watch import BakeoffWatchScreen

        app: App[object] = self.screen.app
        app.push_screen(BakeoffWatchScreen(row.run.id, initial=row.run))

    # ----------------------------------------------------------------- creating

    def create(self, prefill: BakeoffPrefill | None = None, candidates: list[str] | None = None) -> None:
        """``prefill``: the dialog's first values (a screening's recommendation); ``candidates``:
        ticked at the start."""
        self.creator.ask(prefill, candidates)
