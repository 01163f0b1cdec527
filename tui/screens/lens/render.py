"""The Lens analysis as it streams: the accumulated state (pure), the table rows, the bundle
summary, and the heat map widget (layers × candidate tokens, coloured by probability).

A token the platform did not report for a layer (outside that layer's top-k) has no number:
it is drawn as ``·``, never as 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text
from textual.app import RenderResult
from textual.color import Color
from textual.widget import Widget

from api_client.blahdev.shapes import LensBundle, LensEvent
from common.format import DASH
from widgets.safe_text import one_line, sanitize

__all__ = [
    "LensHeatMap",
    "LensRun",
    "TopEntry",
    "bundle_text",
    "layer_row",
    "token_label",
]

CELL_WIDTH = 9
ROW_LABEL = 6
MAX_CANDIDATES = 8


@dataclass(frozen=True, slots=True)
class TopEntry:
    token: str
    prob: float | None


def token_label(token: str, max_len: int = 12) -> Text:
    """A token shown exactly: controls as markers, spaces as a dim ``·`` so " Paris" ≠ "Paris"."""
    shown = sanitize(token, keep_newlines=False, max_len=max_len)
    text = Text(end="", no_wrap=True)
    if not shown:
        text.append("∅", style="dim")
        return text
    for char in shown:
        text.append("·" if char == " " else char, style="dim" if char == " " else "")
    return text


def _entries(top_k: list[dict[str, object]] | None) -> list[TopEntry]:
    out: list[TopEntry] = []
    for item in top_k or []:
        if not isinstance(item, dict):
            continue
        token = item.get("token")
        prob = item.get("prob")
        if not isinstance(token, str):
            continue
        number = float(prob) if isinstance(prob, (int, float)) and not isinstance(prob, bool) else None
        out.append(TopEntry(token, number))
    return out


@dataclass
class LensRun:
    """Everything received so far for one analysis."""

    prompt: str
    layers: int | None = None
    prompt_tokens: list[str] | None = None
    steps: dict[int, dict[int, list[TopEntry]]] = field(default_factory=dict)  # position -> layer -> top-k
    predicted: dict[int, str] = field(default_factory=dict)  # position -> the token chosen
    last_layer: int | None = None
    last_position: int | None = None
    layer_events: int = 0
    done: bool = False
    error: str | None = None
    unknown_events: int = 0

    def apply(self, event: LensEvent) -> None:
        kind = event.type
        if kind == "start":
            self.layers = event.layers
            self.prompt_tokens = event.tokens
        elif kind == "layer":
            position = event.position if event.position is not None else (self.last_position or 0)
            layer = event.layer if event.layer is not None else len(self.steps.get(position, {}))
            self.steps.setdefault(position, {})[layer] = _entries(event.top_k)
            self.last_layer, self.last_position = layer, position
            self.layer_events += 1
        elif kind == "token":
            if event.position is not None and event.token is not None:
                self.predicted[event.position] = event.token
        elif kind == "done":
            self.done = True
        elif kind == "error":
            self.error = event.message or "the platform reported an error without a message"
        else:
            self.unknown_events += 1

    @property
    def positions(self) -> list[int]:
        return sorted(self.steps)

    def layers_received(self, position: int) -> int:
        return len(self.steps.get(position, {}))

    def where(self) -> str:
        """``layer 3 (4 of 8 layers) of token 1 of 2``: how far the stream got."""
        if self.last_layer is None or self.last_position is None:
            return "before the first layer arrived"
        got = self.layers_received(self.last_position)
        total = f" of {self.layers}" if self.layers is not None else ""
        text = f"layer {self.last_layer} ({got}{total} layers received)"
        if len(self.steps) > 1 or len(self.predicted) > 0:
            text += f", new token {self.positions.index(self.last_position) + 1}"
        return text


def layer_row(position: int, layer: int, entries: list[TopEntry], top_k: int) -> tuple[Text, ...]:
    cells: list[Text] = [Text(str(position), justify="right"), Text(str(layer), justify="right")]
    for index in range(top_k):
        if index < len(entries):
            entry = entries[index]
            cell = token_label(entry.token)
            cell.append(f" {entry.prob:.2f}" if entry.prob is not None else f" {DASH}")
            cells.append(cell)
        else:
            cells.append(Text(""))
    return tuple(cells)


def bundle_text(bundle: LensBundle, model_id: str) -> Text:
    """What the bundle captures, its layers and template fingerprint; each missing value said."""
    if bundle.available is False:
        return no_bundle_text(model_id)
    text = Text(end="")
    text.append(one_line(model_id, max_len=60), style="bold")
    text.append(": BLAH Lens bundle")
    text.append(f" {one_line(bundle.version, max_len=20)}" if bundle.version else " (version not given)")
    text.append(" · captures ")
    text.append(", ".join(one_line(c, max_len=30) for c in bundle.captures) if bundle.captures else "not listed")
    text.append(" · layers ")
    text.append(str(bundle.layers) if bundle.layers is not None else "not given")
    text.append(" · template fingerprint ")
    text.append(one_line(bundle.template_fingerprint, max_len=80) if bundle.template_fingerprint else "not given")
    if bundle.chat_template:
        text.append(f" ({one_line(bundle.chat_template, max_len=30)})")
    return text


def no_bundle_text(model_id: str) -> Text:
    return Text(
        f"Model {one_line(model_id, max_len=80)} publishes no BLAH Lens bundle, so its layers cannot be "
        "read here. A bundle is made with the guide at evals.blah.dev/docs/lens and checked with "
        "`npx @blahai/lens`.",
        end="",
    )


class LensHeatMap(Widget):
    """Rows are layers, columns the candidate tokens of one position (ordered by the last
    layer's probability), each cell shaded from the background to ``$primary`` by probability."""

    DEFAULT_CSS = """
    LensHeatMap { height: auto; min-height: 3; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.run: LensRun | None = None
        self.position: int | None = None

    def show(self, run: LensRun | None, position: int | None) -> None:
        self.run, self.position = run, position
        self.refresh(layout=True)

    def _candidates(self, layers: dict[int, list[TopEntry]], room: int) -> list[str]:
        """The tokens to show, best of the newest layer first, as many as fit in ``room`` columns."""
        last = layers[max(layers)]
        order = [e.token for e in sorted(last, key=lambda e: -(e.prob or 0.0))]
        for layer in sorted(layers, reverse=True):
            for entry in layers[layer]:
                if entry.token not in order:
                    order.append(entry.token)
        fits = max((room - ROW_LABEL) // CELL_WIDTH, 1)
        return order[: min(MAX_CANDIDATES, fits)]

    def _colours(self) -> tuple[Color, Color]:
        """The theme's surface (probability 0) and primary (probability 1)."""
        theme = self.app.theme_variables
        try:
            low = Color.parse(theme.get("surface") or theme.get("background") or "black")
            high = Color.parse(theme.get("primary") or "blue")
        except Exception:
            low, high = Color(0, 0, 0), Color(1, 120, 212)
        return low, high

    def render(self) -> RenderResult:
        run, position = self.run, self.position
        if run is None or position is None or not run.steps.get(position):
            return Text("The heat map fills in as layers arrive.", style="italic")
        layers = run.steps[position]
        candidates = self._candidates(layers, self.content_size.width or 80)
        low, high = self._colours()
        text = Text(end="", no_wrap=True)
        predicted = run.predicted.get(position)
        text.append(f"position {position}", style="bold")
        if predicted is not None:
            text.append(" → chose ")
            text.append_text(token_label(predicted, max_len=20))
        text.append("\n")
        text.append(" " * ROW_LABEL)
        for token in candidates:
            label = token_label(token, max_len=CELL_WIDTH - 1)
            label.truncate(CELL_WIDTH - 1)
            text.append_text(label)
            text.append(" " * (CELL_WIDTH - label.cell_len))
        for layer in sorted(layers):
            text.append(f"\nL{layer:<{ROW_LABEL - 2}} ")
            probs = {e.token: e.prob for e in layers[layer]}
            for token in candidates:
                if token not in probs or probs[token] is None:
                    text.append("·".center(CELL_WIDTH - 1), style="dim")
                    text.append(" ")
                    continue
                prob = float(probs[token] or 0.0)
                shade = low.blend(high, min(max(prob, 0.0), 1.0))
                style = Style(bgcolor=shade.rich_color, color=shade.get_contrast_text(1.0).rich_color)
                text.append(f"{prob:.2f}".center(CELL_WIDTH - 1), style=style)
                text.append(" ")
        text.append("\n· not in that layer's top-k (no number reported)", style="dim italic")
        return text
