"""Short coloured tags for diagnosis finding kinds (LOOP, CUT, EMPTY, ...).

Colours come from the theme: each kind has a *tone* (a Textual theme variable such as
``error`` or ``warning``). ``theme_badge_styles(variables)`` turns tones into Rich styles for the
current theme; ``BADGE_STYLES`` is a fixed fallback for places without a theme (tests, help text
rendered before the app starts). Unknown kinds are shown sanitized, never dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich.style import Style
from rich.text import Text

from widgets.safe_text import sanitize

__all__ = [
    "BADGE_DESCRIPTIONS",
    "BADGE_LABELS",
    "BADGE_STYLES",
    "BADGE_TONES",
    "badge_label",
    "badge_text",
    "badges_text",
    "legend_text",
    "normalize_badge",
    "theme_badge_styles",
]

BADGE_LABELS: dict[str, str] = {
    "empty": "EMPTY",
    "error": "ERR",
    "loop": "LOOP",
    "truncation": "CUT",
    "continuation": "CONT",
    "refusal": "REFUSE",
    "template_mismatch": "TMPL",
    "template_leak": "LEAK",
    "wrong_answer": "WRONG",
    "host_down": "DOWN",
    "muted": "MUTED",
    "tool_loop": "TLOOP",
    "tool_failures": "TFAIL",
}

BADGE_DESCRIPTIONS: dict[str, str] = {
    "empty": "returned nothing (empty or whitespace-only reply)",
    "error": "the call failed; no reply",
    "loop": "repeats itself (repetition / degeneration)",
    "truncation": "cut off by the token limit rather than choosing to stop",
    "continuation": "continued the prompt instead of answering it",
    "refusal": "refused to answer",
    "template_mismatch": "prompt format does not match the model's chat template",
    "template_leak": "chat-template tokens leaked into the reply",
    "wrong_answer": "answered, but the judge marked it wrong",
    "host_down": "the model's endpoint was down (says nothing about the answers)",
    "muted": "muted in the chatroom",
    "tool_loop": "an agent called the same tool with the same arguments again and again",
    "tool_failures": "some of an agent rollout's tool calls failed",
}

BADGE_TONES: dict[str, str] = {
    "empty": "warning",
    "error": "error",
    "loop": "error",
    "truncation": "warning",
    "continuation": "warning",
    "refusal": "secondary",
    "template_mismatch": "accent",
    "template_leak": "accent",
    "wrong_answer": "error",
    "host_down": "error",
    "muted": "panel",
    "tool_loop": "error",
    "tool_failures": "warning",
}
_UNKNOWN_TONE = "panel"

_FALLBACK_TONE_COLOURS: dict[str, str] = {
    "error": "red",
    "warning": "yellow",
    "accent": "magenta",
    "secondary": "cyan",
    "panel": "grey50",
}

BADGE_STYLES: dict[str, str] = {
    kind: f"bold black on {_FALLBACK_TONE_COLOURS[tone]}" for kind, tone in BADGE_TONES.items()
}
"""Fallback styles (no theme available). Prefer ``theme_badge_styles``."""

_LABEL_TO_KIND: dict[str, str] = {label: kind for kind, label in BADGE_LABELS.items()}
_MAX_UNKNOWN_LABEL = 8


def normalize_badge(value: str) -> str:
    """Map a kind (``"loop"``, any case) or a label (``"LOOP"``) to its kind; unknown unchanged."""
    if value in BADGE_LABELS:
        return value
    lowered = value.lower()
    if lowered in BADGE_LABELS:
        return lowered
    return _LABEL_TO_KIND.get(value.upper(), value)


def badge_label(kind: str) -> str:
    """The short label for a kind; an unknown kind is sanitized, upper-cased and cut short."""
    kind = normalize_badge(kind)
    if kind in BADGE_LABELS:
        return BADGE_LABELS[kind]
    shown = sanitize(kind[: _MAX_UNKNOWN_LABEL * 2], keep_newlines=False)[:_MAX_UNKNOWN_LABEL]
    return shown.upper() or "?"


def theme_badge_styles(variables: Mapping[str, str]) -> dict[str, Style]:
    """Badge styles for a theme, from its CSS variables (``App.get_css_variables()``).

    Text is drawn in the theme's background colour on the tone colour, so badges read as tags.
    Missing variables fall back to the fixed ANSI colours.
    """
    text_colour = variables.get("background", "black")
    styles: dict[str, Style] = {}
    for kind, tone in [*BADGE_TONES.items(), ("", _UNKNOWN_TONE)]:
        colour = variables.get(tone, _FALLBACK_TONE_COLOURS[tone])
        fg = variables.get("foreground", "white") if tone == "panel" else text_colour
        styles[kind] = Style.parse(f"bold {fg} on {colour}")
    return styles


def _style_for(kind: str, styles: Mapping[str, Style | str] | None) -> Style | str:
    table: Mapping[str, Style | str] = styles if styles is not None else BADGE_STYLES
    return table.get(kind) or table.get("") or f"bold black on {_FALLBACK_TONE_COLOURS['panel']}"


def badge_text(kind: str, styles: Mapping[str, Style | str] | None = None) -> Text:
    """One badge, e.g. `` LOOP `` in its tone. ``styles`` maps kind -> style (``""`` = unknown)."""
    kind = normalize_badge(kind)
    return Text(f" {badge_label(kind)} ", style=_style_for(kind, styles), end="")


def badges_text(kinds: Iterable[str], styles: Mapping[str, Style | str] | None = None) -> Text:
    """Several badges separated by one space."""
    return Text(" ", end="").join(badge_text(kind, styles) for kind in kinds)


def legend_text(styles: Mapping[str, Style | str] | None = None) -> Text:
    """A help legend: every badge with what it means, one per line."""
    width = max(len(label) for label in BADGE_LABELS.values()) + 2
    lines = []
    for kind, description in BADGE_DESCRIPTIONS.items():
        badge = badge_text(kind, styles)
        badge.pad_right(width - badge.cell_len)
        lines.append(Text.assemble(badge, " ", description, end=""))
    return Text("\n", end="").join(lines)
