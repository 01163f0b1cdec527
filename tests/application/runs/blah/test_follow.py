"""Following a run from the shell (``blah-tui runs watch``): the CLI's loop is the app's one
Poller, so a record already read is not read again, each update carries the wait before the
next read, a passing error is retried, a run that stays unreachable ends the follow, and a
refused key ends it at once."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

from api_client.blahdev.shapes import Run
from api_client.errors import AuthError, BlahError, ServerError, UnreachableError
from application.runs.blah.follow import FollowUpdate, follow_run


def run(status: str, done: int) -> Run:
    return Run(id="run_1", status=status, total_evals=5, total_models=2, completed_count=done)


def follow(
    reads: list[Run | BlahError], *, first: Run | None = None, max_errors: int = 5
) -> tuple[object, list[FollowUpdate], list[float], int]:
    answers: Iterator[Run | BlahError] = iter(reads)
    updates: list[FollowUpdate] = []
    slept: list[float] = []
    calls = {"reads": 0}
    clock = iter(range(0, 10_000, 10))

    async def read() -> Run:
        calls["reads"] += 1
        answer = next(answers)
        if isinstance(answer, BlahError):
            raise answer
        return answer

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    end = asyncio.run(
        follow_run(
            None,
            "run_1",
            on_update=updates.append,
            read=read,
            sleep=sleep,  # type: ignore[arg-type]
            clock=lambda: float(next(clock)),
            first=first,
            max_errors=max_errors,
            interval=2.0,
            max_interval=15.0,
        )
    )
    return end, updates, slept, calls["reads"]


def test_a_run_followed_to_completion_through_a_passing_error_says_each_wait() -> None:
    end, updates, slept, reads = follow(
        [run("running", 4), ServerError("503 from the platform", status=503), run("running", 6), run("completed", 10)],
        first=run("running", 2),
    )
    assert end.kind == "ended" and end.run.status == "completed"  # type: ignore[attr-defined]
    assert reads == 4  # the record already read is not read again
    assert [u.run.completed_count if u.run else None for u in updates] == [2, 4, 4, 6, 10]
    assert updates[2].error is not None and updates[2].wait == slept[2]
    assert [u.wait for u in updates if u.error is None][:-1] == [slept[0], slept[1], slept[3]]
    assert updates[-1].wait is None and updates[-1].eta is not None


def test_a_run_that_stays_unreachable_ends_the_follow_after_max_errors() -> None:
    down = [UnreachableError("cannot reach the platform") for _ in range(3)]
    end, updates, slept, reads = follow([run("running", 1), *down], max_errors=3)
    assert end.kind == "error" and isinstance(end.error, UnreachableError)  # type: ignore[attr-defined]
    assert reads == 4 and len(slept) == 3  # one wait after the read, two before retries
    assert updates[-1].wait is None and updates[-1].run is not None


def test_a_refused_key_ends_the_follow_at_once() -> None:
    end, updates, slept, reads = follow([AuthError("key refused", status=401), run("running", 1)])
    assert end.kind == "error" and reads == 1 and slept == []  # type: ignore[attr-defined]
    assert end.run is None and updates[-1].error is not None  # type: ignore[attr-defined]
