"""The Logs screen's data side: its state and the workers that fill it (boot, tail, older
history, filters, totals, badges), as an object the screen holds (``LogsScreen.loader``).

The loader runs its work in the screen's workers and tells the screen what changed through
``LogsView``, the few drawing calls ``LogsScreen`` (screen.py) implements: composition, so
neither class has to know the other's insides.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from textual.notifications import SeverityLevel

from api_client.archives.archive import LogFilter
from api_client.errors import BlahError
from application.logs.feed import LogsFeed
from application.logs.rows import LogRows, highlight_terms
from tui.base_screen import describe_error
from tui.messages import ConnectionState
from widgets.log_list import LogList

if TYPE_CHECKING:
    from api_client.blahdev.shapes import LogStats

__all__ = ["FILL_ROWS", "OLDER_PAGES", "PLOT_EVERY_S", "STATS_EVERY_S", "LogsLoader", "LogsView"]

STATS_EVERY_S = 30.0
"""The platform's totals are asked again at most this often while calls arrive."""
PLOT_EVERY_S = 5.0
"""The plots are redrawn at most this often while calls arrive."""
OLDER_PAGES = 5
"""Pages of history asked for at most per step back (a filter may keep none of a page)."""
FILL_ROWS = 100
"""After a filter is set, older history is loaded until this many rows match (or it ends)."""


class LogsView(Protocol):
    """What the loader needs of the screen that shows its rows (``LogsScreen`` is one)."""

    @property
    def log_list(self) -> LogList: ...
    @property
    def blah_app(self) -> Any: ...
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> Any: ...
    def run_worker(
        self, work: Coroutine[Any, Any, None], *, group: str, exclusive: bool, exit_on_error: bool = True
    ) -> Any: ...
    def _gone(self) -> bool:
        """The screen is being taken down: a worker back from a wait stops, touching nothing."""
        ...

    def _show_rows(self, rows: LogRows, *, follow: bool) -> None: ...
    def _refresh_view(self) -> None: ...
    def _update_tail(self) -> None: ...
    def _update_totals(self) -> None: ...
    def _update_filters(self) -> None: ...
    def _update_message(self) -> None: ...
    def _update_plot(self) -> None: ...


class LogsLoader:
    """State and workers of the Logs screen (see the module docstring)."""

    def __init__(self, view: LogsView) -> None:
        self._view = view
        self.feed: LogsFeed | None = None
        self._migration_quarter = -1  # the last quarter of an archive migration shown
        self.filter = LogFilter()
        self.stats: LogStats | None = None
        self.stats_error: str | None = None
        self.loaded = False
        self.load_error: str | None = None
        self.tail_state: Any = None
        self.tail_state_at = 0.0
        self.shown_count = 0
        self.shown_newest: int | None = None
        self.shown_first_id: str | None = None
        """The oldest row the list was told about (rows stored before it shift the list)."""
        self.last_stats = 0.0
        self.last_plot = 0.0
        self.older_note: str | None = None
        self.latest_retrying = False
        self.plot_stale = True
        self.to_oldest = False
        """True while ``g`` loads the whole history (a scroll to the top then asks nothing more)."""
        self.badges_note: str | None = None
        self.badges_ready = False
        """True once the stored badges follow today's rules (recomputed in the background)."""

    def start_over(self, feed: LogsFeed) -> None:
        """Another model's calls: forget what was loaded and shown (the filter stays)."""
        self.stats, self.stats_error, self.load_error = None, None, None
        self.loaded, self.tail_state, self.older_note = False, None, None
        self.badges_note, self.badges_ready = None, False
        self.shown_count, self.shown_newest, self.shown_first_id = 0, None, None
        self.feed = feed

    def note_shown(self, rows: LogRows) -> None:
        """The list was handed ``rows`` whole: what it shows now, and the plots are due."""
        self.shown_count = len(rows)
        self.shown_newest = rows.newest_ms()
        self.shown_first_id = rows.row(0).id if len(rows) else None
        self.last_plot = 0.0

    # ------------------------------------------------------------------ workers

    def boot(self) -> None:
        self._view.run_worker(self._boot(), group="logs-boot", exclusive=True)

    def _migration_progress(self, done: int, total: int) -> None:
        """An archive of an older layout is being rewritten (once; in the opening's thread):
        a notification when it starts, at every quarter and when it is done."""
        quarter = 4 * done // max(total, 1)
        if done and quarter == self._migration_quarter:
            return
        self._migration_quarter = quarter
        text = (
            f"Compacting the local archive for this version (once): {done:,} of {total:,} calls"
            if done < total
            else f"Local archive compacted: {total:,} calls"
        )
        self._view.blah_app.call_from_thread(self._view.notify, text, title="Archive", markup=False, timeout=8)

    async def _boot(self) -> None:
        feed = self.feed
        assert feed is not None
        feed.on_migration = self._migration_progress
        await feed.open()
        if self._view._gone():
            return
        for note in feed.notes:
            self._view.notify(note, title="Archive", severity="warning", markup=False, timeout=10)
        self._view.log_list.has_older = not feed.history_complete
        self._view._show_rows(feed.rows, follow=True)
        self.refresh_badges()
        if feed.rows.filter != self.filter:  # the person filtered while it was opening
            self.apply_filter()
        if feed.offline:
            self.loaded = True
            self._view._refresh_view()
            return
        try:
            self.stats = await feed.load_latest()
            self.stats_error = None
            self.last_stats = time.monotonic()
            self._view.blah_app.note_connection(None)
        except BlahError as error:
            self.stats_error = self.load_error = describe_error(error)
            self._view.blah_app.note_connection(error)
            self._view.notify(self.load_error, title="Couldn't load the latest calls", severity="error", markup=False)
        if self._view._gone():
            return
        self.loaded = True
        self._rows_grew()
        self._view._update_plot()
        self._view._refresh_view()
        self.run_tail()

    def refresh_badges(self) -> None:
        self._view.run_worker(self._refresh_badges(), group="logs-badges", exclusive=True)

    async def _refresh_badges(self) -> None:
        feed = self.feed
        if feed is None or not feed.badges_stale:
            self.badges_ready = True
            return
        self.badges_note = "computing badges…"
        self._view._update_filters()
        changed = await feed.refresh_badges()
        if self._view._gone():
            return
        self.badges_note = None
        if changed and feed is self.feed:
            feed.rows.refresh()
            self._view.log_list.set_rows(feed.rows, follow=self._view.log_list.following)
            self.shown_count = len(feed.rows)
            self.shown_first_id = feed.rows.row(0).id if len(feed.rows) else None
        self.badges_ready = True
        self._view._update_filters()

    def run_tail(self) -> None:
        self._view.run_worker(self._run_tail(), group="logs-tail", exclusive=True)

    async def _run_tail(self) -> None:
        feed = self.feed
        assert feed is not None

        def on_state(state: Any) -> None:
            if feed is self.feed:  # a tail of a previous model may still report as it stops
                self._on_tail_state(state)

        async for _new in feed.tail(on_state):
            if self._view._gone():
                return
            self.load_error = None
            self._rows_grew()
            now = time.monotonic()
            if now - self.last_stats > STATS_EVERY_S:
                self.last_stats = now
                self.refresh_totals()
        self._view._update_tail()

    def retry_latest(self) -> None:
        self._view.run_worker(self._retry_latest(), group="logs-latest", exclusive=True, exit_on_error=False)

    async def _retry_latest(self) -> None:
        """The newest page failed to load at start (e.g. the platform was unreachable) and the
        tail now reaches the platform: load it after all. Without this the list would only
        ever hold what arrives from now on, with the platform's history out of reach."""
        feed = self.feed
        if feed is None or feed.offline:
            return
        self.latest_retrying = True
        try:
            self.stats = await feed.load_latest()
        except BlahError as error:
            self.stats_error = describe_error(error)
            return
        finally:
            self.latest_retrying = False
        if self._view._gone():
            return
        self.stats_error = self.load_error = None
        self.last_stats = time.monotonic()
        self._rows_grew()
        self._view._update_plot()
        self._view._refresh_view()

    def refresh_totals(self) -> None:
        self._view.run_worker(self._refresh_totals(), group="logs-totals", exclusive=True)

    async def _refresh_totals(self) -> None:
        if self.feed is None or self.feed.offline:
            return
        try:
            self.stats = await self.feed.fetch_stats()
            if self._view._gone():
                return
            self.stats_error = None
            self._view.blah_app.note_connection(None)
        except BlahError as error:
            self.stats_error = describe_error(error)
            self._view.blah_app.note_connection(error)
        self._view._update_totals()

    def load_older(self, *, to_oldest: bool = False, fill: int = 0) -> None:
        self._view.run_worker(self._load_older(to_oldest=to_oldest, fill=fill), group="logs-older", exclusive=True)

    async def _load_older(self, *, to_oldest: bool = False, fill: int = 0) -> None:
        """Older history for the current filter, from the platform (asked for the filter's
        source and errors itself): by default until one more row matches (at most
        ``OLDER_PAGES`` pages); with ``fill`` until that many rows match (a filter was just
        set); with ``to_oldest`` all of it, then the cursor goes to the oldest (``g``)."""
        feed = self.feed
        if feed is None:
            return
        self.to_oldest = to_oldest
        try:
            await self._page_older(feed, to_oldest=to_oldest, fill=fill)
        finally:
            self.to_oldest = False

    async def _page_older(self, feed: LogsFeed, *, to_oldest: bool, fill: int) -> None:
        rows = feed.rows
        if feed.history_complete_for(rows.filter):
            self._view.log_list.has_older = False
            self.older_note = "start of the file" if feed.offline else "start of history reached"
            if to_oldest:
                self._view.log_list.move_cursor_to(0)
            self._view._update_filters()
            return
        self.older_note = "loading older calls…"
        self._view._update_filters()
        start = len(rows)
        done = False
        pages = idle_pages = 0
        try:
            while not done:
                added, done = await feed.older(rows.filter)
                if self._view._gone() or feed.rows is not rows:
                    return  # another filter took over: its own load follows
                pages += 1
                idle_pages = 0 if added else idle_pages + 1
                await feed.reload_rows()
                if self._view._gone() or feed.rows is not rows:
                    return
                self._take_prepended()
                if to_oldest:
                    self.older_note = f"loading older calls… {len(rows):,} loaded"
                    self._view._update_filters()
                    if idle_pages >= OLDER_PAGES:
                        break  # the platform keeps sending what is held: say so below
                elif pages >= OLDER_PAGES or len(rows) >= max(fill, start + 1):
                    break
        except BlahError as error:
            if self._view._gone():
                return
            self._view.blah_app.note_connection(error)
            self.older_note = f"couldn't load older calls: {describe_error(error)}"
            self._view.log_list.set_rows(rows, follow=False)  # re-arms NeedOlder for a retry
            self._view._update_filters()
            return
        self._view.blah_app.note_connection(None)
        self.older_note = None
        if done:
            self._view.log_list.has_older = False
            self.older_note = "start of history reached"
        elif len(rows) == start:
            self.older_note = "no older calls match the filters in the last pages; ↑ to look further"
            self._view.log_list.set_rows(rows, follow=False)
        if to_oldest:
            self._view.log_list.move_cursor_to(0)
        self._view._refresh_view()

    def apply_filter(self, debounce: float = 0.0) -> None:
        self._view.run_worker(self._apply_filter(debounce), group="logs-filter", exclusive=True)

    async def _apply_filter(self, debounce: float = 0.0) -> None:
        if debounce:
            await asyncio.sleep(debounce)
        if self.feed is None or not self._loaded_rows_ready():
            return
        wanted = self.filter
        rows = await self.feed.filtered(wanted)
        if wanted != self.filter or self._view._gone():
            return
        self.feed.rows = rows
        self._view.log_list.set_highlight(highlight_terms(wanted.text))
        complete = self.feed.history_complete_for(wanted)
        self._view.log_list.has_older = not complete
        self.older_note = None
        self._view._show_rows(rows, follow=True)
        self._view._refresh_view()
        if not complete and len(rows) < FILL_ROWS and wanted != LogFilter() and not self.feed.offline:
            self.load_older(fill=FILL_ROWS)  # the filter applies to the whole history

    def _loaded_rows_ready(self) -> bool:
        return self.feed is not None and self.feed.badges_fn is not None

    # ------------------------------------------------------------------ rows and tail

    def _rows_grew(self) -> None:
        """New entries were stored: show them without losing the reader's place."""
        feed = self.feed
        if feed is None:
            return
        previous_newest = self.shown_newest
        feed.rows.refresh()
        self._take_prepended()  # older history may have landed too: shift by it first
        newest = feed.rows.newest_ms()
        delta = len(feed.rows) - self.shown_count
        appended_at_end = previous_newest is None or (newest is not None and newest >= previous_newest)
        if delta > 0 and appended_at_end and self._tail_only_newer(previous_newest):
            self.shown_count = len(feed.rows)
            self.shown_newest = newest
            self._view.log_list.notify_appended(delta)
            if self.shown_first_id is None:  # the first rows of an empty list
                self.shown_first_id = feed.rows.row(0).id
        elif delta != 0:
            self.shown_count = len(feed.rows)
            self.shown_newest = newest
            self.shown_first_id = feed.rows.row(0).id if len(feed.rows) else None
            self._view.log_list.set_rows(feed.rows, follow=self._view.log_list.following)
        self._view._update_message()
        self._view._update_filters()
        now = time.monotonic()
        if now - self.last_plot > PLOT_EVERY_S:
            self._view._update_plot()

    def _take_prepended(self) -> None:
        """Rows older than the first one the list shows were stored (older history): tell
        the list how many, so the cursor stays on its call, whether they arrive before, with
        or after new calls from the tail."""
        feed = self.feed
        first = self.shown_first_id
        if feed is None or first is None or len(feed.rows) == 0:
            return
        before = feed.rows.position(first)
        if before:
            self.shown_count += before
            self._view.log_list.notify_prepended(before)
        self.shown_first_id = feed.rows.row(0).id

    def _tail_only_newer(self, previous_newest: int | None) -> bool:
        """True when the rows after the ones shown are all at or after the newest shown."""
        feed = self.feed
        if feed is None or previous_newest is None or self.shown_count == 0:
            return True
        if self.shown_count > len(feed.rows):
            return False
        first_new = feed.rows.row(self.shown_count)
        last_old = feed.rows.row(self.shown_count - 1)
        return (first_new.created_at or 0) >= (last_old.created_at or 0)

    def _on_tail_state(self, state: Any) -> None:
        if self._view._gone():  # the tail reports "stopped" as the app quits: nothing to show it on
            return
        self.tail_state = state
        self.tail_state_at = time.monotonic()
        app = self._view.blah_app
        if state.phase in ("live", "idle_backoff"):
            app.note_connection(None)
            if self.loaded and self.stats is None and self.stats_error is not None and not self.latest_retrying:
                self.retry_latest()
        elif state.phase == "retrying" and hasattr(app, "connection"):
            app.connection = ConnectionState("error", "retrying")
        self._view._update_tail()
