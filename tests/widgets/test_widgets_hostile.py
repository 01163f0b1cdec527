"""Every hostile payload through every widget: no crash, no clickable action, inert output.

"Inert output" is checked on what would really reach the terminal: the compositor's full frame
rendered to the exact escape-sequence string a driver writes (``LayoutUpdate.render_segments``),
with a true-colour console. Only SGR colours and the compositor's own cursor positioning may
appear in it; plus every segment of the frame is checked for ``@click`` meta and links.
"""

from __future__ import annotations

import io
from datetime import UTC

import pytest
from rich.console import Console
from textual.app import App, ComposeResult
from textual.containers import Vertical

from tests.support.hostile_payloads import HOSTILE, assert_inert, assert_segments_inert
from widgets.bars import ProgressLine, RateBar, TokenBar
from widgets.log_list import LogList, LogRow
from widgets.plots import BarChart, TimeSeriesPlot
from widgets.text_viewer import TextViewer


def hostile_row(payload: str, index: int) -> LogRow:
    return LogRow(
        id=f"row-{index}",
        created_at=1_700_000_000_000 + index,
        source=payload[:30],
        latency_ms=index,
        finish_reason=payload[:12],
        status="error" if index % 2 else "ok",
        badges=("loop", payload[:20]),
        prompt_preview=payload[:240],
        reply_preview=payload[-240:],
    )


class HostileApp(App[None]):
    CSS = "LogList { height: 8; } TextViewer { height: 10; } TimeSeriesPlot, BarChart { height: 10; }"

    def __init__(self, payload: str) -> None:
        super().__init__()
        self.payload = payload

    def compose(self) -> ComposeResult:
        payload = self.payload
        with Vertical():
            yield LogList([hostile_row(payload, i) for i in range(5)], tz=UTC)
            yield TextViewer(payload)
            yield TokenBar(10, 20, payload[:50])
            yield RateBar(payload[:200], 1, 3, None)
            yield ProgressLine(1, 2, 0.5, payload[:100])
            yield BarChart(payload[:100], [payload[:40], "ok"], [1.0, 2.0], highlight=payload[:40])
            yield TimeSeriesPlot(
                payload[:100], [1_700_000_000_000, 1_700_000_060_000], [1.0, 2.0], y_label=payload[:20], tz=UTC
            )


def terminal_frame(app: App[None]) -> tuple[str, list]:
    """The exact string a real driver would write for a full repaint, and its strips."""
    console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=app.size.width)
    update = app.screen._compositor.render_full_update()
    return update.render_segments(console), update.strips


@pytest.mark.parametrize(("name", "payload"), HOSTILE, ids=[n for n, _ in HOSTILE])
async def test_hostile_payload_through_every_widget(name: str, payload: str) -> None:
    app = HostileApp(payload)
    async with app.run_test(size=(120, 60)) as pilot:
        await pilot.pause()
        log_list = app.query_one(LogList)
        viewer = app.query_one(TextViewer)
        for widget in (log_list, viewer):
            for y in range(widget.scrollable_content_region.height):
                assert_segments_inert(widget.render_line(y))
        await pilot.press("w")  # whitespace view of the same text
        await pilot.pause()
        for y in range(viewer.scrollable_content_region.height):
            assert_segments_inert(viewer.render_line(y))
        for bar in app.query("TokenBar, RateBar, ProgressLine"):
            rendered = bar.render()
            assert not any("@click" in str(span.style) for span in rendered.spans)  # type: ignore[union-attr]
        frame, strips = terminal_frame(app)
        assert_inert(frame, allow_cursor_position=True)
        for line in strips:
            for strip in line:
                assert_segments_inert(strip)
        assert app.is_running  # no crash, no action ran (app.quit would have stopped it)


class RawApp(App[None]):
    """A control: Textual's own Static/TextArea write untrusted text through as it is."""

    def compose(self) -> ComposeResult:
        from rich.text import Text
        from textual.widgets import Static, TextArea

        payload = dict(HOSTILE)["osc52-bel"]
        yield Static(Text(payload))
        yield TextArea(payload, read_only=True)


async def test_frame_check_catches_what_textual_lets_through() -> None:
    app = RawApp()
    async with app.run_test(size=(80, 8)) as pilot:
        await pilot.pause()
        frame, _ = terminal_frame(app)
        with pytest.raises(AssertionError, match="raw ESC"):
            assert_inert(frame, allow_cursor_position=True)
