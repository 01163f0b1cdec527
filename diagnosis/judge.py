"""Judge verdicts worth doubting: the judge can be wrong, and the person should hear when.

- a high score (>= 0.7) on an empty reply (or no reply), on a looping one, or on one that
  carries on the prompt instead of answering it (the next user turn, the next item of the
  series, the rest of the user's sentence: see ``continuation.detect_continuation``);
- a low score (< 0.5) on a reply that contains the expected answer (when one is known: given
  per eval, or named in ``score_details`` as expected / reference / answer);
- reasoning that contradicts the score: it calls the reply correct or excellent but the score
  is low, or it says incorrect / fails but the score is high.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from common.records import Call

from .continuation import detect_continuation
from .inputs import GradedResult
from .loop import find_loop
from .templates import detect_template, normalize_template
from .text import is_blank_reply, quote

HIGH = 0.7
LOW = 0.5
_REASONING_KEYS = (
    "reasoning",
    "reason",
    "explanation",
    "rationale",
    "verdict",
    "feedback",
    "comment",
    "comments",
    "justification",
    "analysis",
    "summary",
)
_EXPECTED_KEYS = (
    "expected",
    "expected_answer",
    "reference",
    "reference_answer",
    "answer_key",
    "gold",
    "correct_answer",
)
_NEGATED_NEGATIVE = re.compile(
    r"\b(?:no|nothing|not|never|without|isn't|is not|doesn't|does not)\s+(?:\w+\s+)?"
    r"(?:wrong|errors?|mistakes?|missing|issues?|fail(?:s|ed)?|incorrect|problems?)\b",
    re.IGNORECASE,
)
_NEGATIVE = re.compile(
    r"\b(?:incorrect(?:ly)?|wrong|fails?|failed|failing|inaccurate|not (?:correct|accurate|right|perfect|"
    r"excellent|good)|isn't (?:correct|right|accurate)|does(?: not|n't) answer|nonsense|gibberish|empty|"
    r"no answer|repetitive|repeats itself|irrelevant|off-topic|hallucinat\w*|refus\w*)\b",
    re.IGNORECASE,
)
_POSITIVE = re.compile(
    r"\b(?:correct(?:ly)?|excellent|accurate(?:ly)?|perfect(?:ly)?|right answer|fully (?:answers|meets|"
    r"addresses|correct)|well done|great answer|exactly right|matches the (?:expected|reference)(?: answer)?)\b",
    re.IGNORECASE,
)
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Doubt:
    result_id: str
    log_id: str | None
    score: float
    kind: str  # "high_score_empty" | "high_score_loop" | "high_score_continuation" | "low_score_matches_expected"
    # | "reasoning_contradicts_score"
    evidence: str  # a human sentence quoting the reply / reasoning
    reasoning: str | None  # the judge's reasoning as found (untrusted text)

    @property
    def reason(self) -> str:
        """Why to doubt it, for a person (the same as ``evidence``)."""
        return self.evidence


def doubtful_judgements(
    results: Iterable[GradedResult],
    entries_by_log_id: Mapping[str, Call],
    *,
    expected_by_eval_id: Mapping[str, str] | None = None,
    trained_template: str | None = None,
) -> list[Doubt]:
    """Results whose score should not be taken as fact, each with the reason.

    ``trained_template`` (the model's chat template, when known) sharpens the continuation check.
    """
    expected_map = expected_by_eval_id or {}
    trained = normalize_template(trained_template)
    out: list[Doubt] = []
    for result in results:
        if result.score is None:
            continue
        entry = entries_by_log_id.get(result.log_id) if result.log_id else None
        reply = entry.response if entry is not None else result.response
        details = result.score_details_parsed
        reasoning = _reasoning(details, result.score_details)
        expected = expected_map.get(result.eval_id or "") or _expected(details)
        for kind, evidence in _why_doubt(result.score, reply, expected, reasoning):
            out.append(Doubt(result.id, result.log_id, result.score, kind, evidence, reasoning))
        if result.score >= HIGH and entry is not None and reply and not is_blank_reply(reply):
            carried = _continues_prompt(entry, reply, trained)
            if carried is not None:
                out.append(
                    Doubt(
                        result.id,
                        result.log_id,
                        result.score,
                        "high_score_continuation",
                        f"Scored {result.score:.2f} for a reply that {carried}",
                        reasoning,
                    )
                )
    return out


def _continues_prompt(entry: Call, reply: str, trained: str | None) -> str | None:
    """How the reply carries on the prompt (for the doubt's sentence), or None when it answers it.

    Needs the call's prompt: a result without its log cannot be checked.
    """
    if entry.prompt is None and not entry.messages:
        return None
    detected = detect_template(entry.prompt, entry.messages)
    finding = detect_continuation(reply, entry.prompt, entry.messages, detected, trained, source=entry.source)
    if finding is None:
        return None
    evidence = finding.evidence
    return "carries on the prompt instead of answering it: " + evidence[0].lower() + evidence[1:]


def _why_doubt(score: float, reply: str | None, expected: str | None, reasoning: str | None) -> list[tuple[str, str]]:
    """(kind, evidence) for each reason to doubt one score."""
    found: list[tuple[str, str]] = []
    if score >= HIGH:
        if reply is None or is_blank_reply(reply):
            what = "no reply at all" if reply is None else f"an empty reply ({quote(reply, 30)})"
            found.append(("high_score_empty", f"Scored {score:.2f} for {what}."))
        else:
            hit = find_loop(reply)
            if hit is not None:
                found.append(
                    (
                        "high_score_loop",
                        f"Scored {score:.2f} for a reply that repeats {quote(hit.unit, 50)} {hit.repeats} times.",
                    )
                )
    if score < LOW and reply and expected and _contains(reply, expected):
        found.append(
            (
                "low_score_matches_expected",
                f"Scored {score:.2f} but the reply contains the expected answer {quote(expected, 50)}: {quote(reply)}.",
            )
        )
    if reasoning:
        tone = _tone(reasoning)
        if score < LOW and tone == "positive":
            found.append(
                (
                    "reasoning_contradicts_score",
                    f"Scored {score:.2f} but the judge's reasoning praises the reply: {quote(reasoning)}.",
                )
            )
        elif score >= HIGH and tone == "negative":
            found.append(
                (
                    "reasoning_contradicts_score",
                    f"Scored {score:.2f} but the judge's reasoning finds fault: {quote(reasoning)}.",
                )
            )
    return found


def _reasoning(details: dict[str, Any] | list[Any] | None, raw: str | None) -> str | None:
    if details is None:
        return raw.strip() or None if raw else None
    found: list[str] = []
    _collect(details, found, _REASONING_KEYS)
    return " ".join(found) or None


def _collect(value: Any, found: list[str], keys: tuple[str, ...], depth: int = 0) -> None:
    if depth > 4:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str) and str(key).lower() in keys:
                found.append(item)
            elif isinstance(item, (dict, list)):
                _collect(item, found, keys, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _collect(item, found, keys, depth + 1)


def _expected(details: dict[str, Any] | list[Any] | None) -> str | None:
    if not isinstance(details, dict):
        return None
    for key in _EXPECTED_KEYS:
        value = details.get(key)
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return str(value)
    return None


def _norm(text: str) -> str:
    return _SPACES.sub(" ", text.lower()).strip(" .,!?;:\"'")


def _contains(reply: str, expected: str) -> bool:
    """The expected answer appears in the reply as whole words (short references only)."""
    want = _norm(expected)
    if not want or len(want) > 100:
        return False
    return re.search(rf"(?<!\w){re.escape(want)}(?!\w)", _norm(reply)) is not None


def _tone(reasoning: str) -> str | None:
    """ "positive", "negative" or None (mixed or neutral)."""
    text = _NEGATED_NEGATIVE.sub(" ", reasoning)
    negative = _NEGATIVE.search(text) is not None
    positive = _POSITIVE.search(_NEGATIVE.sub(" ", text)) is not None
    if positive and not negative:
        return "positive"
    if negative and not positive:
        return "negative"
    return None
