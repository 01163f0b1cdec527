"""The Inspector's panels: the title line, the findings, the template verdict, where the call
came from, the judged result and every field of the call, each a ``Static`` with a ``show``
method; the pure builders of what each shows (Rich ``Text`` / ``Table``) stay module-level
functions so the judged result can be reused by ``links`` and tested without an app.

Every platform string goes through the sanitizer (``safe_text`` / ``one_line``); table cells
are ``Text`` objects, never markup strings. A missing field is shown as "—".
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import tzinfo
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from api_client.blahdev.shapes import Result
from application.inspector.findings import Analysis
from application.inspector.foreign import ForeignCall
from common.format import DASH, format_latency, format_timestamp
from common.records import Call
from widgets.badges import badge_text
from widgets.safe_text import one_line, safe_text

__all__ = [
    "DASH",
    "CallDetails",
    "CallTitle",
    "FindingsPanel",
    "OriginPanel",
    "ResultPanel",
    "TemplatesPanel",
    "details_table",
    "findings_text",
    "foreign_origin_text",
    "format_timestamp",
    "origin_text",
    "result_renderable",
    "templates_text",
    "title_text",
]


def _value(value: Any) -> Text:
    if value is None:
        return Text(DASH, style="dim")
    if isinstance(value, int) and not isinstance(value, bool):
        return Text(f"{value:,}")
    return Text(one_line(str(value), max_len=160))


def title_text(entry: Call, tz: tzinfo | None) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("call ", style="dim")
    text.append(one_line(entry.id, max_len=60), style="bold")
    text.append("  ·  ", style="dim")
    text.append(one_line(entry.source, max_len=20) if entry.source else DASH)
    text.append("  ·  ", style="dim")
    text.append(format_timestamp(entry.created_at, tz))
    text.append("  ·  model ", style="dim")
    text.append(one_line(entry.model_id, max_len=60) if entry.model_id else DASH)
    return text


def details_table(entry: Call, tz: tzinfo | None) -> Table:
    """Every field of the call except the two long texts (shown in their viewers)."""
    table = Table.grid(padding=(0, 1))
    table.add_column(style="dim", no_wrap=True)
    table.add_column()
    latency = None if entry.latency_ms is None else format_latency(entry.latency_ms)
    if entry.messages is None:
        turns: str | None = None
    else:
        roles = ", ".join(one_line(m.role, max_len=12) for m in entry.messages[:8])
        more = f", +{len(entry.messages) - 8}" if len(entry.messages) > 8 else ""
        turns = f"{len(entry.messages)} ({roles}{more})"
    rows: list[tuple[str, Any]] = [
        ("id", entry.id),
        ("model", entry.model_id),
        ("source", entry.source),
        ("created", format_timestamp(entry.created_at, tz)),
        ("latency", latency),
        ("finish reason", entry.finish_reason),
        ("max tokens", entry.max_tokens),
        ("prompt tokens", entry.prompt_tokens),
        ("completion tokens", entry.completion_tokens),
        ("structured turns", turns),
        ("eval", entry.eval_id),
        ("run", entry.run_id),
        ("result", entry.result_id),
        ("chat message", entry.message_id),
    ]
    for label, value in rows:
        table.add_row(Text(label), _value(value))
    error = Text(DASH, style="dim") if entry.error is None else safe_text(entry.error, style="bold")
    table.add_row(Text("error"), error)
    return table


def findings_text(analysis: Analysis | None) -> Text:
    """Each finding as its badge, what it means, and the evidence quoted from the call."""
    if analysis is None:
        return Text("diagnosing…", style="italic")
    if not analysis.available:
        return Text(f"no findings: {one_line(analysis.problem, max_len=200)}", style="italic")
    if not analysis.findings:
        return Text("no findings (that is not the same as a right answer)", style="italic")
    try:
        from diagnosis import describe
    except ImportError:  # pragma: no cover - analysis.available implies diagnosis imports
        describe = None  # type: ignore[assignment]  # None: no diagnosis to ask
    text = Text()
    if analysis.note:
        text.append(f"({analysis.note})\n", style="italic")
    for index, finding in enumerate(analysis.findings):
        if index:
            text.append("\n")
        text.append_text(badge_text(finding.kind))
        if describe is not None:
            text.append(" " + describe(finding.kind).description, style="dim")
        text.append("\n  ")
        text.append_text(safe_text(finding.evidence))
    return text


def templates_text(analysis: Analysis | None, template_name: Any = None) -> Text:
    """The template the prompt uses beside the one the model was trained with."""
    name = template_name or (lambda value: value if value else "unknown")
    text = Text()
    detected = None if analysis is None else analysis.detected_template
    trained = None if analysis is None else analysis.trained_template
    source = "unknown" if analysis is None else analysis.trained_source
    text.append("prompt format   ", style="dim")
    text.append(one_line(name(detected), max_len=40) if detected else "unknown", style="bold")
    text.append("\ntrained with    ", style="dim")
    text.append(one_line(name(trained), max_len=40) if trained else "unknown", style="bold")
    text.append(f"  (from {source})" if trained else "  (set it in the config to get a verdict)", style="dim")
    if detected and trained:
        mismatch = analysis is not None and "template_mismatch" in analysis.kinds
        text.append("\n")
        if mismatch:
            text.append("✖ mismatch: ", style="bold")
            text.append("failures here may be the prompt format, not the model", style="italic")
        else:
            text.append("✓ match", style="bold")
    return text


def origin_text(entry: Call, keys: dict[str, str]) -> Text:
    """Where the call came from, each link with the key that opens it."""
    parts: list[tuple[str, str | None, str]] = [
        ("eval", entry.eval_id, keys.get("eval", "")),
        ("run", entry.run_id, keys.get("run", "")),
        ("result", entry.result_id, keys.get("result", "")),
        ("chatroom message", entry.message_id, keys.get("message", "")),
    ]
    text = Text()
    known = [(label, value, key) for label, value, key in parts if value]
    if not known:
        text.append(f"source {one_line(entry.source, max_len=20) if entry.source else DASH}; ", style="dim")
        text.append("no eval, run, result or chatroom message recorded", style="italic")
        return text
    for index, (label, value, key) in enumerate(known):
        if index:
            text.append("\n")
        text.append(f"{label:<17}", style="dim")
        text.append(one_line(value, max_len=60))
        if key:
            text.append(f"  [{key}]", style="bold")
    return text


def foreign_origin_text(call: ForeignCall) -> Text:
    """Where another platform's call came from: its (label, value) lines, then its notes."""
    text = Text()
    width = max((len(label) for label, _ in call.origin), default=0) + 2
    for index, (label, value) in enumerate(call.origin):
        if index:
            text.append("\n")
        text.append(f"{label:<{width}}", style="dim")
        text.append(one_line(value, max_len=160))
    for note in call.notes:
        text.append("\n" if call.origin else "")
        text.append(one_line(note, max_len=200), style="italic")
    return text


def _score(score: float | None) -> Text:
    return Text(DASH, style="dim") if score is None else Text(f"{score:.2f}", style="bold")


def _cell(value: Any) -> Text:
    if isinstance(value, str):
        return safe_text(value)
    if value is None:
        return Text(DASH, style="dim")
    if isinstance(value, (int, float, bool)):
        return Text(str(value))
    return safe_text(json.dumps(value, ensure_ascii=False, indent=1))


def _rows_of(parsed: dict[str, Any] | list[Any]) -> Iterable[tuple[str, Any]]:
    if isinstance(parsed, dict):
        yield from ((str(k), v) for k, v in parsed.items())
    else:
        yield from ((str(i), v) for i, v in enumerate(parsed))


def result_renderable(result: Result | None, *, problem: str | None = None) -> RenderableType:
    """The judged result: score, the judge's breakdown parsed into a table when it is JSON
    (verbatim, sanitized, when it is not), and any error."""
    if problem is not None:
        return Text(f"couldn't load the result: {one_line(problem, max_len=200)}", style="italic")
    if result is None:
        return Text("no judged result recorded for this call", style="italic")
    head = Text()
    head.append("score ", style="dim")
    head.append_text(_score(result.score))
    head.append("   result ", style="dim")
    head.append(one_line(result.id, max_len=40))
    if result.error:
        head.append("\nerror ", style="dim")
        head.append_text(safe_text(result.error))
    parsed = result.score_details_parsed
    if result.score_details is None:
        body: RenderableType = Text("the judge left no breakdown (score_details is empty)", style="italic")
    elif parsed is None:
        body = Group(Text("judge's reasoning (verbatim):", style="dim"), safe_text(result.score_details))
    else:
        table = Table(show_header=True, header_style="bold", expand=True, show_lines=False)
        table.add_column(Text("criterion"), ratio=1, no_wrap=False)
        table.add_column(Text("judge's breakdown"), ratio=3)
        for key, value in _rows_of(parsed):
            table.add_row(safe_text(key), _cell(value))
        body = table
    return Group(head, body)


class CallTitle(Static):
    """The line above the call: its id, source, time and model."""

    def show(self, entry: Call, tz: tzinfo | None) -> None:
        self.update(title_text(entry, tz))


class CallDetails(Static):
    """Every field of the call except the prompt and the reply."""

    def show(self, entry: Call, tz: tzinfo | None) -> None:
        self.update(details_table(entry, tz))


class FindingsPanel(Static):
    """The diagnosis of the call, or that it is still running."""

    def show(self, analysis: Analysis | None) -> None:
        self.update(findings_text(analysis))


class TemplatesPanel(Static):
    """The prompt's template beside the trained one."""

    def show(self, analysis: Analysis | None, template_name: Any = None) -> None:
        self.update(templates_text(analysis, template_name))


class OriginPanel(Static):
    """Where the call came from: blah.dev's links with their keys, or another platform's origin."""

    def show(self, entry: Call, keys: dict[str, str]) -> None:
        self.update(origin_text(entry, keys))

    def show_foreign(self, call: ForeignCall) -> None:
        self.update(foreign_origin_text(call))


class ResultPanel(Static):
    """The judged result of the call (or why there is none)."""

    def show(self, result: Result | None, *, problem: str | None = None) -> None:
        self.update(result_renderable(result, problem=problem))
