"""The key footer: Textual's Footer with help and the palette pinned to the right edge.

Textual's Footer lists a screen's keys left to right and cuts what does not fit, so on an
80-column terminal the keys after the screen's own (help, the palette) fell off the edge:
the very keys a person needs to find the rest. Here they are docked right, where they stay
visible at any width, and the screen's keys fill what is left.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.widget import Widget
from textual.widgets import Footer
from textual.screen import Screen
from textual.widgets._footer import FooterKey

__all__ = ["KeyFooter"]

PALETTE_ACTIONS = frozenset({"command_palette", "app.command_palette"})
PINNED_ACTIONS = frozenset({"help", "app.help", *PALETTE_ACTIONS})
"""Actions whose key is pinned right (besides the command palette's)."""


class KeyFooter(Footer):
    """A footer whose help and command-palette keys are always on screen."""

    DEFAULT_CSS = """
    KeyFooter {
        HorizontalGroup.-pinned-keys {
            dock: right;
            width: auto;
            height: 1;
            border-left: vkey $foreground 20%;
        }
        HorizontalGroup.-pinned-keys FooterKey.-command-palette {
            dock: none;
            border-left: none;
            padding-right: 1;
        }
    }
    """

    _recompose_queued = False
    """A recompose is waiting for the next refresh (see ``bindings_changed``)."""
    _composed_from: tuple[object, ...] | None = None
    """What the keys on screen were composed from (``_key_sources``); None: no keys yet."""

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Recompose once for the changes of bindings made before the next refresh, and only
        when the keys would differ.

        Textual's Footer queues one full recompose (every key built, styled and mounted again)
        per change, and a screen that opens changes its bindings several times before its first
        frame (mounted, focused, rows shown): four recomposes before the Logs screen's first
        rows, where one shows the same keys. The queued recompose reads the bindings when it
        runs, so it shows the last change too.
        """
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._recompose_queued:
            self._recompose_queued = True
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        self._recompose_queued = False
        if not self.is_attached:
            return  # closed meanwhile (Textual's recompose would do nothing either)
        if self._composed_from is None or self._key_sources() != self._composed_from:
            await self.recompose()

    def _key_sources(self) -> tuple[object, ...]:
        """Everything ``compose`` builds the keys from: equal sources, equal keys."""
        app = self.app
        shown = tuple(
            (key, active.binding, active.enabled, active.tooltip, app.get_key_display(active.binding))
            for key, active in self.screen.active_bindings.items()
            if active.binding.show or key == app.COMMAND_PALETTE_BINDING
        )
        covered = self.screen is not app.screen
        return (covered, self.compact, self.show_command_palette, shown)

    def compose(self) -> ComposeResult:
        self._forget_removed_keys()
        self._composed_from = self._key_sources() if self._bindings_ready and self.is_attached else None
        pinned: list[Widget] = []
        covered = self.is_attached and self.screen is not self.app.screen
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                _settle_compact(widget, True if widget.has_class("-command-palette") else self.compact)
            if covered and isinstance(widget, FooterKey) and widget.key == "escape":
                continue  # Esc belongs to the screen on top (a dialog); its meaning here is computed for that one
            if isinstance(widget, FooterKey) and self._is_pinned(widget):
                pinned.append(widget)
            else:
                yield widget
        if pinned:
            yield HorizontalGroup(*_help_first(pinned), classes="-pinned-keys")

    def _forget_removed_keys(self) -> None:
        """Drop the watchers of keys a previous compose made (Textual 8's Footer leaks them).

        Each FooterKey is data-bound to ``Footer.compact``, which registers a watcher on the
        footer; Textual prunes such watchers only when ``compact`` changes, which it never
        does here. The footer recomposes on every focus or screen change, so an app left
        open for a night kept hundreds of thousands of dead keys (3,614 after 90 area
        switches). By the time ``compose`` runs again the old keys are removed (closed).
        """
        watchers: dict[str, list[tuple[Any, Any]]] = getattr(self, "__watchers", {})
        for name, entries in watchers.items():
            watchers[name] = [(node, callback) for node, callback in entries
                              if not (getattr(node, "_closing", False) or getattr(node, "_closed", False))]

    @staticmethod
    def _is_pinned(key: FooterKey) -> bool:
        return key.has_class("-command-palette") or key.action in PINNED_ACTIONS


def _settle_compact(key: FooterKey, compact: bool) -> None:
    """Give a new key its final ``compact`` (and ``-compact`` class) before it mounts.

    Textual's FooterKey starts compact and its data binding to ``Footer.compact`` (False here)
    un-compacts it right after mounting: each of the two class changes re-applies the whole
    stylesheet to the key, about 40 times per footer, at start-up and on every recompose (each
    focus or screen change). Set before mounting, neither happens; the keys end up the same.
    The palette key is not bound: it stays compact, as Textual leaves it.
    """
    key.set_reactive(FooterKey.compact, compact)
    key.set_class(compact, "-compact", update=False)


def _help_first(keys: Iterable[Widget]) -> list[Widget]:
    """Help, then the palette; one palette key (Textual's own is dropped when ours is there,
    e.g. ``ctrl+p`` while typing in a text box, where ``:`` is text)."""
    ordered = sorted(keys, key=lambda key: isinstance(key, FooterKey) and key.action != "help")
    ours = [k for k in ordered if not k.has_class("-command-palette")]
    ours_open_palette = any(isinstance(k, FooterKey) and k.action in PALETTE_ACTIONS for k in ours)
    return ours if ours_open_palette else ordered
