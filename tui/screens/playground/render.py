"""What the Playground shows for an answer: the reply verbatim (inert), the numbers the
platform recorded, and the diagnosis findings. Pure (Rich ``Text`` only, no IO)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from api_client.models import ChatJob, InferResult, LogEntry
from common.format import DASH, format_latency
from diagnosis import Finding
from widgets.badges import badge_text
from widgets.safe_text import one_line_text, safe_text

__all__ = ["DASH", "answer_text", "findings_text", "job_status_text", "transcript_text"]



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
    log: LogEntry | None,
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


def job_status_text(job: ChatJob | None, *, next_poll_s: float | None, error: str | None = None) -> Text:
    if error is not None:
        text = Text(f"couldn't poll the job: {error}", end="")
        if next_poll_s is not None:  # a transient error: the poller tries again
            text.append(f" · retrying in {next_poll_s:.1f} s", style="dim")
        return text
    if job is None:
        return Text("", end="")
    text = Text("job ", end="")
    text.append_text(one_line_text(job.id, max_len=40))
    text.append(f" · {job.status or 'unknown status'}")
    if next_poll_s is not None:
        text.append(f" · checking again in {next_poll_s:.1f} s", style="dim")
    return text


def transcript_text(messages: Sequence[dict[str, str]], *, pending: bool) -> Text:
    """The chat so far: the person's turns and the model's replies, inert."""
    text = Text(end="")
    if not messages:
        text.append("Start a conversation: type below and press Enter.", style="dim italic")
        return text
    for index, message in enumerate(messages):
        if index:
            text.append("\n\n")
        role = message.get("role", "?")
        text.append("you" if role == "user" else "model" if role == "assistant" else role, style="bold")
        text.append("\n")
        content = message.get("content")
        text.append_text(safe_text(content) if content else Text("(empty)", style="dim italic"))
    if pending:
        text.append("\n\nmodel\n", style="bold")
        text.append("… waiting for the queued job", style="dim italic")
    return text
