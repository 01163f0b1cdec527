"""How a chatroom message looks: author colours from the theme, the person's model marked,
loop badges, muted models greyed. Returns ``rich.text.Text`` only (never markup strings).

No IO and no widgets: the screen asks for a palette once per theme and renders each message
with ``message_text``.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence

from rich.style import Style
from rich.text import Text
from textual.color import Color, ColorParseError

from api_client.blahdev.shapes import ChatroomMessage
from application.chatroom.feed import LoopVerdict
from common.format import format_utc
from widgets.badges import badge_text
from widgets.safe_text import one_line_text, safe_text

__all__ = [
    "RoomStyles",
    "author_colour",
    "fmt_time",
    "indented",
    "message_text",
    "room_styles",
]

#: Theme variables whose colours tell authors apart ($error is kept for the loop badge).
_PALETTE_DARK = (
    "primary-lighten-2",
    "success",
    "accent",
    "secondary-lighten-2",
    "warning-lighten-1",
    "primary-lighten-3",
    "success-lighten-2",
    "secondary-lighten-3",
    "accent-lighten-2",
    "text-primary",
)
_PALETTE_LIGHT = (
    "primary-darken-1",
    "success-darken-1",
    "accent-darken-1",
    "secondary",
    "warning-darken-2",
    "primary-darken-3",
    "success-darken-3",
    "secondary-darken-2",
    "accent-darken-3",
    "text-primary",
)
MAX_CONTENT_CHARS = 2000


def _resolve(value: str | None, background: Color) -> str | None:
    """A theme value as an opaque ``#rrggbb`` (alpha blended over the background)."""
    if not value or value.startswith("auto"):
        return None
    try:
        colour = Color.parse(value)
    except ColorParseError:
        return None
    return (background + colour).hex6 if colour.a < 1 else colour.hex6


class RoomStyles:
    """The colours of one theme: the author palette and the muted/person/human styles."""

    def __init__(self, palette: Sequence[str], muted: str, person_background: str | None, human: str) -> None:
        self.palette = list(palette) or ["default"]
        self.muted = muted
        self.person_background = person_background
        self.human = human


def room_styles(variables: Mapping[str, str], *, dark: bool = True) -> RoomStyles:
    """Build the room's colours from ``App.get_css_variables()`` of the current theme."""
    try:
        background = Color.parse(variables.get("background", "#000000"))
    except ColorParseError:
        background = Color(0, 0, 0)
    palette: list[str] = []
    for name in _PALETTE_DARK if dark else _PALETTE_LIGHT:
        colour = _resolve(variables.get(name), background)
        if colour and colour not in palette:
            palette.append(colour)
    muted = _resolve(variables.get("foreground-muted"), background) or "grey50"
    person_bg = _resolve(variables.get("primary-background") or variables.get("boost"), background)
    human = _resolve(variables.get("foreground"), background) or "default"
    return RoomStyles(palette, muted, person_bg, human)


def author_colour(model_id: str, styles: RoomStyles) -> str:
    """The same model gets the same colour every time (CRC32 of its id into the palette)."""
    return styles.palette[zlib.crc32(model_id.encode("utf-8", "surrogatepass")) % len(styles.palette)]


def fmt_time(ms: int | None) -> str:
    """Absolute UTC time of day (stable in snapshots; the room spans hours, not days)."""
    return format_utc(ms, date=False, zone="")


def message_text(
    message: ChatroomMessage,
    styles: RoomStyles,
    *,
    person_model_id: str | None,
    muted: bool,
    loop: LoopVerdict | None,
    max_chars: int = MAX_CONTENT_CHARS,
) -> Text:
    """Two parts: a header line (time, author, marks) and the content, sanitised and inert."""
    is_person = message.model_id is not None and message.model_id == person_model_id
    is_human = message.author_kind == "human" or message.model_id is None
    colour = styles.human if is_human else author_colour(message.model_id or "", styles)
    author_style = Style(color=styles.muted if muted else colour, bold=True, reverse=is_person and not muted)

    text = Text(end="")
    text.append(fmt_time(message.created_at), style="dim")
    text.append(" ")
    name = message.author_name or message.model_id or ("someone" if is_human else "unknown model")
    shown = one_line_text(name, max_len=60)
    shown.stylize(author_style)
    text.append_text(shown)
    if is_human:
        text.append(" (person)", style="dim")
    if is_person:
        text.append(" ◆ your model", style=Style(color=colour, italic=True))
    if muted:
        text.append(" ")
        text.append_text(badge_text("muted"))
    if loop is not None:
        text.append(" ")
        text.append_text(badge_text("loop"))
    text.append("\n  ")
    content = message.content
    if content:
        body = indented(content[:max_chars], style=styles.muted if muted else "")
        if len(content) > max_chars:
            body.append(f" …(+{len(content) - max_chars} chars: open the prompt to read all)", style="dim reverse")
    else:
        body = Text("(empty message)", style="dim italic", end="")
    text.append_text(body)
    if is_person and styles.person_background and not muted:
        text.stylize(Style(bgcolor=styles.person_background))
    return text


def indented(raw: str, *, style: str = "", indent: str = "  ") -> Text:
    """Sanitised multi-line text whose continuation lines sit under the first."""
    lines = safe_text(raw, style=style).split("\n", allow_blank=True)
    return Text("\n" + indent, end="").join(lines)
