"""``BenchmarkClient``: Blobfish benchmark runs and the community board (contract sections 3-4).

    async with BenchmarkClient(base_url, api_key="bf_...") as client:
        started = await client.start_suite("counselbench-100", provider="xai", model="grok-4", suite="sample")

Writes (a run, a submission, a deletion) are sent once and never resent blindly. When a run's
answer is lost, the outcome is unknown: it is settled by reading the run list (a run that was not
there before is ours), so a lost answer starts one run, not two. The provider key travels in
that request's body only; it is not kept on the client, logged, or put into any error.
Polling a suite is :mod:`application.runs.bench.watch`'s job; this module reads one record at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from api_client.blobfish import shapes_bench as shapes
from api_client.blobfish.client import BlobfishClient
from api_client.errors import BlahError, ConflictError, NotFoundError, OutcomeUnknownError
from api_client.transport.request_members import given
from api_client.transport.url_paths import segment


class BenchRefusedLocally(BlahError, ValueError):
    """A request that breaks a documented limit; nothing was sent."""


class RunInProgressError(ConflictError):
    """409 ``run_in_progress``: one suite per account; ``run_id`` is the running one to follow."""

    def __init__(self, message: str, *, run_id: str | None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.run_id = run_id


class BoardRefusedError(BlahError):
    """A named refusal of a submission or deletion (``code``), in one plain sentence;
    ``community_run_id``: the existing row for ``already_submitted``."""

    def __init__(self, message: str, *, community_run_id: str | None = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.community_run_id = community_run_id


class RunNotStartedError(BlahError):
    """A run's answer was lost, and the run list shows no new run: it did not start."""


NOT_YOURS = "not yours, or not there: only the key that started a run can see, submit or delete it"
REFUSALS = {
    shapes.CODE_NOT_A_SUITE_RUN: "this is a single-task run (bmr_); only a suite run (bmrs_) can be published",
    shapes.CODE_SUITE_RUN_NOT_COMPLETED: "this suite run has not completed (it is still running, or it failed or "
    "was interrupted); only a completed suite run can be published",
    shapes.CODE_SUITE_RUN_NOT_GRADED: "no task of this suite run was graded, so there is nothing to publish",
    shapes.CODE_INVALID_SUBMISSION: f"the platform refused the submission: the display name is at most "
    f"{shapes.MAX_DISPLAY_NAME} characters and the notes at most {shapes.MAX_NOTES}",
}


def _already_submitted(bcr_id: str | None) -> str:
    where = f" as {bcr_id}" if bcr_id else ""
    return f"this suite run is already on the community board{where}; delete that row to submit it again"


@dataclass(frozen=True)
class StartedSuite:
    """A suite the POST started: its first record, where to poll, and how long to wait first."""

    record: shapes.SuiteRun
    location: str | None
    retry_after: float | None
    settled_from_list: bool = False
    """The POST's answer was lost; the run was found in the run list instead."""


def check_run_limits(max_steps: int | None, max_tasks: int | None) -> None:
    low, high = shapes.MAX_STEPS_RANGE
    if max_steps is not None and not low <= max_steps <= high:
        raise BenchRefusedLocally(f"max_steps is {low}-{high} (got {max_steps}); nothing was sent")
    low, high = shapes.MAX_TASKS_RANGE
    if max_tasks is not None and not low <= max_tasks <= high:
        raise BenchRefusedLocally(f"max_tasks is {low}-{high} (got {max_tasks}); nothing was sent")


def check_submission(display_name: str | None, notes: str | None) -> None:
    if display_name is not None and len(display_name) > shapes.MAX_DISPLAY_NAME:
        raise BenchRefusedLocally(
            f"the display name is {len(display_name)} characters; at most {shapes.MAX_DISPLAY_NAME}. Nothing was sent"
        )
    if notes is not None and len(notes) > shapes.MAX_NOTES:
        raise BenchRefusedLocally(
            f"the notes are {len(notes)} characters; at most {shapes.MAX_NOTES}. Nothing was sent"
        )


class BenchmarkClient(BlobfishClient):
    # ------------------------------------------------------------------ paths

    def _runs_path(self, slug: str) -> str:
        return f"{shapes.BENCHMARKS_PATH}/{segment(slug, what='benchmark slug')}/runs"

    def _run_path(self, slug: str, run_id: str) -> str:
        return f"{self._runs_path(slug)}/{segment(run_id, what='run id')}"

    def poll_path(self, slug: str, run_id: str, location: str | None) -> str:
        """The path to poll: the ``Location`` when it is on this origin, else the run's own path
        (the key is never sent to another origin)."""
        if location:
            url = httpx.URL(location)
            if not url.is_absolute_url:
                return url.path
            if str(url.copy_with(path="/", query=None, fragment=None)).rstrip("/") == self.base_url:
                return url.path
        return self._run_path(slug, run_id)

    # ------------------------------------------------------------------ runs

    def _body(
        self,
        provider: str,
        model: str,
        api_key: str | None,
        max_steps: int | None,
        suite: str | None = None,
        max_tasks: int | None = None,
    ) -> dict[str, Any]:
        return {
            "provider": provider,
            "model": model,
            **given(api_key=api_key or None, max_steps=max_steps, suite=suite, max_tasks=max_tasks),
        }

    async def list_runs(self, slug: str) -> shapes.RunList:
        """The caller's single runs and suite jobs for ``slug``, newest first."""
        return await self._http.request_json(
            "GET", self._runs_path(slug), shapes.RunList.model_validate, needs_key=True
        )

    async def get_run(self, slug: str, run_id: str) -> shapes.SingleRun | shapes.SuiteRun:
        try:
            return await self._http.request_json(
                "GET", self._run_path(slug, run_id), shapes.parse_single_or_suite, needs_key=True
            )
        except NotFoundError as error:
            raise NotFoundError(NOT_YOURS, status=404, code=error.code) from None

    async def poll_suite(self, path: str) -> shapes.SuiteRun:
        """One read of a suite's whole record at ``path`` (from :meth:`poll_path`)."""
        return await self._http.request_json("GET", path, shapes.SuiteRun.model_validate, needs_key=True)

    async def start_single(
        self, slug: str, *, provider: str, model: str, api_key: str | None = None, max_steps: int | None = None
    ) -> shapes.SingleRun:
        """The public sandbox task, inline (201 within about four minutes; this call waits five)."""
        check_run_limits(max_steps, None)
        path = self._runs_path(slug)
        self._http.require_key("POST", path)
        before = {run.run_id for run in (await self.list_runs(slug)).runs}
        try:
            return await self._http.request_json(
                "POST",
                path,
                shapes.SingleRun.model_validate,
                json=self._body(provider, model, api_key, max_steps),
                needs_key=True,
                deadline=shapes.SINGLE_RUN_DEADLINE_S,
            )
        except OutcomeUnknownError:
            after = (await self.list_runs(slug)).runs
            new = [run for run in after if run.run_id not in before and run.model in (None, model)]
            if new:
                return new[0]
            raise RunNotStartedError(
                "the run's answer was lost and the run list shows no new run: it may still be running "
                "(a single task takes up to four minutes); check `bench runs` before starting another"
            ) from None

    async def start_suite(
        self,
        slug: str,
        *,
        provider: str,
        model: str,
        suite: str,
        api_key: str | None = None,
        max_steps: int | None = None,
        max_tasks: int | None = None,
    ) -> StartedSuite:
        """Start a suite job (202). ``RunInProgressError`` naming the running one when the
        account already has one; a lost answer is settled by reading the run list."""
        check_run_limits(max_steps, max_tasks)
        path = self._runs_path(slug)
        self._http.require_key("POST", path)
        before = {run.run_id for run in (await self.list_runs(slug)).suite_runs}
        try:
            reply = await self._http.request(
                "POST",
                path,
                shapes.SuiteRun.model_validate,
                json=self._body(provider, model, api_key, max_steps, suite, max_tasks),
                needs_key=True,
            )
        except ConflictError as error:
            if error.code != shapes.CODE_RUN_IN_PROGRESS:
                raise
            running = error.named_run_id or await self._running_suite(slug)
            raise RunInProgressError(
                "a suite run is already in progress for this account" + (f": {running}" if running else ""),
                run_id=running,
                status=409,
                code=error.code,
            ) from None
        except OutcomeUnknownError:
            after = (await self.list_runs(slug)).suite_runs
            new = [run for run in after if run.run_id not in before]
            if new:
                return StartedSuite(new[0], None, None, settled_from_list=True)
            raise RunNotStartedError(
                "the suite's answer was lost and the run list shows no new suite run: "
                "nothing was started; run the command again"
            ) from None
        record: shapes.SuiteRun = reply.data
        return StartedSuite(record, reply.location, reply.retry_after)

    async def find_run(self, run_id: str, slugs: list[str]) -> tuple[str, shapes.SingleRun | shapes.SuiteRun] | None:
        """``run_id`` and the benchmark it runs on, looked for on each of ``slugs`` in turn (one
        suite runs per account, on any benchmark: a 409 on one names a run of another; the
        contract has no route from a run id to its benchmark). None: on none of them."""
        for slug in dict.fromkeys(slugs):
            try:
                return slug, await self.get_run(slug, run_id)
            except NotFoundError:
                continue
        return None

    async def _running_suite(self, slug: str) -> str | None:
        """When the 409's body names no ``run_id``: the suite in flight, found in the run list."""
        for run in (await self.list_runs(slug)).suite_runs:
            if not run.is_final:
                return run.run_id
        return None

    # ------------------------------------------------------------------ board

    def _board_path(self, slug: str) -> str:
        return f"{shapes.BENCHMARKS_PATH}/{segment(slug, what='benchmark slug')}/community"

    async def board(self, slug: str) -> shapes.Board:
        """The community board, best mean score first (public; with a key, ``mine`` is set)."""
        return await self._http.request_json(
            "GET", self._board_path(slug), shapes.Board.model_validate, needs_key=False
        )

    async def submit(
        self, slug: str, run_id: str, *, display_name: str | None = None, notes: str | None = None
    ) -> shapes.CommunityRow:
        """Publish a completed suite run once; each refusal a ``BoardRefusedError``."""
        check_submission(display_name, notes)
        body = {k: v for k, v in (("display_name", display_name), ("notes", notes)) if v is not None}
        try:
            return await self._http.request_json(
                "POST",
                f"{self._run_path(slug, run_id)}/submit",
                shapes.CommunityRow.model_validate,
                json=body,
                needs_key=True,
            )
        except NotFoundError as error:
            raise BoardRefusedError(NOT_YOURS, status=404, code=error.code) from None
        except BlahError as error:
            if error.code == shapes.CODE_ALREADY_SUBMITTED:
                existing = await self._my_row(slug, run_id)
                raise BoardRefusedError(
                    _already_submitted(existing), community_run_id=existing, status=error.status, code=error.code
                ) from None
            if error.code in REFUSALS:
                raise BoardRefusedError(REFUSALS[error.code], status=error.status, code=error.code) from None
            raise

    async def _my_row(self, slug: str, run_id: str) -> str | None:
        for row in (await self.board(slug)).community_runs:
            if row.run_id == run_id and row.mine:
                return row.community_run_id
        return None

    async def delete(self, slug: str, community_run_id: str) -> shapes.Deleted:
        path = f"{self._board_path(slug)}/{segment(community_run_id, what='community run id')}"
        try:
            return await self._http.request_json("DELETE", path, shapes.Deleted.model_validate, needs_key=True)
        except NotFoundError as error:
            raise BoardRefusedError(NOT_YOURS, status=404, code=error.code) from None
