"""The `blah-tui bakeoff` verbs of :mod:`cli.bakeoff.calibration` (labels, label,
criteria, criterion, align, evidence, clusters, delete, verdict): what each sends and prints.
The usage, the exit codes and the parser are there."""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TextIO

from api_client.errorbar.checks import GATE_THRESHOLDS, gate_params
from api_client.errors import BlahError
from application.bakeoffs import (
    calibration,
    clusters,
    criteria,
    evidence,
)
from application.bakeoffs.figures import interval_text, rate_text
from cli.bakeoff.connection import ConnectionError_, resolve
from cli.errors import CommandError, confirm, error_line, exit_for, fail
from cli.exit_codes import ExitCode
from common.format import DASH, plural
from common.safe_strings import clip, inert_json, one_line

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from api_client.errorbar.client import ErrorbarClient

PROG = "blah-tui bakeoff"
EXIT_OK, EXIT_USAGE = ExitCode.OK, ExitCode.USAGE
Sleep = Callable[[float], Awaitable[None]]


# ------------------------------------------------------------------ printing


def _json(value: Any, out: TextIO) -> None:
    out.write(inert_json(json.dumps(value, ensure_ascii=False, indent=2)) + "\n")


def calibration_lines(figures: calibration.CalibrationPanel) -> list[str]:
    """The calibration panel as plain lines (also what the TUI draws)."""
    lines = [
        f"labelled pairs {figures.labelled} · counted {figures.counted or 0} · agreement "
        f"{rate_text(figures.agreement)} · kappa {rate_text(figures.kappa)} · "
        + ("usable" if figures.usable else f"not usable: {clip(figures.reason or DASH, 200)}")
    ]
    lines += [f"  {side.line()}" for side in figures.sides]
    for arm in figures.arms:
        corrected = (
            f"corrected {rate_text(arm.corrected)} {interval_text(arm.corrected_ci)}"
            if arm.corrected is not None
            else "corrected —"
        )
        lines.append(
            f"  {clip(arm.key, 40)}: printed {rate_text(arm.printed)} {interval_text(arm.printed_ci)} · {corrected}"
            f" · {arm.labelled if arm.labelled is not None else DASH} labelled"
        )
    lines.append(calibration.labels_needed_sentence(figures))
    return lines


def _criterion_lines(row: criteria.CriterionRow) -> list[str]:
    lines = [
        f"{clip(row.id, 40)} · {clip(row.name or DASH, 60)} · judge {clip(row.judge_model or DASH, 40)}",
        (
            f"  trust {clip(row.trust or DASH, 20)} · TPR {rate_text(row.tpr)} {interval_text(row.tpr_ci)} · TNR "
            f"{rate_text(row.tnr)} {interval_text(row.tnr_ci)} · kappa {rate_text(row.kappa)} · "
            f"{plural(row.labels, 'label') if row.labels is not None else DASH + ' labels'} · "
            f"drift {clip(row.drift, 80)}"
        ),
    ]
    if row.reading:
        lines.append(f"  the app's reading: {row.reading}")
    return lines


# ------------------------------------------------------------------ the verbs


async def _labels(client: ErrorbarClient, args: argparse.Namespace, out: TextIO) -> int:
    run = await client.get_run(args.run_id)
    if run.eval_kind == "criterion":
        raise CommandError(calibration.CRITERION_REFUSAL.replace("; nothing was sent", ""), ExitCode.REFUSED)
    labels = await client.pair_labels(args.run_id)
    pairwise = await client.pairwise(args.run_id)
    figures = calibration.panel(run, pairwise)
    if args.json:
        _json({"labels": [lab.to_json() for lab in labels], "pairwise": pairwise.to_json()}, out)
        return EXIT_OK
    out.write(f"{plural(len(labels), 'pair label')} on {clip(run.id, 40)}\n")
    for lab in sorted(labels, key=lambda x: (x.sample_index, x.candidate)):
        critique = f" · {clip(lab.critique, 120)}" if lab.critique else ""
        out.write(f"  #{lab.sample_index + 1} {clip(lab.candidate, 40)}: {clip(lab.verdict or DASH, 12)}{critique}\n")
    out.write("\n".join(calibration_lines(figures)) + "\n")
    return EXIT_OK


async def _label(client: ErrorbarClient, args: argparse.Namespace, out: TextIO) -> int:
    run = await client.get_run(args.run_id)
    verdict_given = None if args.verdict == "remove" else args.verdict
    count = len(await client.samples(args.run_id)) if run.eval_kind != "criterion" else None
    index = args.sample - 1  # people number samples from #1 (`bakeoff samples`, the app); the queue from 0
    try:
        calibration.check_label(run, index, args.arm, verdict_given, args.critique, sample_count=count)
    except calibration.LabelRefused as refused:
        raise CommandError(
            f"{refused}{'' if 'nothing was sent' in str(refused) else '; nothing was sent'}", EXIT_USAGE
        ) from None
    if verdict_given is None:
        await client.delete_pair_label(args.run_id, index, args.arm)
        pairwise = await client.pairwise(args.run_id)
        said = f"removed the label on #{args.sample} {clip(args.arm, 40)}"
    else:
        answer = await client.add_pair_label(args.run_id, index, args.arm, verdict_given, args.critique)
        pairwise = answer.pairwise or await client.pairwise(args.run_id)
        said = f"labelled #{args.sample} {clip(args.arm, 40)}: {verdict_given}"
    figures = calibration.panel(run, pairwise)
    if args.json:
        _json(
            {
                "sample": args.sample,  # as people number it (#1 first)
                "sample_index": index,  # as the queue numbers it (0 first)
                "candidate": args.arm,
                "verdict": verdict_given,
                "pairwise": pairwise.to_json(),
            },
            out,
        )
        return EXIT_OK
    out.write(said + "\n" + "\n".join(calibration_lines(figures)) + "\n")
    return EXIT_OK


async def _criteria(client: ErrorbarClient, args: argparse.Namespace, out: TextIO) -> int:
    found = await client.criteria()
    if args.json:
        _json([c.to_json() for c in found], out)
        return EXIT_OK
    if not found:
        out.write("the workspace has no criteria\n")
    for item in found:
        out.write("\n".join(_criterion_lines(criteria.criterion_row(item))) + "\n")
    return EXIT_OK


async def _criterion(client: ErrorbarClient, args: argparse.Namespace, out: TextIO) -> int:
    item = await client.criterion(args.criterion_id)
    report: assumed.Alignment | None = None
    state = None
    try:
        report = await client.alignment(args.criterion_id)
    except BlahError as error:
        judged = criteria.in_progress(error)
        if judged is not None:
            state = f"alignment in progress: {judged} labels judged so far"
        elif error.status == 400:
            state = f"no alignment report: {clip(error.message, 200)}"
        else:
            raise
    if args.json:
        _json({"criterion": item.to_json(), "alignment": report.to_json() if report else None, "state": state}, out)
        return EXIT_OK
    out.write("\n".join(_criterion_lines(criteria.criterion_row(item))) + "\n")
    out.write(f"prompt: {clip(item.judge_prompt or DASH, 400)}\n")
    if report is None:
        out.write(f"{state}\n")
    else:
        out.write("\n".join(one_line(line, None) for line in criteria.alignment_lines(report)) + "\n")
    return EXIT_OK


async def _align(
    client: ErrorbarClient, args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO, sleep: Sleep
) -> int:
    item = await client.criterion(args.criterion_id)
    confirm(clip(criteria.align_confirmation(item), 300), args.yes, stdin, err)

    def progress(state: criteria.AlignProgress) -> None:
        total = f" of {state.total}" if state.total else ""
        err.write(f"alignment in progress: {state.judged if state.judged is not None else '?'}{total} labels judged\n")
        err.flush()

    report = await criteria.align_and_wait(client, args.criterion_id, sleep=sleep, on_progress=progress)
    if args.json:
        _json(report.to_json(), out)
    else:
        out.write("\n".join(one_line(line, None) for line in criteria.alignment_lines(report)) + "\n")
    return EXIT_OK


async def _evidence(client: ErrorbarClient, args: argparse.Namespace, out: TextIO) -> int:
    thresholds = {name: getattr(args, name) for name in GATE_THRESHOLDS}
    try:
        bundle = await client.evidence(args.run_id, thresholds, with_content=args.with_content, model=args.model)
    except BlahError as error:
        if error.status not in (404, 412):
            raise
        status = None
        if error.status == 412:
            try:
                status = (await client.get_run(args.run_id)).status  # free: says which precondition failed
            except BlahError:
                status = None
        raise CommandError(
            evidence.evidence_error_sentence(error, clip(args.run_id, 60), status), exit_for(error)
        ) from None
    try:
        written = evidence.write_bundle(args.output, bundle.raw)
    except OSError as error:
        raise CommandError(
            f"cannot write {clip(args.output, 120)}: {clip(str(error), 200)}", ExitCode.LOCAL_FILE
        ) from None
    summary = evidence.summarize(bundle.evidence, with_content_asked=args.with_content)
    if args.json:
        _json({"file": str(written), "bytes": len(bundle.raw), **dataclasses.asdict(summary)}, out)
        return EXIT_OK
    out.write(f"wrote {len(bundle.raw):,} bytes to {clip(str(written), 200)} (the bundle as the queue sent it)\n")
    for line in (
        summary.signed,
        summary.attestation,
        *(f"  {p}" for p in summary.problems),
        summary.content,
        summary.samples,
        summary.gate or "gate: no threshold given",
    ):
        out.write(clip(line, 600) + "\n")
    return EXIT_OK


async def _clusters(client: ErrorbarClient, args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    if args.force:
        confirm(clusters.FORCE_CONFIRMATION, args.yes, stdin, err)
    answer = await client.failure_clusters(args.window_days, force=args.force)
    rows = clusters.cluster_rows(answer, args.criterion)
    if args.json:
        _json(answer.to_json(), out)
        return EXIT_OK
    out.write(clip(clusters.freshness(answer), 300) + "\n")
    if args.criterion and not rows:
        out.write(f"no criterion {clip(args.criterion, 60)} in the answer\n")
    current = None
    for row in rows:
        if row.criterion_id != current:
            current = row.criterion_id
            out.write(
                f"{clip(row.criterion_name or row.criterion_id or DASH, 60)} "
                f"({clip(row.criterion_id or DASH, 40)}): "
                f"{row.failures if row.failures is not None else DASH} failures\n"
            )
        if row.name is None:
            out.write(f"  {row.note}\n")
            continue
        share = DASH if row.share is None else f"{row.share * 100:.0f}%"
        out.write(f"  {clip(row.name, 80)}: {row.count if row.count is not None else DASH} ({share})\n")
        out.write(f"    example: {clip(row.example or DASH, 300)}\n")
        if row.request_ids:
            out.write(f"    requests: {clip(', '.join(row.request_ids), 300)}\n")
    return EXIT_OK


async def _delete(client: ErrorbarClient, args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    run = await client.get_run(args.run_id)
    if not run.terminal:
        raise CommandError(
            f"{clip(run.id, 60)} is {clip(run.status or '?', 12)}: a live run can't be deleted; "
            f"cancel it first (bakeoff cancel {clip(run.id, 60)}); nothing was sent",
            ExitCode.REFUSED,
        )
    confirm(
        f"delete {clip(run.id, 60)} ({clip(run.name or DASH, 60)}, {clip(run.status or '?', 12)})? "
        "It is irreversible: its samples, answers, verdicts and evidence go too",
        args.yes,
        stdin,
        err,
    )
    deleted = await client.delete_run(args.run_id)
    if args.json:
        _json({"id": deleted, "deleted": True}, out)
    else:
        out.write(f"deleted {clip(deleted, 60)}\n")
    return EXIT_OK


async def _verdict(client: ErrorbarClient, args: argparse.Namespace, out: TextIO) -> int:
    from application.bakeoffs.decision import decide, fetch_inputs

    decision = decide(await fetch_inputs(client, args.run_id, getattr(args, "margin", None)))
    if args.json:
        _json(decision.to_json(), out)
        return decision.verdict.exit_code
    for line in decision.lines():
        out.write(clip(line.removeprefix("verdict: "), 1200) + "\n")
    return decision.verdict.exit_code


async def _dispatch(
    args: argparse.Namespace, base_url: str, api_key: str | None, out: TextIO, err: TextIO, stdin: TextIO, sleep: Sleep
) -> int:
    from api_client.errorbar.client import ErrorbarClient

    async with ErrorbarClient(base_url, api_key) as client:
        action = args.action
        if action == "labels":
            return await _labels(client, args, out)
        if action == "label":
            return await _label(client, args, out)
        if action == "criteria":
            return await _criteria(client, args, out)
        if action == "criterion":
            return await _criterion(client, args, out)
        if action == "align":
            return await _align(client, args, out, err, stdin, sleep)
        if action == "evidence":
            return await _evidence(client, args, out)
        if action == "clusters":
            return await _clusters(client, args, out, err, stdin)
        if action == "delete":
            return await _delete(client, args, out, err, stdin)
        return await _verdict(client, args, out)


def run_verb(
    args: argparse.Namespace,
    *,
    out: TextIO,
    err: TextIO,
    stdin: TextIO,
    env: dict[str, str],
    sleep: Sleep | None = None,
) -> int:
    """Run the verb ``args.action``; the exit code."""
    import asyncio

    try:
        if args.action == "evidence" and any(getattr(args, n) is not None for n in GATE_THRESHOLDS):
            gate_params({n: getattr(args, n) for n in GATE_THRESHOLDS}, model=args.model)
        connection = resolve(getattr(args, "base_url", None), getattr(args, "profile", None), env)
        return asyncio.run(
            _dispatch(args, connection.base_url, connection.api_key, out, err, stdin, sleep or asyncio.sleep)
        )
    except CommandError as error:
        return fail(PROG, str(error), error.code, err)
    except ConnectionError_ as error:
        return fail(PROG, error_line(error), EXIT_USAGE, err)
    except (BlahError, TimeoutError) as error:
        return fail(PROG, error_line(error), exit_for(error), err)
    except KeyboardInterrupt:
        return fail(PROG, "interrupted", ExitCode.INTERRUPTED, err)
