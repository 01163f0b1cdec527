"""The Evaluations screens as a person uses them: find a failing rollout in the list (failed
only, sorted by tool-call loops), replay it step by step (n/p), see the tool-call loop, open
a step in the Inspector (the same one as a blah.dev call), export the rollout and the whole
evaluation as JSONL. Hostile text in a rollout stays inert on every screen."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.app import App

from api_client.blobfish.shapes import Summary
from api_client.blobfish.shapes_evidence import Evaluation, parse_evaluation
from application.session.context import AppContext
from tests.support.blobfish_world import StoreSource
from tests.support.hostile_payloads import HOSTILE, assert_inert, assert_segments_inert
from tests.support.waiting import wait_for
from tui.app import BlahApp, create_app
from tui.screens.evaluations.replay import ReplayScreen
from tui.screens.evaluations.replay_panels import GradePanel
from tui.screens.evaluations.rollouts import RolloutsScreen
from tui.screens.evaluations.screen import REBUILD_S, EvaluationsScreen
from tui.screens.evaluations.tables import EvaluationTable
from tui.screens.inspector.screen import InspectorScreen
from widgets.status_header import StatusHeader

SIZE = (160, 48)


def make_app(source: Any, start_mode: str = "evaluations") -> BlahApp:
    ctx = AppContext(
        model_id="m", blobfish=source, settings={"start_mode": start_mode, "timezone": "UTC", "persist_theme": False}
    )
    return create_app(ctx)


def text_of(app: App[Any]) -> str:
    return "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())


def diagnosed(app: App[Any]) -> bool:
    screen = app.screen
    return isinstance(screen, EvaluationsScreen) and screen.loaded and screen.diagnosed == len(screen.rows) > 0


async def test_open_a_failing_rollout_step_through_it_see_the_tool_loop_and_export_it(world: StoreSource) -> None:
    app = make_app(world)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: diagnosed(app), what="the evaluations, diagnosed")
        listing = app.screen
        assert isinstance(listing, EvaluationsScreen)
        everything = len(listing.shown)
        await pilot.press("f", "s", "s")  # failed only; sort: most failed, then most tool-call loops
        assert listing.sort == "tool_loops"
        assert "failed only" in text_of(app) and "most tool-call loops" in text_of(app)
        assert 0 < len(listing.shown) < everything
        top = listing.shown[0].diagnosis
        assert top is not None and top.failed_rollouts > 0 and top.tool_loop_rollouts > 0

        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RolloutsScreen), what="the rollouts")
        looping = next(i for i, d in enumerate(top.rollouts) if d.tool_loops and d.rollout.passed is False)
        await pilot.press(*["down"] * looping, "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), what="the replay")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        rollout = replay.diagnosis.rollout
        shown = text_of(app)
        assert rollout.rollout_id in shown
        assert "Replay shows the record: no tool call is run again." in shown
        assert "TLOOP" in shown and "The same tool call" in shown
        assert f"step 1 of {len(rollout.steps)}" in shown

        await pilot.press("n", "n")
        assert replay.position == 2 and f"step 3 of {len(rollout.steps)}" in text_of(app)
        await pilot.press("p")
        assert replay.position == 1 and f"step 2 of {len(rollout.steps)}" in text_of(app)

        await pilot.press("enter")  # the step in the Inspector, like any call
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, InspectorScreen) and app.screen.analysis is not None,
            what="the step in the inspector",
        )
        inspector = app.screen
        assert isinstance(inspector, InspectorScreen)
        assert inspector.log_id == f"{rollout.rollout_id}#2"  # step 2, as the replay counts it
        shown = text_of(app)
        assert "blobfish" in shown and rollout.rollout_id in shown
        assert "TLOOP" in shown  # the tool-call loop among the step's findings
        assert " ERR " not in shown  # a step that only called tools is not a failed call
        await pilot.press("n")  # the next step, in the inspector too
        await wait_for(pilot, lambda: inspector.log_id.endswith("#3"), what="next step")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is replay, what="back in the replay")
        assert replay.position == 2  # the replay follows where the inspector went

        await pilot.press("x")
        await wait_for(pilot, lambda: replay.exported is not None, what="the rollout exported")
        lines = [json.loads(line) for line in Path(replay.exported).read_text(encoding="utf-8").splitlines()]  # type: ignore[arg-type]
        assert [line["rollout_id"] for line in lines] == [rollout.rollout_id]  # its trace, as the platform's
        assert lines[0]["schema"] == "blobfish.trace.v1" and lines[0] == rollout.raw["trace"]
        first = replay.exported
        await pilot.press("X")
        await wait_for(pilot, lambda: replay.exported != first, what="the evaluation exported")
        lines = Path(replay.exported).read_text(encoding="utf-8").splitlines()  # type: ignore[arg-type]
        assert len(lines) == len(replay.evaluation.rollouts)


async def test_diagnoses_reach_the_list_a_few_rows_at_a_time_and_the_last_at_once(world: StoreSource) -> None:
    """A changed cell makes the table draw every row on screen again (~0.1 s at 45 rows): a
    redraw per diagnosis kept the screen slow to answer keys until the list was diagnosed."""
    app = make_app(world)
    async with app.run_test(size=SIZE) as pilot:
        table = app.screen.query_one("#ev-table", EvaluationTable)
        loop = asyncio.get_running_loop()
        calls: list[float] = []
        redraws = 0  # runs of calls with no turn of the event loop between them
        in_a_redraw = False
        update = table.update_evaluation

        def redraw_ends() -> None:
            nonlocal in_a_redraw
            in_a_redraw = False

        def recorded(row: Any, tz: Any, **marked: Any) -> None:
            nonlocal redraws, in_a_redraw
            if not in_a_redraw:
                redraws, in_a_redraw = redraws + 1, True
                loop.call_soon(redraw_ends)
            calls.append(loop.time())
            update(row, tz, **marked)

        table.update_evaluation = recorded  # type: ignore[method-assign]
        await wait_for(pilot, lambda: diagnosed(app), what="the evaluations, diagnosed")
        assert len(calls) >= 20
        assert redraws <= 2 + (calls[-1] - calls[0]) / REBUILD_S, (redraws, calls[-1] - calls[0])
        # and nothing is left waiting for the next redraw once the last diagnosis is in
        cells = [table.get_row_at(i) for i in range(table.row_count)]
        assert not [row for row in cells if any(cell.plain == "…" for cell in row)]


async def test_filters_by_task_model_and_reward(world: StoreSource) -> None:
    app = make_app(world)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: diagnosed(app), what="the evaluations, diagnosed")
        listing = app.screen
        assert isinstance(listing, EvaluationsScreen)
        await pilot.press("t")
        task = listing.filter.task
        assert task is not None and f"task {task}" in text_of(app)
        assert listing.shown and {row.taskset for row in listing.shown} == {task}
        await pilot.press("m")
        model = listing.filter.model
        assert model is not None and all(row.summary.model == model for row in listing.shown)
        await pilot.press("t", "r", "r", "r")  # next task; reward < 0.5
        assert listing.filter.reward == "below_half" and "reward < 0.5" in text_of(app)
        assert all(row.summary.mean_reward is not None and row.summary.mean_reward < 0.5 for row in listing.shown)


async def test_the_area_key_and_palette_entry_only_with_a_blobfish_client(world: StoreSource) -> None:
    app = make_app(world, start_mode="playground")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("E")
        await wait_for(pilot, lambda: isinstance(app.screen, EvaluationsScreen), what="E opens Evaluations")
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Go to Evaluations" in titles

    app = make_app(None, start_mode="playground")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("E")
        await pilot.pause(0.3)
        assert app.current_mode == "playground"
        assert "Go to Evaluations" not in [c.title for c in app.get_system_commands(app.screen)]
        assert "Areas" in text_of(app) and "E Areas" not in text_of(app)


def _hostile_detail(payload: str) -> dict[str, Any]:
    """One evaluation whose every platform string carries ``payload``."""
    grade = {
        "task_id": payload,
        "passed": False,
        "reward": 0.0,
        "explanation": payload,
        "assertions": [{"name": payload, "passed": False, "details": payload}],
        "failed_conditions": [payload],
        "advisory_conditions": [payload],
    }
    steps = [
        {"index": 0, "turn": 1, "prompt": payload},
        {
            "index": 1,
            "turn": 2,
            "prompt": payload,
            "final_answer": payload,
            "reward": 0.0,
            "grade": grade,
            "training_samples": [{"token_ids": [1, 2], "lineage": {"note": payload}}],
        },
    ]
    records = [
        {"type": "completion", "turn": 1, "model": payload},
        *[{"type": "tool", "turn": 1, "name": payload, "args": {"q": payload}, "result": payload}] * 3,
        {"type": "thinking", "turn": 2, "text": payload},
        {"type": "final", "turn": 2, "text": payload},
    ]
    rollout = {
        "rollout_id": "r-1",
        "task_id": payload,
        "reward": 0.0,
        "grade": grade,
        "trace_id": "t-1",
        "steps": steps,
    }
    envelope = {
        "schema": "blobfish.sdk-evaluation.v1",
        "traces": [{"schema": "blobfish.trace.v1", "trace_id": "t-1", "rollout_id": "r-1", "records": records}],
        "job": {
            "schema": "blobfish.job.v1",
            "job_id": "j-1",
            "status": "completed",
            "taskset": payload,
            "metadata": {"model": payload},
            "rollouts": [rollout],
        },
    }
    return {
        "evaluation_id": "ev-1",
        "job_id": "j-1",
        "created_at": "2026-11-18T10:00:00Z",
        "rollout_count": 1,
        "mean_reward": 0.0,
        "metadata": {"model": payload},
        "envelope": envelope,
    }


class OneEvaluation:
    platform = "blobfish"

    def __init__(self, detail: dict[str, Any]) -> None:
        self.detail = detail

    async def list_evaluations(self) -> list[Summary]:
        return [Summary.model_validate({k: v for k, v in self.detail.items() if k != "envelope"})]

    async def get_evaluation(self, evaluation_id: str) -> Evaluation:
        return parse_evaluation(self.detail)


def assert_frame_inert(app: App[Any]) -> None:
    console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=app.size.width)
    update = app.screen._compositor.render_full_update()
    assert_inert(update.render_segments(console), allow_cursor_position=True)
    for line in update.strips:
        for strip in line:
            assert_segments_inert(strip)


ALL_HOSTILE = " ".join(payload for name, payload in HOSTILE if name != "one-mb-line")


@pytest.mark.parametrize("payload", [ALL_HOSTILE, dict(HOSTILE)["one-mb-line"] + "END"], ids=["all", "one-mb-line"])
async def test_hostile_text_in_a_rollout_stays_inert_on_every_screen(payload: str) -> None:
    app = make_app(OneEvaluation(_hostile_detail(payload)))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: diagnosed(app), what="the hostile evaluation, diagnosed")
        assert_frame_inert(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RolloutsScreen), what="rollouts")
        assert_frame_inert(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), what="replay")
        assert_frame_inert(app)
        assert "TLOOP" in text_of(app)  # the three identical hostile calls are still a loop
        await pilot.press("n")
        assert_frame_inert(app)
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, InspectorScreen) and app.screen.analysis is not None,
            what="inspector",
            timeout=60,
        )
        assert_frame_inert(app)
        assert app.is_running  # no injected action ran (app.quit would have stopped it)


async def test_the_header_names_blobfish_not_the_blah_dev_session(world: StoreSource) -> None:
    app = make_app(world)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, EvaluationsScreen) and app.screen.loaded, what="the list")
        header = app.screen.query_one(StatusHeader)
        assert (header.platform, header.model_id, header.connection) == ("Blobfish", "every model", "connected")
        await pilot.press("1")  # a blah.dev area: its header names blah.dev again
        await wait_for(pilot, lambda: not isinstance(app.screen, EvaluationsScreen), what="Logs")
        assert app.screen.query_one(StatusHeader).platform != "Blobfish"


async def test_a_long_grade_is_cut_in_the_replay_and_whole_in_the_export() -> None:
    """A grader's 5,000-character explanation: the replay's grade panel shows the first 1,500
    characters and says how many more there are and where; `x` exports them all."""
    explanation = "because " + "x" * 4_988 + " TAIL"
    detail = _hostile_detail("plain")
    detail["envelope"]["job"]["rollouts"][0]["grade"]["explanation"] = explanation
    # the verifier's grade as the trace records it (what the platform's JSONL export carries)
    detail["envelope"]["traces"][0]["records"].append(
        {"type": "verify", "turn": 2, "grade": {"passed": False, "explanation": explanation}}
    )
    app = make_app(OneEvaluation(detail))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: diagnosed(app), what="the evaluation, diagnosed")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RolloutsScreen), what="rollouts")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), what="replay")
        replay = app.screen
        shown = str(replay.query_one("#rp-grade", GradePanel).render())
        assert "because xxx" in shown and "TAIL" not in shown
        assert "(3,501 more characters: x exports the whole rollout)" in shown
        await pilot.press("x")
        await wait_for(pilot, lambda: replay.exported is not None, what="the rollout exported")
        exported = json.loads(Path(replay.exported).read_text(encoding="utf-8").splitlines()[0])  # type: ignore[arg-type]
        verify = next(r for r in exported["records"] if r["type"] == "verify")
        assert verify["grade"]["explanation"] == explanation
