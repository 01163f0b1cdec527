"""Bars, plots and badges: missing numbers say "no data", never a drawn zero."""

from __future__ import annotations

from datetime import UTC

import pytest
from textual.app import App, ComposeResult

from widgets.badges import (
    BADGE_LABELS,
    badge_label,
    badge_text,
    legend_text,
    theme_badge_styles,
)
from widgets.bars import (
    ProgressLine,
    RateBar,
    TokenBar,
    progress_label,
    rate_label,
    token_label,
)
from widgets.plots import BarChart, TimeSeriesPlot, segments_without_gaps

BAR = "━"


# --------------------------------------------------------------------------- labels (pure)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((512, 512, "length"), "512/512 tokens · cut off by the limit"),
        ((80, 512, "stop"), "80/512 tokens · chose to stop"),
        ((None, 512, "stop"), "tokens no data / limit 512 · chose to stop"),
        ((40, None, None), "tokens 40 / limit no data · finish reason: no data"),
        ((None, None, "error"), "tokens: no data · the call failed"),
        ((3, 4, "weird\x1b]0;t\x07"), "3/4 tokens · finish reason: weird^[]0;t^G"),
    ],
)
def test_token_label(args: tuple[int | None, int | None, str | None], expected: str) -> None:
    assert token_label(*args) == expected


def test_rate_and_progress_labels() -> None:
    assert rate_label("loop", 12, 200, None) == "loop  12/200 (6.0%)"
    assert rate_label("loop", 12, 200, 0.25) == "loop  12/200 (25.0%)"  # the service's rate wins
    assert rate_label("empty", None, None, None) == "empty  no data"
    assert rate_label("cut", None, None, 0.5) == "cut  50.0% (counts: no data)"
    assert rate_label("x", 0, 0, None) == "x  0/0 (no data)"
    assert rate_label("\x1b[2Jevil", 1, 2, None).startswith("^[[2Jevil")
    assert progress_label(40, 120, 2.5, "32s") == "40/120 · 2.5/s · ETA 32s"
    assert progress_label(None, None, None, None) == "no data/no data · no data · ETA no data"


# --------------------------------------------------------------------------- bar widgets


class BarsApp(App[None]):
    def compose(self) -> ComposeResult:
        yield TokenBar(512, 512, "length", id="cut")
        yield TokenBar(100, 400, "stop", id="stop")
        yield TokenBar(None, 512, "stop", id="unknown")
        yield RateBar("loop", 12, 200, None, id="rate")
        yield RateBar("empty", None, None, None, id="norate")
        yield ProgressLine(30, 120, 1.5, "1m", id="progress")
        yield ProgressLine(30, None, None, None, id="noprogress")


async def test_bars_draw_only_known_ratios() -> None:
    app = BarsApp()
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()

        def plain(selector: str) -> str:
            return app.query_one(selector).render().plain  # type: ignore[union-attr]

        cut = plain("#cut")
        assert cut.endswith("512/512 tokens · cut off by the limit")
        bar = cut.split(" ")[0]
        assert set(bar) == {BAR}
        stop_bar = app.query_one("#stop", TokenBar).render()
        filled = [s for s in stop_bar.spans if s.end <= len(stop_bar.plain.split(" ")[0])]
        assert len(filled) == 2  # filled part and empty part are styled differently
        assert filled[0].end * 4 == pytest.approx(filled[1].end, abs=4)  # 100/400 = a quarter
        for selector in ("#unknown", "#norate", "#noprogress"):
            assert BAR not in plain(selector) and "no data" in plain(selector)
        assert plain("#rate").endswith("loop  12/200 (6.0%)")
        assert plain("#progress").endswith("30/120 · 1.5/s · ETA 1m")
        cut_widget = app.query_one("#cut", TokenBar)
        alert = cut_widget.get_component_rich_style("bar--alert", partial=True)
        assert cut_widget.render().spans[0].style == alert
        cut_widget.update(None, None, None)
        await pilot.pause()
        assert plain("#cut") == "tokens: no data · finish reason: no data"


# --------------------------------------------------------------------------- badges


def test_badges_have_short_labels_and_unknown_kinds_are_sanitized() -> None:
    assert badge_text("loop").plain == " LOOP "
    assert badge_text("LOOP").plain == " LOOP "
    assert badge_text("truncation").plain == " CUT "
    assert badge_label("\x1b]0;pwn\x07") == "^[]0;PWN"
    assert len(badge_label("a very long unknown kind")) <= 8
    legend = legend_text().plain
    for label in BADGE_LABELS.values():
        assert f" {label} " in legend


def test_theme_badge_styles_follow_theme_variables() -> None:
    styles = theme_badge_styles({"error": "#ff0000", "warning": "#ffaa00", "background": "#000000"})
    loop = styles["loop"]
    assert loop.bgcolor is not None and loop.bgcolor.triplet is not None
    assert loop.bgcolor.triplet.hex == "#ff0000"
    assert styles["truncation"].bgcolor.triplet.hex == "#ffaa00"  # type: ignore[union-attr]
    assert badge_text("loop", styles).style == loop


# --------------------------------------------------------------------------- plots


def test_gaps_split_series_instead_of_becoming_zero() -> None:
    runs = segments_without_gaps([1, 2, 3, 4, 5], [1.0, None, 3.0, 4.0, None])
    assert runs == [([1], [1.0]), ([3, 4], [3.0, 4.0])]
    assert segments_without_gaps([1, 2], [None, None]) == []


class PlotsApp(App[None]):
    def compose(self) -> ComposeResult:
        xs = [1_700_000_000_000 + i * 60_000 for i in range(10)]
        yield TimeSeriesPlot("latency", xs, [float(i) if i != 4 else None for i in range(10)], tz=UTC, id="ts")
        yield TimeSeriesPlot("nothing", [], [], id="empty")
        yield TimeSeriesPlot("all gaps", xs[:3], [None, None, None], id="gaps")
        yield BarChart(
            "by model",
            ["alpha", "beta\x1b]8;;https://evil\x1b\\", "gamma"],
            [3.0, None, 5.0],
            highlight="gamma",
            id="bars",
        )


async def test_plots_show_no_data_label_instead_of_an_empty_plot() -> None:
    app = PlotsApp()
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.pause()
        ts = app.query_one("#ts", TimeSeriesPlot)
        assert ts.has_data and ts._plot.display and not ts._nodata.display
        rendered = ts._plot.render().plain  # type: ignore[union-attr]
        assert "22:13:20" in rendered  # x ticks are wall-clock times in the given tz
        for selector in ("#empty", "#gaps"):
            plot = app.query_one(selector, TimeSeriesPlot)
            assert not plot.has_data and not plot._plot.display and plot._nodata.display
            assert "no data" in str(plot._nodata.render())
        bars = app.query_one("#bars", BarChart)
        assert bars.missing_labels == ["beta^[]8;;https://evil^[\\"]
        chart = bars._plot.render()
        assert "no data: beta" in chart.plain  # type: ignore[union-attr]
        assert not any(span.style and "link" in str(span.style) for span in chart.spans)  # type: ignore[union-attr]
        ts.set_data([], [])
        await pilot.pause()
        assert not ts._plot.display and ts._nodata.display


MODELS = ["GPT-2 (base)", "TinyStories", "Gemma 2 9B", "Mystery 13B", "Mistral 7B", "Llama 3.1 8B"]
SCORES = [0.25, 0.55, 0.68, 0.71, 0.77, 0.79]


class ScoresApp(App[None]):
    """A leaderboard's horizontal bar chart in a frame ``rows`` high."""

    def __init__(self, rows: int) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        chart = BarChart("avg score", MODELS, SCORES, horizontal=True, highlight="TinyStories", id="chart")
        chart.styles.height = self.rows
        yield chart


def bar_lengths(chart: BarChart) -> dict[str, int]:
    """Each labelled row of the drawn chart: the label and how long its bar is."""
    lines = chart._plot.render().plain.splitlines()  # type: ignore[union-attr]
    return {line.split("┤")[0].strip(): line.split("┤")[1].count("█") for line in lines if "┤" in line}


@pytest.mark.parametrize("rows", [10, 11, 12, 13, 16, 23, 30])
async def test_each_label_of_a_horizontal_bar_chart_sits_on_its_own_bar_at_any_height(rows: int) -> None:
    """With few rows per bar plotext used to put a label on the next bar (6 bars in 11 rows
    drew "Mystery 13B" with Mistral's length and left Mystery's bar unlabelled)."""
    app = ScoresApp(rows)
    async with app.run_test(size=(80, 40)) as pilot:
        await pilot.pause()
        chart = app.query_one("#chart", BarChart)
        lengths = bar_lengths(chart)
        assert list(lengths) == list(reversed(MODELS))  # every model labelled, once, highest on top
        full = lengths["Llama 3.1 8B"]
        for model, score in zip(MODELS, SCORES, strict=True):
            assert abs(lengths[model] - score / max(SCORES) * full) <= 1.5, (model, lengths)  # a cell of rounding


async def test_a_bar_chart_too_short_for_its_bars_says_so_instead_of_drawing_wrong_bars() -> None:
    app = ScoresApp(8)
    async with app.run_test(size=(80, 40)) as pilot:
        await pilot.pause()
        chart = app.query_one("#chart", BarChart)
        assert not chart._plot.display and chart._nodata.display
        assert str(chart._nodata.render()) == "avg score: 6 bars need 10 rows; the terminal is too short to draw them"
        chart.styles.height = 10  # the person makes the terminal taller
        await pilot.pause()
        await pilot.pause()
        assert chart._plot.display and not chart._nodata.display
        assert list(bar_lengths(chart)) == list(reversed(MODELS))
