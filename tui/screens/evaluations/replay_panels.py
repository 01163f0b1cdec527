"""The replay's panels: the step under the cursor (``StepPanel``: prompt, tool calls with
their recorded results, final answer, tokens, captured training samples, findings), the
rollout's structured grade (``GradePanel``) and its findings as a whole (``FindingsPanel``).

What each shows is built by a pure function (``step_text``, ``grade_text``, ``findings_text``).
Every string from the platform (prompts, answers, tool arguments and results, grade texts)
goes through the sanitizer (``safe_text`` / ``one_line``) and is a ``Text``, never markup.
What the platform did not record is said so ("not captured", "—"), never 0.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from application.evaluations.evidence import Grade, RolloutStep, TrainingSample
from common.format import DASH, plural
from diagnosis.finding import Finding
from tui.screens.evaluations.tables import verdict
from widgets.badges import badge_text
from widgets.safe_text import one_line, safe_text

__all__ = ["FindingsPanel", "GradePanel", "StepPanel", "findings_text", "grade_text", "step_text"]

NOT_CAPTURED = "not captured"
PROMPT_SHOWN = 1_500
"""Characters of a prompt or answer shown in the replay panel; Enter opens the whole step."""


def _json(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _cut(text: str, limit: int) -> tuple[str, int]:
    return (text, 0) if len(text) <= limit else (text[:limit], len(text) - limit)


def _section(text: Text, title: str) -> None:
    if text.plain:
        text.append("\n\n")
    text.append(title, style="bold")
    text.append("\n")


def _long(text: Text, value: str, *, where: str = "Enter opens the whole step", keep_newlines: bool = True) -> None:
    """``value`` up to ``PROMPT_SHOWN`` characters, then how many more and ``where`` they are."""
    shown, more = _cut(value, PROMPT_SHOWN)
    text.append_text(safe_text(shown, keep_newlines=keep_newlines))
    if more:
        text.append(f"… ({more:,} more characters: {where})", style="dim italic")


WHOLE_GRADE = "x exports the whole rollout"
"""Where a grade text cut in the panel is whole: a side panel that wrapped a megabyte of
grader output froze the replay for seconds each time it was laid out."""


def tokens_text(step: RolloutStep, max_tokens: int | None) -> Text:
    text = Text()
    for label, value in (
        ("prompt", step.prompt_tokens),
        ("completion", step.completion_tokens),
        ("reasoning", step.reasoning_tokens),
    ):
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
        _long(text, grade.explanation, where=WHOLE_GRADE, keep_newlines=False)
    for assertion in grade.assertions:
        mark = {True: ("✓", "green"), False: ("✖", "red"), None: ("?", "dim")}[assertion.passed]
        text.append(f"\n{mark[0]} ", style=f"bold {mark[1]}")
        text.append(one_line(assertion.name or DASH, max_len=60), style="bold")
        if assertion.details:
            text.append(": ", style="dim")
            _long(text, assertion.details, where=WHOLE_GRADE, keep_newlines=False)
    for label, conditions, style in (
        ("failed", grade.failed_conditions, "red"),
        ("advisory", grade.advisory_conditions, "yellow"),
    ):
        for condition in conditions:
            text.append(f"\n{label}: ", style=f"bold {style}")
            _long(text, condition, where=WHOLE_GRADE, keep_newlines=False)
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
        _long(text, finding.evidence, where="the step holds the whole text", keep_newlines=False)
    if len(every) > FINDINGS_SHOWN:
        text.append(
            f"\n… and {len(every) - FINDINGS_SHOWN:,} more (each on its steps, in the list)", style="dim italic"
        )
    return text or Text(empty, style="dim italic")


def step_text(
    step: RolloutStep,
    position: int,
    total: int,
    max_tokens: int | None,
    findings: Sequence[Finding],
    rollout_grade: Grade | None = None,
) -> Text:
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
        text.append(f"empty ({plural(len(step.final_answer), 'character')}: ", style="italic")
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


class StepPanel(Static):
    """The step under the cursor, whole enough to read (its text: :func:`step_text`)."""

    def show_no_steps(self) -> None:
        self.update(Text("this rollout recorded no steps", style="italic"))


class GradePanel(Static):
    """The rollout's structured grade (set once: a record does not change)."""

    def __init__(self, grade: Grade | None, *, id: str | None = None) -> None:
        super().__init__(grade_text(grade), id=id, markup=False)


class FindingsPanel(Static):
    """Findings with their evidence, at most ``FINDINGS_SHOWN`` (the count of the rest says so)."""

    def __init__(self, findings: Iterable[Finding], empty: str, *, id: str | None = None) -> None:
        super().__init__(findings_text(findings, empty), id=id, markup=False)
