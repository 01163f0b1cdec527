"""The Inspector's one hook into ``diagnosis``: the findings of a call, the template its prompt
uses against the one the model was trained with, and the spans to mark in the reply.

Isolated here so the screen works (saying "diagnosis not available") if ``diagnosis`` cannot be
imported, and so the mapping from findings to highlights is testable without Textual.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from api_client.blahdev.shapes import Result
from common.records import Call

__all__ = ["Analysis", "analyse"]

#: Finding kinds whose span is a region of the reply worth marking, and how (a Rich style).
SPAN_STYLES: dict[str, str] = {
    "loop": "reverse",
    "template_leak": "bold underline",
    "truncation": "bold reverse",
}


@dataclass(frozen=True)
class Analysis:
    """What diagnosis says about one call. ``available`` is False when diagnosis is missing."""

    available: bool
    findings: list[Any] = field(default_factory=list)  # diagnosis.Finding
    detected_template: str | None = None
    trained_template: str | None = None
    trained_source: str = "unknown"
    problem: str | None = None
    note: str | None = None

    def reply_spans(self, reply_length: int) -> list[tuple[int, int, str]]:
        """(start, end, style) for the reply: the repeating region, leaked tokens, and the last
        characters before the token limit cut the reply off."""
        spans: list[tuple[int, int, str]] = []
        for finding in self.findings:
            style = SPAN_STYLES.get(finding.kind)
            span = getattr(finding, "span", None)
            if style is None or span is None:
                continue
            start, end = max(0, int(span[0])), min(reply_length, int(span[1]))
            if end > start:
                spans.append((start, end, style))
        return spans

    @property
    def kinds(self) -> list[str]:
        return [finding.kind for finding in self.findings]


#: Longest prompt/reply analysed whole; beyond it the start of the reply (and the start and
#: end of the prompt) are analysed, and the panel says so. Classifying costs time in
#: proportion to the text: about 9 s for a 1 MB reply.
ANALYSIS_CAP = 200_000


def analyse(
    entry: Call, *, trained_template: str | None, trained_source: str = "unknown", result: Result | None = None
) -> Analysis:
    """Classify the call (pure; run it off the UI thread: long texts take seconds)."""
    from application.logs.badges import capped

    cut = capped(entry, ANALYSIS_CAP)
    note = None
    if cut is not entry:
        longest = max(len(entry.prompt or ""), len(entry.response or ""))
        note = f"analysed the first {ANALYSIS_CAP:,} of {longest:,} characters"
    entry = cut

    def unavailable(problem: str) -> Analysis:
        return Analysis(
            available=False, trained_template=trained_template, trained_source=trained_source, problem=problem
        )

    from diagnosis import classify, detect_template

    try:
        findings = classify(entry, trained_template=trained_template, result=result)
        detected = detect_template(entry.prompt, entry.messages)
    except Exception as error:
        return unavailable(f"diagnosis failed on this call: {type(error).__name__}: {error}")
    return Analysis(
        available=True,
        findings=list(findings),
        detected_template=detected,
        trained_template=trained_template,
        trained_source=trained_source,
        note=note,
    )
