"""Build a training set from the diagnosis suggestions, write the replies, upload it.

The failing prompts come from ``diagnosis.suggest_training_data`` over the model's newest
calls (or from suggestions handed in by another screen). For each, the person writes the
reply the model should have given; a prompt left without one is either left out (the
checkbox) or uploaded with an empty reply, which the confirmation says plainly. Upload is one
confirmed action: ticket, size check against the ticket's ``max_bytes`` before any byte is
sent, the upload with a progress bar, and the set read back from the platform's list.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Checkbox, Input, OptionList, ProgressBar, Static, TextArea
from textual.widgets.option_list import Option

from api_client.errors import BlahError
from application.training.upload import (
    BuiltSet,
    DraftExample,
    build_jsonl,
    draft_examples,
)
from common.format import format_size, plural
from common.records import Call
from diagnosis.suggest import Suggestion
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.platform_work import platform_work
from tui.screens.training.upload_flow import TrainingUpload
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.safe_text import one_line_text, safe_text
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["CALLS_EXAMINED", "TrainingBuildScreen", "suggest_from_calls"]

CALLS_EXAMINED = 500


def suggest_from_calls(entries: list[Call], trained_template: str | None) -> list[Suggestion]:
    """Summarise the calls and suggest training data (CPU-bound: run it in a thread)."""
    from diagnosis import suggest_training_data, summarize

    summary = summarize(entries, trained_template=trained_template)
    return suggest_training_data(summary, {e.id: e for e in entries}, trained_template=trained_template)


class TrainingBuildScreen(BlahScreen):
    """Pushed from the Training sets screen (``b``); Esc goes back."""

    SCREEN_TITLE = "Build a training set"

    DEFAULT_CSS = """
    TrainingBuildScreen #tb-status { height: auto; padding: 0 1; color: $foreground-muted; }
    TrainingBuildScreen #tb-body { height: 1fr; }
    TrainingBuildScreen #tb-prompts { width: 2fr; height: 1fr; }
    TrainingBuildScreen #tb-edit { width: 3fr; height: 1fr; padding: 0 1; }
    TrainingBuildScreen .tb-label { height: 1; color: $foreground-muted; text-style: bold; }
    TrainingBuildScreen #tb-prompt-box { height: 1fr; border: round $panel; }
    TrainingBuildScreen #tb-target { height: auto; color: $secondary; }
    TrainingBuildScreen #tb-reply { height: 1fr; }
    TrainingBuildScreen #tb-bottom { height: auto; }
    TrainingBuildScreen #tb-name-label { width: auto; padding: 1 1 0 1; color: $foreground-muted; }
    TrainingBuildScreen #tb-name { width: 1fr; }
    TrainingBuildScreen #tb-leave-out { width: auto; }
    TrainingBuildScreen #tb-summary { height: 1; padding: 0 1; }
    TrainingBuildScreen #tb-progress { padding: 0 1; }
    TrainingBuildScreen #tb-progress.hidden { display: none; }
    TrainingBuildScreen #tb-result { height: auto; padding: 0 1; }
    TrainingBuildScreen #tb-result.ok { color: $success; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        bindings.back("training_build", "back"),
        Binding("ctrl+s", "upload", "Upload…", priority=True, id="training_build.upload"),
    ]

    def __init__(
        self,
        suggestions: list[Suggestion] | None = None,
        *,
        model_id: str | None = None,
        on_uploaded: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__()
        self._given = suggestions
        self._model_id = model_id
        self._on_uploaded = on_uploaded
        self.examples: list[DraftExample] = []
        self.replies: dict[str, str] = {}
        self.current: int | None = None
        self.upload = TrainingUpload(self, say=self._result)
        """The upload (``upload_flow``): asked, then sent once; ``upload.uploaded_id`` once listed."""

    @property
    def model_id(self) -> str:
        return self._model_id or self.ctx.model_id

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text("reading the model's calls…"), id="tb-status")
        with Horizontal(id="tb-body"):
            yield OptionList(id="tb-prompts")
            with Vertical(id="tb-edit"):
                yield Static(Text("Prompt (verbatim, from the call)"), classes="tb-label")
                with VerticalScroll(id="tb-prompt-box"):
                    yield Static(Text(""), id="tb-prompt")
                yield Static(Text(""), id="tb-target")
                yield Static(Text("Your reply: what the model should have said"), classes="tb-label")
                yield TextArea(id="tb-reply", soft_wrap=True, show_line_numbers=False)
        with Horizontal(id="tb-bottom"):
            yield Static(Text("Set name"), id="tb-name-label")
            yield Input(value=f"{self.model_id}-suggested", placeholder="name of the set", id="tb-name")
            yield Checkbox(Text("Leave out prompts without a reply"), value=False, id="tb-leave-out")
        yield Static(Text(""), id="tb-summary")
        yield ProgressBar(id="tb-progress", classes="hidden", show_eta=False)
        yield Caption(id="tb-result")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#tb-reply", TextArea).disabled = True
        if self._given is not None:
            self._show_examples(draft_examples(self._given), "from the suggestions handed over")
            return
        if self.ctx.client is None:
            self._status("offline: the suggestions are built from the model's calls on the platform")
            return
        self.load()

    def _status(self, text: str) -> None:
        self.query_one("#tb-status", Static).update(Text(text))

    # ----------------------------------------------------------------- loading

    @platform_work(exclusive=True, group="training-build-load")
    async def load(self, client: BlahClient) -> None:
        try:
            page = await client.get_logs(self.model_id, limit=CALLS_EXAMINED)
        except BlahError as error:
            self._status(f"couldn't load the model's calls: {describe_error(error)}")
            raise
        template = self.ctx.trained_template
        if template is None:
            try:
                template = (await client.get_model(self.model_id)).chat_template
            except BlahError:
                template = None  # the suggestions then name no end-of-turn token
        self._status(f"looking for failing prompts in {plural(len(page.logs), 'call')}…")
        suggestions = await asyncio.to_thread(suggest_from_calls, list(page.logs), template)
        self._show_examples(draft_examples(suggestions), f"from the newest {plural(len(page.logs), 'call')}")

    def _show_examples(self, examples: list[DraftExample], where: str) -> None:
        self.examples = examples
        prompts = self.query_one("#tb-prompts", OptionList)
        prompts.clear_options()
        if not examples:
            self._status(f"No failing group calls for more training data {where}: nothing to build.")
            prompts.add_option(Option(Text("no prompts to answer", style="italic"), disabled=True))
            self._update_summary()
            return
        prompts.add_options([Option(self._option_text(e), id=e.log_id) for e in examples])
        self._status(
            f"{len(examples)} failing prompts {where}. Write the reply each should have had "
            "(Tab to the editor); ctrl+s uploads."
        )
        prompts.highlighted = 0
        prompts.focus()
        self._update_summary()

    def _option_text(self, example: DraftExample) -> Text:
        answered = bool(self.replies.get(example.log_id, "").strip())
        text = Text("✎ " if answered else "· ", style="bold" if answered else "dim", end="")
        text.append_text(one_line_text(example.prompt, max_len=36))
        return text

    # ----------------------------------------------------------------- editing

    @on(OptionList.OptionHighlighted, "#tb-prompts")
    def _prompt_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        index = event.option_index
        if not 0 <= index < len(self.examples):
            return
        editor = self.query_one("#tb-reply", TextArea)
        if self.current is not None and self.current != index and not editor.disabled:
            left = self.examples[self.current]
            self.replies[left.log_id] = editor.text  # keep what was typed
            event.option_list.replace_option_prompt_at_index(self.current, self._option_text(left))
        self.current = index
        example = self.examples[index]
        prompt = Text(end="")
        for role, content in example.turns:
            if len(example.turns) > 1:
                prompt.append(f"{role}: ", style="bold")
            prompt.append_text(safe_text(content))
            prompt.append("\n")
        if example.model_reply is not None:
            prompt.append("\nthe model replied: ", style="italic dim")
            prompt.append_text(safe_text(example.model_reply, style="dim"))
        self.query_one("#tb-prompt", Static).update(prompt)
        self.query_one("#tb-target", Static).update(Text.assemble(("Aim for: ", "bold"), safe_text(example.target)))
        editor.disabled = False
        editor.load_text(self.replies.get(example.log_id, ""))

    @on(TextArea.Changed, "#tb-reply")
    def _reply_changed(self, event: TextArea.Changed) -> None:
        if self.current is None or not self.examples:
            return
        example = self.examples[self.current]
        before = bool(self.replies.get(example.log_id, "").strip())
        self.replies[example.log_id] = event.text_area.text
        if before != bool(event.text_area.text.strip()):
            self.query_one("#tb-prompts", OptionList).replace_option_prompt_at_index(
                self.current, self._option_text(example)
            )
        self._update_summary()

    @on(Checkbox.Changed, "#tb-leave-out")
    def _leave_out_changed(self) -> None:
        self._update_summary()

    def build(self) -> BuiltSet:
        leave_out = self.query_one("#tb-leave-out", Checkbox).value
        return build_jsonl(self.examples, self.replies, leave_out_unanswered=leave_out)

    def _update_summary(self) -> None:
        built = self.build()
        answered = built.examples - built.empty_replies
        text = Text(end="")
        text.append(f"{built.examples} examples ({answered} answered")
        if built.empty_replies:
            text.append(f", {built.empty_replies} with an empty reply", style="bold")
        if built.left_out:
            text.append(f", {built.left_out} left out")
        text.append(f") · {format_size(built.size_bytes)}")
        self.query_one("#tb-summary", Static).update(text)

    # ----------------------------------------------------------------- upload

    def action_back(self) -> None:
        if self.upload.busy:
            self.notify("An upload is in progress", severity="warning", markup=False)
            return
        if self.upload.uploaded_id is not None and self._on_uploaded is not None:
            self._on_uploaded(self.upload.uploaded_id)
        self.dismiss()

    def action_upload(self) -> None:
        if self.upload.busy:
            return
        if self.ctx.client is None:
            self.notify("Offline: uploading needs the platform.", severity="warning", markup=False)
            return
        self.upload.start(self._upload_flow)

    def _result(self, text: Text | str, kind: str = "") -> None:
        result = self.query_one("#tb-result", Caption)
        result.set_class(kind == "ok", "ok")
        result.say(text, error=kind == "error")

    async def _upload_flow(self) -> None:
        built = self.build()
        name = self.query_one("#tb-name", Input).value.strip()
        if built.examples == 0:
            self._result("Nothing to upload: no example is left (write a reply, or untick “Leave out”).", "error")
            return
        if not name:
            self._result("Give the set a name first.", "error")
            return
        await self.upload.run(name, built)
