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
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
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

    _recompose_pending = False
    _composed_keys: object = None
    """What the keys on show were composed from (``_key_inputs``), None before the first."""

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """Recompose once per refresh, and only when the keys to show have changed.

        Textual's Footer recomposes (~100 new widgets) on every ``bindings_updated_signal``:
        an area switch sends about a dozen (focus, resume, each widget mounted), almost all
        with the same keys as the last.
        """
        self._bindings_ready = True
        if not screen.app.app_focus or self._recompose_pending:
            return
        if self.is_attached and screen is self.screen:
            self._recompose_pending = True
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        self._recompose_pending = False
        if self.is_attached and self._key_inputs() != self._composed_keys:
            await self.recompose()

    def _key_inputs(self) -> object:
        """Everything ``compose`` draws the keys from."""
        if not self.is_attached:
            return None
        keys = tuple((binding, enabled, tooltip) for (_, binding, enabled, tooltip)
                     in self.screen.active_bindings.values())
        return keys, self.screen is not self.app.screen, self.compact, self.show_command_palette

    def compose(self) -> ComposeResult:
        self._forget_removed_keys()
        self._composed_keys = self._key_inputs() if self._bindings_ready else None
        pinned: list[Widget] = []
        covered = self.is_attached and self.screen is not self.app.screen
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                self._settle_compact(widget)
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

    def _settle_compact(self, key: FooterKey) -> None:
        """Give a new key the footer's ``compact`` before it mounts, with its class to match.

        A FooterKey starts ``compact=True`` and is data-bound to the footer's (False here):
        mounted as is, its watcher adds ``-compact`` and the binding removes it again, each a
        restyle of the key and its component classes. With ~100 keys per recompose that was
        a fifth of the CPU of switching areas. Set first, both watchers find nothing to do.
        """
        key.set_reactive(FooterKey.compact, self.compact)
        key.set_class(self.compact, "-compact", update=False)

    @staticmethod
    def _is_pinned(key: FooterKey) -> bool:
        return key.has_class("-command-palette") or key.action in PINNED_ACTIONS


def _help_first(keys: Iterable[Widget]) -> list[Widget]:
    """Help, then the palette; one palette key (Textual's own is dropped when ours is there,
    e.g. ``ctrl+p`` while typing in a text box, where ``:`` is text)."""
    ordered = sorted(keys, key=lambda key: isinstance(key, FooterKey) and key.action != "help")
    ours = [k for k in ordered if not k.has_class("-command-palette")]
    ours_open_palette = any(isinstance(k, FooterKey) and k.action in PALETTE_ACTIONS for k in ours)
    return ours if ours_open_palette else ordered
