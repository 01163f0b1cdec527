"""What `blah-tui bakeoff` prints: runs, results, samples, compare rows and gate checks, as
plain text tables. Every platform string is made inert; a value the platform did not send is
the dash, never 0."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from application.bakeoffs.assertions import assertion_rows, failed_assertions
from application.bakeoffs.figures import rate_text
from application.bakeoffs.gate import CHECK_WORDS, gate_question
from application.bakeoffs.new_run.hints import population_text
from application.bakeoffs.words import (
    baseline_text,
    ended_text,
    kind_text,
    metric_text,
    micros_usd_text,
    model_text,
)
from cli.output import cell, table, table_or_none
from common.format import DASH, format_latency
from common.safe_strings import clip

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from api_client.errorbar.gate_verdict import GateVerdict


def interval(value: Sequence[float] | None) -> str:
    return DASH if not value else f"[{value[0]:.3f}, {value[1]:.3f}]"


def count(value: int | None) -> str:
    return DASH if value is None else str(value)


def progress(run: assumed.Run) -> str:
    return DASH if run.progress_ratio is None else f"{run.progress_ratio * 100:.0f}%"


def print_runs(runs: Sequence[assumed.Run], out: TextIO) -> None:
    rows = [
        [
            cell(r.id, 24),
            cell(r.name, 32),
            cell(kind_text(r), 10),
            cell(r.status, 9),
            progress(r),
            cell(baseline_text(r.baseline_model), 28),
            cell(", ".join(r.candidate_models), 48),
            cell(r.created_at, 20),
        ]
        for r in runs
    ]
    table_or_none(
        ("id", "name", "kind", "status", "done", "baseline", "candidates", "created"),
        rows,
        out,
        none="no eval runs in this workspace yet",
        numeric=frozenset({4}),
    )


def print_run(run: assumed.Run, out: TextIO) -> None:
    facts = [
        ("run", cell(run.id, 60)),
        ("name", cell(run.name, 80)),
        ("kind", cell(kind_text(run))),
        ("status", cell(run.status)),
        ("progress", progress(run)),
        ("baseline", cell(baseline_text(run.baseline_model, long=True), 60)),
        ("candidates", cell(", ".join(run.candidate_models), 200)),
        ("judge", cell(run.judge_model, 60)),
        ("samples", count(run.sample_count)),
        ("population", cell(population_text(run), 200)),
        ("output cap", count(run.max_output_tokens)),
        ("created", cell(run.created_at, 30)),
    ]
    if run.terminal:
        facts.append(("ended", f"{ended_text(run)} (the queue sends no end time)"))
    if run.error:
        facts.append(("error", cell(run.error, 300)))
    snapshot = run.criterion_snapshot or {}
    if snapshot:
        facts.append(
            (
                "judge frozen",
                (
                    f"{cell(snapshot.get('name'), 40)}: TPR {rate_text(snapshot.get('tpr'))}, "
                    f"TNR {rate_text(snapshot.get('tnr'))}, "
                    f"kappa {rate_text(snapshot.get('kappa'))}"
                ),
            )
        )
    for name, value in facts:
        out.write(f"{name:<13} {value}\n")
    results = run.results
    if results is None:
        out.write("\nno results yet: they come when the run is DONE\n" if not run.terminal else "\nno results\n")
        return
    out.write("\n")
    if results.per_candidate:
        rows = [
            [
                cell(c.key, 32),
                count(c.wins),
                count(c.ties),
                count(c.losses),
                count(c.failed),
                rate_text(c.win_rate),
                interval(c.ci95),
                "yes" if c.unreportable else ("no" if c.unreportable is False else DASH),
                count(c.truncated),
                format_latency(c.avg_latency_ms),
                DASH if c.savings_pct is None else f"{c.savings_pct:+.1f}%",  # signed, as the screens write it
                micros_usd_text(c.eval_cost_micros),
            ]
            for c in results.per_candidate
        ]
        table(
            (
                "candidate",
                "wins",
                "ties",
                "losses",
                "failed",
                "win rate",
                "95% interval",
                "unreportable",
                "truncated",
                "latency",
                "savings",
                "cost",
            ),
            rows,
            out,
            frozenset({1, 2, 3, 4, 5, 8, 9, 10, 11}),
        )
        out.write("a tie counts half a win; decide on the interval's lower bound, not the rate\n")
    if results.per_model:
        rows = [
            [
                cell(model_text(m.model), 32),
                count(m.judged_pass),
                count(m.judged_fail),
                count(m.unparsed),
                rate_text(m.observed_pass_rate),
                interval(m.observed_ci),
                rate_text(m.corrected_pass_rate),
                interval(m.corrected_ci),
                count(m.truncated),
            ]
            for m in results.per_model
        ]
        table(
            ("model", "pass", "fail", "unparsed", "observed", "95% interval", "corrected", "95% interval", "truncated"),
            rows,
            out,
            frozenset({1, 2, 3, 4, 6, 8}),
        )
        if any(m.corrected_pass_rate is None for m in results.per_model):
            out.write(
                "corrected: none where the frozen judge has no usable TPR/TNR (no better than chance, "
                "or never aligned)\n"
            )
    print_assertions(run, out)
    if results.screening is not None:
        from cli.bakeoff.screen_print import print_screening_result

        out.write("\n")
        print_screening_result(results.screening, out)


def print_assertions(run: assumed.Run, out: TextIO) -> None:
    """Per model: the share of answers passing every assertion, and each assertion's count."""
    if not run.assertions:
        return
    rows = assertion_rows(run)
    out.write(
        "\nassertions (deterministic, on every answer): "
        + "; ".join(
            cell(a.get("type"), 20) + (f" {cell(a.get('value'), 40)}" if a.get("value") else "") for a in run.assertions
        )
        + "\n"
    )
    if not rows:
        block = run.results.assertion_results if run.results is not None else None
        if block:  # a shape this client does not know: shown as sent, inert
            out.write(
                "assertion results (as the queue sent them): "
                + clip(json.dumps(block, ensure_ascii=False, sort_keys=True), 1200)
                + "\n"
            )
        else:
            out.write("assertion results: the queue sent none\n")
        return
    names = [name for name, _ in rows[0].per_assertion]
    table(
        ("model", "all passed", "rate", *names),
        [
            [
                cell(model_text(r.model), 32),
                f"{count(r.passed_all)}/{count(r.answers)}",
                rate_text(r.pass_rate),
                *[f"{count(passed)}/{count(r.answers)}" for _, passed in r.per_assertion],
            ]
            for r in rows
        ],
        out,
        frozenset(range(1, 3 + len(names))),
    )


def print_samples(
    samples: Sequence[assumed.Sample], out: TextIO, *, losses: bool, run: assumed.Run | None = None
) -> None:
    """``run``: when given and it has assertions, a column says which ones each answer failed."""
    # imported here, not above: the records build the queue's pydantic shapes, which the CI
    # gate's path (`bakeoff gate`, held within 1.3x of importing httpx and pydantic) never needs
    from api_client.errorbar.records import answer_from_sample

    checked = run is not None and bool(run.assertions)
    rows = []
    for sample in samples:
        for answer in map(answer_from_sample, sample.candidates):
            if losses and answer.outcome not in ("loss", "fail"):
                continue
            row = [
                count(None if sample.index is None else sample.index + 1),
                cell(model_text(answer.model), 28),
                cell(answer.outcome, 8),
                "cut" if answer.truncated else ("" if answer.truncated is False else DASH),
            ]
            if checked and run is not None:
                failed = failed_assertions(run, answer)
                row.append(
                    DASH
                    if failed is None
                    else ("all passed" if not failed else "failed " + cell("; ".join(failed), 60))
                )
            rows.append(row + [cell(sample.prompt, 50), cell(answer.text, 50), cell(sample.baseline_answer, 40)])
    if not rows:
        out.write("no losses\n" if losses else "no samples yet\n")
        return
    headers = (
        "#",
        "candidate",
        "outcome",
        "cap",
        *(("assertions",) if checked else ()),
        "prompt",
        "answer",
        "baseline answer",
    )
    table(headers, rows, out, frozenset({0}))


def print_compare(comparison: assumed.Comparison, out: TextIO) -> None:
    a, b = comparison.a or {}, comparison.b or {}
    out.write(f"before (a): {cell(a.get('id'), 40)} {cell(a.get('name'), 60)}\n")
    out.write(f"after  (b): {cell(b.get('id'), 40)} {cell(b.get('name'), 60)}\n\n")
    rows = [
        [
            cell(model_text(r.arm), 32),
            cell(metric_text(r.metric), 20),
            rate_text(r.a.rate if r.a else None),
            interval(r.a.ci if r.a else None),
            rate_text(r.b.rate if r.b else None),
            interval(r.b.ci if r.b else None),
            DASH if r.delta is None else f"{r.delta:+.3f}",
            interval(r.delta_ci),
            DASH if r.significant is None else ("changed" if r.significant else "no detectable change"),
        ]
        for r in comparison.rows
    ]
    if rows:
        table(
            ("arm", "metric", "before", "95%", "after", "95%", "after − before", "95% (Newcombe)", "verdict"), rows, out
        )
    else:
        out.write("no arm is in both runs\n")
    unmatched = comparison.unmatched or {}
    for side in ("a", "b"):
        keys = unmatched.get(side) or []
        if keys:
            out.write(f"only in {side}: {cell(', '.join(model_text(str(k)) for k in keys), 200)}\n")


def gate_questions(verdict: GateVerdict) -> list[dict[str, str | None]]:
    """Each check's model and the question it asks (``--json``'s ``asks``; the text's note)."""
    return [{"check": c.check, "model": c.model, "asks": gate_question(c.check, c.required)} for c in verdict.checks]


def print_gate(run_id: str, verdict: GateVerdict, out: TextIO) -> None:
    word = "PASS" if verdict.passed else "FAIL"
    closed = "" if verdict.status == "DONE" else " (fails closed until the run is DONE)"
    out.write(f"gate {word}: run {cell(run_id, 60)} is {cell(verdict.status)}{closed}\n")
    if verdict.reason:
        out.write(f"reason: {cell(verdict.reason, 300)}\n")
    if verdict.checks:
        rows = [
            [
                cell(CHECK_WORDS.get(c.check or "", c.check), 20),
                cell(model_text(c.model), 32),
                rate_text(c.required),
                rate_text(c.actual),
                "pass" if c.passed else "FAIL",
                f"asks: {gate_question(c.check, c.required)}" + (f" · {cell(c.note, 200)}" if c.note else ""),
            ]
            for c in verdict.checks
        ]
        table(("check", "model", "required", "actual", "result", "note"), rows, out, frozenset({2, 3}))
