"""The Logs screen's status lines: the platform's totals (``TotalsLine``) and the tail's
state (``TailStateLine``), plus the count of matching calls the filter line shows.

What each line says is a pure function of its inputs (``stats_text``, ``tail_state_text``,
``matches_text``), easy to test without an app. Missing numbers are shown as "—", never as 0.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rich.text import Text
from textual.widgets import Static

from api_client.archives.archive import LogFilter
from common.format import DASH, format_count, format_latency
from widgets.safe_text import one_line

if TYPE_CHECKING:
    from api_client.blahdev.shapes import LogStats, SourceStats

__all__ = [
    "TailStateLike",
    "TailStateLine",
    "TotalsLine",
    "fmt_rate",
    "matches_text",
    "platform_matches",
    "stats_text",
    "tail_state_text",
]


class TailStateLike(Protocol):
    """The fields of ``api_client.blahdev.tail.TailState`` this module reads."""

    phase: str
    retry_in: float | None
    reason: str | None
    may_have_missed: bool


def fmt_rate(errors: int | None, total: int | None) -> str:
    if errors is None or not total:
        return DASH
    return f"{100 * errors / total:.1f}%"


def _source_part(name: str, stats: SourceStats) -> Text:
    part = Text()
    part.append(one_line(name, max_len=20), style="bold")
    part.append(f" {format_count(stats.total)}")
    part.append(f" (err {fmt_rate(stats.errors, stats.total)}, {format_latency(stats.mean_latency_ms)})", style="dim")
    return part


def stats_text(stats: LogStats | None, *, error: str | None = None, offline: bool = False) -> Text:
    """One line of totals: calls, errors and error rate, mean latency, then per source."""
    if error is not None:
        return Text(f"totals: couldn't load: {one_line(error, max_len=160)}", style="italic")
    if stats is None:
        if offline:
            return Text("totals: not available offline (the dump carries no platform totals)", style="italic")
        return Text("totals: loading…", style="italic")
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("calls ", style="dim")
    text.append(format_count(stats.total), style="bold")
    text.append("  errors ", style="dim")
    text.append(format_count(stats.errors), style="bold")
    text.append(f" ({fmt_rate(stats.errors, stats.total)})")
    text.append("  mean latency ", style="dim")
    text.append(format_latency(stats.mean_latency_ms), style="bold")
    if stats.by_source:
        text.append("  │ ", style="dim")
        for index, (name, source_stats) in enumerate(sorted(stats.by_source.items())):
            if index:
                text.append("  ")
            text.append_text(_source_part(name, source_stats))
    else:
        text.append("  │ by source: ", style="dim")
        text.append(DASH)
    return text


def platform_matches(stats: LogStats | None, flt: LogFilter) -> int | None:
    """How many calls the platform says ``flt`` keeps, from its totals: only for what it
    counts (all calls, errors, per source); None for badges and searches, or when it sent
    no such number."""
    if stats is None or flt.badge or flt.since_ms is not None or (flt.text and flt.text.strip()):
        return None
    if flt.source is None:
        return stats.errors if flt.errors_only else stats.total
    by_source = stats.by_source.get(flt.source)
    if by_source is None:
        return None
    return by_source.errors if flt.errors_only else by_source.total


def matches_text(loaded: int, platform: int | None, *, filtered: bool, complete: bool) -> str:
    """How many calls match the filter and how many of them are loaded, e.g. "287 match ·
    120 loaded"; without a platform number (badges, search), what the loaded calls hold."""
    noun = "match" if filtered else "calls"
    if complete:
        return f"{loaded:,} {noun} · all loaded"
    if platform is not None:
        return f"{platform:,} {noun} · {loaded:,} loaded"
    if filtered:
        return f"{loaded:,} match so far · older calls not searched yet"
    return f"{loaded:,} loaded"


_PHASE_LABEL = {
    "starting": ("◌", "connecting…"),
    "live": ("●", "live"),
    "idle_backoff": ("●", "live (nothing new)"),
    "retrying": ("↻", "reconnecting"),
    "stalled": ("⚠", "stalled"),
    "stopped": ("■", "stopped"),
}


def tail_state_text(
    state: TailStateLike | None,
    *,
    offline_source: Path | None = None,
    retry_left: float | None = None,
    archive_note: str | None = None,
) -> Text:
    """The tail's state in words: live, backing off, reconnecting in N s, stopped and why.

    ``retry_left`` overrides ``state.retry_in`` with a live countdown when the caller keeps one.
    """
    text = Text(no_wrap=True, overflow="ellipsis")
    if offline_source is not None:
        text.append("○ offline: ", style="bold")
        text.append(one_line(str(offline_source), max_len=120))
        if archive_note:
            text.append(f"  ({archive_note})", style="dim")
        return text
    if state is None:
        text.append("◌ not started", style="dim")
        return text
    symbol, label = _PHASE_LABEL.get(state.phase, ("?", one_line(state.phase, max_len=30)))
    style = {"live": "bold", "idle_backoff": "bold", "retrying": "italic", "stalled": "bold", "stopped": "bold"}.get(
        state.phase, ""
    )
    text.append(f"{symbol} {label}", style=style)
    wait = retry_left if retry_left is not None else state.retry_in
    if wait is not None and state.phase in ("retrying", "idle_backoff"):
        verb = " in" if state.phase == "retrying" else ", next check in"
        text.append(f"{verb} {max(0.0, wait):.0f} s")
    if state.reason and state.phase in ("retrying", "stalled", "stopped"):
        text.append(": ")
        text.append(one_line(state.reason, max_len=120))
    if state.may_have_missed:
        text.append("  ⚠ entries may be missing", style="bold")
        missed_reason = getattr(state, "missed_reason", None)
        if missed_reason:
            text.append(f" ({one_line(missed_reason, max_len=100)})")
    if archive_note:
        text.append(f"  ({archive_note})", style="dim")
    return text


class TotalsLine(Static):
    """One line of the platform's totals. Always one row high, so an update skips layout."""

    def show(self, stats: LogStats | None, *, error: str | None = None, offline: bool = False) -> None:
        self.update(stats_text(stats, error=error, offline=offline), layout=False)


class TailStateLine(Static):
    """The live tail's state in words. Always one row high, so an update skips layout."""

    def show(
        self,
        state: TailStateLike | None,
        *,
        offline_source: Path | None = None,
        retry_left: float | None = None,
        archive_note: str | None = None,
    ) -> None:
        text = tail_state_text(state, offline_source=offline_source, retry_left=retry_left, archive_note=archive_note)
        self.update(text, layout=False)

    def show_offline(self) -> None:
        """No platform and no file: the app was opened offline on nothing."""
        self.update(Text("○ offline", style="bold"), layout=False)
