"""Checkpoints (``c`` in Compare): did my new checkpoint get better?

The model in use is B, "after" (the new checkpoint); A, "before", is another model chosen in
the model picker (``m``), or the same model's older calls (``w``: its calls read, split in two
time windows of as many calls). Per failure kind and per eval: both failure rates with their
Wilson intervals, B − A with Newcombe's interval, the verdict (better, worse, or no detectable
change at this sample size) and the calls per side it would take to detect the difference seen.
``application.compare.checkpoint`` reads and classifies; ``diagnosis.checkpoint`` has the method.
"""

from __future__ import annotations

from typing import Literal

from rich.text import Text
from textual import work
from textual.binding import Binding

from api_client.errors import BlahError
from application.compare.checkpoint import CheckpointComparison, compare_models, compare_windows
from application.compare.checkpoint_error_bars import checkpoint_mde_sentence, holm_sentence
from application.compare.checkpoint_format import COLUMNS, METHOD_SHORT, row_cells, side_line, tally
from application.diagnosis.data import limit_from
from diagnosis.checkpoint import BETTER, WORSE
from tui import bindings
from tui.base_screen import describe_error
from tui.captioned_table import CaptionedTableScreen
from tui.cell_format import tone_style
from tui.screens.runs.pick import ask_for_models

__all__ = ["CheckpointScreen"]

Choice = Literal["model", "windows"]

_CHOOSE = "Choose what to compare your model with: m another model (an older checkpoint) · w your own older calls"


class CheckpointScreen(CaptionedTableScreen):
    """Your model (B, after) against another model or its own older calls (A, before)."""

    SCREEN_TITLE = "Checkpoints"
    CAPTION_ID = "checkpoint-caption"
    TABLE_ID = "checkpoint-table"

    BINDINGS = [
        bindings.back("checkpoints"),
        bindings.pick_model("checkpoints"),
        Binding("w", "windows", "Time windows", id="checkpoints.windows"),
        bindings.refresh("checkpoints"),
    ]

    def __init__(self, *, open_picker: bool = True) -> None:
        super().__init__()
        self.choice: Choice | None = None
        self.other_id: str | None = None
        self.comparison: CheckpointComparison | None = None
        self._open_picker = open_picker

    def first_caption(self) -> str:
        return _CHOOSE

    def on_mount(self) -> None:
        if self._open_picker:
            self.action_pick_model()

    def on_model_switched(self, model_id: str) -> None:
        """The app is now about another model: compare that one (against the same other model,
        unless it is the one now in use)."""
        if self.other_id == model_id:
            self.choice, self.other_id = None, None
            self.comparison = None
            self.table.clear(columns=True)
            self._say(_CHOOSE)
            return
        self.action_refresh()

    # ----------------------------------------------------------------- choosing

    @work(exclusive=True, group="checkpoints.pick", exit_on_error=False)
    async def action_pick_model(self) -> None:
        if self.ctx.client is None:
            self._say("offline: comparing with another model needs the platform (w compares time windows)")
            return
        try:
            chosen = await ask_for_models(
                self,
                title="Did your new checkpoint get better than…",
                hint="Choose the model it replaces (space toggles, y continues, Esc cancels).",
                preselected=[self.other_id] if self.other_id else [],
                exclude=[self.ctx.model_id],
                max_selected=1,
            )
        except BlahError as error:  # the listing failed (the picker itself raises none)
            self._say(f"couldn't list the models: {describe_error(error)}", error=True)
            raise
        if chosen:
            self.choice, self.other_id = "model", chosen[0]
            self.load()

    def action_windows(self) -> None:
        self.choice = "windows"
        self.load()

    def action_refresh(self) -> None:
        if self.choice is not None:
            self.load()

    # ----------------------------------------------------------------- loading

    @work(exclusive=True, group="checkpoints.load", exit_on_error=False)
    async def load(self) -> None:
        ctx = self.ctx
        limit = limit_from(ctx.settings)
        self.comparison = None
        self.table.clear(columns=True)
        try:
            if self.choice == "model" and self.other_id is not None and ctx.client is not None:
                self._say(f"reading up to {limit:,} recent calls of each model…")
                templates = dict(ctx.settings.templates)
                if ctx.trained_template:
                    templates.setdefault(ctx.model_id, ctx.trained_template)
                comparison = await compare_models(
                    ctx.client, self.other_id, ctx.model_id, templates=templates, limit=limit, archive_b=ctx.archive
                )
            elif self.choice == "windows":
                self._say(f"reading up to {limit:,} recent calls…")
                comparison = await compare_windows(
                    ctx.client, ctx.model_id, config_template=ctx.trained_template, limit=limit, archive=ctx.archive
                )
            else:
                return
        except BlahError as error:
            self._say(f"couldn't read the calls: {describe_error(error)}", error=True)
            raise
        self.comparison = comparison
        self._show(comparison)

    def _show(self, comparison: CheckpointComparison) -> None:
        variables = self.app.get_css_variables()
        tones = {BETTER: tone_style("success", variables, bold=True), WORSE: tone_style("error", variables, bold=True)}
        table = self.table
        table.set_columns((Text(title), f"col{n}") for n, title in enumerate(COLUMNS))
        for n, row in enumerate(comparison.rows):
            cells = [Text(value, end="") for value in row_cells(row)]
            if row.verdict in tones:  # the label too, so the verdict shows on a narrow screen
                cells[0].stylize(tones[row.verdict])
                cells[4].stylize(tones[row.verdict])
            elif not row.comparable:
                cells[4].stylize("dim")
            table.add_row(*cells, key=f"{row.section}:{n}")
        overall = comparison.rows[0]
        before = "your older calls" if comparison.mode == "windows" else "the other model"
        caption = Text(end="")
        caption.append(f"B (after): your model · A (before): {before} · any failure: ", style="bold")
        caption.append(overall.verdict, style=tones.get(overall.verdict, "bold"))
        caption.append(f" · kinds: {tally(comparison.rows, 'kind')} · evals: {tally(comparison.rows, 'eval')}\n")
        caption.append(side_line("A", comparison.a) + "\n")
        caption.append(side_line("B", comparison.b) + "\n")
        caption.append(METHOD_SHORT, style="dim")
        caption.append(
            f"\n{checkpoint_mde_sentence(comparison.rows)} · {holm_sentence(comparison.rows)}", style="italic"
        )
        self._say("")
        self.caption.update(caption)
