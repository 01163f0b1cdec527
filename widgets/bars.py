"""One-line bars: token use vs the limit, a rate (n/N), and run progress.

A missing number is said as "no data" and no bar is drawn: a bar at 0 would claim a value.
The label functions are pure so screens and tests can use the wording without a widget.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from widgets.safe_text import sanitize

__all__ = [
    "NO_DATA",
    "BarLine",
    "ProgressLine",
    "RateBar",
    "TokenBar",
    "bar_text",
    "finish_reason_phrase",
    "format_rate",
    "progress_label",
    "rate_label",
    "token_label",
]

NO_DATA = "no data"
_FULL, _EMPTY = "━", "━"
_BAR_MIN, _BAR_MAX = 6, 40


def bar_text(ratio: float, width: int, fill: Style | str, empty: Style | str) -> Text:
    """A horizontal bar ``width`` cells wide, ``ratio`` (clamped to 0..1) of it filled."""
    width = max(width, 0)
    filled = round(min(max(ratio, 0.0), 1.0) * width)
    return Text.assemble((_FULL * filled, fill), (_EMPTY * (width - filled), empty), end="")


def finish_reason_phrase(finish_reason: str | None) -> str:
    """What the finish reason means for a person reading a reply."""
    if finish_reason == "length":
        return "cut off by the limit"
    if finish_reason == "stop":
        return "chose to stop"
    if finish_reason == "error":
        return "the call failed"
    if finish_reason is None:
        return f"finish reason: {NO_DATA}"
    return f"finish reason: {sanitize(finish_reason, keep_newlines=False, max_len=40)}"


def token_label(completion_tokens: int | None, max_tokens: int | None, finish_reason: str | None) -> str:
    """E.g. ``512/512 tokens · cut off by the limit``; ``no data`` for an unknown count/limit."""
    used = NO_DATA if completion_tokens is None else str(completion_tokens)
    limit = NO_DATA if max_tokens is None else str(max_tokens)
    if completion_tokens is None and max_tokens is None:
        counts = f"tokens: {NO_DATA}"
    elif completion_tokens is None or max_tokens is None:
        counts = f"tokens {used} / limit {limit}"
    else:
        counts = f"{completion_tokens}/{max_tokens} tokens"
    return f"{counts} · {finish_reason_phrase(finish_reason)}"


def format_rate(rate: float | None) -> str:
    return NO_DATA if rate is None else f"{rate * 100:.1f}%"


def _effective_rate(count: int | None, population: int | None, rate: float | None) -> float | None:
    if rate is not None:
        return rate
    if count is not None and population:
        return count / population
    return None


def rate_label(label: str, count: int | None, population: int | None, rate: float | None) -> str:
    """E.g. ``loop  12/200 (6.0%)``; ``no data`` in place of whatever is missing."""
    name = sanitize(label, keep_newlines=False, max_len=60)
    shown = _effective_rate(count, population, rate)
    if count is None and population is None:
        if shown is None:
            return f"{name}  {NO_DATA}"
        return f"{name}  {format_rate(shown)} (counts: {NO_DATA})"
    n = NO_DATA if count is None else str(count)
    total = NO_DATA if population is None else str(population)
    return f"{name}  {n}/{total} ({format_rate(shown)})"


def progress_label(done: int | None, total: int | None, rate_per_s: float | None, eta: str | None) -> str:
    """E.g. ``40/120 · 2.5/s · ETA 32s``; every missing part says ``no data``."""
    d = NO_DATA if done is None else str(done)
    t = NO_DATA if total is None else str(total)
    speed = NO_DATA if rate_per_s is None else f"{rate_per_s:.1f}/s"
    eta_text = NO_DATA if not eta else sanitize(eta, keep_newlines=False, max_len=40)
    return f"{d}/{t} · {speed} · ETA {eta_text}"


class BarLine(Widget):
    """Shared look: ``[bar] label`` on one line; the bar is omitted when the ratio is unknown."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"bar--fill", "bar--empty", "bar--alert", "bar--nodata"}

    DEFAULT_CSS = """
    BarLine {
        height: 1;
        width: 1fr;
        & > .bar--fill { color: $primary; }
        & > .bar--alert { color: $warning; }
        & > .bar--empty { color: $panel-lighten-1; }
        & > .bar--nodata { color: $text-muted; text-style: italic; }
    }
    """

    def _ratio(self) -> float | None:
        raise NotImplementedError

    def label(self) -> str:
        raise NotImplementedError

    def _alert(self) -> bool:
        return False

    def render(self) -> Text:
        ratio = self._ratio()
        label = self.label()
        if ratio is None:
            nodata = self.get_component_rich_style("bar--nodata", partial=True)
            return Text(label, style=nodata, no_wrap=True, overflow="ellipsis", end="")
        width = max(_BAR_MIN, min(_BAR_MAX, self.size.width - len(label) - 1))
        fill = self.get_component_rich_style("bar--alert" if self._alert() else "bar--fill", partial=True)
        empty = self.get_component_rich_style("bar--empty", partial=True)
        bar = bar_text(ratio, width, fill, empty)
        return Text.assemble(bar, " ", label, no_wrap=True, overflow="ellipsis", end="")


class TokenBar(BarLine):
    """``completion_tokens`` against ``max_tokens``, with what the finish reason means."""

    completion_tokens: reactive[int | None] = reactive(None)
    max_tokens: reactive[int | None] = reactive(None)
    finish_reason: reactive[str | None] = reactive(None)

    def __init__(
        self,
        completion_tokens: int | None = None,
        max_tokens: int | None = None,
        finish_reason: str | None = None,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.set_reactive(TokenBar.completion_tokens, completion_tokens)
        self.set_reactive(TokenBar.max_tokens, max_tokens)
        self.set_reactive(TokenBar.finish_reason, finish_reason)

    def update(self, completion_tokens: int | None, max_tokens: int | None, finish_reason: str | None) -> None:
        self.completion_tokens = completion_tokens
        self.max_tokens = max_tokens
        self.finish_reason = finish_reason

    def _ratio(self) -> float | None:
        if self.completion_tokens is None or not self.max_tokens or self.max_tokens < 0:
            return None
        return self.completion_tokens / self.max_tokens

    def _alert(self) -> bool:
        return self.finish_reason == "length"

    def label(self) -> str:
        return token_label(self.completion_tokens, self.max_tokens, self.finish_reason)


class RateBar(BarLine):
    """How often something happens: ``label  n/N (x.x%)``."""

    count: reactive[int | None] = reactive(None)
    population: reactive[int | None] = reactive(None)
    rate: reactive[float | None] = reactive(None)

    def __init__(
        self,
        label: str,
        count: int | None = None,
        population: int | None = None,
        rate: float | None = None,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._label = label
        self.set_reactive(RateBar.count, count)
        self.set_reactive(RateBar.population, population)
        self.set_reactive(RateBar.rate, rate)

    def update(self, count: int | None, population: int | None, rate: float | None) -> None:
        self.count, self.population, self.rate = count, population, rate

    def _ratio(self) -> float | None:
        return _effective_rate(self.count, self.population, self.rate)

    def label(self) -> str:
        return rate_label(self._label, self.count, self.population, self.rate)


class ProgressLine(BarLine):
    """Run progress: ``done/total · rate/s · ETA`` (the ETA text comes from the caller)."""

    done: reactive[int | None] = reactive(None)
    total: reactive[int | None] = reactive(None)
    rate_per_s: reactive[float | None] = reactive(None)
    eta: reactive[str | None] = reactive(None)

    def __init__(
        self,
        done: int | None = None,
        total: int | None = None,
        rate_per_s: float | None = None,
        eta: str | None = None,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.set_reactive(ProgressLine.done, done)
        self.set_reactive(ProgressLine.total, total)
        self.set_reactive(ProgressLine.rate_per_s, rate_per_s)
        self.set_reactive(ProgressLine.eta, eta)

    def update(self, done: int | None, total: int | None, rate_per_s: float | None, eta: str | None) -> None:
        self.done, self.total, self.rate_per_s, self.eta = done, total, rate_per_s, eta

    def _ratio(self) -> float | None:
        if self.done is None or not self.total or self.total < 0:
            return None
        return self.done / self.total

    def label(self) -> str:
        return progress_label(self.done, self.total, self.rate_per_s, self.eta)
