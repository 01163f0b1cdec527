"""The verbs of `blah-tui runs`, each through the application functions the Runs screens use
(``Runs``), and the confirmation a write needs before anything is sent."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TextIO

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import Run
from api_client.errors import BlahError, NotFoundError
from application.runs.blah.actions import WriteOutcome, cancel_run, resume_run, start_run
from application.runs.blah.follow import FollowUpdate, Sleep, follow_run
from application.runs.blah.listing import runs_of_model
from cli.blah.connection import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_STOPPED,
    EXIT_UNKNOWN,
    EXIT_UNREACHABLE,
    EXIT_USAGE,
    VerbError,
    confirm,
    describe,
    exit_for,
)
from cli.blah.runs.printing import eta_line, print_results, print_run, print_runs, result_json, run_json
from cli.exit_codes import ExitCode
from cli.output import print_json
from common.safe_strings import clip

RUN_EXIT = {"completed": EXIT_OK, "failed": EXIT_FAILED, "stalled": EXIT_STOPPED, "cancelled": EXIT_STOPPED}


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
            self.err.write(eta_line(update) + "\n")
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
        self.err.write(clip(outcome.message, 300) + "\n")
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


def confirm_write(args: argparse.Namespace, stdin: TextIO, err: TextIO) -> None:
    command = args.runs_command
    if command == "start":
        if args.eval:
            raise VerbError(
                "--eval cannot be honoured: the platform runs every eval on the chosen models "
                "(POST /runs takes model_ids only); nothing was sent",
                EXIT_USAGE,
            )
        models = ", ".join(clip(m, 60) for m in args.model)
        confirm(f"start a run of every eval on {models} (council tier)?", args.yes, stdin, err)
    elif command in ("resume", "cancel"):
        confirm(f"{command} run {clip(args.run_id, 60)}?", args.yes, stdin, err)
