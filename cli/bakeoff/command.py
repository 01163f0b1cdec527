"""`blah-tui bakeoff ...`: bake-offs on the errorbar eval-run queue (no Textual import).

    blah-tui bakeoff list [--json]
    blah-tui bakeoff show ID [--json]
    blah-tui bakeoff create (--from RUN.json | --name N --baseline M --candidate C ... [--rubric R] ...)
                            [--yes] [--json]
                            (every field as a flag: see cli/bakeoff/create.py)
    blah-tui bakeoff watch ID [--stop-when-decided [--margin D] [--yes]]
    blah-tui bakeoff cancel ID [--yes]
    blah-tui bakeoff samples ID [--losses] [--json]
    blah-tui bakeoff compare A B [--json]
    blah-tui bakeoff screen [--name N] [--sample-count N] [--candidate M ...] [--dataset ID] [--yes] [--json]
    blah-tui bakeoff gate ID [--min-win-rate X] [--min-pass-rate X] [--min-assertion-pass-rate X]
                             [--noninferiority-margin X] [--ties half|decided] [--model M] [--wait SECONDS] [--json]
    blah-tui bakeoff labels|label|criteria|criterion|align|evidence|clusters|delete|verdict ...
                             (see cli/bakeoff/calibration.py: calibration, criteria, evidence,
                             failure clusters, delete, and the verdict: switch / don't / not enough evidence)

The queue's address: ``--base-url`` or the errorbar profile's; the key: ``$ERRORBAR_API_KEY``
or the profile's stored key (``sk_...``; never printed). Create spends money: it is confirmed
on a terminal (``--yes`` otherwise) and sent once.

Exit codes: :class:`cli.exit_codes.ExitCode`, the same in every command. gate: 0 pass, 1 a
check failed, 3 the run is not DONE (fail closed; ``--wait`` polls until it is or the time
is up). watch and screen: 0 the run ended DONE (a screening's "keep" is a good outcome), 1 it
ended ERROR or CANCELLED. The errors: 2 bad usage (no threshold: nothing is sent), 4 the
queue unreachable, the key refused or an answer not understood, 5 a create's outcome
unknown, 6 an unknown run, 7 the queue refused (402 no funds, 422 nothing to screen, 409).
watch --stop-when-decided: 10 it cancelled the rest of a decided run (an answer: the
verdict is printed; see cli/bakeoff/stop.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from api_client.errorbar import shapes_fixed as wire
from api_client.errorbar.checks import GATE_THRESHOLDS, gate_params
from api_client.errorbar.gate_blocking import BlockingGate
from api_client.errors import BlahError, NotFoundError
from cli.bakeoff import calibration as bakeoff_calibration
from cli.bakeoff import print as show
from cli.bakeoff import screen as bakeoff_screen
from cli.bakeoff.connection import Connection, ConnectionError_, resolve
from cli.bakeoff.create import add_create_arguments, create_request, run_create
from cli.bakeoff.plan import OFFLINE_ACTIONS, run_offline
from cli.bakeoff.plan import add_parsers as add_offline_parsers
from cli.errors import CommandError, confirm, error_line, exit_for, fail
from cli.exit_codes import ExitCode
from cli.global_options import add_json_option, parse_command, platform_command_parser
from cli.output import print_json
from cli.parsing import unit_rate
from common.format import plural
from common.safe_strings import clip

if TYPE_CHECKING:
    pass

PROG = "blah-tui bakeoff"
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_NOT_DONE, EXIT_UNREACHABLE = (
    ExitCode.OK,
    ExitCode.NO,
    ExitCode.USAGE,
    ExitCode.UNDECIDED,
    ExitCode.UNREACHABLE,
)
POLL_S = 5.0
Sleep = Callable[[float], Awaitable[None]]
Block = Callable[[float], None]


def build_parser() -> argparse.ArgumentParser:
    parser, sub, connection = platform_command_parser(
        PROG,
        "Bake-offs on the errorbar eval-run queue. The key is read from $ERRORBAR_API_KEY (sk_...) or the profile.",
        dest="action",
        base_url_help="the queue's origin (the client adds /v1)",
        profile_help="an errorbar profile",
    )
    add_json_option(sub.add_parser("list", parents=[connection], help="the 50 newest runs"))
    one = sub.add_parser("show", parents=[connection], help="one run and its results")
    one.add_argument("run_id", metavar="ID")
    add_json_option(one)
    one.add_argument(
        "--margin", type=unit_rate, metavar="D", help="a noninferiority margin for the paired reading (0..1)"
    )
    create = sub.add_parser("create", parents=[connection], help="queue a run (spends money; sent once)")
    add_create_arguments(create)
    watch = sub.add_parser("watch", parents=[connection], help="poll a run until it ends")
    watch.add_argument("run_id", metavar="ID")
    watch.add_argument(
        "--stop-when-decided",
        action="store_true",
        help="cancel the rest once every candidate's anytime-valid reading is settled (exit 10)",
    )
    watch.add_argument("--margin", type=unit_rate, metavar="D", help="a noninferiority margin (0..1) for the decision")
    watch.add_argument("--yes", action="store_true", help="cancel without asking once decided")
    cancel = sub.add_parser("cancel", parents=[connection], help="cancel a pending or running run")
    cancel.add_argument("run_id", metavar="ID")
    cancel.add_argument("--yes", action="store_true")
    samples = sub.add_parser("samples", parents=[connection], help="a run's per-sample answers and outcomes")
    samples.add_argument("run_id", metavar="ID")
    samples.add_argument("--losses", action="store_true", help="only the losses (and fails)")
    add_json_option(samples)
    compare = sub.add_parser("compare", parents=[connection], help="two finished runs: A before, B after")
    compare.add_argument("before", metavar="A")
    compare.add_argument("after", metavar="B")
    add_json_option(compare)
    gate = sub.add_parser("gate", parents=[connection], help="a CI gate on a finished run (exit 0 pass)")
    gate.add_argument("run_id", metavar="ID")
    for name in GATE_THRESHOLDS:
        gate.add_argument("--" + name.replace("_", "-"), dest=name, type=unit_rate, metavar="X", help="0..1")
    gate.add_argument("--ties", choices=("half", "decided"), help="a tie is half a win (default) or left out")
    gate.add_argument("--model", help="check one arm only")
    gate.add_argument("--wait", type=float, default=0.0, metavar="SECONDS", help="poll until DONE, up to this long")
    add_json_option(gate)
    bakeoff_calibration.add_parsers(sub, connection)
    add_offline_parsers(sub)
    bakeoff_screen.add_parser(sub, connection)
    return parser


def _gate(
    connection: Connection,
    args: argparse.Namespace,
    thresholds: dict[str, float | None],
    out: TextIO,
    err: TextIO,
    block: Block,
    clock: Callable[[], float],
) -> int:
    """One GET (``--wait``: one every ``POLL_S`` until DONE or the time is up), no event loop."""
    deadline = clock() + max(0.0, args.wait)
    with BlockingGate(connection.base_url, connection.api_key, sleep=block) as gate:
        while True:
            status, verdict = gate.check(args.run_id, thresholds, ties=args.ties, model=args.model)
            if verdict.status in ("DONE", None) or verdict.status in wire.TERMINAL or clock() >= deadline:
                break
            wait = min(POLL_S, deadline - clock())
            err.write(f"run {clip(args.run_id, 60)} is {clip(verdict.status, 20)}; polling again in {wait:.0f} s\n")
            block(wait)
    if args.json:  # the queue's verdict as sent, and beside it the question each check asks
        print_json({**verdict.to_json(), "asks": show.gate_questions(verdict)}, out)
    else:
        show.print_gate(args.run_id, verdict, out)
    if verdict.status != "DONE":
        return EXIT_NOT_DONE
    if status == 200 and verdict.passed:
        return EXIT_OK
    if status == 412 and not verdict.passed and verdict.checks:
        return EXIT_FAILED
    err.write(
        f"{PROG}: the gate answered HTTP {status} with pass={verdict.passed} and "
        f"{plural(len(verdict.checks), 'check')}: not a verdict this command can act on\n"
    )
    return EXIT_UNREACHABLE


async def _dispatch(
    args: argparse.Namespace, connection: Connection, params: dict[str, Any], out: TextIO, err: TextIO, sleep: Sleep
) -> int:
    from api_client.errorbar.client import ErrorbarClient, wait_until_terminal

    async with ErrorbarClient(connection.base_url, connection.api_key, key_source=connection.key_description) as client:
        action = args.action
        if action == "list":
            runs = await client.list_runs()
            print_json([r.to_json() for r in runs], out) if args.json else show.print_runs(runs, out)
        elif action == "show":
            from application.bakeoffs.decision import decide, fetch_inputs
            from cli.bakeoff.readings import print_decision

            run = await client.get_run(args.run_id)
            decision = decide(await fetch_inputs(client, run.id, args.margin, run=run))
            if args.json:  # the queue's run as sent, and beside it the app's decision (the same as `verdict`)
                print_json({**run.to_json(), "app_decision": decision.to_json()}, out)
            else:
                show.print_run(run, out)
                print_decision(decision, out)
        elif action == "create":
            created = await run_create(client, args, params["body"], params["request"], params["stdin"], err)
            if created.settled:
                err.write(f"the answer was lost; the run list shows it was queued: {clip(created.run.id, 60)}\n")
            print_json(created.run.to_json(), out) if args.json else show.print_run(created.run, out)
        elif action == "watch" and args.stop_when_decided:
            from cli.bakeoff.stop import watch_and_stop

            try:
                await client.get_run(args.run_id)
            except NotFoundError as error:
                raise CommandError(
                    f"no run {clip(args.run_id, 60)} on this queue: {error_line(error)}", ExitCode.NOT_FOUND
                ) from None
            return await watch_and_stop(
                client,
                args.run_id,
                margin=args.margin,
                yes=args.yes,
                stdin=params["stdin"],
                out=out,
                err=err,
                sleep=sleep,
                progress=show.progress,
            )
        elif action == "watch":
            from cli.bakeoff.watch_line import WatchLine

            with WatchLine(args.run_id, err, params["clock"]) as line:
                run = await wait_until_terminal(client, args.run_id, sleep=sleep, on_poll=line.poll)
            show.print_run(run, out)
            return EXIT_OK if run.status == "DONE" else EXIT_FAILED
        elif action == "cancel":
            await client.cancel_run(args.run_id)
            run = await client.get_run(args.run_id)  # a slice in flight can still land it DONE
            out.write(f"{clip(run.id, 60)} is {clip(run.status or '?', 12)}\n")
        elif action == "samples":
            samples = await client.samples(args.run_id)
            if args.json:
                print_json([s.to_json() for s in samples], out)
            else:
                run = await client.get_run(args.run_id)  # its assertions name what each answer failed
                show.print_samples(samples, out, losses=args.losses, run=run)
        elif action == "screen":
            return await bakeoff_screen.run(
                client, params["body"], as_json=args.json, out=out, err=err, sleep=sleep, print_json=print_json
            )
        else:
            comparison = await client.compare(args.before, args.after)
            print_json(comparison.to_json(), out) if args.json else show.print_compare(comparison, out)
    return EXIT_OK


def bakeoff_main(
    argv: Sequence[str],
    *,
    given: argparse.Namespace | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    stdin: TextIO | None = None,
    env: dict[str, str] | None = None,
    sleep: Sleep | None = None,
    block: Block | None = None,
    clock: Callable[[], float] | None = None,
) -> int:
    """Run one `blah-tui bakeoff` command; the exit code (see the module docstring).
    ``sleep`` (watch, async), ``block`` (gate --wait) and ``clock``: real time by default;
    tests pass fakes."""
    out, err, stdin = out or sys.stdout, err or sys.stderr, stdin or sys.stdin
    env = dict(os.environ) if env is None else env
    args = parse_command(build_parser(), argv, given)
    if args.action in bakeoff_calibration.ACTIONS:
        from cli.bakeoff.calibration_verbs import run_verb  # imported only when one runs

        return run_verb(args, out=out, err=err, stdin=stdin, env=env, sleep=sleep)
    if args.action in OFFLINE_ACTIONS:
        return run_offline(args, out, err)
    params: dict[str, Any] = {}
    try:
        if args.action == "gate":
            thresholds = {name: getattr(args, name) for name in GATE_THRESHOLDS}
            if all(value is None for value in thresholds.values()):
                raise CommandError(
                    "no threshold: give at least one of --min-win-rate, --min-pass-rate, "
                    "--min-assertion-pass-rate, --noninferiority-margin; nothing was sent",
                    EXIT_USAGE,
                )
            gate_params(thresholds, ties=args.ties, model=args.model)
            params["thresholds"] = thresholds
        elif args.action == "create":
            params["body"], params["request"] = create_request(args)
            params["stdin"] = stdin
        elif args.action == "screen":
            params["body"] = bakeoff_screen.body_of(args)
        elif args.action == "watch":
            params["stdin"] = stdin
        connection = resolve(getattr(args, "base_url", None), getattr(args, "profile", None), env)
        if args.action == "screen":
            confirm(bakeoff_screen.question(params["body"]), args.yes, stdin, err)
        elif args.action == "cancel":
            confirm(f"cancel {clip(args.run_id, 60)}?", args.yes, stdin, err)
        if args.action == "gate":
            return _gate(connection, args, params["thresholds"], out, err, block or time.sleep, clock or time.monotonic)
        import asyncio

        params["clock"] = clock or time.monotonic
        return asyncio.run(_dispatch(args, connection, params, out, err, sleep or asyncio.sleep))
    except CommandError as error:
        return fail(PROG, str(error), error.code, err)
    except ConnectionError_ as error:
        return fail(PROG, error_line(error), EXIT_USAGE, err)
    except BlahError as error:
        return fail(PROG, error_line(error), exit_for(error), err)
    except KeyboardInterrupt:
        return fail(PROG, "interrupted", ExitCode.INTERRUPTED, err)


def run(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui [GLOBAL ...] bakeoff ...` (:mod:`cli.tree`): the options typed before the action
    are its defaults."""
    return bakeoff_main(argv, given=given)
