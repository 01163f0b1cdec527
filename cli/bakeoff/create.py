"""`blah-tui bakeoff create`: every field of a new bake-off as flags (or ``--from RUN.json``),
checked as the queue would before anything is sent, confirmed with what it will run and
spend on (on a terminal, or ``--yes``), sent once.

    blah-tui bakeoff create --name N --baseline M --candidate C ... --rubric R
        [--rubric-type direct|adherence] [--judge-model J]
        [--eval-kind criterion --criterion-id ID] [--stored --noninferiority-margin X]
        [--arm 'model=M; label=L; n=3; system=TEXT; tools=JSON'] ...
        [--tag T] [--filter-model M] [--segment S] [--dataset ID] [--trace-replay]
        [--assert TYPE[=VALUE]] ... [--sample-count N] [--max-output-tokens N] [--yes] [--json]

A 412 (an underpowered certified switch) says how many samples would do when the queue's
answer tells, and is never resent; a 400 population mismatch is named.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any, TextIO

from api_client.errors import AuthError, BlahError, UnreachableError
from application.bakeoffs.confirm import confirmation_lines
from application.bakeoffs.new_run.fields import parse_arm, parse_assertion
from application.bakeoffs.new_run.request import (
    DEFAULT_MAX_OUTPUT_TOKENS,
    DEFAULT_SAMPLE_COUNT,
    STORED,
    ArmSpec,
    NewRun,
    Problem,
    SampleFilters,
)
from application.bakeoffs.refusals import create_refusal
from cli.errors import CommandError, confirm
from cli.exit_codes import ExitCode
from cli.global_options import add_json_option
from common.safe_strings import clip

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from api_client.errorbar.client import Created, ErrorbarClient

__all__ = ["add_create_arguments", "create_request", "run_create"]

EXIT_USAGE = ExitCode.USAGE
PROG_GATE = "blah-tui bakeoff gate"


def add_create_arguments(create: argparse.ArgumentParser) -> None:
    create.add_argument("--from", dest="from_file", metavar="RUN.json", help="the request body, as JSON")
    create.add_argument("--name")
    create.add_argument("--eval-kind", choices=("comparison", "criterion"))
    create.add_argument("--rubric", help="what a better answer is (comparison runs), 10-2000 characters")
    create.add_argument(
        "--rubric-type",
        choices=("direct", "adherence"),
        help="direct: which answer better satisfies the rubric; adherence: which is closer to the stored reference",
    )
    create.add_argument(
        "--criterion-id",
        "--criterion",
        dest="criterion_id",
        metavar="ID",
        help="criterion runs: the criterion (see its trust, TPR/TNR and kappa first)",
    )
    create.add_argument("--judge-model", help="comparison runs; prefer another family than the candidates'")
    create.add_argument("--baseline", help="a model id, or __stored__ (your logged answers)")
    create.add_argument(
        "--stored",
        action="store_true",
        help="against what you shipped: baseline __stored__ (a certified switch with a criterion)",
    )
    create.add_argument(
        "--noninferiority-margin",
        type=float,
        metavar="X",
        help="certified switch: how much worse than what you shipped is acceptable (0..1)",
    )
    create.add_argument("--candidate", action="append", metavar="MODEL", help="a plain arm; repeat (at most 6)")
    create.add_argument(
        "--arm",
        action="append",
        metavar="SPEC",
        help="a versioned arm: 'model=M; label=L; n=3; system=TEXT; tools=JSON'; repeat",
    )
    create.add_argument("--sample-count", type=int, metavar="N", help="5-500")
    create.add_argument("--max-output-tokens", type=int, metavar="N", help="256-16384")
    create.add_argument("--tag", help="sample only traffic with this tag")
    create.add_argument("--filter-model", metavar="MODEL", help="sample only this model's traffic")
    create.add_argument("--segment", help="sample only this traffic segment")
    create.add_argument("--dataset", metavar="ID", help="sample a managed dataset instead of live logs")
    create.add_argument(
        "--trace-replay", action="store_true", help="sample completed agent runs, one sample per step (needs --stored)"
    )
    create.add_argument(
        "--assert",
        dest="assertions",
        action="append",
        metavar="TYPE[=VALUE]",
        help="a deterministic check on every answer (at most 10): json_valid, json_schema=S, "
        "regex_match=R, contains=T, not_contains=T, max_length=N, min_length=N, completed, "
        "tool_called=NAME, no_tool_call",
    )
    create.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    add_json_option(create)


def _refuse(problem: Problem) -> CommandError:
    return CommandError(problem.message, EXIT_USAGE)


def _from_file(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as handle:
            body = json.load(handle)
    except (OSError, ValueError) as exc:  # unreadable (8), or not JSON (usage: 2)
        raise CommandError(
            f"cannot read {clip(path, 120)}: {clip(str(exc), 200)}",
            ExitCode.LOCAL_FILE if isinstance(exc, OSError) else EXIT_USAGE,
        ) from None
    if not isinstance(body, dict):
        raise CommandError("the --from file must hold one JSON object", EXIT_USAGE)
    return body


def create_request(args: argparse.Namespace) -> tuple[dict[str, Any], NewRun | None]:
    """The body to send and, built from flags, the request it came from (None for ``--from``).
    Bad values: :class:`CommandError` (exit 2), nothing sent."""
    if args.from_file:
        body = _from_file(args.from_file)
        flags = {
            "name": args.name,
            "rubric": args.rubric,
            "baseline_model": STORED if args.stored else args.baseline,
            "candidate_models": args.candidate,
            "eval_kind": args.eval_kind,
            "criterion_id": args.criterion_id,
            "judge_model": args.judge_model,
            "sample_count": args.sample_count,
            "max_output_tokens": args.max_output_tokens,
            "rubric_type": args.rubric_type,
        }
        body.update({k: v for k, v in flags.items() if v is not None})
        filters = {
            k: v
            for k, v in (
                ("tag", args.tag),
                ("model", args.filter_model),
                ("segment", args.segment),
                ("dataset_id", args.dataset),
            )
            if v
        }
        if args.trace_replay:
            filters["trace_replay"] = True
        if filters:
            body["sample_filters"] = {**(body.get("sample_filters") or {}), **filters}
        from api_client.errorbar.checks import check_create

        check_create(body)
        return body, None  # sent as written; read back as a request only for the confirmation
    arms: list[ArmSpec] = [ArmSpec(model) for model in args.candidate or []]
    for index, text in enumerate(args.arm or [], start=len(arms)):
        arm, problem = parse_arm(text, index)
        if problem is not None:
            raise _refuse(problem)
        assert arm is not None  # a parse gives a value or a problem
        arms.append(arm)
    assertions: list[dict[str, Any]] = []
    for index, text in enumerate(args.assertions or []):
        config, problem = parse_assertion(text, index)
        if problem is not None:
            raise _refuse(problem)
        assert config is not None  # a parse gives a value or a problem
        assertions.append(config)
    if args.noninferiority_margin is not None and not 0.0 <= args.noninferiority_margin <= 1.0:
        raise CommandError(
            f"--noninferiority-margin: a rate from 0 to 1 is required (0.05, not 5), not "
            f"{args.noninferiority_margin:g}; nothing was sent",
            EXIT_USAGE,
        )
    request = NewRun(
        name=args.name or "",
        baseline_model=STORED if args.stored else (args.baseline or ""),
        arms=tuple(arms),
        eval_kind=args.eval_kind or ("criterion" if args.criterion_id else "comparison"),
        rubric=args.rubric or "",
        rubric_type=args.rubric_type or "direct",
        criterion_id=args.criterion_id,
        judge_model=args.judge_model,
        sample_count=args.sample_count if args.sample_count is not None else DEFAULT_SAMPLE_COUNT,
        max_output_tokens=args.max_output_tokens if args.max_output_tokens is not None else DEFAULT_MAX_OUTPUT_TOKENS,
        filters=SampleFilters(
            args.tag or "", args.filter_model or "", args.segment or "", args.dataset or "", args.trace_replay
        ),
        assertions=tuple(assertions),
        noninferiority_margin=args.noninferiority_margin,
    )
    problem = request.problem()
    if problem is not None:
        raise _refuse(problem)
    return request.body(), request


async def run_create(
    client: ErrorbarClient,
    args: argparse.Namespace,
    body: dict[str, Any],
    request: NewRun | None,
    stdin: TextIO,
    err: TextIO,
) -> Created:
    """Read what the confirmation needs (free), confirm, send once. A refusal the person can
    act on is a :class:`CommandError` (exit 1) with its sentence."""
    if not args.yes and not stdin.isatty():  # say so before reading anything
        confirm("queue this bake-off?", False, stdin, err)
    criterion: assumed.Criterion | None = None
    runs: list[assumed.Run] = []
    criterion_id = body.get("criterion_id")
    try:  # free reads for the confirmation; without them it says less, and the create still goes
        if criterion_id:
            criterion = next((c for c in await client.criteria() if c.id == criterion_id), None)
        runs = await client.list_runs()
    except (AuthError, UnreachableError):
        raise
    except BlahError as error:
        err.write(f"(could not read the queue's criteria and runs for this confirmation: {clip(error.message, 200)})\n")
    if request is not None:
        problem = request.problem(criterion)
        if problem is not None:
            raise _refuse(problem)
    described = request or NewRun.from_body(body)
    if described is not None:
        for label, text in confirmation_lines(described, criterion, runs):
            err.write(f"{label:<11} {clip(text, 400)}\n" if label else f"{clip(text, 400)}\n")
    else:
        err.write(
            f"queue {clip(str(body.get('name') or 'a screening run'), 60)} from "
            f"{clip(args.from_file, 120)}: every sample is generated by each model and judged\n"
        )
    confirm("queue this bake-off? It spends money", args.yes, stdin, err)
    try:
        created = await client.create_run(body)
    except BlahError as error:
        if error.status in (400, 412):
            refusal = create_refusal(
                error, described, (criterion.tpr, criterion.tnr) if criterion is not None else (None, None)
            )
            raise CommandError(refusal.sentence, ExitCode.REFUSED) from None
        raise
    if described is not None and described.certified:
        margin = described.noninferiority_margin
        err.write(
            f"when it is DONE: {PROG_GATE} {clip(created.run.id, 60)} --noninferiority-margin "
            f"{margin if margin is not None else 0.05:g}\n"
        )
    return created
