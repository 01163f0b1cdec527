"""The Playground's answer pane: the reply verbatim (inert), the numbers the platform
recorded, the diagnosis findings, and which logged call it was."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from api_client.blahdev.shapes import InferResult
from common.format import DASH, format_latency
from common.records import Call
from diagnosis import Finding
from widgets.badges import badge_text
from widgets.safe_text import one_line_text, safe_text

__all__ = ["AnswerView", "answer_text", "findings_text"]


def _num(value: float | None, unit: str = "") -> str:
    return DASH if value is None else f"{value:,}{unit}"


def findings_text(findings: Sequence[Finding] | None, *, template_note: str | None = None) -> Text:
    """Badges with each finding's evidence; says plainly when nothing was found."""
    text = Text(end="")
    text.append("Findings", style="bold")
    if template_note:
        text.append(f"  ({template_note})", style="dim")
    text.append("\n")
    if findings is None:
        text.append("not checked: the call's log could not be loaded", style="dim italic")
        return text
    if not findings:
        text.append("nothing found (which does not mean the answer is right)", style="dim italic")
        return text
    for index, finding in enumerate(findings):
        if index:
            text.append("\n")
        text.append_text(badge_text(finding.kind))
        text.append(" ")
        text.append_text(one_line_text(finding.evidence, max_len=240))
    return text


def answer_text(
    reply: str | None,
    *,
    error: str | None,
    log: Call | None,
    result: InferResult | None = None,
) -> Text:
    """The reply and its numbers, preferring the logged call (the platform's own record)."""
    text = Text(end="")
    if error is not None and reply is None:
        text.append("The call failed: ", style="bold")
        text.append_text(safe_text(error))
    elif reply is None:
        text.append("no reply recorded", style="dim italic")
    elif not reply.strip():
        text.append("(empty reply: ", style="dim italic")
        text.append_text(one_line_text(reply, max_len=80))
        text.append(")", style="dim italic")
    else:
        text.append_text(safe_text(reply))
    text.append("\n\n")
    latency = log.latency_ms if log is not None else (result.latency_ms if result else None)
    completion = log.completion_tokens if log is not None else (result.completion_tokens if result else None)
    limit = log.max_tokens if log is not None else (result.max_tokens if result else None)
    finish = log.finish_reason if log is not None else (result.finish_reason if result else None)
    prompt_tokens = log.prompt_tokens if log is not None else (result.prompt_tokens if result else None)
    text.append(f"latency {format_latency(latency)} · prompt tokens {_num(prompt_tokens)} · ", style="dim")
    text.append(f"completion tokens {_num(completion)} of {_num(limit)} · finish {finish or DASH}", style="dim")
    if finish == "length":
        text.append(" (cut off by the limit)", style="bold")
    elif finish == "stop":
        text.append(" (chose to stop)", style="dim")
    return text


class AnswerView(Static):
    """The last call's answer and findings, or what is happening to the call in flight
    (``update`` with a line: "calling the model…", why it failed)."""

    def show_result(
        self,
        reply: str | None,
        *,
        error: str | None,
        log: Call | None,
        result: InferResult | None,
        findings: Sequence[Finding] | None,
        template_note: str | None,
        log_id: str | None,
    ) -> None:
        """The whole pane for one call: the answer, its findings, then the log it was recorded as."""
        text = answer_text(reply, error=error, log=log, result=result)
        text.append("\n\n")
        text.append_text(findings_text(findings, template_note=template_note))
        text.append("\n\n")
        if log_id:
            text.append("log ", style="dim")
            text.append_text(one_line_text(log_id, max_len=60, style="dim"))
            text.append(" · ctrl+o opens it in the inspector", style="dim")
        else:
            text.append("the platform returned no log id for this call", style="dim")
        self.update(text)
