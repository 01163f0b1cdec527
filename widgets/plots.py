"""Thin wrappers over textual-plotext: a time series with gaps, and a bar chart.

Both show a "no data" label instead of an empty (or zero) plot. Labels and titles are
sanitized before they reach plotext because ``PlotextPlot`` renders through
``Text.from_ansi``, which would honour an escape sequence (e.g. an OSC 8 link) in a label.
Series colours come from the app theme (``primary`` / ``accent`` / ``warning``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo

from textual.app import ComposeResult
from textual.color import Color, ColorParseError
from textual.widget import Widget
from textual.widgets import Static
from textual_plotext import PlotextPlot

from widgets.safe_text import sanitize

__all__ = ["BarChart", "TimeSeriesPlot", "segments_without_gaps"]

NO_DATA = "no data"
_TICKS = 5
RGB = tuple[int, int, int]


def segments_without_gaps(
    xs: Sequence[float], ys: Sequence[float | None]
) -> list[tuple[list[float], list[float]]]:
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


class PlotFrame(Widget):
    """A plot plus a "no data" label; exactly one of them is displayed."""

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
        self._plot = PlotextPlot()
        self._nodata = Static(NO_DATA if not self._title else f"{self._title}: {NO_DATA}", markup=False)
        self._nodata.add_class("plot--nodata")
        self._ready = False

    def compose(self) -> ComposeResult:
        yield self._plot
        yield self._nodata

    def on_mount(self) -> None:
        self._ready = True
        self._redraw()

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
        self._plot.display = self.has_data
        self._nodata.display = not self.has_data
        plt = self._plot.plt
        plt.clear_data()
        plt.clear_figure()
        if self.has_data:
            plt.title(self._title)
            self._draw(plt)
        self._plot.refresh()

    def _draw(self, plt: object) -> None:
        raise NotImplementedError


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
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(title, name=name, id=id, classes=classes)
        self._y_label = _label(y_label)
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
        return datetime.fromtimestamp(ms / 1000, tz=self._tz).strftime("%H:%M:%S")

    def _draw(self, plt: object) -> None:
        colour = self._theme_rgb("primary", (0, 135, 255))
        runs = segments_without_gaps(self._xs, self._ys)
        for run_x, run_y in runs:
            if len(run_x) == 1:
                plt.scatter(run_x, run_y, color=colour, marker="dot")  # type: ignore[attr-defined]
            else:
                plt.plot(run_x, run_y, color=colour, marker="braille")  # type: ignore[attr-defined]
        low, high = min(self._xs), max(self._xs)
        count = 1 if high == low else _TICKS
        ticks = [low + (high - low) * i / max(count - 1, 1) for i in range(count)]
        plt.xticks(ticks, [self._tick(t) for t in ticks])  # type: ignore[attr-defined]
        if self._y_label:
            plt.ylabel(self._y_label)  # type: ignore[attr-defined]


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

    def set_data(
        self, labels: Sequence[str], values: Sequence[float | None], *, highlight: str | None = None
    ) -> None:
        self._store(labels, values, highlight)
        self._redraw()

    @property
    def has_data(self) -> bool:
        return any(v is not None for v in self._values)

    @property
    def missing_labels(self) -> list[str]:
        """Labels whose value is ``None`` (shown in the x label, never drawn as 0)."""
        return [label for label, value in zip(self._labels, self._values) if value is None]

    def _draw(self, plt: object) -> None:
        base = self._theme_rgb("primary", (0, 135, 255))
        accent = self._theme_rgb("accent", (255, 0, 135))
        pairs = [(label, v) for label, v in zip(self._labels, self._values) if v is not None]
        labels = [label for label, _ in pairs]
        orientation = "horizontal" if self._horizontal else "vertical"
        plain = [0.0 if label == self._highlight else v for label, v in pairs]
        plt.bar(labels, plain, color=base, orientation=orientation)  # type: ignore[attr-defined]
        if self._highlight in labels:
            position = labels.index(self._highlight) + 1
            value = pairs[position - 1][1]
            plt.bar(  # type: ignore[attr-defined]
                [position], [value], color=accent, orientation=orientation, reset_ticks=False
            )
        if self.missing_labels:
            text = f"{NO_DATA}: " + ", ".join(self.missing_labels)
            (plt.ylabel if self._horizontal else plt.xlabel)(_label(text, 80))  # type: ignore[attr-defined]
