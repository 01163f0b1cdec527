"""Detectors that read the call's bookkeeping: error, empty, truncation, loop, template mismatch,
wrong answer. Each returns one ``Finding`` or ``None``; they never raise on odd input."""

from __future__ import annotations

from common.chat_markers import STOP_TOKENS
from common.constants import KNOWN_TEMPLATES
from common.format import plural
from common.records import Call

from . import kinds
from .finding import Finding
from .inputs import GradedResult
from .loop import find_loop
from .templates import marker_of, template_name, templates_compatible
from .text import quote, trim_tail

_TERMINAL = frozenset(".!?…\"'”’)]}>*`")


def detect_error(entry: Call) -> Finding | None:
    """The call failed: an error was recorded, or no reply came back at all."""
    if entry.error is None and entry.finish_reason != "error" and entry.response is not None:
        return None
    if entry.error is not None:
        evidence = f"The call failed: {quote(entry.error)}."
    elif entry.finish_reason == "error":
        evidence = 'The call failed (finish_reason "error"); no error text was recorded.'
    else:
        evidence = "The call has no reply and no error text was recorded."
    detail = {"error": entry.error, "finish_reason": entry.finish_reason}
    return Finding(kinds.ERROR, evidence, None, detail)


def detect_empty(reply: str) -> Finding:
    """Called only for a blank reply (see ``text.is_blank_reply``): say what it consisted of."""
    if not reply:
        evidence = "The reply is empty."
        what = "empty"
    elif reply.isspace():
        evidence = f"The reply is only whitespace ({plural(len(reply), 'character')}: {quote(reply, 30)})."
        what = "whitespace"
    else:
        tokens = [t for t in STOP_TOKENS if t in reply]
        evidence = f"The reply is only a stop token: {quote(reply.strip(), 40)}."
        what = "stop_token:" + (tokens[0] if tokens else "")
    return Finding(kinds.EMPTY, evidence, (0, len(reply)), {"what": what, "length": len(reply)})


def detect_truncation(entry: Call, reply: str, *, looping: bool = False) -> Finding | None:
    """Cut off by the token limit: finish_reason "length", or (finish_reason missing) the
    completion used the whole budget. How the text ends is supporting evidence only.

    ``looping``: the reply was found looping, so the limit cut a loop (where the cut falls
    says nothing about the answer being nearly done)."""
    used, limit = entry.completion_tokens, entry.max_tokens
    if entry.finish_reason == "length":
        why = 'finish_reason "length"'
    elif entry.finish_reason is None and used is not None and limit is not None and used >= limit:
        why = "finish_reason missing but the reply used the whole budget"
    else:
        return None
    if used is not None and limit is not None:
        budget = f"{used} of {limit} tokens"
    elif limit is not None:
        budget = f"limit {limit} tokens, tokens used not recorded"
    else:
        budget = "token counts not recorded"
    ending = ending_of(reply)
    body = reply.rstrip()
    span = (max(0, len(body) - 20), len(body))
    if looping:
        tail = "the reply was looping when the limit cut it"
    elif ending is None:
        tail = "it happens to end at a sentence end"
    else:
        tail = f"it ends {ending}"
    evidence = f'Cut off by the token limit ({why}; {budget}): {tail}: "{trim_tail(body, 60)}"'
    detail = {
        "completion_tokens": used,
        "max_tokens": limit,
        "finish_reason": entry.finish_reason,
        "ending": ending,
        "looping": looping,
    }
    return Finding(kinds.TRUNCATION, evidence, span, detail)


def ending_of(reply: str) -> str | None:
    """How a reply ends when that looks unfinished: "inside a code block", "inside JSON",
    "mid-sentence"; None when it ends like a finished sentence."""
    body = reply.rstrip()
    if not body:
        return "with nothing"
    if body.count("```") % 2 == 1:
        return "inside a code block"
    head = body.lstrip()[:1]
    if head in "{[" and body.count(head) > body.count("}" if head == "{" else "]"):
        return "inside JSON"
    if body[-1] in _TERMINAL:
        return None
    return "mid-sentence"


def detect_loop(reply: str) -> Finding | None:
    hit = find_loop(reply)
    if hit is None:
        return None
    if hit.level == "whitespace":
        what = "blank lines" if hit.unit == "\n" else "whitespace characters"
        evidence = f"The reply degenerates into {hit.repeats} {what} from character {hit.start}."
    elif hit.period_unit == "chars" and hit.period == 1:
        evidence = f"A run of {hit.repeats} {quote(hit.unit)} characters from character {hit.start}."
    elif hit.level == "word":
        evidence = (
            f"The reply repeats the word {quote(hit.unit)} {hit.repeats} times back to back from character {hit.start}."
        )
    else:
        size = f"{hit.period} {hit.period_unit}"
        evidence = (
            f"The reply repeats a {hit.level} ({size}) {hit.repeats} times back to back "
            f"from character {hit.start}: {quote(hit.unit)}."
        )
    detail = {
        "unit": hit.unit,
        "period": hit.period,
        "period_unit": hit.period_unit,
        "repeats": hit.repeats,
        "start": hit.start,
        "level": hit.level,
    }
    return Finding(kinds.LOOP, evidence, (hit.start, hit.end), detail)


def detect_mismatch(prompt: str | None, detected: str | None, trained: str | None) -> Finding | None:
    """The prompt's template is not the trained one. No verdict without both, or for a
    trained template name this module does not know."""
    if prompt is None or detected is None or trained is None or trained not in KNOWN_TEMPLATES:
        return None
    if templates_compatible(detected, trained, prompt):
        return None
    marker = marker_of(prompt, detected)
    if detected == "none":
        evidence = (
            f"The prompt has no chat template (raw text: {quote(prompt, 50)}) but the model was trained "
            f"on {template_name(trained)}."
        )
    elif trained == "none":
        evidence = (
            f"The prompt is in {template_name(detected)} format ({quote(marker or '', 30)}) but the model is a "
            "completion model trained without a chat template."
        )
    else:
        evidence = (
            f"The prompt is in {template_name(detected)} format ({quote(marker or '', 30)} at character "
            f"{prompt.find(marker) if marker else '?'}) but the model was trained on {template_name(trained)}."
        )
    detail = {"detected": detected, "trained": trained, "marker": marker}
    return Finding(kinds.TEMPLATE_MISMATCH, evidence, None, detail)


def detect_wrong_answer(result: GradedResult | None, reply: str | None, others: list[Finding]) -> Finding | None:
    """A judged low score (< 0.5) that no other finding explains."""
    if result is None or result.score is None or result.score >= 0.5 or others:
        return None
    shown = quote(reply) if reply is not None else "(no reply recorded)"
    evidence = (
        f"Judged {result.score:.2f} (below 0.5) and nothing in the text explains it (no loop, cut-off, "
        f"refusal or template problem): the reply was {shown}."
    )
    detail = {"score": result.score, "result_id": result.id}
    return Finding(kinds.WRONG_ANSWER, evidence, None, detail)


__all__ = [
    "detect_empty",
    "detect_error",
    "detect_loop",
    "detect_mismatch",
    "detect_truncation",
    "detect_wrong_answer",
    "ending_of",
]
