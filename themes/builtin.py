"""blah-tui's own themes, and user themes loaded (and validated) from the data directory.

Badges, plots and the header read theme variables ($error, $warning, $success, $accent…), so
they follow whichever theme is active. No Textual screen code here: only ``Theme`` objects.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from textual.color import Color, ColorParseError
from textual.theme import Theme

BLAH_DARK = Theme(
    name="blah-dark",
    primary="#5fa8ff",
    secondary="#9d7cff",
    accent="#ffb454",
    warning="#ffb454",
    error="#ff5f6d",
    success="#4ec98f",
    foreground="#d8dee9",
    background="#11151c",
    surface="#181d26",
    panel="#202734",
    dark=True,
)

BLAH_LIGHT = Theme(
    name="blah-light",
    primary="#1f5fbf",
    secondary="#6a3fd1",
    accent="#b35c00",
    warning="#9a5b00",
    error="#c4172c",
    success="#1b7a4b",
    foreground="#1d2330",
    background="#f7f8fa",
    surface="#eceff4",
    panel="#dde2ea",
    dark=False,
)

# Pure black and white with saturated signal colours, for long sessions and low vision.
BLAH_HIGH_CONTRAST = Theme(
    name="blah-high-contrast",
    primary="#00d7ff",
    secondary="#ffff00",
    accent="#ffff00",
    warning="#ffff00",
    error="#ff3030",
    success="#00ff5f",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#1c1c1c",
    dark=True,
    luminosity_spread=0.25,
    text_alpha=1.0,
)

BUILTIN_THEMES: tuple[Theme, ...] = (BLAH_DARK, BLAH_LIGHT, BLAH_HIGH_CONTRAST)

_COLOUR_FIELDS = ("primary", "secondary", "accent", "warning", "error", "success", "foreground", "background", "surface", "panel")


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
    return LoadedTheme(path, Theme(name=name.strip(), dark=dark, **colours))


def load_user_themes(directory: Path) -> list[LoadedTheme]:
    if not directory.is_dir():
        return []
    return [load_user_theme(path) for path in sorted(directory.glob("*.toml"))]
