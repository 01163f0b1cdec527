"""The Training data tab of the Diagnosis screen: what training data to add, from the groups of
calls that fail more often than the model does overall, quoting the failing prompts (``x`` on
the screen exports them as JSONL + markdown).

Prompts, replies, group values and targets are untrusted: they reach the screen through
``safe_text(one_line(...))`` only.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static, TabPane

from application.diagnosis.analysis import DiagnosisView
from common.format import plural
from diagnosis import kinds as K
from diagnosis.suggest import ADD_DATA, FIX_ENDPOINT, FIX_FORMAT, Suggestion
from diagnosis.text import user_text
from widgets.safe_text import one_line, safe_text

__all__ = ["TrainingTab", "suggestions_text"]

_ACTIONS = {ADD_DATA: "add training data", FIX_FORMAT: "fix the prompt format", FIX_ENDPOINT: "check the endpoint"}


class TrainingTab(TabPane):
    """The training-data suggestions, scrolled."""

    DEFAULT_CSS = """
    TrainingTab #diag-suggestions { padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="diag-suggestions", markup=False)

    def show(self, view: DiagnosisView) -> None:
        self.query_one("#diag-suggestions", Static).update(suggestions_text(view.report.suggestions, view))


def suggestions_text(suggestions: Sequence[Suggestion], view: DiagnosisView) -> Text:
    text = Text(end="")
    if not view.summary.model_calls:
        text.append("No calls of the model to learn from.")
        return text
    if not suggestions:
        text.append(
            "No group of calls fails more often than the model does overall, so there is no training data to suggest."
        )
        return text
    examples = sum(len(s.prompts) for s in suggestions if s.action == ADD_DATA)
    text.append(
        f"{plural(len(suggestions), 'suggestion')} from the groups that fail more than the model overall. ",
        style="bold",
    )
    text.append(f"x exports them: JSONL ({examples} examples, replies left empty for you to write) and markdown.")
    for n, s in enumerate(suggestions, 1):
        text.append(f"\n\n{n}. {s.dimension.replace('_', ' ')} = ", style="bold")
        text.append_text(safe_text(one_line(s.value, max_len=60), style="bold"))
        text.append(f": {_ACTIONS.get(s.action, s.action)}", style="bold")
        text.append(f" · {s.failures} of {s.calls} calls fail, mostly {K.describe(s.kind).label}.")
        text.append("\n   target: ", style="dim")
        text.append_text(safe_text(one_line(s.target, max_len=400)))
        for quote in s.prompts:
            entry = view.entries_by_id.get(quote.log_id)
            said = quote.prompt if entry is None else user_text(entry.prompt, entry.messages)
            text.append(f"\n   {one_line(quote.log_id, max_len=30)} asked: ", style="dim")
            text.append_text(safe_text(one_line(said, max_len=220)))
            if quote.reply is not None:
                text.append("\n      it said: ", style="dim")
                text.append_text(safe_text(one_line(quote.reply, max_len=160), style="italic"))
    return text
