"""Thin wrappers over textual-plotext: a time series with gaps, and a bar chart.

Both show a "no data" label instead of an empty (or zero) plot. Labels and titles are
sanitized before they reach plotext because ``PlotextPlot`` renders through
``Text.from_ansi``, which would honour an escape sequence (e.g. an OSC 8 link) in a label.
Series colours come from the app theme (``primary`` / ``accent`` / ``warning``) and follow
it when the person switches themes.

plotext is imported only when a frame first has data to draw (an app that shows no plot,
or only empty ones, never loads it: ~0.1 s of start-up).

Time labels: plotext's ``xticks`` puts the ticks through a ``set`` (``_utility.brush``), so
the order in which it then places their labels depends on the per-process string hash
seed; where labels do not all fit, which ones it keeps differed from run to run. The time
series therefore asks for only as many labels as fit with room to spare
(``time_tick_count``): then every label is drawn, wherever plotext starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Literal

from textual import events
from textual.app import ComposeResult
from textual.color import Color, ColorParseError
from textual.geometry import Size
from textual.theme import Theme
from textual.widget import Widget
from textual.widgets import Static

from widgets.safe_text import sanitize

if TYPE_CHECKING:
    from textual_plotext import PlotextPlot
    from textual_plotext.plot import Plot

__all__ = ["BarChart", "TimeSeriesPlot", "segments_without_gaps", "time_tick_count"]

NO_DATA = "no data"
_TICKS = 5
RGB = tuple[int, int, int]
_Y_TICKS = 7
"""plotext's default number of y ticks (``_default.yfrequency``): their labels' width takes
columns from the canvas."""


def segments_without_gaps(xs: Sequence[float], ys: Sequence[float | None]) -> list[tuple[list[float], list[float]]]:
    """Split a series at every ``None`` y (a gap, never a zero) into runs of real points."""
    runs: list[tuple[list[float], list[float]]] = []
    run_x: list[float] = []
    run_y: list[float] = []
    for x, y in zip(xs, ys, strict=True):
        if y is None:
            if run_x:
                runs.append((run_x, run_y))
                run_x, run_y = [], []
            continue
        run_x.append(x)
        run_y.append(y)
    if run_x:
        runs.append((run_x, run_y))
    return runs


def _label(text: str | None, max_len: int = 60) -> str:
    return sanitize(text, keep_newlines=False, max_len=max_len)


def _y_label_width(ys: Sequence[float]) -> int:
    """Columns plotext gives its y tick labels for these values (as plotext computes them)."""
    try:
        from plotext._utility import get_labels, get_lim, linspace  # type: ignore[import-untyped]  # plotext: no types

        return max(len(label) for label in get_labels(linspace(*get_lim(list(ys)), _Y_TICKS)))
    except Exception:
        return 12


def time_tick_count(plot_width: int, label_len: int, y_label_width: int, most: int = _TICKS) -> int:
    """How many evenly spaced x labels of ``label_len`` characters to ask plotext for, so
    that ticks are at least ``2 * label_len - 1`` columns apart on the canvas (``plot_width``
    minus the y labels and the two y axes). Closer than that, plotext shifts or drops labels
    depending on the order it places them in, which varies per process (see module doc):
    measured over widths, y ranges and placing orders, spacings up to ``2 * label_len - 1.5``
    could still differ (labels near the canvas edges are pushed inward). At least 1 (the
    newest time alone)."""
    canvas = plot_width - y_label_width - 2
    for count in range(most, 1, -1):
        if (canvas - 1) / (count - 1) >= 2 * label_len - 1:
            return count
    return 1


class PlotFrame(Widget):
    """A plot plus a "no data" label; exactly one of them is displayed. The plot widget
    (and plotext) is created the first time there is data to draw."""

    DEFAULT_CSS = """
    PlotFrame {
        height: 1fr;
        min-height: 5;
        & > .plot--nodata { color: $text-muted; text-style: italic; content-align: center middle; height: 1fr; }
    }
    """

    def __init__(
        self, title: str = "", *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._title = _label(title)
        self._plotext: PlotextPlot | None = None
        self._nodata = Static(NO_DATA if not self._title else f"{self._title}: {NO_DATA}", markup=False)
        self._nodata.add_class("plot--nodata")
        self._ready = False
        self._drawn_for: tuple[int, ...] | None = None

    def compose(self) -> ComposeResult:
        yield self._nodata

    @property
    def _plot(self) -> PlotextPlot:
        """The plotext widget, created (hidden) on first use."""
        if self._plotext is None:
            from textual_plotext import PlotextPlot

            self._plotext = PlotextPlot()
            self._plotext.display = False
        return self._plotext

    def on_mount(self) -> None:
        self._ready = True
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        self._redraw()

    def _theme_changed(self, theme: Theme) -> None:
        """Series colours come from the theme: draw again in the new one."""
        self._redraw()

    def on_resize(self, event: events.Resize) -> None:
        if self._plotext is not None and self.has_data and self._size_drawn_for(event.size) != self._drawn_for:
            self._redraw()  # how many time labels (or bar rows) fit depends on the size

    def _size_drawn_for(self, size: Size) -> tuple[int, ...]:
        """The part of the frame's size the drawing depends on (the width: how many labels fit)."""
        return (size.width,)

    @property
    def has_data(self) -> bool:
        raise NotImplementedError

    def _theme_rgb(self, variable: str, fallback: RGB) -> RGB:
        value = self.app.theme_variables.get(variable)
        try:
            return Color.parse(value).rgb if value else fallback
        except ColorParseError:  # a user theme with an unusable colour: keep the plot readable
            return fallback

    def _redraw(self) -> None:
        if not self._ready:
            return
        has_data = self.has_data
        no_room = self._no_room() if has_data else None
        self._nodata.update(no_room or (NO_DATA if not self._title else f"{self._title}: {NO_DATA}"))
        drawn = has_data and no_room is None
        self._nodata.display = not drawn
        if not drawn and self._plotext is None:
            return  # nothing drawn yet: no need to load plotext for an empty frame
        plot = self._plot
        if plot.parent is None:
            self.mount(plot, before=self._nodata)
        plot.display = drawn
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        self._drawn_for = self._size_drawn_for(self.size)
        if drawn:
            plt.title(self._title)
            self._draw(plt, self.size.width)
        plot.refresh()

    def _no_room(self) -> str | None:
        """Why the data cannot be drawn truthfully in the frame's size, or None."""
        return None

    def _draw(self, plt: Plot, width: int) -> None:
        raise NotImplementedError


_DATED_SPAN_MS = 12 * 3600 * 1000


class TimeSeriesPlot(PlotFrame):
    """Values over time. ``xs_ms`` are epoch milliseconds; a ``None`` value is a gap."""

    def __init__(
        self,
        title: str = "",
        xs_ms: Sequence[int] = (),
        ys: Sequence[float | None] = (),
        *,
        y_label: str = "",
        tz: tzinfo | None = None,
        y_range: tuple[float, float] | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """``y_range``: a fixed axis (a percentage's 0-100), so a series of one value (every
        call failed under a badge filter) is drawn against its scale, not around itself."""
        super().__init__(title, name=name, id=id, classes=classes)
        self._y_label = _label(y_label)
        self._y_range = y_range
        self._tz = tz
        self._xs: list[int] = []
        self._ys: list[float | None] = []
        self._store(xs_ms, ys)

    def _store(self, xs_ms: Sequence[int], ys: Sequence[float | None]) -> None:
        if len(xs_ms) != len(ys):
            raise ValueError(f"xs_ms has {len(xs_ms)} points but ys has {len(ys)}")
        self._xs, self._ys = list(xs_ms), list(ys)

    def set_data(self, xs_ms: Sequence[int], ys: Sequence[float | None]) -> None:
        self._store(xs_ms, ys)
        self._redraw()

    @property
    def has_data(self) -> bool:
        return any(y is not None for y in self._ys)

    def _tick(self, ms: float) -> str:
        """A time of day; with the date when the series spans more than a day's part, where
        a clock time alone would repeat (09:00 ... 08:57 ... 08:55 over 48 hours)."""
        span = (max(self._xs) - min(self._xs)) if self._xs else 0
        fmt = "%m-%d %H:%M" if span > _DATED_SPAN_MS else "%H:%M:%S"
        return datetime.fromtimestamp(ms / 1000, tz=self._tz).strftime(fmt)

    def _draw(self, plt: Plot, width: int) -> None:
        colour = self._theme_rgb("primary", (0, 135, 255))
        runs = segments_without_gaps(self._xs, self._ys)
        for run_x, run_y in runs:
            if len(run_x) == 1:
                plt.scatter(run_x, run_y, color=colour, marker="dot")
            else:
                plt.plot(run_x, run_y, color=colour, marker="braille")
        low, high = min(self._xs), max(self._xs)
        count = 1
        if high != low:
            values = [y for y in self._ys if y is not None]
            count = time_tick_count(width, len(self._tick(high)), _y_label_width(values))
        ticks = [float(high)] if count == 1 else [low + (high - low) * i / (count - 1) for i in range(count)]
        plt.xticks(ticks, [self._tick(t) for t in ticks])
        if self._y_range is not None:
            low_y, high_y = self._y_range
            plt.ylim(low_y, high_y)
            plt.yticks(
                [low_y, (low_y + high_y) / 2, high_y], [f"{low_y:g}", f"{(low_y + high_y) / 2:g}", f"{high_y:g}"]
            )
        if self._y_label:
            plt.ylabel(self._y_label)


class BarChart(PlotFrame):
    """One bar per label; ``highlight`` draws one bar in the accent colour. ``None`` = no bar,
    and the chart says which labels had no data."""

    def __init__(
        self,
        title: str = "",
        labels: Sequence[str] = (),
        values: Sequence[float | None] = (),
        *,
        highlight: str | None = None,
        horizontal: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(title, name=name, id=id, classes=classes)
        self._horizontal = horizontal
        self._labels: list[str] = []
        self._values: list[float | None] = []
        self._highlight: str | None = None
        self._store(labels, values, highlight)

    def _store(self, labels: Sequence[str], values: Sequence[float | None], highlight: str | None) -> None:
        if len(labels) != len(values):
            raise ValueError(f"{len(labels)} labels but {len(values)} values")
        self._labels = [_label(label, 30) for label in labels]
        self._values = list(values)
        self._highlight = None if highlight is None else _label(highlight, 30)

    def set_data(self, labels: Sequence[str], values: Sequence[float | None], *, highlight: str | None = None) -> None:
        self._store(labels, values, highlight)
        self._redraw()

    @property
    def has_data(self) -> bool:
        return any(v is not None for v in self._values)

    @property
    def missing_labels(self) -> list[str]:
        """Labels whose value is ``None`` (shown in the x label, never drawn as 0)."""
        return [label for label, value in zip(self._labels, self._values) if value is None]

    def _size_drawn_for(self, size: Size) -> tuple[int, ...]:
        return (size.width, size.height) if self._horizontal else (size.width,)

    def _bar_rows(self) -> tuple[int, int, int]:
        """Horizontal bars: (bars, rows each bar gets, rows the plot's frame around them
        takes). plotext puts a bar's label on the wrong bar when the canvas rows are not a
        multiple of the bars (6 bars in 7 rows labelled the 4th bar with the 5th's length):
        the plot is given the most rows that are a multiple, with bars half a step wide
        (checked for 1-12 bars at 1-5 rows each, with and without a title and an axis label)."""
        bars = sum(v is not None for v in self._values)
        chrome = 3 + bool(self._title) + bool(self.missing_labels)  # borders, tick labels, title, label
        return bars, (self.size.height - chrome) // max(bars, 1), chrome

    def _no_room(self) -> str | None:
        if not self._horizontal or self.size.height == 0:
            return None
        bars, each, chrome = self._bar_rows()
        if each >= 1:
            return None
        title = f"{self._title}: " if self._title else ""
        return f"{title}{bars} bars need {bars + chrome} rows; the terminal is too short to draw them"

    def _draw(self, plt: Plot, width: int) -> None:
        base = self._theme_rgb("primary", (0, 135, 255))
        accent = self._theme_rgb("accent", (255, 0, 135))
        pairs = [(label, v) for label, v in zip(self._labels, self._values) if v is not None]
        labels = [label for label, _ in pairs]
        orientation: Literal["horizontal", "vertical"] = "horizontal" if self._horizontal else "vertical"
        bar_width = 0.8  # plotext's own
        if self._horizontal and self.size.height:
            bar_width = 0.5
            bars, each, chrome = self._bar_rows()
            self._plot.styles.height = bars * each + chrome
        plain = [0.0 if label == self._highlight else v for label, v in pairs]
        plt.bar(labels, plain, color=base, orientation=orientation, width=bar_width)
        if self._highlight in labels:
            position = labels.index(self._highlight) + 1
            value = pairs[position - 1][1]
            plt.bar([position], [value], color=accent, orientation=orientation, width=bar_width, reset_ticks=False)
        if self.missing_labels:
            text = f"{NO_DATA}: " + ", ".join(self.missing_labels)
            (plt.ylabel if self._horizontal else plt.xlabel)(_label(text, 80))
