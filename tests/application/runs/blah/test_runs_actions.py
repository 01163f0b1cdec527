"""Unit tests of application/runs/blah/actions.py with a scripted fake client (no network)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from api_client.blahdev.shapes import Run, RunStarted
from api_client.errors import (
    AuthError,
    ConflictError,
    MissingKeyError,
    OutcomeUnknownError,
    ServerError,
    UnreachableError,
)
from application.runs.blah.actions import cancel_run, explain_refusal, resume_run, start_run


class FakeClient:
    """Answers from scripted values; an Exception value is raised. Records every call."""

    def __init__(self, **answers: Any) -> None:
        self.answers = dict(answers)
        self.calls: list[tuple[str, Any]] = []

    def _answer(self, name: str) -> Any:
        value = self.answers[name]
        if isinstance(value, BaseException):
            raise value
        return value

    async def start_run(self, model_ids: list[str]) -> RunStarted:
        self.calls.append(("start_run", model_ids))
        return self._answer("start_run")

    async def list_runs(self) -> list[Run]:
        self.calls.append(("list_runs", None))
        seq = self.answers.get("list_runs_seq")
        if seq:
            value = seq.pop(0)
            if isinstance(value, BaseException):
                raise value
            return value
        return self._answer("list_runs")

    async def get_run(self, run_id: str) -> Run:
        self.calls.append(("get_run", run_id))
        return self._answer("get_run")

    async def resume_run(self, run_id: str) -> Run:
        self.calls.append(("resume_run", run_id))
        return self._answer("resume_run")

    async def cancel_run(self, run_id: str) -> Run:
        self.calls.append(("cancel_run", run_id))
        return self._answer("cancel_run")

    def count(self, name: str) -> int:
        return sum(1 for call, _ in self.calls if call == name)


async def no_sleep(_seconds: float) -> None:
    return None


def run(run_id: str, status: str = "queued", model_ids: Sequence[str] | None = ("me",)) -> Run:
    return Run(id=run_id, status=status, model_ids=list(model_ids) if model_ids is not None else None)


TIMEOUT = OutcomeUnknownError("timed out", method="POST", path="/api/v1/runs")


async def test_start_returns_the_new_run() -> None:
    client = FakeClient(start_run=RunStarted(run=run("r9")))
    outcome = await start_run(client, ["me"], known_run_ids={"r1"})  # type: ignore[arg-type]
    assert outcome.kind == "done" and outcome.ok and outcome.run is not None and outcome.run.id == "r9"
    assert client.count("start_run") == 1 and client.count("list_runs") == 0


async def test_older_message_form_finds_the_run_in_the_list() -> None:
    client = FakeClient(start_run=RunStarted(message="Run queued"), list_runs=[run("r9"), run("r1")])
    outcome = await start_run(client, ["me"], known_run_ids={"r1"})  # type: ignore[arg-type]
    assert outcome.ok and outcome.run is not None and outcome.run.id == "r9"
    assert "Run queued" in outcome.message


async def test_timeout_then_the_run_appears_confirms_without_resending() -> None:
    client = FakeClient(start_run=TIMEOUT, list_runs_seq=[[run("r1")], [run("r9"), run("r1")]])
    outcome = await start_run(client, ["me"], known_run_ids={"r1"}, sleep=no_sleep)  # type: ignore[arg-type]
    assert outcome.kind == "confirmed_after_timeout" and outcome.ok
    assert outcome.run is not None and outcome.run.id == "r9"
    assert client.count("start_run") == 1 and client.count("list_runs") == 2


async def test_timeout_and_nothing_new_stays_unknown() -> None:
    # a new run with OTHER models is not ours
    client = FakeClient(start_run=TIMEOUT, list_runs=[run("r7", model_ids=["peer"]), run("r1")])
    outcome = await start_run(client, ["me"], known_run_ids={"r1"}, confirm_attempts=3, sleep=no_sleep)  # type: ignore[arg-type]
    assert outcome.kind == "unknown" and not outcome.ok and outcome.severity == "warning"
    assert "Outcome unknown" in outcome.message and "not sent again" in outcome.message
    assert client.count("start_run") == 1 and client.count("list_runs") == 3


async def test_timeout_and_the_check_fails_says_both() -> None:
    client = FakeClient(start_run=TIMEOUT, list_runs=UnreachableError("connection refused"))
    outcome = await start_run(client, ["me"], known_run_ids=set(), confirm_attempts=2, sleep=no_sleep)  # type: ignore[arg-type]
    assert outcome.kind == "unknown"
    assert "checking the runs list failed too" in outcome.message
    assert client.count("start_run") == 1


@pytest.mark.parametrize(
    ("error", "needle"),
    [
        (AuthError("forbidden", status=403, server_error="council tier required"), "needs council tier"),
        (AuthError("bad key", status=401), "did not accept the API key"),
        (MissingKeyError("no key"), "none is configured"),
    ],
)
async def test_start_refusals_are_plain(error: Exception, needle: str) -> None:
    client = FakeClient(start_run=error)
    outcome = await start_run(client, ["me"], known_run_ids=set())  # type: ignore[arg-type]
    assert outcome.kind == "refused" and needle in outcome.message
    assert client.count("list_runs") == 0


async def test_resume_409_explained_and_cancel_409_explained() -> None:
    conflict = ConflictError("conflict", status=409, server_error="run is completed")
    client = FakeClient(resume_run=conflict, cancel_run=conflict)
    resumed = await resume_run(client, "r1")  # type: ignore[arg-type]
    cancelled = await cancel_run(client, "r1")  # type: ignore[arg-type]
    assert resumed.kind == cancelled.kind == "refused"
    assert "not stalled or failed" in resumed.message and "run is completed" in resumed.message
    assert "not running or queued" in cancelled.message


async def test_resume_timeout_checked_by_get() -> None:
    client = FakeClient(resume_run=TIMEOUT, get_run=run("r1", status="running"))
    outcome = await resume_run(client, "r1")  # type: ignore[arg-type]
    assert outcome.kind == "confirmed_after_timeout" and outcome.ok
    client = FakeClient(cancel_run=TIMEOUT, get_run=run("r1", status="running"))
    outcome = await cancel_run(client, "r1")  # type: ignore[arg-type]
    assert outcome.kind == "unknown" and "still running" in outcome.message
    assert client.count("cancel_run") == 1


async def test_server_error_is_a_failure_not_a_refusal() -> None:
    client = FakeClient(cancel_run=ServerError("boom", status=502))
    outcome = await cancel_run(client, "r1")  # type: ignore[arg-type]
    assert outcome.kind == "failed" and outcome.severity == "error"
    assert "HTTP 502" in outcome.message


def test_explain_refusal_never_shows_raw_control_characters() -> None:
    error = ConflictError("x", status=409, server_error="run \x1b]52;c;SGVsbG8=\x07 is done")
    text = explain_refusal("resume", error)
    assert "\x1b" not in text and "\x07" not in text
