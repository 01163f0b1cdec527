"""The key footer: the screen's keys on one line, help and the palette pinned to the right edge.

It draws what Textual's Footer draws, key for key and colour for colour, but as one widget.
Textual's Footer mounts a widget per key (21 on the Logs screen) and builds them all again on
every change of bindings (each focus or screen change): styling, mounting and laying out those
keys cost 45-60 ms before the first frame of the app and about 4% of the test suite's CPU. Here
a change of bindings is a repaint of one line.

The right edge holds help and the palette, where they stay visible at any width (Textual's
Footer lists keys left to right and cut those that did not fit, so on an 80-column terminal
the very keys a person needs to find the rest fell off); the screen's keys fill what is left.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from typing import ClassVar, NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.color import Color
from textual.css.styles import StylesBase
from textual.screen import Screen
from textual.widget import Widget

__all__ = ["KeyFooter", "ShownKey"]

PALETTE_ACTIONS = frozenset({"command_palette", "app.command_palette"})
PINNED_ACTIONS = frozenset({"help", "app.help", *PALETTE_ACTIONS})
"""Actions whose key is pinned right (besides the command palette's)."""


@dataclass(frozen=True)
class ShownKey:
    """One key the footer offers. ``x``/``right``: the cells it is drawn on (``right`` is
    exclusive); a key cut by the edge has ``right`` past the footer's width."""

    key: str
    """The key as Textual names it (what pressing it sends)."""
    key_display: str
    description: str
    """Empty for a key shown in a group (the group's label says what the keys do)."""
    action: str
    enabled: bool
    tooltip: str
    x: int = 0
    right: int = 0


class _Offer(NamedTuple):
    """Keys the screen offers, as Textual's Footer would show them."""

    bindings: list[tuple[Binding, bool, str]]  # (binding, enabled, tooltip)
    group: str | None = None  # a group's label ("Areas"): its keys are shown together
    pinned: bool = False  # help or the palette: drawn at the right edge
    textual_palette: bool = False  # Textual's own palette key (compact: "^p Palette")


@dataclass(frozen=True)
class _Piece:
    """A run of cells: its text; the layers of the widget Textual's Footer drew it with (a
    key's ``item``, a label; none: the footer itself); the component of that widget it is
    (a key's key or description part); the key it belongs to (index into the keys)."""

    text: str
    node: tuple[str, ...] = ()
    component: str | None = None
    key: int | None = None


_ITEM = "footer-key--item"
_HOVER = "footer-key--hover"
_DISABLED = "footer-key--disabled"
_KEY = "footer-key--key"
_DESCRIPTION = "footer-key--description"


class KeyFooter(Widget, can_focus=False):
    """The keys of the screen it is on: screen's keys left, help and the palette right."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        _ITEM,
        _HOVER,
        _DISABLED,
        _KEY,
        _DESCRIPTION,
        "footer-key--label",
        "footer-key--separator",
    }
    # The rules of Textual's Footer and ShownKey, each key's own as the ``item`` layer.
    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        .footer-key--item { background: $footer-item-background; }
        .footer-key--hover { color: $footer-key-foreground; background: $block-hover-background; }
        .footer-key--disabled { text-style: dim; }
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .footer-key--label {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .footer-key--separator { color: $foreground 20%; }
    }
    """

    show_command_palette: ClassVar[bool] = True

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._bindings_ready = False
        self._footer_layout: tuple[list[_Piece], list[_Piece], list[ShownKey]] | None = None
        self._offers: list[_Offer] = []  # what the layout was made from
        self._check_due = False
        self._layer_styles: dict[tuple[str, ...], Style] = {}
        self._hovered_key: int | None = None

    # ------------------------------------------------------------------ bindings

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """The screen's keys may have changed (focus, a screen on top, an action's state):
        look once, after the changes that come together, whether the keys drawn would."""
        self._bindings_ready = True
        if not screen.app.app_focus:
            return  # as Textual's Footer: no flicker while the terminal is in the background
        if not self._check_due:
            self._check_due = True
            self.call_later(self._redraw_if_changed)

    def _redraw_if_changed(self) -> None:
        """Draw the keys again only when what the screen offers changed. Bindings are
        refreshed after most key presses and focus moves, and most leave the keys as they
        were: repainting the footer then costs a frame that often holds nothing else."""
        self._check_due = False
        if not self.is_attached:
            return
        offered = self._offered()
        if self._footer_layout is not None and offered == self._offers:
            return
        self._offers = offered
        self._footer_layout = self._lay_out(offered)
        self._hovered_key = None
        self.refresh()

    @property
    def keys(self) -> list[ShownKey]:
        """The keys drawn, left to right, with the cells each is drawn on."""
        return list(self._pieces()[2])

    def _pieces(self) -> tuple[list[_Piece], list[_Piece], list[ShownKey]]:
        """(left pieces, pinned pieces, keys with their cells), computed once per change."""
        if self._footer_layout is None:
            self._offers = self._offered() if self._bindings_ready and self.is_attached else []
            self._footer_layout = self._lay_out(self._offers)
        return self._footer_layout

    def _offered(self) -> list[_Offer]:
        """What Textual's Footer would show, in its order."""
        app = self.app
        screen = self.screen
        active = screen.active_bindings
        covered = screen is not app.screen
        by_action: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
        for active_binding in active.values():
            binding = active_binding.binding
            if not binding.show:
                continue
            if covered and binding.key == "escape":
                continue  # Esc belongs to the screen on top (a dialog)
            by_action[binding.action].append((binding, active_binding.enabled, active_binding.tooltip))
        offered: list[_Offer] = []
        for group, runs in groupby(by_action.values(), lambda bindings: bindings[0][0].group):
            same_group = list(runs)
            if group is not None and len(same_group) > 1:
                offered.append(_Offer([bindings[0] for bindings in same_group], group=group.description))
            else:
                offered.extend(
                    _Offer([bindings[0]], pinned=bindings[0][0].action in PINNED_ACTIONS) for bindings in same_group
                )
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            palette = active.get(app.COMMAND_PALETTE_BINDING)
            ours = any(offer.pinned and offer.bindings[0][0].action in PALETTE_ACTIONS for offer in offered)
            if palette is not None and not ours:
                binding = palette.binding
                tooltip = binding.tooltip or binding.description
                offered.append(_Offer([(binding, palette.enabled, tooltip)], pinned=True, textual_palette=True))
        return offered

    def _lay_out(self, offered: list[_Offer]) -> tuple[list[_Piece], list[_Piece], list[ShownKey]]:
        """The cells of the keys: the screen's (left) and the pinned ones (right)."""
        app = self.app
        keys: list[ShownKey] = []
        left: list[_Piece] = []
        pinned: list[_Piece] = []

        def add_key(binding: Binding, enabled: bool, tooltip: str, description: str) -> int:
            keys.append(
                ShownKey(binding.key, app.get_key_display(binding), description, binding.action, enabled, tooltip)
            )
            return len(keys) - 1

        def key_pieces(index: int, *, compact: bool = False) -> list[_Piece]:
            key = keys[index]
            node = (_ITEM, _DISABLED) if not key.enabled else (_ITEM,)
            if not key.description:
                return [_Piece(key.key_display, node, _KEY, index)]
            if compact:  # Textual's own palette key: "^p Palette", then its padding
                return [
                    _Piece(key.key_display, node, _KEY, index),
                    _Piece(" " + key.description, node, _DESCRIPTION, index),
                    _Piece(" ", node, None, index),
                ]
            return [
                _Piece(f" {key.key_display} ", node, _KEY, index),
                _Piece(key.description + " ", node, _DESCRIPTION, index),
            ]

        pinned_keys: list[tuple[int, bool]] = []
        for offer in offered:
            bindings = offer.bindings
            if offer.group is not None:  # a group: its keys, then what they do ("1234567890 Areas")
                group = bindings[0][0].group
                compact = group is not None and group.compact
                # Textual's KeyGroup: a compact one is padded left and has a right margin; the
                # keys of another have a margin each side. Then the label and its margin.
                if compact:
                    left.append(_Piece(" "))
                for binding, enabled, tooltip in bindings:
                    index = add_key(binding, enabled, tooltip or binding.description, "")
                    if compact:
                        left.extend(key_pieces(index))
                    else:
                        left.extend([_Piece(" "), *key_pieces(index), _Piece(" ")])
                if compact:
                    left.append(_Piece(" "))
                left.append(_Piece(offer.group, ("footer-key--label",)))
                left.append(_Piece(" "))
                continue
            binding, enabled, tooltip = bindings[0]
            index = add_key(binding, enabled, tooltip, binding.description)
            if offer.pinned:
                pinned_keys.append((index, offer.textual_palette))
            else:
                left.extend(key_pieces(index))
        if pinned_keys:
            pinned.append(_Piece("▏", ("footer-key--separator",)))  # the group's border-left: vkey
            ordered = sorted(pinned_keys, key=lambda entry: keys[entry[0]].action not in {"help", "app.help"})
            for index, textual_palette in ordered:
                pinned.extend(key_pieces(index, compact=textual_palette))
        return left, pinned, keys

    # ------------------------------------------------------------------ drawing

    def render(self) -> Text:
        width = self.size.width
        left, pinned, keys = self._pieces()
        spans: dict[int, list[int]] = {}
        pinned_runs = self._runs(pinned, 0, spans={})  # measured first: the keys' room is what it leaves
        pinned_width = sum(cell_len(text) for text, _ in pinned_runs)
        left_width = max(0, width - pinned_width)
        line = Text.assemble(*self._runs(left, 0, spans), no_wrap=True, overflow="crop", end="")
        line.truncate(left_width, overflow="crop", pad=True)
        line.append_text(Text.assemble(*self._runs(pinned, left_width, spans)))
        line.truncate(width, overflow="crop")
        for index, (start, end) in spans.items():
            keys[index] = replace(keys[index], x=start, right=end)
        return line

    def _runs(self, pieces: list[_Piece], x: int, spans: dict[int, list[int]]) -> list[tuple[str, Style | str]]:
        """The pieces as (text, style) runs from cell ``x``, a run per style (as Textual's
        Footer's widgets come out of the compositor); ``spans`` gets each key's cells."""
        runs: list[tuple[str, Style | str]] = []
        for piece in pieces:
            style = self._piece_style(piece)
            if piece.key is not None:
                span = spans.setdefault(piece.key, [x, x])
                span[1] = x + cell_len(piece.text)
            x += cell_len(piece.text)
            if runs and runs[-1][1] == style:
                runs[-1] = (runs[-1][0] + piece.text, style)
            else:
                runs.append((piece.text, style))
        return runs

    def _piece_style(self, piece: _Piece) -> Style | str:
        node = piece.node
        if piece.key is not None and piece.key == self._hovered_key:
            node = (*node, _HOVER)
        if not node:
            return ""  # the footer's own cells (margins): its style
        # As ShownKey.render: the part's component style over the key widget's style.
        style = self._style(node)
        if piece.component is not None:
            style += self._style((*node, piece.component))
        return style

    def _style(self, layers: tuple[str, ...]) -> Style:
        """The Rich style of a run drawn through ``layers`` of component styles over this
        widget, composed as Textual composes a widget's style over its ancestors
        (``DOMNode.rich_style``): a key is drawn as if it were a widget in the footer, its
        key and description parts as components of that widget."""
        style = self._layer_styles.get(layers)
        if style is None:
            style = self._layer_styles[layers] = _compose_style(
                [node.styles for node in reversed(self.ancestors_with_self)]
                + [self.get_component_styles(layer) for layer in layers]
            )
        return style

    def notify_style_update(self) -> None:
        self._layer_styles.clear()
        super().notify_style_update()

    # ------------------------------------------------------------------ mouse

    def _key_at(self, x: int) -> int | None:
        for index, key in enumerate(self._pieces()[2]):
            if key.x <= x < key.right:
                return index
        return None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        index = self._key_at(event.x)
        if index != self._hovered_key:
            self._hovered_key = index
            key = None if index is None else self._pieces()[2][index]
            self.tooltip = key.tooltip if key is not None and key.tooltip else None
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hovered_key is not None:
            self._hovered_key = None
            self.tooltip = None
            self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        index = self._key_at(event.x)
        if index is None:
            return
        key = self._pieces()[2][index]
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()


def _compose_style(layers: Sequence[StylesBase]) -> Style:
    """Textual's ``DOMNode.rich_style`` over a list of styles, outermost first."""
    background = Color(0, 0, 0, 0)
    color = Color(255, 255, 255, 0)
    style = Style()
    opacity = 1.0
    for styles in layers:
        has_rule = styles.has_rule
        opacity *= styles.opacity
        if has_rule("background"):
            text_background = background + styles.background.tint(styles.background_tint)
            background += styles.background.tint(styles.background_tint).multiply_alpha(opacity)
        else:
            text_background = background
        if has_rule("color"):
            color = styles.color
        style += styles.text_style
        if has_rule("auto_color") and styles.auto_color:
            color = text_background.get_contrast_text(color.a)
    return style + Style.from_color(
        (background + color).rich_color if (background.a or color.a) else None,
        background.rich_color if background.a else None,
    )
