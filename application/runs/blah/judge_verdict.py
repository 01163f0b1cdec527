"""The judge's verdict on one result, read for people (pure: no IO, no Textual).

``score_details`` is a string: when it is JSON it is split into a criteria table (name, score,
note), the reasoning, and any other fields; when it is not, it is shown verbatim (sanitized
by the screen). Nothing is invented: a field the judge did not give is simply absent.

``judgement_doubts`` flags verdicts worth doubting: ``diagnosis.doubtful_judgements`` (when the
diagnosis package provides it) plus this module's own check, for what diagnosis did not
already flag on the same result (its tone reading misses reasoning that praises a low score
when the JSON also carries ``"verdict": "fail"``, and it does not compare the verdict with the
score). The local check:
- a high score (>= 0.7) on an empty reply, or on one that repeats itself;
- reasoning that contradicts the score (praise with a score under 0.5, or "incorrect"/"fails"
  with a score of 0.5 or more), or a ``verdict`` of pass/fail that disagrees with the score;
- a low score (< 0.5) on a reply that contains the eval's expected answer, when known.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from api_client.blahdev.shapes import Result
from common.records import Call

__all__ = ["CriterionRow", "Judgement", "ResultDoubt", "judgement_doubts", "parse_judgement"]

HIGH = 0.7
LOW = 0.5
_REASONING_KEYS = ("reasoning", "reason", "rationale", "explanation", "feedback", "comment", "comments", "summary")
_SCORE_KEYS = ("score", "value", "points", "rating", "grade")
_NOTE_KEYS = ("reasoning", "reason", "note", "comment", "explanation", "feedback")
_NAME_KEYS = ("name", "criterion", "criteria", "id", "label", "title")


@dataclass(frozen=True, slots=True)
class CriterionRow:
    name: str
    score: float | None
    value: str | None  # the raw value when it is not a number (e.g. "pass")
    note: str | None


@dataclass(frozen=True, slots=True)
class Judgement:
    """``score_details`` read: either parsed parts, or ``verbatim`` (not JSON), or nothing."""

    criteria: list[CriterionRow] = field(default_factory=list)
    reasoning: str | None = None
    fields: list[tuple[str, str]] = field(default_factory=list)  # other scalar fields, as sent
    verbatim: str | None = None
    parsed: bool = False

    @property
    def empty(self) -> bool:
        return not (self.criteria or self.reasoning or self.fields or self.verbatim)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    return None


def _scalar_text(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _criterion(name: str, value: Any) -> CriterionRow:
    if isinstance(value, Mapping):
        score = next((_number(value[k]) for k in _SCORE_KEYS if k in value), None)
        note = next((str(value[k]) for k in _NOTE_KEYS if isinstance(value.get(k), str)), None)
        raw = next((_scalar_text(value[k]) for k in _SCORE_KEYS if k in value and _number(value[k]) is None), None)
        return CriterionRow(name, score, raw, note)
    number = _number(value)
    return CriterionRow(name, number, None if number is not None else _scalar_text(value), None)


def _criteria_from(value: Any) -> list[CriterionRow]:
    if isinstance(value, Mapping):
        return [_criterion(str(k), v) for k, v in value.items()]
    if isinstance(value, list):
        rows = []
        for i, item in enumerate(value):
            if isinstance(item, Mapping):
                name = next((str(item[k]) for k in _NAME_KEYS if isinstance(item.get(k), str)), f"#{i + 1}")
                rows.append(_criterion(name, item))
            else:
                rows.append(_criterion(f"#{i + 1}", item))
        return rows
    return []


def parse_judgement(result: Result) -> Judgement:
    """Split ``score_details`` into criteria, reasoning and other fields (see module doc)."""
    raw = result.score_details
    parsed = result.score_details_parsed
    if parsed is None:
        return Judgement(verbatim=raw if raw and raw.strip() else None)
    if isinstance(parsed, list):
        return Judgement(criteria=_criteria_from(parsed), parsed=True)
    criteria: list[CriterionRow] = []
    reasoning: str | None = None
    fields: list[tuple[str, str]] = []
    for key, value in parsed.items():
        lowered = str(key).lower()
        if lowered in ("criteria", "criterion_scores", "scores", "breakdown", "rubric") and isinstance(
            value, (Mapping, list)
        ):
            criteria.extend(_criteria_from(value))
        elif lowered in _REASONING_KEYS and isinstance(value, str) and reasoning is None:
            reasoning = value
        elif isinstance(value, (Mapping, list)):
            criteria.extend(
                _criteria_from({f"{key}.{k}": v for k, v in value.items()} if isinstance(value, Mapping) else value)
            )
        else:
            fields.append((str(key), _scalar_text(value)))
    return Judgement(criteria=criteria, reasoning=reasoning, fields=fields, parsed=True)


# --------------------------------------------------------------------------- doubts


@dataclass(frozen=True, slots=True)
class ResultDoubt:
    result_id: str
    kind: str  # "high_score_empty" | "high_score_loop" | "reasoning_contradicts_score" | "low_score_matches_expected"
    reason: str


_PRAISE = re.compile(
    r"\b(correct(ly)?|accurate|excellent|well[- ]formatted|answers the question|concise|perfect)\b", re.I
)
_BLAME = re.compile(
    r"\b(incorrect|not (?:correct|accurate)|wrong|fails?|failed|empty|nothing to evaluate|repetition|repeats|"
    r"refused|cut off|"
    r"does not answer|not answer|instead of answering|degenerates)\b",
    re.I,
)
_LOOP = re.compile(r"(.{8,}?)\1{3,}", re.S)


def _looks_looping(text: str) -> bool:
    sample = text[-4000:]
    return bool(_LOOP.search(sample)) or bool(re.search(r"(\S)\1{29,}", sample))


def _reasoning_text(result: Result) -> str:
    judgement = parse_judgement(result)
    if judgement.verbatim:
        return judgement.verbatim
    return judgement.reasoning or ""


def _local_doubts(result: Result, expected: str | None) -> list[ResultDoubt]:
    doubts: list[ResultDoubt] = []
    score = result.score
    if score is None or result.error:
        return doubts
    reply = result.response or ""
    if score >= HIGH and not reply.strip():
        doubts.append(ResultDoubt(result.id, "high_score_empty", f"score {score:.2f} on an empty reply"))
    elif score >= HIGH and _looks_looping(reply):
        doubts.append(ResultDoubt(result.id, "high_score_loop", f"score {score:.2f} on a reply that repeats itself"))
    reasoning = _reasoning_text(result)
    blame, praise = _BLAME.search(reasoning), _PRAISE.search(reasoning)
    if score < LOW and praise and not blame:
        doubts.append(
            ResultDoubt(
                result.id,
                "reasoning_contradicts_score",
                f'the reasoning praises the reply ("{praise.group(0)}") but the score is {score:.2f}',
            )
        )
    elif score >= LOW and blame and not praise:
        doubts.append(
            ResultDoubt(
                result.id,
                "reasoning_contradicts_score",
                f'the reasoning finds fault ("{blame.group(0)}") but the score is {score:.2f}',
            )
        )
    parsed = result.score_details_parsed
    verdict = parsed.get("verdict") if isinstance(parsed, dict) else None
    if (
        isinstance(verdict, str)
        and verdict.lower() in ("pass", "fail")
        and (verdict.lower() == "pass") != (score >= LOW)
    ):
        doubts.append(
            ResultDoubt(result.id, "reasoning_contradicts_score", f'verdict "{verdict}" with score {score:.2f}')
        )
    if expected and score < LOW and expected.strip().lower() in reply.lower():
        doubts.append(
            ResultDoubt(
                result.id,
                "low_score_matches_expected",
                f"score {score:.2f} although the reply contains the expected answer",
            )
        )
    return doubts


def judgement_doubts(
    results: Iterable[Result],
    *,
    entries_by_log_id: Mapping[str, Call] | None = None,
    expected_by_eval: Mapping[str, str] | None = None,
) -> dict[str, list[ResultDoubt]]:
    """result id -> reasons to doubt its verdict (results without doubts are absent)."""
    results = list(results)
    out = _diagnosis_doubts(results, entries_by_log_id or {}, expected_by_eval or {})
    for result in results:
        expected = (expected_by_eval or {}).get(result.eval_id or "")
        have = {d.kind for d in out.get(result.id, [])}
        extra = [d for d in _local_doubts(result, expected) if d.kind not in have]
        if extra:
            out.setdefault(result.id, []).extend(extra)
    return out


def _diagnosis_doubts(
    results: list[Result], entries_by_log_id: Mapping[str, Call], expected: Mapping[str, str]
) -> dict[str, list[ResultDoubt]]:
    """``diagnosis.doubtful_judgements`` by result."""
    from diagnosis import doubtful_judgements

    out: dict[str, list[ResultDoubt]] = {}
    for doubt in doubtful_judgements(results, entries_by_log_id, expected_by_eval_id=expected or None):
        out.setdefault(doubt.result_id, []).append(ResultDoubt(doubt.result_id, doubt.kind, doubt.reason))
    return out
