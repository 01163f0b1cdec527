"""``classify``: every finding for one call; ``classify_many`` for a batch."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from common.records import Call

from . import kinds
from .continuation import detect_continuation
from .detectors import (
    detect_empty,
    detect_error,
    detect_loop,
    detect_mismatch,
    detect_truncation,
    detect_wrong_answer,
)
from .detectors_leak import detect_leak
from .detectors_refusal import detect_refusal
from .finding import Finding
from .inputs import GradedResult
from .templates import detect_template, normalize_template
from .text import is_blank_reply


def classify(
    entry: Call,
    *,
    trained_template: str | None = None,
    result: GradedResult | None = None,
) -> list[Finding]:
    """What went wrong in one call, most basic first (see ``kinds.CLASSIFY_KINDS``).

    ``trained_template`` enables the template verdicts (no verdict without it); ``result``
    (the judged result of this call) enables ``wrong_answer``. An empty list means nothing
    was found, not that the answer is right.
    """
    trained = normalize_template(trained_template)
    detected = detect_template(entry.prompt, entry.messages)
    return classify_detected(entry, detected, trained, result)


def classify_detected(
    entry: Call, detected: str | None, trained: str | None, result: GradedResult | None
) -> list[Finding]:
    """``classify`` with the prompt's template already detected and ``trained`` normalised."""
    prompt = entry.prompt
    reply = entry.response
    findings: list[Finding] = []

    error = detect_error(entry)
    blank = reply is None or is_blank_reply(reply)
    if error is not None:
        findings.append(error)

    if trained is not None and detected != trained:  # the same template is never a mismatch
        mismatch = detect_mismatch(prompt, detected, trained)
        if mismatch is not None:
            findings.append(mismatch)

    if reply is not None and not (error is not None and blank):
        looping = False
        if blank:
            findings.append(detect_empty(reply))
            if "<" in reply:  # a bare end-of-turn token is also a leak: the server returned it as text
                leak = detect_leak(reply)
                if leak is not None:
                    findings.append(leak)
        else:
            leak = detect_leak(reply)
            if leak is not None:
                findings.append(leak)
            continuation = detect_continuation(reply, prompt, entry.messages, detected, trained, source=entry.source)
            if continuation is not None:
                findings.append(continuation)
            loop = detect_loop(reply)
            if loop is not None:
                findings.append(loop)
                looping = True  # the only detector here that finds kinds.LOOP
        if entry.finish_reason == "length" or entry.finish_reason is None:  # else never a cut-off
            truncated = detect_truncation(entry, reply, looping=looping)
            if truncated is not None:
                findings.append(truncated)
        if not blank:
            refusal = detect_refusal(reply)
            if refusal is not None:
                findings.append(refusal)

    if result is not None:
        wrong = detect_wrong_answer(result, reply, findings)
        if wrong is not None:
            findings.append(wrong)
    return findings


def classify_many(
    entries: Iterable[Call],
    *,
    trained_template: str | None = None,
    results_by_log_id: Mapping[str, GradedResult] | None = None,
) -> dict[str, list[Finding]]:
    """``classify`` for each entry, keyed by log id (every entry gets a key, even with no findings)."""
    results = results_by_log_id or {}
    return {
        entry.id: classify(entry, trained_template=trained_template, result=results.get(entry.id)) for entry in entries
    }


def kinds_of(findings: Iterable[Finding]) -> list[str]:
    """The kinds in ``findings``, without repeats, in the canonical order."""
    present = {f.kind for f in findings}
    ordered = [k for k in kinds.CLASSIFY_KINDS if k in present]
    return ordered + sorted(present.difference(ordered))
