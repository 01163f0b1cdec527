"""Compare (key 7): the person's model and one or two peers on the same evals.

Answers and scores per eval (one prompt each) side by side; the person's losses first
(largest gap first), then evals not everyone was scored on, ties, and wins. Enter opens one
eval with the full answers. ``p`` chooses the peers (by default the leaderboard's best other
model). ``c`` opens Checkpoints: did my new checkpoint get better than another model, or than
its own older calls (``checkpoints.py``); ``o`` the errorbar queue's bake-offs (``bakeoffs.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from api_client.blahdev.shapes import Comparison
from api_client.errors import BlahError
from application.compare.error_bars import comparison_reading, versus_sentences
from application.compare.rows import CompareLine, mean_scores, order_for_person, tally
from application.leaderboard.error_bars import mde_sentence, mean_cell
from common.format import plural
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.captioned_table import CaptionedTableScreen
from tui.cell_format import DASH, cell, fmt_score, reply_cell, short, tone_style
from tui.platform_work import platform_work
from tui.screens.runs.pick import ask_for_models
from widgets.status_header import StatusHeader
from widgets.text_viewer import TextViewer

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["CompareLine", "CompareScreen", "mean_scores", "order_for_person", "tally"]


class CompareScreen(bindings.RowAction, CaptionedTableScreen):
    """Two or three models on the same evals."""

    SCREEN_TITLE = "Compare"
    CAPTION_ID = "compare-caption"
    TABLE_ID = "compare-table"

    ROW_ACTION = "open"  # a chosen row (Enter, a click) does what Enter does
    BINDINGS = [
        bindings.open_row("compare", "Open eval"),
        Binding("p", "pick_peers", "Choose peers", id="compare.peers"),
        Binding("c", "checkpoints", "Checkpoints", id="compare.checkpoints"),
        Binding("o", "bakeoffs", "Bake-offs", id="compare.bakeoffs"),
        bindings.refresh("compare"),
    ]

    def __init__(self, peers: Sequence[str] | None = None) -> None:
        super().__init__()
        self.peers: list[str] = list(peers or [])
        self.comparison: Comparison | None = None
        self.lines: list[CompareLine] = []
        self.names: dict[str, str] = {}
        self.loaded = False
        self._why_peers = ""

    def first_caption(self) -> str:
        return "loading the comparison…"

    def on_mount(self) -> None:
        self.load()

    def on_model_switched(self, model_id: str) -> None:
        """The app is now about another model: show this screen for it."""
        self.peers = [p for p in self.peers if p != self.ctx.model_id]
        self.load()

    @platform_work(exclusive=True, group="compare.load", offline=(CAPTION_ID, "offline: comparing needs the platform"))
    async def load(self, client: BlahClient) -> None:
        caption = self.caption
        own = self.ctx.model_id
        try:
            models = await client.list_models()
            self.names = {m.id: m.name or m.id for m in models}
            if not self.peers:
                board = await client.leaderboard()
                best = next((e.model_id for e in board if e.model_id != own), None)
                if best is not None:
                    self.peers, self._why_peers = [best], "the leaderboard's best other model"
                else:
                    other = next((m.id for m in models if m.id != own), None)
                    self.peers, self._why_peers = ([other], "the first other model") if other else ([], "")
            if not self.peers:
                caption.update(Text("the platform lists no other model to compare with"))
                return
            comparison = await client.compare([own, *self.peers])
        except BlahError as error:
            caption.say(f"couldn't load the comparison: {describe_error(error)}", error=True)
            raise
        caption.set_class(False, "error")
        self.comparison = comparison
        self.lines = order_for_person(comparison, own)
        self.loaded = True
        self._show_data()

    def _model_name(self, model_id: str) -> str:
        return short(self.names.get(model_id, model_id), 24)

    def _show_data(self) -> None:
        assert self.comparison is not None
        own = self.ctx.model_id
        models = [own, *[m for m in self.comparison.models if m != own]]
        variables = self.app.get_css_variables()
        lost, won = tone_style("error", variables, bold=True), tone_style("success", variables, bold=True)
        table = self.table
        keep = table.current_key
        table.clear(columns=True)
        table.add_column("Eval", key="eval")
        table.add_column("Prompt", key="prompt")
        for model in models:
            label = "you" if model == own else short(self.names.get(model, model), 14)
            table.add_column(Text(f"{label} score"), key=f"score:{model}")
            table.add_column(Text(f"{label} answer"), key=f"answer:{model}")
        table.add_column("Δ you", key="delta")
        for line in self.lines:
            cells: list[Text] = [cell(line.row.eval_id, max_len=16), cell(line.row.prompt, max_len=26)]
            others = [line.row.answers[m].score for m in models[1:] if m in line.row.answers]
            best = max((x for x in others if x is not None), default=None)
            for model in models:
                answer = line.row.answers.get(model)
                score = Text(fmt_score(answer.score if answer else None), end="")
                if model == own and line.outcome in ("loss", "win"):
                    score.stylize(lost if line.outcome == "loss" else won)
                elif line.outcome == "loss" and answer is not None and answer.score == best:
                    score.stylize("bold")
                cells.append(score)
                if answer is None:
                    cells.append(Text("not answered", style="dim"))
                else:
                    cells.append(reply_cell(answer.response, max_len=22))
            delta = Text(DASH if line.margin is None else f"{line.margin:+.2f}", end="")
            if line.outcome in ("loss", "win"):
                delta.stylize(lost if line.outcome == "loss" else won)
            cells.append(delta)
            table.add_row(*cells, key=line.key)
        table.move_to_key(keep)
        counts = tally(self.lines)
        reading = comparison_reading(self.comparison)
        estimates = {e.model: e.estimate for e in reading.entries}
        caption = Text(end="")
        if not self.lines:
            caption.append("the platform returned no evals answered by these models")
        else:
            caption.append(
                f"{plural(len(self.lines), 'eval')} · you lost {counts['loss']}, tied {counts['tie']}, "
                f"won {counts['win']}; {counts['unscored']} not scored for everyone · mean [95% CI]: "
            )
            caption.append(", ".join(f"{self._model_name(m)} {mean_cell(estimates.get(m))}" for m in models))
            names = {m: self._model_name(m) for m in models}
            for sentence in versus_sentences(reading, own, names):
                caption.append("\n" + sentence)
            caption.append(f"\n{mde_sentence(reading)}", style="italic")
        if self._why_peers:
            caption.append(f" · peer: {self._why_peers} (p to choose)", style="dim")
        self.caption.update(caption)

    # ----------------------------------------------------------------- actions

    def action_open(self) -> None:
        key = self.table.current_key
        line = next((ln for ln in self.lines if ln.key == key), None)
        if line is None or self.comparison is None:
            return
        own = self.ctx.model_id
        models = [own, *[m for m in self.comparison.models if m != own]]
        self.app.push_screen(CompareEvalScreen(line, models, names=self.names, own_id=own))

    def action_refresh(self) -> None:
        self.load()

    def action_checkpoints(self) -> None:
        """Did my new checkpoint get better? (another model, or this one's older calls)."""
        from tui.screens.compare.checkpoints import CheckpointScreen

        self.app.push_screen(CheckpointScreen())

    def action_bakeoffs(self) -> None:
        """The errorbar queue's bake-offs (a baseline against candidates, judged both ways)."""
        from tui.screens.bakeoffs.screen import BakeoffScreen

        self.app.push_screen(BakeoffScreen())

    @work(exclusive=True, group="compare.pick", exit_on_error=False)
    async def action_pick_peers(self) -> None:
        chosen = await ask_for_models(
            self,
            title="Compare your model with…",
            hint="Choose one or two peers (space toggles, y continues, Esc cancels).",
            preselected=self.peers,
            exclude=[self.ctx.model_id],
            max_selected=2,
        )
        if chosen:
            self.peers, self._why_peers = chosen, "chosen"
            self.load()


class CompareEvalScreen(BlahScreen):
    """One compared eval: its prompt and every model's full answer side by side.

    Tab moves between the answers; ``o`` opens the focused answer's result (judge reasoning).
    """

    SCREEN_TITLE = "Compare eval"
    DEFAULT_CSS = """
    CompareEvalScreen #eval-head { height: auto; padding: 0 1; text-style: bold; }
    CompareEvalScreen #eval-prompt { height: 8; }
    CompareEvalScreen #eval-answers { height: 1fr; }
    CompareEvalScreen .answer { width: 1fr; }
    CompareEvalScreen .pane-title { height: 1; padding: 0 1; text-style: bold; color: $primary; }
    """

    BINDINGS = [
        bindings.back("compare_item"),
        Binding("o", "open_result", "Open result", id="compare_item.result"),
    ]

    def __init__(self, line: CompareLine, models: Sequence[str], *, names: dict[str, str], own_id: str) -> None:
        super().__init__()
        self.line = line
        self.models = list(models)
        self.names = names
        self.own_id = own_id

    def compose(self) -> ComposeResult:
        row = self.line.row
        yield StatusHeader()
        head = Text(f"eval {short(row.eval_id or DASH, 40)} · {self.line.outcome}", end="")
        if self.line.margin is not None:
            head.append(f" ({self.line.margin:+.2f} for you)")
        yield Static(head, id="eval-head")
        yield Static("Prompt", classes="pane-title")
        yield TextViewer(row.prompt if row.prompt is not None else "the platform gave no prompt", id="eval-prompt")
        with Horizontal(id="eval-answers"):
            for i, model in enumerate(self.models):
                answer = row.answers.get(model)
                with Vertical(classes="answer"):
                    title = Text(short(self.names.get(model, model), 30), end="")
                    if model == self.own_id:
                        title.append(" (you)")
                    title.append(f" · score {fmt_score(answer.score if answer else None)}")
                    yield Static(title, classes="pane-title")
                    if answer is None:
                        text = "this model did not answer this eval"
                    elif answer.response is None:
                        text = "the platform gave no answer text"
                    else:
                        text = answer.response
                    yield TextViewer(text, id=f"answer-{i}")

    def action_open_result(self) -> None:
        focused = self.focused
        if focused is None or not (focused.id or "").startswith("answer-"):
            focused_index = 0
        else:
            focused_index = int((focused.id or "answer-0").split("-")[1])
        model = self.models[focused_index]
        answer = self.line.row.answers.get(model)
        if answer is None or not answer.result_id:
            self.notify("The platform gave no result id for this answer.", severity="warning", markup=False)
            return
        from tui.screens.runs.results_detail import ResultDetailScreen

        self.app.push_screen(ResultDetailScreen(answer.result_id))
