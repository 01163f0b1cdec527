"""Rich builders for the Evaluations screens (no Textual): cells, the filter bar, one step
of a replay, a structured grade, captured training samples.

Every string from the platform (task ids, prompts, answers, tool arguments and results,
grade texts) goes through the sanitizer (``safe_text`` / ``one_line``) and is a ``Text``,
never markup. What the platform did not record is said so ("not captured", "—"), never 0.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import tzinfo
from typing import Any

from rich.text import Text

from application.blobfish.evidence import PLATFORM
from application.blobfish.listing import REWARD_BANDS, SORTS, EvaluationFilter
from common.format import DASH, format_time
from diagnosis.finding import Finding
from diagnosis.rollout_record import Grade, RolloutStep, TrainingSample
from widgets.badges import badge_text, badges_text
from widgets.safe_text import one_line, safe_text

NOT_CAPTURED = "not captured"
PROMPT_SHOWN = 1_500
"""Characters of a prompt or answer shown in the replay panel; Enter opens the whole step."""


def chip(platform: str = PLATFORM) -> Text:
    """The platform chip a row carries: `` blobfish ``."""
    return Text(f" {platform} ", style="bold reverse", end="")


def dash() -> Text:
    return Text(DASH, style="dim")


def clip(value: str, max_len: int) -> str:
    """Sanitized, on one line, cut to ``max_len`` characters with an ellipsis (a table cell)."""
    shown = one_line(value, max_len=max(max_len, 200))
    return shown if len(shown) <= max_len else shown[: max_len - 1] + "…"


def cell(value: str | None, max_len: int = 40) -> Text:
    return dash() if not value else Text(clip(value, max_len))


def number(value: int | None) -> Text:
    return dash() if value is None else Text(f"{value:,}", justify="right")


def reward(value: float | None) -> Text:
    return dash() if value is None else Text(f"{value:.2f}", justify="right")


def share(value: float | None) -> Text:
    return dash() if value is None else Text(f"{value:.0%}", justify="right")


def verdict(grade: Grade | None) -> Text:
    if grade is None:
        return Text("ungraded", style="dim italic")
    if grade.passed is True:
        return Text("passed", style="bold green")
    if grade.passed is False:
        return Text("failed", style="bold red")
    return dash()


def when(created_ms: int | None, tz: tzinfo | None) -> Text:
    return Text(format_time(created_ms, tz, dates="day")[:12]) if created_ms is not None else dash()


def kinds_cell(kinds: Sequence[str]) -> Text:
    return badges_text(kinds) if kinds else Text("")


def filter_bar(how: EvaluationFilter, sort: str, shown: int, total: int, diagnosed: int) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    parts = [
        ("t", "task", how.task or "all"),
        ("m", "model", how.model or "all"),
        ("r", "", REWARD_BANDS[how.reward]),
        ("f", "", "failed only" if how.failed_only else "all outcomes"),
        ("s", "sort", SORTS[sort]),
    ]
    for index, (key, label, value) in enumerate(parts):
        if index:
            text.append("  ")
        text.append(f"{key} ", style="bold")
        if label:
            text.append(f"{label} ", style="dim")
        text.append(one_line(value, max_len=40))
    text.append(f"   {shown} of {total}", style="dim")
    if diagnosed < total:
        text.append(f" · diagnosing {diagnosed}/{total}", style="italic")
    return text


def _json(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _cut(text: str, limit: int) -> tuple[str, int]:
    return (text, 0) if len(text) <= limit else (text[:limit], len(text) - limit)


def _section(text: Text, title: str) -> None:
    if text.plain:
        text.append("\n\n")
    text.append(title, style="bold")
    text.append("\n")


def _long(text: Text, value: str) -> None:
    shown, more = _cut(value, PROMPT_SHOWN)
    text.append_text(safe_text(shown))
    if more:
        text.append(f"… ({more:,} more characters: Enter opens the whole step)", style="dim italic")


def tokens_text(step: RolloutStep, max_tokens: int | None) -> Text:
    text = Text()
    for label, value in (("prompt", step.prompt_tokens), ("completion", step.completion_tokens),
                         ("reasoning", step.reasoning_tokens)):  # fmt: skip
        text.append(f"{label} ", style="dim")
        text.append(f"{value:,}" if value is not None else NOT_CAPTURED, style="" if value is not None else "italic")
        text.append("   ")
    text.append("limit ", style="dim")
    text.append(f"{max_tokens:,}" if max_tokens is not None else NOT_CAPTURED)
    return text


def samples_text(samples: tuple[TrainingSample, ...] | None) -> Text:
    if samples is None:
        return Text(f"training samples: {NOT_CAPTURED}", style="italic")
    if not samples:
        return Text("training samples: none recorded", style="italic")
    text = Text()
    for k, sample in enumerate(samples):
        if k:
            text.append("\n")
        text.append(f"sample {k + 1}  ", style="dim")
        text.append("token ids ", style="dim")
        ids = sample.token_ids
        if ids is None:
            text.append(NOT_CAPTURED, style="italic")
        else:
            head = ", ".join(str(i) for i in ids[:8]) + (", …" if len(ids) > 8 else "")
            text.append(f"{len(ids):,} [{head}]")
        text.append("   logprobs ", style="dim")
        probs = sample.logprobs
        if probs is None:
            text.append(NOT_CAPTURED, style="italic")
        elif probs:
            text.append(f"{len(probs):,}, mean {sum(probs) / len(probs):.3f}, min {min(probs):.3f}")
        else:
            text.append("none")
        text.append("   lineage ", style="dim")
        if sample.lineage is None:
            text.append(NOT_CAPTURED, style="italic")
        else:
            text.append(one_line(_json(dict(sample.lineage)), max_len=120))
    return text


def grade_text(grade: Grade | None) -> Text:
    """The structured grade: verdict, reward, explanation, each assertion, the failed and
    advisory conditions."""
    if grade is None:
        return Text("the grader recorded nothing (no reward, no grade)", style="italic")
    text = Text()
    text.append_text(verdict(grade))
    text.append("   reward ", style="dim")
    text.append(DASH if grade.reward is None else f"{grade.reward:g}")
    if grade.explanation:
        text.append("   ")
        text.append_text(safe_text(grade.explanation, keep_newlines=False))
    for assertion in grade.assertions:
        mark = {True: ("✓", "green"), False: ("✖", "red"), None: ("?", "dim")}[assertion.passed]
        text.append(f"\n{mark[0]} ", style=f"bold {mark[1]}")
        text.append(one_line(assertion.name or DASH, max_len=60), style="bold")
        if assertion.details:
            text.append(": ", style="dim")
            text.append_text(safe_text(assertion.details, keep_newlines=False))
    for label, conditions, style in (("failed", grade.failed_conditions, "red"),
                                     ("advisory", grade.advisory_conditions, "yellow")):  # fmt: skip
        for condition in conditions:
            text.append(f"\n{label}: ", style=f"bold {style}")
            text.append_text(safe_text(condition, keep_newlines=False))
    return text


FINDINGS_SHOWN = 12
"""Findings listed in a panel; a long rollout can hold hundreds of loops (the count says so)."""


def findings_text(findings: Iterable[Finding], empty: str = "no findings at this step") -> Text:
    text = Text()
    every = list(findings)
    for finding in every[:FINDINGS_SHOWN]:
        if text.plain:
            text.append("\n")
        text.append_text(badge_text(finding.kind))
        text.append(" ")
        text.append_text(safe_text(finding.evidence, keep_newlines=False))
    if len(every) > FINDINGS_SHOWN:
        text.append(f"\n… and {len(every) - FINDINGS_SHOWN:,} more (each on its steps, in the list)", style="dim italic")
    return text or Text(empty, style="dim italic")


def step_text(step: RolloutStep, position: int, total: int, max_tokens: int | None,
              findings: Sequence[Finding], rollout_grade: Grade | None = None) -> Text:  # fmt: skip
    """One step of the replay, whole enough to read: prompt, tool calls with their results,
    final answer, tokens, training samples, findings."""
    text = Text()
    text.append(f"step {position + 1} of {total}", style="bold")
    text.append(f"   turn {step.turn if step.turn is not None else DASH}", style="dim")
    if step.model:
        text.append("   model ", style="dim")
        text.append(one_line(step.model, max_len=60))
    _section(text, "Findings")
    text.append_text(findings_text(findings))
    _section(text, "Prompt")
    if step.prompt is None:
        text.append("no prompt recorded", style="italic")
    else:
        _long(text, step.prompt)
    for thought in step.thinking:
        _section(text, "Thinking")
        _long(text, thought)
    _section(text, f"Tool calls ({len(step.tool_calls)})" if step.tool_calls else "Tool calls")
    if not step.tool_calls:
        text.append("none in this step", style="dim italic")
    for k, call in enumerate(step.tool_calls):
        if k:
            text.append("\n")
        text.append("✖ " if call.failed else "✓ ", style="bold red" if call.failed else "bold green")
        text.append(one_line(call.name or "(unnamed tool)", max_len=60), style="bold")
        text.append("(")
        text.append_text(one_line_text(_json(call.args), 300))
        text.append(")\n  → ", style="")
        text.append_text(one_line_text(_json(call.result), 300))
    _section(text, "Final answer")
    if step.final_answer is None:
        text.append("none in this step", style="dim italic")
    elif not step.final_answer.strip():
        text.append(f"empty ({len(step.final_answer)} characters: ", style="italic")
        text.append(repr(step.final_answer), style="italic")
        text.append(")", style="italic")
    else:
        _long(text, step.final_answer)
    _section(text, "Tokens")
    text.append_text(tokens_text(step, max_tokens))
    _section(text, "Captured for training")
    text.append_text(samples_text(step.training_samples))
    if step.grade is not None and step.grade != rollout_grade:
        _section(text, "Grade at this step")
        text.append_text(grade_text(step.grade))
    return text


def one_line_text(value: str, max_len: int) -> Text:
    return Text(one_line(value, max_len=max_len))
