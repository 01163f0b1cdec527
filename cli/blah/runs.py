"""`blah-tui runs ...`: blah.dev eval runs from the shell (no Textual import).

    blah-tui runs list [--model M] [--json]
    blah-tui runs show RUN [--json]
    blah-tui runs results RUN [--json]
    blah-tui runs start --model M [--model M2 ...] [--watch] [--json] [--yes]
    blah-tui runs watch RUN [--json]
    blah-tui runs resume RUN [--watch] [--json] [--yes]
    blah-tui runs cancel RUN [--json] [--yes]

The same application functions as the Runs screens: ``application.runs.blah.actions`` for the three
writes (each sent once, confirmed on a terminal or by ``--yes``, a lost answer settled by a
read or said to be unknown), ``application.runs.blah.follow`` for the watch,
``application.runs.blah.judge_verdict`` for the judge's verdict, ``application.runs.blah.listing`` for a model's
runs. ``runs results`` prints each result's score and the judge's reasoning verbatim (made
inert): the ``reasoning`` of a JSON ``score_details`` with its criteria, or the whole text of a
plain one. Exit codes: see ``cli.blah.connection``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import Result, Run
from api_client.errors import BlahError, NotFoundError
from application.runs.blah.actions import WriteOutcome, cancel_run, resume_run, start_run
from application.runs.blah.follow import FollowUpdate, Sleep, follow_run
from application.runs.blah.judge_verdict import parse_judgement
from application.runs.blah.listing import runs_of_model
from cli.blah.connection import (
    EXIT_CODES_HELP,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_STOPPED,
    EXIT_UNKNOWN,
    EXIT_UNREACHABLE,
    EXIT_USAGE,
    GlobalOptions,
    VerbError,
    confirm,
    connection_parent,
    describe,
    exit_for,
    resolve,
    run_verb,
    when,
)
from cli.exit_codes import ExitCode
from cli.output import cell, number, print_json, table
from cli.parsing import OneLineParser
from common.format import DASH, plural
from common.plain_text import inert, one_line

PROG = "blah-tui runs"
PACE: dict[str, Sleep] = {"sleep": asyncio.sleep}
"""The watch's wait between polls (tests put a quicker one here)."""
RUN_EXIT = {"completed": EXIT_OK, "failed": EXIT_FAILED, "stalled": EXIT_STOPPED, "cancelled": EXIT_STOPPED}


def build_parser() -> argparse.ArgumentParser:
    connection = connection_parent()
    parser = OneLineParser(
        prog=PROG,
        description="blah.dev eval runs: list, show, results, start, watch, resume, cancel.",
        parents=[connection],
        epilog=EXIT_CODES_HELP,
    )
    sub = parser.add_subparsers(dest="runs_command", metavar="ACTION", required=True)

    listing = sub.add_parser("list", parents=[connection], help="every run, newest first")
    listing.add_argument("--model", metavar="M", help="only the runs this model took part in")
    listing.add_argument("--json", action="store_true", help="the runs as the platform sent them (a JSON array)")

    show = sub.add_parser("show", parents=[connection], help="one run: status, progress, times, error")
    show.add_argument("run_id", metavar="RUN")
    show.add_argument("--json", action="store_true")

    results = sub.add_parser(
        "results", parents=[connection], help="each result of a run: score and the judge's reasoning, verbatim"
    )
    results.add_argument("run_id", metavar="RUN")
    results.add_argument("--json", action="store_true")

    start = sub.add_parser(
        "start", parents=[connection], help="start a run of every eval on these models (council tier; sent once)"
    )
    start.add_argument("--model", metavar="M", action="append", required=True, help="a model (repeat for more)")
    start.add_argument(
        "--eval",
        metavar="E",
        action="append",
        help="refused: the platform runs every eval (POST /runs takes model_ids only)",
    )
    start.add_argument("--watch", action="store_true", help="follow the run to its end (exit code as `runs watch`)")
    start.add_argument("--json", action="store_true")
    start.add_argument("--yes", action="store_true", help="do not ask for confirmation")

    watch = sub.add_parser(
        "watch", parents=[connection], help="follow a run to its end: progress and ETA on stderr, the run on stdout"
    )
    watch.add_argument("run_id", metavar="RUN")
    watch.add_argument("--json", action="store_true")

    for name, what in (
        ("resume", "continue a stalled or failed run (council tier; sent once)"),
        ("cancel", "stop a queued or running run (council tier; sent once)"),
    ):
        verb = sub.add_parser(name, parents=[connection], help=what)
        verb.add_argument("run_id", metavar="RUN")
        if name == "resume":
            verb.add_argument("--watch", action="store_true", help="follow the run to its end")
        verb.add_argument("--json", action="store_true")
        verb.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    return parser


# ---------------------------------------------------------------------------- printing


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
    if not runs:
        out.write("no runs\n")
        return
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
    table(("run", "status", "progress", "models", "started (UTC)", "ended (UTC)", "error"), rows, out)


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
            out.write(f"error: {one_line(result.error, 300)}\n")
        judgement = parse_judgement(result)
        if judgement.parsed:
            out.write("judge (JSON):\n")
            if judgement.reasoning is not None:
                out.write(inert(judgement.reasoning, keep_newlines=True) + "\n")
            else:  # a JSON breakdown without a reasoning member we know: the details as sent
                out.write("(no reasoning member; the details as sent:)\n")
                out.write(inert(result.score_details or "", keep_newlines=True) + "\n")
            for row in judgement.criteria:
                shown = number(row.score) if row.score is not None else cell(row.value, 30)
                note = f" · {one_line(row.note, 200)}" if row.note else ""
                out.write(f"  {cell(row.name, 40)}: {shown}{note}\n")
            for key, value in judgement.fields:
                out.write(f"  {cell(key, 40)}: {one_line(value, 200)}\n")
        elif judgement.verbatim is not None:
            out.write("judge (plain text, as sent):\n")
            out.write(inert(judgement.verbatim, keep_newlines=True) + "\n")
        else:
            out.write("judge: the platform sent no score_details\n")


def _eta_line(update: FollowUpdate) -> str:
    if update.error is not None:
        retry = f"; trying again in {update.wait:.0f} s" if update.wait is not None else ""
        return f"poll failed ({one_line(update.error.message, 160)}){retry}"
    run = update.run
    assert run is not None
    eta = f" · {update.eta.describe()}" if update.eta is not None else ""
    nxt = f" · next poll in {update.wait:.0f} s" if update.wait is not None else ""
    return f"{cell(run.status, 12)} {progress_text(run)}{eta}{nxt}"


# ---------------------------------------------------------------------------- commands


class Runs:
    def __init__(
        self,
        client: BlahClient,
        args: argparse.Namespace,
        base_url: str,
        out: TextIO,
        err: TextIO,
        stdin: TextIO,
        sleep: Sleep,
        clock: Callable[[], float],
    ) -> None:
        self.client, self.args, self.base_url = client, args, base_url
        self.out, self.err, self.stdin, self.sleep, self.clock = out, err, stdin, sleep, clock

    def fail(self, error: BlahError, what: str | None = None) -> VerbError:
        return VerbError(describe(error, what=what, base_url=self.base_url), exit_for(error))

    async def get_run(self, run_id: str) -> Run:
        """``GET /runs/{id}``; on a 404 the run is looked for in ``GET /runs`` too (a service
        without the one-run route still lists it) before it is called unknown."""
        try:
            return await self.client.get_run(run_id)
        except NotFoundError as error:
            found = await self.listed_run(run_id)
            if found is None:
                raise self.fail(error, f"run {run_id!r}") from None
            return found
        except BlahError as error:
            raise self.fail(error, f"run {run_id!r}") from None

    async def listed_run(self, run_id: str) -> Run | None:
        try:
            return next((r for r in await self.client.list_runs() if r.id == run_id), None)
        except BlahError:
            return None

    async def list(self) -> int:
        try:
            runs = (
                await runs_of_model(self.client, self.args.model) if self.args.model else await self.client.list_runs()
            )
        except BlahError as error:
            raise self.fail(error, f"model {self.args.model!r}" if self.args.model else None) from None
        if self.args.model and not runs:  # no run of it, or no such model: say which
            try:
                await self.client.get_model(self.args.model)
            except NotFoundError as error:
                raise self.fail(error, f"model {self.args.model!r}") from None
            except BlahError:
                pass
        print_json([run_json(r) for r in runs], self.out) if self.args.json else print_runs(runs, self.out)
        return EXIT_OK

    async def show(self) -> int:
        run = await self.get_run(self.args.run_id)
        print_json(run_json(run), self.out) if self.args.json else print_run(run, self.out)
        return EXIT_OK

    async def results(self) -> int:
        run_id = self.args.run_id
        try:
            results = await self.client.run_results(run_id)
        except BlahError as error:
            raise self.fail(error, f"run {run_id!r}") from None
        # The run itself: a service may answer an unknown run's results with [] (then only the
        # run's own 404, and its absence from the list, say it is unknown).
        run = await self.get_run(run_id) if not results else await self._run_if_known(run_id)
        if self.args.json:
            print_json([result_json(r) for r in results], self.out)
        else:
            print_results(run or Run(id=run_id), results, self.out)
        return EXIT_OK

    async def _run_if_known(self, run_id: str) -> Run | None:
        try:
            return await self.client.get_run(run_id)
        except BlahError:
            return await self.listed_run(run_id)

    async def watch(self, run_id: str, first: Run | None = None) -> int:
        def show(update: FollowUpdate) -> None:
            if update.error is not None and update.wait is None:
                return  # the end: said once, by the error line
            self.err.write(_eta_line(update) + "\n")
            self.err.flush()

        async def read() -> Run:  # GET /runs/{id}, else the run as GET /runs lists it
            try:
                return await self.client.get_run(run_id)
            except NotFoundError:
                found = await self.listed_run(run_id)
                if found is None:
                    raise
                return found

        end = await follow_run(
            self.client, run_id, on_update=show, sleep=self.sleep, clock=self.clock, first=first, read=read
        )
        if end.kind == "error":
            assert end.error is not None
            error = self.fail(end.error, f"run {run_id!r}")
            if not isinstance(end.error, NotFoundError) and error.code == ExitCode.REFUSED:
                # transient errors until the follow gave up: the platform is not answering
                error = VerbError(f"gave up after repeated errors: {error}", EXIT_UNREACHABLE)
            raise error
        run = end.run
        assert run is not None
        print_json(run_json(run), self.out) if self.args.json else print_run(run, self.out)
        return RUN_EXIT.get(run.status or "", EXIT_FAILED)

    def outcome(self, outcome: WriteOutcome, *, then_watch: bool) -> int | None:
        """Say what a write did; the exit code when the command ends here (None: go on watching)."""
        if outcome.kind == "unknown":
            raise VerbError(outcome.message, EXIT_UNKNOWN)
        if not outcome.ok:
            raise VerbError(outcome.message, exit_for(outcome.error) if outcome.error is not None else ExitCode.REFUSED)
        self.err.write(one_line(outcome.message, 300) + "\n")
        if then_watch and outcome.run is not None:
            return None
        if outcome.run is not None:
            print_json(run_json(outcome.run), self.out) if self.args.json else print_run(outcome.run, self.out)
        return EXIT_OK

    async def start(self) -> int:
        try:
            known = {r.id for r in await self.client.list_runs()}
        except BlahError as error:
            raise self.fail(error) from None
        outcome = await start_run(self.client, self.args.model, known_run_ids=known, sleep=self.sleep)
        code = self.outcome(outcome, then_watch=self.args.watch)
        if code is not None:
            return code
        assert outcome.run is not None
        return await self.watch(outcome.run.id, first=outcome.run)

    async def resume(self) -> int:
        outcome = await resume_run(self.client, self.args.run_id)
        code = self.outcome(outcome, then_watch=self.args.watch)
        if code is not None:
            return code
        return await self.watch(self.args.run_id)

    async def cancel(self) -> int:
        return self.outcome(await cancel_run(self.client, self.args.run_id), then_watch=False) or EXIT_OK


def _confirm_write(args: argparse.Namespace, stdin: TextIO, err: TextIO) -> None:
    command = args.runs_command
    if command == "start":
        if args.eval:
            raise VerbError(
                "--eval cannot be honoured: the platform runs every eval on the chosen models "
                "(POST /runs takes model_ids only); nothing was sent",
                EXIT_USAGE,
            )
        models = ", ".join(one_line(m, 60) for m in args.model)
        confirm(f"start a run of every eval on {models} (council tier)?", args.yes, stdin, err)
    elif command in ("resume", "cancel"):
        confirm(f"{command} run {one_line(args.run_id, 60)}?", args.yes, stdin, err)


async def _dispatch(
    args: argparse.Namespace,
    base_url: str,
    api_key: str | None,
    out: TextIO,
    err: TextIO,
    stdin: TextIO,
    sleep: Sleep,
    clock: Callable[[], float],
) -> int:
    async with BlahClient(base_url, api_key=api_key) as client:
        runs = Runs(client, args, base_url, out, err, stdin, sleep, clock)
        command = args.runs_command
        if command == "watch":
            return await runs.watch(args.run_id)
        handler = {
            "list": runs.list,
            "show": runs.show,
            "results": runs.results,
            "start": runs.start,
            "resume": runs.resume,
            "cancel": runs.cancel,
        }[command]
        return await handler()


def runs_main(
    argv: Sequence[str],
    globals_: GlobalOptions | None = None,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
    stdin: TextIO | None = None,
    sleep: Sleep | None = None,
    clock: Callable[[], float] | None = None,
) -> int:
    """Run one `blah-tui runs` command; the exit code. ``sleep``/``clock``: the watch's pace."""
    out, err, stdin = out or sys.stdout, err or sys.stderr, stdin or sys.stdin
    args = build_parser().parse_args(list(argv))

    def body() -> int:
        connection = resolve(args, globals_ or GlobalOptions(), err)
        _confirm_write(args, stdin, err)
        return asyncio.run(
            _dispatch(
                args,
                connection.base_url,
                connection.api_key,
                out,
                err,
                stdin,
                sleep or PACE["sleep"],
                clock or time.monotonic,
            )
        )

    return run_verb(PROG, body, err)


def run(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui [GLOBAL ...] runs ...` (:mod:`cli.tree`)."""
    return runs_main(argv, GlobalOptions.of(given))
