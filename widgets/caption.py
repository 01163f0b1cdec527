"""The one line (or few) a screen says under its title or table: a caption, or an error.

Every screen that reports "loading…", "couldn't load runs: … · trying again in 4 s" or a
write's outcome composes a :class:`Caption` and calls :meth:`Caption.say`. A ``str`` is shown
literally (never parsed as Rich markup: platform text goes through it); an error is shown in
the theme's error colour by the one ``.error`` rule below, not a rule per screen.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

__all__ = ["Caption"]


class Caption(Static):
    """A screen's caption or message line; ``hide_when_empty``: take no room when it says nothing."""

    DEFAULT_CSS = """
    Caption.error { color: $error; }
    """

    def __init__(
        self, text: Text | str = "", *, id: str | None = None, classes: str | None = None, hide_when_empty: bool = False
    ) -> None:
        super().__init__(text if isinstance(text, Text) else Text(text), id=id, classes=classes, markup=False)
        self._hide_when_empty = hide_when_empty

    def say(self, text: Text | str, *, error: bool = False) -> None:
        """Show ``text`` (literally), in the error colour when ``error``."""
        self.set_class(error, "error")
        self.update(text if isinstance(text, Text) else Text(text))
        if self._hide_when_empty:
            self.display = bool(str(text))
