"""Health (key 8): is it the model, or its host?

The platform's recent health checks of a model's endpoint as a timeline, the uptime (share of
checks that were ok, over how many checks and what time span), and the outage windows (runs
of consecutive failed checks, from ``application/health/windows.py``): failures inside one say the
endpoint was down, not that the model answered badly.
"""

from __future__ import annotations

from datetime import UTC
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from api_client.blahdev.shapes import Health
from api_client.errors import BlahError
from application.health.windows import (
    OutageWindow,
    last_ok_before,
    outage_windows,
    uptime,
    uptime_sentence,
)
from common.format import format_latency
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.cell_format import (
    DASH,
    cell,
    fmt_time,
    tone_style,
)
from tui.platform_work import platform_work
from tui.screens.runs.pick import ask_for_models
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.key_table import KeyTable
from widgets.plots import TimeSeriesPlot
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["HealthScreen", "uptime_sentence"]


class HealthScreen(BlahScreen):
    """Health checks of one model (the person's by default; ``m`` picks another)."""

    SCREEN_TITLE = "Health"
    DEFAULT_CSS = """
    HealthScreen #health-summary { height: auto; padding: 0 1; }
    HealthScreen #health-plots { height: 14; }
    HealthScreen #health-plots > TimeSeriesPlot { width: 1fr; }
    HealthScreen #health-windows-box { height: auto; max-height: 9; }
    HealthScreen #health-windows { height: auto; max-height: 8; }
    HealthScreen #health-checks-box { height: 1fr; }
    HealthScreen .pane-title { height: 1; padding: 0 1; text-style: bold; color: $primary; }
    HealthScreen #health-checks { height: 1fr; }
    """

    BINDINGS = [
        bindings.pick_model("health"),
        bindings.refresh("health"),
        Binding("tab", "app.focus_next", "Next table", show=False, id="health.next"),
    ]

    def __init__(self, model_id: str | None = None) -> None:
        super().__init__()
        self._model_id = model_id
        self.health: Health | None = None
        self.windows: list[OutageWindow] = []
        self.loaded = False

    @property
    def model_id(self) -> str:
        return self._model_id or self.ctx.model_id

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Caption("loading health checks…", id="health-summary")
        with Horizontal(id="health-plots"):
            yield TimeSeriesPlot("check ok (1 up, 0 down)", tz=UTC, id="health-ok-plot")
            yield TimeSeriesPlot("latency (ms; gaps: none measured)", tz=UTC, id="health-latency-plot")
        with Vertical(id="health-tables"):
            with Vertical(id="health-windows-box"):
                yield Static("Outage windows (consecutive failed checks)", classes="pane-title")
                yield KeyTable(
                    id="health-windows",
                    columns=(
                        ("Last ok (UTC)", "last_ok"),
                        ("First failed (UTC)", "from"),
                        ("Last failed (UTC)", "last"),
                        ("Back up (UTC)", "to"),
                        ("Checks", "n"),
                        ("Errors", "errors"),
                    ),
                )
            with Vertical(id="health-checks-box"):
                yield Static("Checks (newest first)", classes="pane-title")
                yield KeyTable(
                    id="health-checks",
                    columns=(
                        ("Time (UTC)", "time"),
                        ("OK", "ok"),
                        ("Latency", "latency"),
                        ("Status", "status"),
                        ("Error", "error"),
                    ),
                )
        yield KeyFooter()

    def on_mount(self) -> None:
        self.load()

    def on_model_switched(self, model_id: str) -> None:
        """The app is now about another model: show this screen for it."""
        self.load()

    @platform_work(
        exclusive=True, group="health.load", offline=("health-summary", "offline: health checks need the platform")
    )
    async def load(self, client: BlahClient) -> None:
        summary = self.query_one("#health-summary", Caption)
        try:
            health = await client.health(self.model_id)
        except BlahError as error:
            summary.say(
                f"couldn't load health of {one_line(self.model_id, max_len=60)}: {describe_error(error)}", error=True
            )
            raise
        summary.set_class(False, "error")
        self.health = health
        self.windows = outage_windows(health.checks)
        self.loaded = True
        self._show_data()

    def _show_data(self) -> None:
        assert self.health is not None
        variables = self.app.get_css_variables()
        bad, good = tone_style("error", variables, bold=True), tone_style("success", variables)
        checks = sorted(self.health.checks, key=lambda c: c.checked_at)
        up = uptime(checks)
        summary = Text(f"Health of {one_line(self.model_id, max_len=60)}: ", end="")
        summary.append(uptime_sentence(up))
        if up.counted:
            n = len(self.windows)
            summary.append(f" · {n} outage window{'s' if n != 1 else ''}", style=bad if n else "")
            if self.windows and self.windows[-1].end is None:
                summary.append(" · the latest checks failed: the endpoint may be down now", style=bad)
            summary.append(
                "\nA window runs from the first failed check to the next ok one: failed calls inside "
                "it say the host was down, not that the model answered badly.",
                style="dim",
            )
        self.query_one("#health-summary", Static).update(summary)

        xs = [c.checked_at for c in checks]
        self.query_one("#health-ok-plot", TimeSeriesPlot).set_data(
            xs, [None if c.ok is None else (1.0 if c.ok else 0.0) for c in checks]
        )
        self.query_one("#health-latency-plot", TimeSeriesPlot).set_data(
            xs, [None if c.latency_ms is None else float(c.latency_ms) for c in checks]
        )

        windows = self.query_one("#health-windows", KeyTable)
        windows.clear()
        for i, window in enumerate(reversed(self.windows)):
            windows.add_row(
                Text(fmt_time(last_ok_before(checks, window))),
                Text(fmt_time(window.start)),
                Text(fmt_time(window.last_failed_at)),
                Text("still down", style=bad) if window.end is None else Text(fmt_time(window.end)),
                Text(str(window.failed_checks)),
                cell(" · ".join(window.errors), max_len=36),
                key=f"w{i}",
            )
        if up.counted and not self.windows:
            windows.add_row(Text("no outage in these checks", style="dim"), *[Text("")] * 5)

        table = self.query_one("#health-checks", KeyTable)
        table.clear()
        for i, check in enumerate(reversed(checks)):
            ok = DASH if check.ok is None else ("ok" if check.ok else "FAIL")
            table.add_row(
                Text(fmt_time(check.checked_at)),
                Text(ok, style=good if check.ok else (bad if check.ok is False else "")),
                Text(format_latency(check.latency_ms)),
                Text(DASH if check.status_code is None else str(check.status_code)),
                cell(check.error, max_len=80),
                key=f"c{i}",
            )

    # ----------------------------------------------------------------- actions

    def action_refresh(self) -> None:
        self.load()

    @work(exclusive=True, group="health.pick", exit_on_error=False)
    async def action_pick_model(self) -> None:
        chosen = await ask_for_models(
            self,
            title="Health of which model?",
            hint="Choose one model (space toggles, y continues, Esc cancels).",
            preselected=[self.model_id],
            own_id=self.ctx.model_id,
            max_selected=1,
        )
        if chosen:
            self._model_id = chosen[0]
            self.load()
