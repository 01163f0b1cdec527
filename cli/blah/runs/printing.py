"""What `blah-tui runs` prints: a run, the runs list, a run's results with the judge's reasoning
verbatim (made inert), as text or ``--json``, and the watch's progress line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TextIO

from api_client.blahdev.shapes import Result, Run
from application.runs.blah.follow import FollowUpdate
from application.runs.blah.judge_verdict import parse_judgement
from cli.blah.connection import (
    when,
)
from cli.output import cell, number, table_or_none
from common.format import DASH, plural
from common.safe_strings import clip, sanitize


def run_json(run: Run) -> dict[str, Any]:
    """The run's fields as the platform sent them (one it did not send stays absent)."""
    return run.model_dump(mode="json", exclude_unset=True)


def progress_text(run: Run) -> str:
    done = DASH if run.completed_count is None else str(run.completed_count)
    total = run.total_items
    pct = f" ({run.progress * 100:.0f}%)" if run.progress is not None else ""
    return f"{done}/{DASH if total is None else total}{pct}"


def _models(run: Run) -> str:
    if run.model_ids is not None:
        return cell(", ".join(run.model_ids), 50)
    return f"{number(run.total_models)} models" if run.total_models is not None else DASH


def print_runs(runs: Sequence[Run], out: TextIO) -> None:
    rows = [
        [
            cell(r.id, 40),
            cell(r.status, 12),
            progress_text(r),
            _models(r),
            when(r.started_at),
            when(r.completed_at),
            cell(r.error, 50),
        ]
        for r in runs
    ]
    table_or_none(
        ("run", "status", "progress", "models", "started (UTC)", "ended (UTC)", "error"), rows, out, none="no runs"
    )


def print_run(run: Run, out: TextIO) -> None:
    for label, value in (
        ("run", cell(run.id, 80)),
        ("status", cell(run.status, 30)),
        ("progress", progress_text(run)),
        ("models", _models(run)),
        ("evals", number(run.total_evals)),
        ("started", when(run.started_at)),
        ("ended", when(run.completed_at)),
        ("error", cell(run.error, 300)),
    ):
        out.write(f"{label:<9} {value}\n")


def result_json(result: Result) -> dict[str, Any]:
    judgement = parse_judgement(result)
    form = "json" if judgement.parsed else ("text" if judgement.verbatim is not None else "none")
    data = result.model_dump(mode="json", exclude={"score_details_parsed"}, exclude_unset=True)
    data["judge"] = {
        "form": form,
        "reasoning": judgement.reasoning if judgement.parsed else judgement.verbatim,
        "criteria": [{"name": c.name, "score": c.score, "value": c.value, "note": c.note} for c in judgement.criteria],
        "fields": dict(judgement.fields),
    }
    return data


def print_results(run: Run, results: Sequence[Result], out: TextIO) -> None:
    out.write(f"run {cell(run.id, 60)} · {cell(run.status, 20)} · {plural(len(results), 'result')}\n")
    if not results:
        out.write("the platform returned no results for this run\n")
        return
    for result in results:
        out.write("\n")
        score = DASH if result.score is None else repr(result.score)  # as sent, never rounded
        out.write(
            f"── {cell(result.id, 40)} · eval {cell(result.eval_id, 40)} · model {cell(result.model_id, 40)} · "
            f"score {score}\n"
        )
        if result.error:
            out.write(f"error: {clip(result.error, 300)}\n")
        judgement = parse_judgement(result)
        if judgement.parsed:
            out.write("judge (JSON):\n")
            if judgement.reasoning is not None:
                out.write(sanitize(judgement.reasoning, keep_newlines=True) + "\n")
            else:  # a JSON breakdown without a reasoning member we know: the details as sent
                out.write("(no reasoning member; the details as sent:)\n")
                out.write(sanitize(result.score_details or "", keep_newlines=True) + "\n")
            for row in judgement.criteria:
                shown = number(row.score) if row.score is not None else cell(row.value, 30)
                note = f" · {clip(row.note, 200)}" if row.note else ""
                out.write(f"  {cell(row.name, 40)}: {shown}{note}\n")
            for key, value in judgement.fields:
                out.write(f"  {cell(key, 40)}: {clip(value, 200)}\n")
        elif judgement.verbatim is not None:
            out.write("judge (plain text, as sent):\n")
            out.write(sanitize(judgement.verbatim, keep_newlines=True) + "\n")
        else:
            out.write("judge: the platform sent no score_details\n")


def eta_line(update: FollowUpdate) -> str:
    if update.error is not None:
        retry = f"; trying again in {update.wait:.0f} s" if update.wait is not None else ""
        return f"poll failed ({clip(update.error.message, 160)}){retry}"
    run = update.run
    assert run is not None
    eta = f" · {update.eta.describe()}" if update.eta is not None else ""
    nxt = f" · next poll in {update.wait:.0f} s" if update.wait is not None else ""
    return f"{cell(run.status, 12)} {progress_text(run)}{eta}{nxt}"


# ---------------------------------------------------------------------------- commands
