"""A run's deterministic assertions as people read them: per model, the share of answers
that passed every assertion and each assertion's own count; per answer, which assertion it
failed.

``results.assertion_results`` is named by the page only (its shape is ASSUMED in
``api_client.errorbar.shapes``); the per-answer booleans are the simulator's sample extra
``assertions``. Whatever is absent stays absent: the reader says the queue did not send it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from common.records import BakeoffAnswer

__all__ = ["AssertionRow", "assertion_name", "assertion_rows", "failed_assertions"]


def assertion_name(config: dict[str, Any]) -> str:
    """``regex_match /^\\{/`` style: the type and, when it has one, its value (shortened)."""
    kind = str(config.get("type") or "?")
    value = config.get("value")
    if value is None or value == "":
        return kind
    text = " ".join(str(value).split())
    return f"{kind} {text[:40]}{'…' if len(text) > 40 else ''}"


@dataclass(frozen=True)
class AssertionRow:
    model: str
    answers: int | None
    passed_all: int | None
    pass_rate: float | None
    per_assertion: tuple[tuple[str, int | None], ...]
    """(assertion name, answers that passed it), in the run's order."""


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def assertion_rows(run: assumed.Run) -> list[AssertionRow]:
    """One row per model the queue reported assertion results for (empty when none)."""
    results = run.results
    block = results.assertion_results if results is not None else None
    if not isinstance(block, dict):
        return []
    configs = run.assertions or []
    rows = []
    for entry in block.get("per_model") or []:
        if not isinstance(entry, dict) or not isinstance(entry.get("model"), str):
            continue
        rate = entry.get("pass_rate")
        per = []
        for i, item in enumerate(entry.get("per_assertion") or []):
            config = configs[i] if i < len(configs) else (item if isinstance(item, dict) else {})
            per.append((assertion_name(config), _int(item.get("passed")) if isinstance(item, dict) else None))
        rows.append(
            AssertionRow(
                entry["model"],
                _int(entry.get("answers")),
                _int(entry.get("passed_all")),
                float(rate) if isinstance(rate, (int, float)) and not isinstance(rate, bool) else None,
                tuple(per),
            )
        )
    return rows


def failed_assertions(run: assumed.Run, answer: BakeoffAnswer) -> list[str] | None:
    """The assertions this answer failed ([] = passed all), or None when the queue sent no
    per-answer result (or the run has none)."""
    configs = run.assertions or []
    flags = answer.assertions
    if not configs or flags is None or len(flags) != len(configs):
        return None
    return [assertion_name(config) for config, ok in zip(configs, flags) if not ok]
