"""The Inspector's body: the call's texts (the exact prompt, the reply with its token bar)
beside the side panels (findings, template, origin, judged result, every field), filled from
one entry and then from its analysis."""

from __future__ import annotations

from datetime import tzinfo

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from application.inspector.findings import Analysis
from application.inspector.foreign import ForeignCall
from common.records import Call
from tui.screens.inspector.panels import CallDetails, FindingsPanel, OriginPanel, ResultPanel, TemplatesPanel
from widgets.bars import TokenBar
from widgets.text_viewer import TextViewer

__all__ = ["CallPanes"]


class CallPanes(Horizontal):
    """Prompt and reply on the left, the side panels on the right (the screen's CSS sizes them)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="insp-texts"):
            yield Static(Text("prompt (exact text sent to the model)"), classes="insp-label", markup=False)
            yield TextViewer(id="insp-prompt")
            yield Static(Text("reply"), id="insp-reply-label", classes="insp-label", markup=False)
            yield TokenBar(id="insp-tokens")
            yield TextViewer(id="insp-reply")
        with VerticalScroll(id="insp-side"):
            yield Static(Text("Findings"), classes="insp-section", markup=False)
            yield FindingsPanel(id="insp-findings", classes="insp-panel", markup=False)
            yield Static(Text("Template"), classes="insp-section", markup=False)
            yield TemplatesPanel(id="insp-templates", classes="insp-panel", markup=False)
            yield Static(Text("Where it came from"), classes="insp-section", markup=False)
            yield OriginPanel(id="insp-origin", classes="insp-panel", markup=False)
            yield Static(Text("Judged result"), classes="insp-section", markup=False)
            yield ResultPanel(id="insp-result", classes="insp-panel", markup=False)
            yield Static(Text("Call"), classes="insp-section", markup=False)
            yield CallDetails(id="insp-details", classes="insp-panel", markup=False)

    @property
    def result_panel(self) -> ResultPanel:
        return self.query_one("#insp-result", ResultPanel)

    def show_entry(
        self, entry: Call, tz: tzinfo | None, *, foreign: ForeignCall | None, noun: str, link_keys: dict[str, str]
    ) -> None:
        """The call itself; the analysis panels emptied until :meth:`show_analysis`."""
        self.query_one("#insp-prompt", TextViewer).set_text(entry.prompt)
        reply = self.query_one("#insp-reply", TextViewer)
        label = self.query_one("#insp-reply-label", Static)
        if entry.response is None:
            reply.set_text(entry.error or "")
            if foreign is not None and not entry.error:
                label.update(Text(f"no final answer in this {noun}: see the tool calls under “Where it came from”"))
            else:
                label.update(Text("no reply: the call failed with this error" if entry.error else "no reply recorded"))
        else:
            reply.set_text(entry.response)
            label.update(Text(f"reply ({len(entry.response):,} characters)"))
        self.query_one("#insp-tokens", TokenBar).update(entry.completion_tokens, entry.max_tokens, entry.finish_reason)
        self.query_one("#insp-details", CallDetails).show(entry, tz)
        origin = self.query_one("#insp-origin", OriginPanel)
        if foreign is None:
            origin.show(entry, link_keys)
        else:
            origin.show_foreign(foreign)
        self.query_one("#insp-findings", FindingsPanel).show(None)
        self.query_one("#insp-templates", TemplatesPanel).show(None)
        self.result_panel.update(Text(""))

    def show_analysis(self, analysis: Analysis | None, entry: Call) -> None:
        """The findings and the template, and the reply's spans marked."""
        try:
            from diagnosis import template_name
        except ImportError:
            template_name = None  # type: ignore[assignment]  # None: no diagnosis to ask
        self.query_one("#insp-findings", FindingsPanel).show(analysis)
        self.query_one("#insp-templates", TemplatesPanel).show(analysis, template_name)
        if analysis is not None and entry.response is not None:
            self.query_one("#insp-reply", TextViewer).highlight_spans(analysis.reply_spans(len(entry.response)))
