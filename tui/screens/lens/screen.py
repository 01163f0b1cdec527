"""BLAH Lens: the model's bundle, and a prompt analysed layer by layer as the NDJSON streams in.

Each layer's top-k tokens arrive as a row of the table and a row of the heat map (layers ×
candidate tokens, shaded by probability). ``x`` or Esc cancels a running analysis (the screen
says at which layer); ``[``/``]`` step through the generated positions; ctrl+r analyses the
prompt in the editor. A model without a bundle gets a plain sentence, not an error.
Reached from the palette ("Lens") or from the Inspector (``l``: that call's exact prompt).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import aclosing
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Static, TextArea
from textual.worker import Worker

from api_client.blahdev.shapes import LensBundle, LensEvent
from api_client.errors import BlahError, NotFoundError
from tui.base_screen import BlahScreen, describe_error
from tui.platform_work import platform_work
from tui.screens.lens.render import (
    LensHeatMap,
    LensRun,
    bundle_text,
    layer_row,
    no_bundle_text,
    token_label,
)
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.key_table import KeyTable
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["DEFAULT_PROMPT", "LensScreen"]

DEFAULT_PROMPT = "The capital of France is"
MAX_NEW_TOKENS = 16
MAX_TOP_K = 20


def _bounded_int(value: str, low: int, high: int) -> int | None:
    try:
        number = int(value.strip())
    except ValueError:
        return None
    return number if low <= number <= high else None


class LensScreen(BlahScreen):
    """Top-level (palette: "Lens") or pushed with a prompt from the Inspector."""

    SCREEN_TITLE = "Lens"

    DEFAULT_CSS = """
    LensScreen #lens-bundle { height: auto; padding: 0 1; }
    LensScreen #lens-prompt { height: 5; }
    LensScreen #lens-options { height: 1; }
    LensScreen #lens-options Input { width: 5; }
    LensScreen .lens-label { width: auto; height: 1; padding: 0 1; color: $foreground-muted; }
    LensScreen #lens-status { height: auto; padding: 0 1; }
    LensScreen #lens-status.cancelled { color: $warning; }
    LensScreen #lens-body { height: 1fr; }
    LensScreen #lens-table { width: 1fr; height: 1fr; }
    LensScreen #lens-heat-box { width: 1fr; height: 1fr; border-left: solid $panel; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "analyse", "Analyse", priority=True, id="lens.analyse"),
        Binding("x", "cancel", "Cancel", id="lens.cancel"),
        Binding("escape", "escape", "Cancel / back", id="lens.escape"),
        Binding("left_square_bracket", "position(-1)", "Prev token", id="lens.prev"),
        Binding("right_square_bracket", "position(1)", "Next token", id="lens.next"),
    ]

    def __init__(self, model_id: str | None = None, *, prompt: str | None = None, autostart: bool = False) -> None:
        super().__init__()
        self._fixed_model = model_id
        self._initial_prompt = prompt
        self._autostart = autostart and bool(prompt)
        self.bundle: LensBundle | None = None
        self.has_bundle: bool | None = None  # None: not known (yet)
        self.run: LensRun | None = None
        self.analysis: Worker[None] | None = None
        self.cancelled = False
        self.position: int | None = None
        self.follow = True  # the heat map follows the newest position while streaming
        self._top_k = 5

    @property
    def model_id(self) -> str:
        return self._fixed_model or self.ctx.model_id

    @property
    def streaming(self) -> bool:
        return self.analysis is not None and self.analysis.is_running

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text("loading the model's Lens bundle…", style="italic"), id="lens-bundle")
        yield TextArea(self._initial_prompt or DEFAULT_PROMPT, id="lens-prompt", soft_wrap=True)
        with Horizontal(id="lens-options"):
            yield Static(Text(f"new tokens (1-{MAX_NEW_TOKENS})"), classes="lens-label")
            yield Input("1", id="lens-tokens", restrict=r"[0-9]*", max_length=2, compact=True)
            yield Static(Text(f"top-k (1-{MAX_TOP_K})"), classes="lens-label")
            yield Input("5", id="lens-topk", restrict=r"[0-9]*", max_length=2, compact=True)
        yield Caption(Text("ctrl+r analyses the prompt; x or Esc cancels.", style="italic"), id="lens-status")
        with Horizontal(id="lens-body"):
            yield KeyTable(id="lens-table")
            with VerticalScroll(id="lens-heat-box"):
                yield LensHeatMap(id="lens-heat")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._set_columns(self._top_k)
        if self.ctx.client is None:
            self.query_one("#lens-bundle", Static).update(Text("offline: the Lens is on the platform"))
            return
        self.load_bundle()

    def on_model_switched(self, model_id: str) -> None:
        if self._fixed_model is not None:  # opened for one model: it stays on that model
            return
        self.action_cancel()
        self.load_bundle()

    # ----------------------------------------------------------------- bundle

    @platform_work(exclusive=True, group="lens-bundle")
    async def load_bundle(self, client: BlahClient) -> None:
        label = self.query_one("#lens-bundle", Static)
        model_id = self.model_id
        try:
            bundle = await client.lens(model_id)
        except NotFoundError:
            self.has_bundle = False
            label.update(Text(f"couldn't load: the platform has no model {one_line(model_id, max_len=80)}"))
            return
        except BlahError as error:
            self.has_bundle = None
            label.update(Text(f"couldn't load the bundle: {describe_error(error)}"))
            raise
        self.bundle = bundle
        self.has_bundle = bundle.available is not False
        label.update(bundle_text(bundle, model_id))
        for widget in (self.query_one("#lens-prompt", TextArea), *self.query(Input)):
            widget.disabled = not self.has_bundle
        if not self.has_bundle:
            self._say(Text("Nothing to analyse: this model has no Lens bundle."))
        elif self._autostart:
            self._autostart = False
            self.action_analyse()

    # ----------------------------------------------------------------- analysis

    def _say(self, text: Text | str, kind: str = "") -> None:
        status = self.query_one("#lens-status", Caption)
        status.set_class(kind == "cancelled", "cancelled")
        status.say(text, error=kind == "error")

    def _set_columns(self, top_k: int) -> None:
        table = self.query_one("#lens-table", KeyTable)
        table.clear(columns=True)
        table.add_column("Pos", key="pos")
        table.add_column("Layer", key="layer")
        for index in range(top_k):
            table.add_column(f"#{index + 1}", key=f"top{index + 1}")

    def action_analyse(self) -> None:
        if self.ctx.client is None:
            self.notify("Offline: the Lens needs the platform.", severity="warning", markup=False)
            return
        if self.has_bundle is False:
            self._say(no_bundle_text(self.model_id))
            return
        prompt = self.query_one("#lens-prompt", TextArea).text
        if not prompt.strip():
            self._say("Type a prompt first.", "error")
            return
        tokens = _bounded_int(self.query_one("#lens-tokens", Input).value, 1, MAX_NEW_TOKENS)
        top_k = _bounded_int(self.query_one("#lens-topk", Input).value, 1, MAX_TOP_K)
        if tokens is None or top_k is None:
            self._say(f"new tokens must be 1-{MAX_NEW_TOKENS} and top-k 1-{MAX_TOP_K}.", "error")
            return
        self.analysis = self.analyse(prompt, tokens, top_k)
        self.query_one("#lens-table", KeyTable).focus()  # so x / [ / ] act on the screen

    @platform_work(exclusive=True, group="lens-analyse")
    async def analyse(self, client: BlahClient, prompt: str, new_tokens: int, top_k: int) -> None:
        self._top_k = top_k
        self._set_columns(top_k)
        self.run = run = LensRun(prompt)
        self.cancelled = False
        self.position, self.follow = None, True
        self.query_one("#lens-heat", LensHeatMap).show(None, None)
        self._say(Text("streaming… waiting for the first layer", style="italic"))
        model_id = self.model_id
        try:
            stream = cast(
                "AsyncGenerator[LensEvent, None]",
                client.lens_analyze(model_id, prompt, max_new_tokens=new_tokens, top_k=top_k),
            )
            async with aclosing(stream) as events:
                async for event in events:
                    run.apply(event)
                    self._show_event(run, event.type)
        except NotFoundError as error:
            if "lens" in (error.server_error or "").lower():
                self.has_bundle = False
                self._say(no_bundle_text(model_id))
                return
            self._say(f"couldn't analyse: {describe_error(error)}", "error")
            raise
        except BlahError as error:
            self._say(f"couldn't analyse: {describe_error(error)} (what arrived is shown)", "error")
            raise
        self._finished(run)

    def _show_event(self, run: LensRun, kind: str) -> None:
        table = self.query_one("#lens-table", KeyTable)
        if kind == "layer" and run.last_position is not None and run.last_layer is not None:
            position, layer = run.last_position, run.last_layer
            table.add_row(*layer_row(position, layer, run.steps[position][layer], self._top_k))
            if self.follow:
                self.position = position
            total = f" of {run.layers}" if run.layers is not None else ""
            self._say(
                Text(
                    f"streaming… layer {layer} ({run.layers_received(position)}{total}) at position {position}",
                    style="italic",
                )
            )
        elif kind == "token" and run.predicted:
            position = max(run.predicted)
            chosen = token_label(run.predicted[position], max_len=30)
            chosen.stylize("bold")
            table.add_row(
                Text(str(position), justify="right"),
                Text("chose", style="italic"),
                chosen,
                *([Text("")] * (self._top_k - 1)),
            )
        elif kind == "start" and run.prompt_tokens is not None:
            total = f"{run.layers} layers" if run.layers is not None else "layers not given"
            self._say(Text(f"streaming… {len(run.prompt_tokens)} prompt tokens, {total}", style="italic"))
        else:
            return
        if table.row_count:
            table.move_cursor(row=table.row_count - 1, animate=False)
        self.query_one("#lens-heat", LensHeatMap).show(run, self.position)

    def _finished(self, run: LensRun) -> None:
        if run.error is not None:
            self._say(Text(f"the platform reported: {one_line(run.error, max_len=200)}"), "error")
            return
        chosen = Text(end="")
        for index, position in enumerate(sorted(run.predicted)):
            if index:
                chosen.append(" ")
            chosen.append_text(token_label(run.predicted[position], max_len=20))
        layers = f"{run.layers} layers" if run.layers is not None else "layers not given"
        if not run.done:
            self._say(Text(f"the stream ended early, at {run.where()}: what arrived is shown (incomplete)"), "error")
            return
        text = Text(f"done: {layers}, {len(run.positions)} new token(s)", end="")
        if run.predicted:
            text.append(": ")
            text.append_text(chosen)
        text.append(" · [ ] step through positions", style="dim")
        self._say(text)

    # ----------------------------------------------------------------- keys

    def action_cancel(self) -> None:
        worker = self.analysis
        if worker is None or not worker.is_running:
            return
        worker.cancel()
        self.cancelled = True
        where = self.run.where() if self.run is not None else "before the first layer arrived"
        self._say(Text(f"cancelled at {where}; what arrived is shown", end=""), "cancelled")

    def action_escape(self) -> None:
        if self.streaming:
            self.action_cancel()
        elif len(self.app.screen_stack) > 1 and self.app.screen is self:
            self.dismiss()

    def action_position(self, step: int) -> None:
        run = self.run
        if run is None or not run.positions:
            return
        positions = run.positions
        current = self.position if self.position in positions else positions[-1]
        index = min(max(positions.index(current) + step, 0), len(positions) - 1)
        self.position = positions[index]
        self.follow = index == len(positions) - 1
        self.query_one("#lens-heat", LensHeatMap).show(run, self.position)
