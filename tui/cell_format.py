"""Formatting shared by the runs, results, leaderboard, compare and health screens.

Every value comes from the platform; a missing one is shown as ``—`` (never 0). Times are
absolute and in UTC so that what the screen says does not depend on when it is looked at.
Untrusted strings (ids, names, errors) become ``rich.text.Text`` through the sanitizer.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.style import Style
from rich.text import Text
from textual.color import Color

from api_client.blahdev.shapes import Run
from common.format import DASH, format_utc
from widgets.safe_text import one_line, one_line_text

__all__ = [
    "DASH",
    "cell",
    "fmt_clock",
    "fmt_pct",
    "fmt_score",
    "fmt_time",
    "progress_text",
    "reply_cell",
    "short",
    "status_style",
    "theme_colour",
    "tone_style",
]

_STATUS_TONES = {
    "completed": "success",
    "running": "primary",
    "queued": "secondary",
    "stalled": "warning",
    "failed": "error",
    "cancelled": "foreground-muted",
}
_FALLBACK = {
    "success": "green",
    "primary": "blue",
    "secondary": "cyan",
    "warning": "yellow",
    "error": "red",
    "accent": "magenta",
    "foreground-muted": "grey50",
}


def fmt_time(value: int | str | None, *, seconds: bool = True) -> str:
    """Milliseconds since the epoch as ``2026-11-29 10:04:41Z`` (UTC); a string as sent."""
    if value is None:
        return DASH
    if isinstance(value, str):
        return one_line(value, max_len=40) or DASH
    return format_utc(value, seconds=seconds)


def fmt_clock(value: int | str | None) -> str:
    """Only the time of day, ``10:04:41``, UTC (where the date is shown nearby)."""
    if not isinstance(value, int):
        return fmt_time(value)
    return format_utc(value, date=False, zone="")


def fmt_score(score: float | None, digits: int = 2) -> str:
    return DASH if score is None else f"{score:.{digits}f}"


def fmt_pct(ratio: float | None, digits: int = 1) -> str:
    return DASH if ratio is None else f"{ratio * 100:.{digits}f}%"


def progress_text(run: Run) -> str:
    """``12/40 (30%)``; parts the platform did not give are ``—``."""
    done = DASH if run.completed_count is None else str(run.completed_count)
    total = run.total_items
    pct = f" ({fmt_pct(run.progress, 0)})" if run.progress is not None else ""
    return f"{done}/{DASH if total is None else total}{pct}"


def theme_colour(tone: str, variables: Mapping[str, str] | None) -> str:
    """The theme's colour for ``tone`` as ``#rrggbb`` (alpha blended onto the background),
    or a plain ANSI fallback when the theme does not define it."""
    values = variables or {}
    value = values.get(tone)
    if value:
        try:
            colour = Color.parse(value)
            if colour.a < 1:
                colour = Color.parse(values.get("background", "#000000")) + colour
            return colour.hex6
        except Exception:
            pass
    return _FALLBACK.get(tone, "default")


def tone_style(tone: str, variables: Mapping[str, str] | None, *, bold: bool = False) -> Style:
    """A Rich style in the theme's colour for ``tone`` (a theme variable name)."""
    return Style(color=theme_colour(tone, variables), bold=bold or None)


def status_style(status: str | None, variables: Mapping[str, str] | None) -> Style:
    tone = _STATUS_TONES.get(status or "")
    return tone_style(tone, variables) if tone else Style()


def short(text: str | None, max_len: int) -> str:
    """One sanitized line of at most ``max_len`` characters, cut with ``…`` (for labels)."""
    line = one_line(text, max_len=max(len(text or ""), 1))
    return line if len(line) <= max_len else line[: max(max_len - 1, 0)] + "…"


def cell(text: str | None, *, max_len: int = 80, style: Style | str = "") -> Text:
    """A DataTable cell from untrusted text: one sanitized line cut at ``max_len`` with ``…``,
    never markup; None or empty -> ``—``."""
    if text is None or text == "":
        return Text(DASH, style="dim", end="")
    cut = len(text) > max_len
    out = one_line_text(text[:max_len] if cut else text, max_len=max_len)
    if cut:
        out.append("…", style="dim")
    if style:
        out.stylize(style)
    return out


def reply_cell(reply: str | None, *, max_len: int = 40) -> Text:
    """A model's reply as a cell: empty and whitespace-only replies said in words."""
    if reply is None:
        return Text(DASH, style="dim", end="")
    if not reply.strip():
        return Text("(empty reply)" if reply == "" else "(blank: whitespace only)", style="italic", end="")
    return cell(reply, max_len=max_len)
