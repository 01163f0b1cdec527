"""The lines at the top of the Diagnosis screen: what was read, how much of it fails, cut off
or stopped, and whether the prompts were in the model's trained template (and where that
template came from). While the screen loads they say what it is doing; a failure is in the
error colour.

Every number comes from the data; untrusted text (error texts, template names, the archive's
note) goes through ``one_line`` only.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from application.diagnosis.analysis import DiagnosisView
from application.diagnosis.data import DiagnosisInputs
from diagnosis import kinds as K
from diagnosis.templates import template_name
from tui.cell_format import fmt_time
from widgets.bars import format_rate
from widgets.safe_text import one_line

__all__ = ["DiagnosisSummary", "summary_text", "template_sentence"]

_SOURCES = {
    "config": "from your config",
    "platform": "from the platform's model record",
    "lens": "from the model's Lens bundle",
}


class DiagnosisSummary(Static):
    """What was read and how much of it fails; while loading, what is being done."""

    DEFAULT_CSS = """
    DiagnosisSummary { height: auto; padding: 0 1; &.error { color: $error; } }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("loading…", style="italic"), id=id, markup=False)

    def reading(self, limit: int) -> None:
        self.set_class(False, "error")
        self.update(Text(f"reading the model's most recent calls (up to {limit})…", style="italic"))

    def diagnosing(self, calls: int) -> None:
        self.update(Text(f"read {calls} calls; diagnosing…", style="italic"))

    def failed(self, reason: str) -> None:
        self.set_class(True, "error")
        self.update(Text(f"couldn't diagnose: {reason}"))

    def show(self, view: DiagnosisView, *, error: bool) -> None:
        """The diagnosis read; ``error``: the calls could not all be loaded (said in the text)."""
        self.set_class(error, "error")
        self.update(summary_text(view))


def template_sentence(view: DiagnosisView) -> Text:
    inputs = view.inputs
    s = view.summary
    text = Text("Trained template: ", end="")
    if view.template is None:
        text.append("unknown", style="bold")
        text.append(" (no config entry, model record or Lens bundle names it), so no mismatch verdict is given")
        # Offline, both say the same "offline: this needs the platform": say it once.
        problems = list(dict.fromkeys(p for p in (inputs.model.error, inputs.lens.error) if p))
        if problems:
            text.append(" · ")
            text.append(one_line("; ".join(problems), max_len=200), style="dim")
        text.append(" · set it: blah-tui config set templates.MODEL chatml", style="dim")
    else:
        text.append(one_line(view.template, max_len=30), style="bold")
        text.append(f" ({template_name(view.template)}), {_SOURCES.get(view.template_source, view.template_source)}")
    if s.templates:
        sent = ", ".join(f"{one_line(t, max_len=20)} {n}" for t, n in s.templates.most_common())
        text.append(f" · prompts sent in: {sent}")
    mismatch = s.rates.get(K.TEMPLATE_MISMATCH)
    if view.template is not None and mismatch is not None and mismatch.count:
        text.append(
            f" · {mismatch.count} calls were in the wrong template: a format problem, not a bad model",
            style="bold",
        )
    return text


def summary_text(view: DiagnosisView) -> Text:
    """The lines at the top: what was read, how much fails, cut off or stopped, the template."""
    inputs = view.inputs
    s = view.summary
    where = {"platform": "from the platform", "archive": "from the local archive"}.get(inputs.entries_from, "")
    text = Text(end="")
    if not s.calls_examined:
        text.append(_no_calls(inputs), style="bold")
        return text
    text.append(f"{s.calls_examined} most recent calls {where}, {fmt_time(s.window_from)} to {fmt_time(s.window_to)}")
    text.append(f" · {s.model_calls} are the model's to answer for")
    if s.host.calls:
        text.append(f" · {s.host.calls} fell in host outages ({s.host.failures} failed): the host's, not the model's")
    if inputs.entries_note:
        text.append(f" · {one_line(inputs.entries_note, max_len=160)}", style="bold")
    text.append("\n")
    if s.model_calls:
        text.append(
            f"{s.failing_calls} of {s.model_calls} fail in some way ({format_rate(s.failure_rate)})", style="bold"
        )
        fr = s.finish_reasons
        text.append(
            f" · cut off by the token limit: {fr.get('length', 0)}, chose to stop: {fr.get('stop', 0)}, "
            f"failed: {fr.get('error', 0)}, not recorded: {fr.get('missing', 0)}"
        )
    else:
        text.append("none of them are the model's to answer for (all fell in outages)", style="bold")
    text.append("\n")
    text.append_text(template_sentence(view))
    return text


def _no_calls(inputs: DiagnosisInputs) -> str:
    if inputs.entries_error:
        return f"couldn't load the calls: {inputs.entries_error}"
    if inputs.entries_from == "none":
        return "no calls: offline and nothing in the local file"
    return "the platform returned no calls for this model: there is nothing to diagnose"
