"""Leaderboard's "Community board" tab: a Blobfish benchmark's community runs.

Per benchmark slug (typed in the tab; the platform has no list of benchmarks to choose from),
the rows best mean score first, the person's rows marked, each row's coverage and its badge
verbatim, under a line that says this is not the official leaderboard. ``p`` publishes one of
the person's completed suite runs (chosen from the platform's run list), ``d`` deletes one of
the person's rows after a confirmation. Every write goes through
``application.leaderboard.bench_board`` (sent once; a lost answer is settled by reading the board).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, ListView, Static

from api_client.blobfish.benchmarks import BenchmarkClient
from api_client.blobfish.shapes_bench import CommunityRow
from api_client.errors import BlahError
from application.leaderboard.bench_board import (
    EXAMPLE_SLUG,
    HONESTY_LINE,
    board_error,
    by_mean_score,
    delete_once,
    publishable,
)
from application.leaderboard.bench_error_bars import community_reading, load_own_runs
from application.leaderboard.error_bars import mde_sentence, mean_cell, tier_sentence
from application.runs.bench.known import remember_slug
from application.session.context import AppContext
from tui.app_protocol import BlahAppApi
from tui.cell_format import fmt_score, tone_style
from tui.screens.leaderboard.community_rows import (
    PLATFORM_CHIP,
    CommunityRowDetail,
    CommunityRowItem,
    tasks_graded_passed,
)
from tui.screens.leaderboard.pick_suite import SuiteRunPickerScreen
from tui.screens.leaderboard.publish import PublishBenchRunScreen
from tui.send_once import SendOnce
from widgets.caption import Caption
from widgets.safe_text import one_line_text

__all__ = ["CommunityBoard"]

NOT_CONFIGURED = (
    "Blobfish is not configured: set BLOBFISH_API_KEY (a bf_ key), or start with --demo, to see "
    "a benchmark's community board."
)
ASK_SLUG = f"Type a benchmark's slug (the last part of its page's address, e.g. {EXAMPLE_SLUG}) and press Enter."


if TYPE_CHECKING:
    from diagnosis.board_reading import BoardReading


class CommunityBoard(Vertical):
    """The tab's content. ``load()``, ``publish()``, ``delete()`` are the screen's keys."""

    DEFAULT_CSS = """
    CommunityBoard { height: 1fr; }
    CommunityBoard #cb-top { height: auto; padding: 0 1; }
    CommunityBoard #cb-chip { background: $accent; color: $background; text-style: bold; width: auto;
                              margin-right: 1; }
    CommunityBoard #cb-slug-label { width: auto; margin-right: 1; padding-top: 0; }
    CommunityBoard #cb-slug { width: 34; height: 1; border: none; padding: 0 1; }
    CommunityBoard #cb-keys { width: 1fr; height: 1; color: $foreground-muted; margin-left: 1; }
    CommunityBoard #cb-honesty { height: auto; padding: 0 1; background: $warning 20%; text-style: bold; }
    CommunityBoard #cb-caption { height: auto; padding: 0 1; }
    CommunityBoard #cb-rows { height: 1fr; }
    CommunityBoard #cb-rows > ListItem { padding: 0 1; }
    CommunityBoard #cb-detail { height: auto; max-height: 6; padding: 0 1; border-top: solid $primary 40%; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[CommunityRow] = []
        self.reading: BoardReading | None = None  # intervals where per-task scores are known
        self.loaded_slug: str | None = None  # the slug whose rows are shown
        self.read_slug: str | None = None  # the slug last asked for, once its answer (or error) is shown
        self.loaded = False
        self.write = SendOnce(self, group="community.write")
        """A write (publish or delete) is under way: the keys send nothing more."""

    # ----------------------------------------------------------------- the session

    @property
    def ctx(self) -> AppContext:
        return cast("BlahAppApi", self.app).ctx

    @property
    def client(self) -> BenchmarkClient | None:
        return cast(BenchmarkClient | None, self.ctx.bench)

    @property
    def slug(self) -> str:
        return self.query_one("#cb-slug", Input).value.strip()

    def compose(self) -> ComposeResult:
        with Horizontal(id="cb-top"):
            yield Static(Text(PLATFORM_CHIP), id="cb-chip")
            yield Label(Text("Benchmark"), id="cb-slug-label")
            yield Input(EXAMPLE_SLUG if self.ctx.demo else "", id="cb-slug", placeholder=EXAMPLE_SLUG)
            yield Static(
                Text("⏎ load · p publish a suite run · d delete yours · r refresh", no_wrap=True, overflow="ellipsis"),
                id="cb-keys",
            )
        yield Static(Text(HONESTY_LINE), id="cb-honesty")
        yield Caption(id="cb-caption")
        yield ListView(id="cb-rows")
        yield CommunityRowDetail(Text(""), id="cb-detail")

    # ----------------------------------------------------------------- reading the board

    def activate(self) -> None:
        """The tab came into view: read the board the first time (no request before that)."""
        if not self.loaded:
            self.load()
        if self.slug or self.client is None:
            self.query_one("#cb-rows", ListView).focus()
        else:
            self.query_one("#cb-slug", Input).focus()

    @on(Input.Submitted, "#cb-slug")
    def _slug_entered(self, event: Input.Submitted) -> None:
        event.stop()
        self.load()
        self.query_one("#cb-rows", ListView).focus()

    def _caption(self, text: Text | str, *, error: bool = False) -> None:
        self.query_one("#cb-caption", Caption).say(text, error=error)

    @work(exclusive=True, group="community.load", exit_on_error=False)
    async def load(self, select: str | None = None) -> None:
        """Read the board of the typed slug; keep (or move to ``select``) the highlighted row."""
        self.loaded = True
        client, slug = self.client, self.slug
        if client is None:
            await self._show([], None)
            self._caption(NOT_CONFIGURED)
            return
        if not slug:
            await self._show([], None)
            self._caption(ASK_SLUG)
            return
        self._caption(Text("reading the board…", style="italic"))
        try:
            board = await client.board(slug)
        except (BlahError, ValueError) as error:
            await self._show([], None)
            message = board_error(error, slug) if isinstance(error, BlahError) else f"Not a benchmark slug: {error}"
            self._caption(one_line_text(message, max_len=300), error=True)
            self.read_slug = slug
            return
        keep = select or self._highlighted_id()
        remember_slug(slug, "board")  # Runs lists it from now on (the platform has no list of benchmarks)
        self.loaded_slug = slug
        rows = by_mean_score(board.community_runs)
        self.reading = community_reading(rows, await load_own_runs(client, slug, rows))
        await self._show(rows, keep)
        self._caption(self._summary(slug))
        self.read_slug = slug

    def _summary(self, slug: str) -> Text:
        text = Text(end="")
        text.append_text(one_line_text(slug, max_len=60, style="bold"))
        if not self.rows:
            text.append(": the platform returned no community runs for this benchmark.")
            return text
        mine = sum(1 for row in self.rows if row.mine)
        text.append(
            f": {len(self.rows)} community run{'s' if len(self.rows) != 1 else ''}, best mean score "
            f"first · {mine} yours"
        )
        if all(row.mine is None for row in self.rows):
            text.append(
                " · the platform marked no row either way (it does so only for a request with your key)", style="italic"
            )
        text.append("\npass rates: 95% Wilson intervals from each row's graded/passed counts · mean scores: ")
        reading = self.reading
        measured = [e for e in reading.entries if e.estimate is not None] if reading is not None else []
        if not measured:
            text.append("averages only (the board sends no per-task scores): no interval, no tier")
        else:
            text.append(
                f"intervals for your {len(measured)} row{'s' if len(measured) != 1 else ''} from "
                f"{'their' if len(measured) != 1 else 'its'} tasks, averages only for the rest"
            )
            if len(measured) > 1 and reading is not None:
                text.append(f" · {tier_sentence(reading)} · {mde_sentence(reading, 'tasks')}")
        return text

    async def _show(self, rows: list[CommunityRow], select: str | None) -> None:
        self.rows = rows
        variables = self.app.get_css_variables()
        mine_style: Style | str = tone_style("accent", variables, bold=True)
        listing = self.query_one("#cb-rows", ListView)
        await listing.clear()
        estimates = {e.model: e.estimate for e in self.reading.entries} if self.reading is not None else {}
        await listing.extend(
            CommunityRowItem(
                rank,
                row,
                mine_style,
                mean_cell(estimate) if (estimate := estimates.get(row.community_run_id)) else None,
            )
            for rank, row in enumerate(rows, start=1)
        )
        index = next((i for i, row in enumerate(rows) if row.community_run_id == select), 0 if rows else None)
        listing.index = index
        self._show_detail()

    def _highlighted(self) -> CommunityRow | None:
        index = self.query_one("#cb-rows", ListView).index
        return self.rows[index] if index is not None and 0 <= index < len(self.rows) else None

    def _highlighted_id(self) -> str | None:
        row = self._highlighted()
        return row.community_run_id if row is not None else None

    @on(ListView.Highlighted, "#cb-rows")
    def _show_detail(self) -> None:
        row = self._highlighted()
        self.query_one("#cb-detail", CommunityRowDetail).show(row)

    # ----------------------------------------------------------------- writes

    @property
    def busy(self) -> bool:
        """A write (publish or delete) is under way (the leaderboard holds its reload then)."""
        return self.write.busy

    def _ready_to_write(self, what: str) -> BenchmarkClient | None:
        if self.write.busy:
            return None
        if self.client is None:
            self.notify(NOT_CONFIGURED, severity="warning", markup=False)
            return None
        if not self.slug:
            self.notify(f"Type a benchmark's slug first, then {what}.", severity="warning", markup=False)
            self.query_one("#cb-slug", Input).focus()
            return None
        return self.client

    def publish(self) -> None:
        client = self._ready_to_write("publish")
        if client is not None:
            slug = self.slug
            self.write.start(lambda: self._publish(client, slug))

    async def _publish(self, client: BenchmarkClient, slug: str) -> None:
        """Pick the run; the publish dialog asks, sends once and settles a lost answer itself."""
        try:
            runs = publishable(await client.list_runs(slug))
        except (BlahError, ValueError) as error:
            self.notify(f"Couldn't read your runs of this benchmark: {error}", severity="error", markup=False)
            return
        if not runs:
            self.notify(
                "You have no completed suite run of this benchmark to publish: start one in Runs (3).",
                severity="warning",
                markup=False,
            )
            return
        run_id = await self.app.push_screen_wait(SuiteRunPickerScreen(slug, runs))
        if run_id is None:
            return
        row = await self.app.push_screen_wait(PublishBenchRunScreen(slug, run_id))
        self.write.release()
        if row is not None and self.is_attached:
            self.load(select=row.community_run_id)

    def delete(self) -> None:
        row = self._highlighted()
        if row is None:
            self.notify("No row is highlighted.", severity="warning", markup=False)
            return
        if not row.mine:
            self.notify(
                "Only your own rows (marked ◀ yours) can be deleted; this one is not marked as yours.",
                severity="warning",
                markup=False,
            )
            return
        client = self._ready_to_write("delete")
        if client is not None and self.loaded_slug is not None:
            slug = self.loaded_slug
            self.write.start(lambda: self._delete(client, slug, row))

    async def _delete(self, client: BenchmarkClient, slug: str, row: CommunityRow) -> None:
        body = Text("Delete ", end="")
        body.append_text(one_line_text(row.display_name or "(no display name)", max_len=80, style="bold"))
        body.append(" (")
        body.append_text(one_line_text(row.community_run_id, max_len=40))
        body.append(") from the community board of ")
        body.append_text(one_line_text(slug, max_len=60))
        body.append(f"?\nmean {fmt_score(row.mean_score)} · tasks/graded/passed {tasks_graded_passed(row)}")
        body.append("\nThe suite run itself is kept; it can be published again.")
        if not await self.write.confirm("Delete your community run?", body, label="Delete", danger=True):
            return
        # a lost answer is settled by delete_once (it reads the board)
        outcome = await self.write.send(lambda: delete_once(client, slug, row.community_run_id))
        self.write.release()
        self.notify(
            outcome.message, title="Delete", markup=False, severity="information" if outcome.kind == "done" else "error"
        )
        if self.is_attached:
            self.load()
