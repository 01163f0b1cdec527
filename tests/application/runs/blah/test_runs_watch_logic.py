"""Unit tests of the run watch (application/runs/: eta, events, progress), with a fake clock.

The waits between polls are the shared poller's: tests/application/test_poller.py."""

from __future__ import annotations

import pytest

from api_client.blahdev.shapes import Result, Run
from application.runs.blah.events import RunWatch
from application.runs.blah.progress import eval_progress
from application.runs.eta import EtaEstimator
from common.format import format_duration


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def run(status: str = "running", done: int | None = 0, evals: int | None = 10, models: int | None = 2) -> Run:
    return Run(id="run_1", status=status, completed_count=done, total_evals=evals, total_models=models)


def test_estimating_until_enough_points_and_span() -> None:
    est = EtaEstimator(min_points=3, min_span_s=3.0)
    assert est.estimate(20).describe() == "estimating…"
    est.add(0.0, 0)
    est.add(1.0, 2)
    eta = est.estimate(20)
    assert eta.phase == "estimating" and eta.seconds_left is None
    est.add(2.0, 4)  # 3 points but only 2 s of span
    assert est.estimate(20).phase == "estimating"
    est.add(4.0, 8)
    eta = est.estimate(20)
    assert eta.phase == "eta"
    assert eta.rate_per_s == pytest.approx(2.0)
    assert eta.remaining == 12
    assert eta.seconds_left == pytest.approx(6.0)
    assert "ETA 6s" in eta.describe()


def test_rate_uses_recent_window_not_whole_history() -> None:
    est = EtaEstimator(window_s=10.0, min_items=1)
    # slow start: 1 item per 10 s for 100 s ...
    for i in range(11):
        est.add(i * 10.0, i)
    # ... then 5 items/s for 10 s
    for j in range(1, 11):
        est.add(100.0 + j, 10 + 5 * j)
    eta = est.estimate(1000)
    assert eta.rate_per_s == pytest.approx(5.0)
    assert eta.window_s == pytest.approx(10.0)


def test_slow_run_window_extends_to_last_completions() -> None:
    est = EtaEstimator(window_s=10.0, min_items=3)
    # one item every 20 s: a 10 s window alone would hold at most one completion
    for i in range(6):
        est.add(i * 20.0, i)
        est.add(i * 20.0 + 5, i)
    eta = est.estimate(10)
    assert eta.phase == "eta"
    # from the sample where the 3rd-last completion was first seen (t=45, count 2) to now (t=105, 5)
    assert eta.rate_per_s == pytest.approx(3 / 60)


def test_no_progress_is_said_not_an_infinite_eta() -> None:
    est = EtaEstimator(window_s=10.0)
    for i in range(6):
        est.add(float(i * 2), 5)
    eta = est.estimate(10)
    assert eta.phase == "no_progress"
    assert eta.seconds_left is None
    assert eta.describe() == "no progress for 10s"


def test_quiet_run_stops_showing_stale_eta() -> None:
    est = EtaEstimator(window_s=10.0, min_items=1)
    for i in range(10):
        est.add(float(i), i)  # 1 item/s
    assert est.estimate(100).phase == "eta"
    est.add(30.0, 9)  # 21 s without a completion, far longer than the usual 1 s gap
    assert est.estimate(100).phase == "no_progress"


def test_unknown_total_gives_rate_without_eta() -> None:
    est = EtaEstimator()
    for i in range(5):
        est.add(float(i), i * 3)
    eta = est.estimate(None)
    assert eta.phase == "no_total"
    assert eta.seconds_left is None
    assert "no ETA" in eta.describe()


def test_done_keeps_the_rate_it_measured() -> None:
    est = EtaEstimator()
    for i in range(6):
        est.add(float(i), i * 2)
    eta = est.estimate(10)
    assert eta.phase == "done" and eta.seconds_left == 0.0
    assert eta.rate_per_s == pytest.approx(2.0)


def test_done_and_count_going_back_resets() -> None:
    est = EtaEstimator()
    est.add(0.0, 3)
    assert est.estimate(3).phase == "done"
    est.add(1.0, 1)  # went back: another run / a reset
    assert est.points == 1


def test_watch_reports_each_transition_once() -> None:
    clock = FakeClock()
    watch = RunWatch("run_1", clock=clock)
    events, _ = watch.observe(run("running", 0))
    assert events == []
    clock.now += 2
    events, moved = watch.observe(run("running", 5))
    assert events == [] and moved
    clock.now += 2
    events, moved = watch.observe(run("running", 5))
    assert events == [] and not moved  # nothing new: the poller slows down
    clock.now += 2
    events, _ = watch.observe(run("completed", 20))
    assert [e.kind for e in events] == ["ended"]
    assert events[0].status == "completed" and events[0].severity == "information"
    assert "20 of 20 items" in events[0].message
    clock.now += 2
    events, _ = watch.observe(run("completed", 20))
    assert events == []
    assert not watch.active


def test_watch_of_finished_run_is_not_news_and_failure_says_why() -> None:
    clock = FakeClock()
    watch = RunWatch("run_1", clock=clock)
    assert watch.observe(run("failed", 3))[0] == []
    clock.now += 1
    events, _ = watch.observe(run("running", 3))
    assert [e.kind for e in events] == ["resumed"]
    clock.now += 1
    failed = Run(id="run_1", status="failed", completed_count=4, total_evals=10, total_models=1, error="judge down")
    events, _ = watch.observe(failed)
    assert events[0].severity == "error"
    assert "judge down" in events[0].message


def test_watch_says_once_when_a_running_run_stops_moving() -> None:
    clock = FakeClock()
    watch = RunWatch("run_1", clock=clock, stall_after_s=30.0, estimator=EtaEstimator(window_s=10.0))
    watch.observe(run("running", 1))
    said = []
    for _ in range(30):
        clock.now += 2
        events, _ = watch.observe(run("running", 2))
        said.extend(events)
    assert [e.kind for e in said] == ["no_progress"]
    assert "still says running" in said[0].message


def test_eval_progress_groups_and_never_invents_a_score() -> None:
    results = [
        Result(id="a", eval_id="e1", model_id="m1", score=1.0, created_at=5),
        Result(id="b", eval_id="e1", model_id="m2", score=None, error="timeout", created_at=9),
        Result(id="c", eval_id="e2", model_id="m1", score=None),
    ]
    rows = {p.eval_id: p for p in eval_progress(results, eval_order=["e0", "e1", "e2"])}
    assert list(rows) == ["e0", "e1", "e2"]
    assert rows["e0"].results == 0 and rows["e0"].mean_score is None
    assert rows["e1"].mean_score == 1.0 and rows["e1"].errors == 1 and rows["e1"].models == 2
    assert rows["e1"].last_at == 9
    assert rows["e2"].mean_score is None
    assert rows["e1"].status(2, "completed") == "done"
    assert rows["e1"].status(2, "running") == "landing"


def test_format_duration() -> None:
    assert format_duration(None) == "—"
    assert format_duration(42) == "42s"
    assert format_duration(185) == "3m 05s"
    assert format_duration(3720) == "1h 02m"


class FakeApp:
    def __init__(self) -> None:
        self.notes: list[tuple[str, str, bool]] = []
        self.bells = 0

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: str = "information",
        markup: bool = True,
        timeout: float | None = None,
    ) -> None:
        self.notes.append((message, severity, markup))

    def bell(self) -> None:
        self.bells += 1


def test_notifier_tells_each_end_once_and_again_after_a_resume() -> None:
    import time

    from tui.run_watch import RunEnd, RunNotifier

    app = FakeApp()
    notifier = RunNotifier()
    asked_before = time.monotonic()
    assert notifier.announce(app, RunEnd("r1", "Run", "stalled", "Run r1 stalled\x1b[2J", "warning"), bell=True)  # type: ignore[arg-type]
    assert not notifier.announce(app, RunEnd("r1", "Run", "stalled", "again", "warning"), bell=True)  # type: ignore[arg-type]
    # a list answer older than the announcement does not make it news again
    notifier.note_status("r1", "running", seen_at=asked_before)
    assert not notifier.announce(app, RunEnd("r1", "Run", "stalled", "again", "warning"), bell=True)  # type: ignore[arg-type]
    notifier.note_status("r1", "running")
    assert notifier.announce(app, RunEnd("r1", "Run", "stalled", "stalled again", "warning"), bell=False)  # type: ignore[arg-type]
    assert app.bells == 1
    assert [n[0] for n in app.notes] == ["Run r1 stalled^[[2J", "stalled again"]
    assert all(markup is False for _m, _s, markup in app.notes)
