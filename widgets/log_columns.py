"""Column layout and the ``Text`` of one ``LogList`` line (pure: Rich only, no Textual).

Every untrusted field (source, finish reason, previews, unknown badge kinds) goes through the
sanitizer here; nothing is parsed as markup.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from functools import lru_cache

from rich.style import Style
from rich.text import Text

from application.logs.row import MISSING, TIME_WIDTHS, LogRow, TimeFormat, format_latency, format_time
from widgets.badges import badge_text
from widgets.safe_text import one_line_text, sanitize

__all__ = ["ColumnLayout", "RowStyles", "compile_terms", "header_text", "layout_for", "row_text", "time_format"]

SOURCE_W, LATENCY_W, FINISH_W, STATUS_W = 8, 7, 6, 3
TIME_W = TIME_WIDTHS["time"]
BADGES_MAX_W = 16
BADGES_MIN_W = 12
"""Below this the list drops other columns first: badges are why people look at it."""
PREVIEWS_MIN_W = 20
PREVIEWS_WANT_W = 40
"""The prompt and reply together get at least this much when dropping columns can give it:
on an 80-column terminal the prompt read "<s>[INST…" (9 cells), which says nothing."""
DROPPED_FIRST = ("source", "finish", "latency", "status")
"""The columns a narrow list gives up, in this order, to keep its badges."""
_SEP = " "


@dataclass(frozen=True, slots=True)
class ColumnLayout:
    """Cell widths for one total width (0: the column is left out). Previews share what
    is left (prompt 45 %)."""

    time: int
    source: int
    latency: int
    finish: int
    status: int
    badges: int
    prompt: int
    reply: int


@lru_cache(maxsize=64)
def layout_for(width: int, time_w: int = TIME_W) -> ColumnLayout:
    """Fixed columns first; badges get up to 16 cells; previews split the rest 45/55.

    When that leaves badges fewer than ``BADGES_MIN_W`` cells, source, finish, latency and
    status are dropped in that order until it does not. ``time_w`` is the time column's
    width (wider when it shows dates)."""
    others = {"source": SOURCE_W, "latency": LATENCY_W, "finish": FINISH_W, "status": STATUS_W}

    def fit() -> tuple[int, int]:
        columns = 4 + sum(1 for w in others.values() if w)  # time, badges, prompt, reply
        fixed = time_w + sum(others.values()) + (columns - 1) * len(_SEP)
        return fixed, max(0, min(BADGES_MAX_W, width - fixed - PREVIEWS_MIN_W))

    fixed, badges = fit()
    for name in DROPPED_FIRST:
        if badges >= BADGES_MIN_W and width - fixed - badges >= PREVIEWS_WANT_W:
            break
        others[name] = 0
        fixed, badges = fit()
    rest = max(0, width - fixed - badges)
    prompt = rest * 45 // 100
    return ColumnLayout(
        time_w, others["source"], others["latency"], others["finish"], others["status"], badges, prompt, rest - prompt
    )


@dataclass(slots=True)
class RowStyles:
    """Rich styles resolved from the widget's component classes (i.e. from the theme)."""

    dim: Style = field(default_factory=Style)
    error: Style = field(default_factory=Style)
    warning: Style = field(default_factory=Style)
    match: Style = field(default_factory=lambda: Style(reverse=True))
    badges: Mapping[str, Style | str] | None = None


def compile_terms(terms: Sequence[str]) -> re.Pattern[str] | None:
    """A case-insensitive pattern matching any of the (literal) terms; None for no terms."""
    cleaned = sorted({t for t in terms if t}, key=len, reverse=True)
    if not cleaned:
        return None
    return re.compile("|".join(re.escape(t) for t in cleaned), re.IGNORECASE)


def _cell(text: str | Text, width: int, style: Style | str = "", right: bool = False) -> Text:
    cell = text if isinstance(text, Text) else Text(text, style=style, end="")
    cell.no_wrap = True
    _truncate(cell, width)
    if right:
        cell.pad_left(width - cell.cell_len)
    else:
        cell.pad_right(width - cell.cell_len)
    return cell


def _truncate(cell: Text, width: int) -> None:
    """``cell.truncate(width, overflow="ellipsis")`` without Rich's walk over grapheme clusters
    where the cells that stay on screen take one cell per character (printable ASCII: most
    cells, and most previews, whose walk was a third of drawing a row): the same cut, the same
    ellipsis, the same styles. Only the first ``width + 1`` characters decide: past them the
    text overflows whatever follows (a preview's truncation marker, say)."""
    plain = cell.plain
    head = plain[: width + 1]
    if width > 0 and head.isascii() and head.isprintable():
        if len(plain) > width:
            cell.plain = plain[: width - 1] + "…"
        return  # else ``head`` is all of it, and it fits
    cell.truncate(width, overflow="ellipsis")


def _optional(value: str | None, width: int, styles: RowStyles, style: Style | str = "") -> Text:
    if value is None:
        return _cell(MISSING, width, styles.dim)
    return _cell(sanitize(value, keep_newlines=False), width, style)


def _badges_cell(badges: Sequence[str], width: int, styles: RowStyles) -> Text:
    """As many badges as fit, then ``+N`` for the ones left out."""
    cell = Text(end="")
    for index, kind in enumerate(badges):
        badge = badge_text(kind, styles.badges)
        sep = 1 if cell else 0
        left_after = len(badges) - index - 1
        reserve = len(f" +{left_after}") if left_after else 0
        if cell.cell_len + sep + badge.cell_len + reserve > width:
            cell.append(f"{' ' * sep}+{len(badges) - index}", styles.dim)
            break
        cell.append(" " * sep)
        cell.append_text(badge)
    return _cell(cell, width)


def _preview(value: str | None, width: int, styles: RowStyles, pattern: re.Pattern[str] | None) -> Text:
    if value is None:
        return _cell(MISSING, width, styles.dim)
    text = one_line_text(value, max_len=max(width, 1) * 2)
    if pattern is not None:
        text.highlight_regex(pattern, style=styles.match)
    return _cell(text, width)


def row_text(
    row: LogRow,
    width: int,
    styles: RowStyles,
    *,
    tz: tzinfo | None = None,
    pattern: re.Pattern[str] | None = None,
    dates: TimeFormat = "time",
) -> Text:
    """The whole line for ``row`` at ``width`` cells (exactly ``width`` when it fits).
    ``dates``: how much of the date the time column shows (see ``time_format``)."""
    cols = layout_for(width, TIME_WIDTHS[dates])
    finish = row.finish_reason
    finish_style = styles.warning if finish == "length" else styles.error if finish == "error" else ""
    is_error = row.status == "error"
    cells = [
        _cell(format_time(row.created_at, tz, dates), cols.time, styles.dim if row.created_at is None else ""),
        _optional(row.source, cols.source, styles),
        _cell(format_latency(row.latency_ms), cols.latency, styles.dim if row.latency_ms is None else "", right=True),
        _optional(finish, cols.finish, styles, finish_style),
        _cell("ERR" if is_error else "ok", cols.status, styles.error if is_error else styles.dim),
        _badges_cell(row.badges, cols.badges, styles),
        _preview(row.prompt_preview, cols.prompt, styles, pattern),
        _preview(row.reply_preview, cols.reply, styles, pattern),
    ]
    widths = (cols.time, cols.source, cols.latency, cols.finish, cols.status, cols.badges, cols.prompt, cols.reply)
    return Text(_SEP, end="", no_wrap=True).join(c for c, w in zip(cells, widths) if w)


def header_text(width: int, dates: TimeFormat = "time") -> Text:
    """Column titles aligned with ``row_text``."""
    cols = layout_for(width, TIME_WIDTHS[dates])
    titles = [
        ("time", cols.time, False),
        ("source", cols.source, False),
        ("latency", cols.latency, True),
        ("finish", cols.finish, False),
        ("st", cols.status, False),
        ("badges", cols.badges, False),
        ("prompt", cols.prompt, False),
        ("reply", cols.reply, False),
    ]
    cells = [_cell(title, w, right=right) for title, w, right in titles if w]
    return Text(_SEP, end="", no_wrap=True).join(cells)


def time_format(oldest_ms: int | None, newest_ms: int | None, tz: tzinfo | None) -> TimeFormat:
    """How much date the time column needs for rows from ``oldest_ms`` to ``newest_ms`` (the
    rows on screen): none within one day, the day when they span days, the year too when
    they span years."""
    if oldest_ms is None or newest_ms is None:
        return "time"
    try:
        first = datetime.fromtimestamp(oldest_ms / 1000, tz=tz)
        last = datetime.fromtimestamp(newest_ms / 1000, tz=tz)
    except (OverflowError, OSError, ValueError):
        return "time"
    if first.year != last.year:
        return "year"
    return "time" if first.date() == last.date() else "day"
