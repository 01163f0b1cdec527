"""blah-tui's own themes, and user themes loaded (and validated) from the data directory.

Badges, plots and the header read theme variables ($error, $warning, $success, $accent…), so
they follow whichever theme is active. No Textual screen code here: only ``Theme`` objects.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict, Unpack

from textual.color import Color, ColorParseError
from textual.theme import Theme

_COLOUR_FIELDS = (
    "primary",
    "secondary",
    "accent",
    "warning",
    "error",
    "success",
    "foreground",
    "background",
    "surface",
    "panel",
)
"""The colours a theme names, in the order of the palette rows below (and the fields a user theme may set)."""

# One row a theme: its colours in _COLOUR_FIELDS' order.
_DARK_PALETTE = (
    "#5fa8ff",
    "#9d7cff",
    "#ffb454",
    "#ffb454",
    "#ff5f6d",
    "#4ec98f",
    "#d8dee9",
    "#11151c",
    "#181d26",
    "#202734",
)
_LIGHT_PALETTE = (
    "#1f5fbf",
    "#6a3fd1",
    "#b35c00",
    "#9a5b00",
    "#c4172c",
    "#1b7a4b",
    "#1d2330",
    "#f7f8fa",
    "#eceff4",
    "#dde2ea",
)
# Pure black and white with saturated signal colours, for long sessions and low vision.
_HIGH_CONTRAST_PALETTE = (
    "#00d7ff",
    "#ffff00",
    "#ffff00",
    "#ffff00",
    "#ff3030",
    "#00ff5f",
    "#ffffff",
    "#000000",
    "#000000",
    "#1c1c1c",
)


class ThemeKnobs(TypedDict, total=False):
    """Textual's other knobs of a Theme, where one of ours differs from Textual's default."""

    luminosity_spread: float
    text_alpha: float


def coloured_theme(name: str, colours: Mapping[str, str], *, dark: bool, **knobs: Unpack[ThemeKnobs]) -> Theme:
    """A Theme from named colours (``primary`` required; the others of ``_COLOUR_FIELDS`` optional)
    and Textual's other knobs (``luminosity_spread``, ``text_alpha``)."""
    get = colours.get
    return Theme(
        name=name,
        primary=colours["primary"],
        secondary=get("secondary"),
        accent=get("accent"),
        warning=get("warning"),
        error=get("error"),
        success=get("success"),
        foreground=get("foreground"),
        background=get("background"),
        surface=get("surface"),
        panel=get("panel"),
        dark=dark,
        **knobs,
    )


def palette_theme(name: str, palette: tuple[str, ...], *, dark: bool, **knobs: Unpack[ThemeKnobs]) -> Theme:
    """A Theme from one palette row (colours in ``_COLOUR_FIELDS`` order) and Textual's other knobs."""
    return coloured_theme(name, dict(zip(_COLOUR_FIELDS, palette, strict=True)), dark=dark, **knobs)


BLAH_DARK = palette_theme("blah-dark", _DARK_PALETTE, dark=True)
BLAH_LIGHT = palette_theme("blah-light", _LIGHT_PALETTE, dark=False)
BLAH_HIGH_CONTRAST = palette_theme(
    "blah-high-contrast", _HIGH_CONTRAST_PALETTE, dark=True, luminosity_spread=0.25, text_alpha=1.0
)

BUILTIN_THEMES: tuple[Theme, ...] = (BLAH_DARK, BLAH_LIGHT, BLAH_HIGH_CONTRAST)


@dataclass
class LoadedTheme:
    path: Path
    theme: Theme | None
    problem: str | None = None


def load_user_theme(path: Path) -> LoadedTheme:
    """A theme file: TOML with ``name``, ``primary`` and optional colours and ``dark``.
    Anything wrong gives a message naming the file and the field, and no theme."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError) as error:
        return LoadedTheme(path, None, f"{path.name}: {error}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        return LoadedTheme(path, None, f"{path.name}: 'name' is missing")
    if "primary" not in data:
        return LoadedTheme(path, None, f"{path.name}: 'primary' is missing")
    colours: dict[str, str] = {}
    for field in _COLOUR_FIELDS:
        if field in data:
            value = data[field]
            try:
                Color.parse(str(value))
            except ColorParseError:
                return LoadedTheme(path, None, f"{path.name}: {field} = {value!r} is not a colour")
            colours[field] = str(value)
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        return LoadedTheme(path, None, f"{path.name}: 'dark' must be true or false")
    return LoadedTheme(path, coloured_theme(name.strip(), colours, dark=dark))


def load_user_themes(directory: Path) -> list[LoadedTheme]:
    if not directory.is_dir():
        return []
    return [load_user_theme(path) for path in sorted(directory.glob("*.toml"))]
