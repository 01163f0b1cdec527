"""A frozen copy of the diagnosis pipeline as it was before issue 30 (the reference).

``reference_features`` is the old ``diagnosis.features.feature_values`` (one case-insensitive
``re.search`` per category, first match wins) and ``reference_counts`` the old ``summarize`` loop's
counts. tests/diagnosis/test_diagnosis_stream.py checks that the new pipeline (one lower-cased scan per
distinct text, chunks merged, worker processes) gives the same numbers on a sample with every
failure kind. Do not "fix" this module: it is the yardstick.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from api_client.blahdev.shapes import Health, LogEntry, Result
from diagnosis import kinds
from diagnosis.classifier import classify_detected
from diagnosis.features import length_bucket
from diagnosis.health import OutageIndex, outage_windows
from diagnosis.templates import detect_template, normalize_template
from diagnosis.text import user_text

_INSTRUCTIONS = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        (
            "translate",
            (
                r"\btranslat|\bin(?:to)? (?:french|german|spanish|italian|japanese|chinese|english|"
                r"portuguese|dutch|russian|korean)\b"
            ),
        ),
        ("summarise", r"\bsummar|\btl;?dr\b|\bin (?:one|two|three|a few) sentences?\b|\bkey points\b"),
        (
            "classify",
            (
                r"\bclassif|\bcategori[sz]|\bsentiment\b|\b(?:label|tag) (?:this|the|each)\b|"
                r"\bis (?:this|the following) (?:positive|negative|spam)\b"
            ),
        ),
        (
            "code",
            (
                r"```|\b(?:python|javascript|typescript|rust|java|c\+\+|sql|bash|regex|html|css)\b|"
                r"\b(?:function|code|program|script|class|method|bug|compile)\b"
            ),
        ),
        (
            "maths",
            (
                r"\d\s*[-+*/×÷^]\s*\d|\b(?:calculate|solve|equation|sum of|product of|how many|how much|"
                r"percent|math|maths|arithmetic|divided|multiplied|integer|fraction)\b"
            ),
        ),
        (
            "creative",
            (
                r"\b(?:story|poem|haiku|song|lyrics|limerick|joke|fairy tale|once upon|imagine|"
                r"write a (?:short )?(?:scene|tale|letter))\b"
            ),
        ),
        (
            "question",
            (
                r"\?\s*$|^\s*(?:what|who|whom|whose|why|when|where|which|how|is|are|does|do|did|can|"
                r"could|should|would|will)\b"
            ),
        ),
        (
            "conversation",
            (
                r"^\s*(?:hi|hello|hey|good (?:morning|evening|afternoon)|thanks|thank you)\b|"
                r"\b(?:how are you|what do you think|let's chat|tell me about yourself)\b"
            ),
        ),
    )
)
_OUTPUTS = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        ("json", r"\bjson\b"),
        (
            "code",
            (
                r"```|\b(?:write|implement|complete|fix) (?:a |the |this )?(?:\w+ )?(?:function|program|"
                r"script|class|method|code|query)\b|\bin (?:python|javascript|rust|sql|bash)\b"
            ),
        ),
        ("list", r"\b(?:list|bullet|enumerate|numbered)\b|\b(?:name|give me|suggest) (?:three|five|ten|\d+)\b"),
    )
)
_TOPICS = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        ("programming", r"\b(?:python|javascript|code|function|program|algorithm|sql|api|compiler|bug)\b"),
        ("maths", r"\b(?:math|maths|equation|number|sum|multiply|divide|fraction|algebra|geometry|\d+\s*[-+*/]\s*\d+)"),
        ("science", r"\b(?:physics|chemistry|biology|atom|molecule|cell|gravity|energy|planet|dna|photosynthesis)\b"),
        (
            "geography",
            r"\b(?:capital|country|countries|city|river|mountain|continent|ocean|france|paris|europe|africa|asia)\b",
        ),
        ("history", r"\b(?:history|historical|war|century|empire|king|queen|revolution|ancient|medieval)\b"),
        ("health", r"\b(?:health|doctor|medicine|disease|sleep|diet|exercise|symptom|headache)\b"),
        ("food", r"\b(?:recipe|cook|cooking|food|bake|ingredient|meal|dinner|breakfast)\b"),
        ("finance", r"\b(?:money|finance|stock|invest|budget|tax|bank|price|cost)\b"),
        ("language", r"\b(?:grammar|word|sentence|spelling|synonym|translate|french|spanish|german)\b"),
        ("arts", r"\b(?:poem|story|song|music|painting|novel|poetry|film|movie|book)\b"),
        ("sports", r"\b(?:football|soccer|tennis|basketball|cricket|sport|olympic|match)\b"),
    )
)


def _first(table: tuple[tuple[str, re.Pattern[str]], ...], text: str, default: str) -> str:
    head = text[:1500]
    for name, pattern in table:
        if pattern.search(head):
            return name
    return default


def reference_text_features(said: str) -> tuple[str, str, str]:
    return _first(_INSTRUCTIONS, said, "other"), _first(_OUTPUTS, said, "prose"), _first(_TOPICS, said, "unknown")


def reference_features(entry: LogEntry, detected: str | None) -> tuple[str, ...]:
    template = detected
    said = user_text(entry.prompt, entry.messages)
    instruction, output, subject = reference_text_features(said[:1500])
    if instruction == "other" and entry.source == "chatroom":
        instruction = "conversation"
    chat = template not in (None, "none") or bool(entry.messages)
    prompt_chars = len(entry.prompt) if entry.prompt else 0
    return (
        template or "unknown",
        "chat" if chat else "completion",
        output,
        length_bucket(prompt_chars),
        instruction,
        entry.eval_id if entry.eval_id else f"topic:{subject}",
        entry.source or "unknown",
    )


_DIMENSIONS = ("template", "chat_or_completion", "asked_output", "prompt_length", "instruction", "subject", "source")


def reference_counts(
    entries: Iterable[LogEntry],
    *,
    trained_template: str | None = None,
    results_by_log_id: Mapping[str, Result] | None = None,
    health: Health | None = None,
) -> dict[str, Any]:
    """The counts the old ``summarize`` loop reached, call by call, as plain values."""
    trained = normalize_template(trained_template)
    results = results_by_log_id or {}
    index = OutageIndex(outage_windows(health))
    examined = model_calls = judged = failing = host_calls = host_failures = 0
    kind_counts: Counter[str] = Counter()
    host_kinds: Counter[str] = Counter()
    finish: Counter[str] = Counter()
    templates: Counter[str] = Counter()
    group_calls: Counter[tuple[str, str]] = Counter()
    group_failures: Counter[tuple[str, str]] = Counter()
    group_kinds: dict[tuple[str, str], Counter[str]] = {}
    for entry in entries:
        examined += 1
        result = results.get(entry.id)
        detected = detect_template(entry.prompt, entry.messages)
        found = classify_detected(entry, detected, trained, result)
        names = tuple(dict.fromkeys(f.kind for f in found))
        failed = any(k not in kinds.CAUSE_ONLY_KINDS for k in names)
        if index and index.window_for(entry.created_at) is not None:
            host_calls += 1
            if failed:
                host_failures += 1
                host_kinds.update(names)
            continue
        model_calls += 1
        judged += result is not None and result.score is not None
        finish[entry.finish_reason if entry.finish_reason is not None else "missing"] += 1
        templates[detected or "unknown"] += 1
        kind_counts.update(names)
        failing += failed
        for key in zip(_DIMENSIONS, reference_features(entry, detected)):
            group_calls[key] += 1
            if failed:
                group_failures[key] += 1
                group_kinds.setdefault(key, Counter()).update(names)
    return {
        "calls_examined": examined,
        "model_calls": model_calls,
        "judged_calls": judged,
        "failing_calls": failing,
        "kinds": dict(kind_counts),
        "host_calls": host_calls,
        "host_failures": host_failures,
        "host_kinds": dict(host_kinds),
        "finish_reasons": dict(finish),
        "templates": dict(templates),
        "group_calls": dict(group_calls),
        "group_failures": dict(group_failures),
        "group_kinds": {k: dict(v) for k, v in group_kinds.items()},
    }
