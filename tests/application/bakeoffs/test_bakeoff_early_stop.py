"""A bake-off watched until decided, against the queue simulator whose time the test moves:
a clearly better candidate is stopped before its last sample with exactly one cancel and a
saving said; one as good as the baseline runs to the end or stops as "noninferior", never as a
win; a run that ends while the cancel is on its way is reported as finished."""

from __future__ import annotations

from typing import Any

import pytest

from api_client.errorbar.client import ErrorbarClient
from application.bakeoffs.cost import MeasuredCosts
from application.bakeoffs.early_stop import per_sample_cost, saving_sentence, watch_until_decided
from simulator.errorbar.runs import PENDING_S, UNIT_S
from tests.support.errorbar import COMPARISON, queue_run, queue_server

CANCEL = "/v1/evals/{id}/cancel"


def _mover(server: Any, run_id: str, steps: int = 25):  # type: ignore[no-untyped-def]
    """A ``sleep`` that moves the run 1/steps of its way (the first call past PENDING too)."""
    store = server.store
    run = store.get(run_id)
    total = run.units * UNIT_S / store.speed

    async def sleep(_: float) -> None:
        run.started -= total / steps + (PENDING_S / store.speed if store.ratio(run) == 0 else 0)

    return sleep


def _body(baseline: str, candidate: str, samples: int = 200) -> dict[str, Any]:
    return {
        **COMPARISON,
        "baseline_model": baseline,
        "candidate_models": [candidate],
        "sample_count": samples,
        "assertions": [],
    }


async def test_a_clearly_better_candidate_is_stopped_early_with_one_cancel() -> None:
    with queue_server() as server:
        run = queue_run(server, _body("meta-llama/Llama-3.1-8B-Instruct", "anthropic/claude-sonnet-4"), finish=False)
        asked: list[str] = []

        async def confirm(readings: list[Any], saved: float | None) -> bool:
            asked.append(saving_sentence(readings, saved))
            return True

        costs = MeasuredCosts({"meta-llama/Llama-3.1-8B-Instruct": 10.0, "anthropic/claude-sonnet-4": 30.0}, {}, {})
        async with ErrorbarClient(server.base_url, api_key=server.admin_key) as client:
            got = await client.get_run(run["id"])
            costs.per_judge_call[got.judge_model or ""] = 5.0
            outcome = await watch_until_decided(
                client, run["id"], margin=None, sleep=_mover(server, run["id"]), confirm=confirm, costs=costs
            )
        assert outcome.ending == "stopped_early" and outcome.cancels_sent == 1
        assert server.requests.count("POST", CANCEL.format(id=run["id"])) == 1
        reading = outcome.readings[0]
        assert reading.settled == "win" and reading.read < reading.planned == 200
        assert reading.sentence().startswith(f"{reading.subject}: decided at {reading.read} of 200 samples: win")
        per_sample = 10.0 + 30.0 + 2 * 5.0
        assert outcome.saved == pytest.approx((200 - reading.read) * per_sample)
        assert asked == [saving_sentence(outcome.readings, outcome.saved)] and "saves about" in asked[0]
        assert outcome.run.status == "CANCELLED"


async def test_a_candidate_about_as_good_as_the_baseline_never_stops_as_a_win() -> None:
    with queue_server() as server:
        # The simulator's hidden qualities: 0.55 against 0.60 (the queue refuses a candidate that
        # is the baseline itself): within a 15-point margin, never better.
        run = queue_run(server, _body("Qwen/Qwen3-32B", "mistralai/Mistral-Small-24B", samples=120), finish=False)
        calls: list[str] = []

        async def confirm(readings: list[Any], saved: float | None) -> bool:
            calls.extend(r.settled for r in readings)
            return True

        async with ErrorbarClient(server.base_url, api_key=server.admin_key) as client:
            outcome = await watch_until_decided(
                client, run["id"], margin=0.15, sleep=_mover(server, run["id"]), confirm=confirm
            )
        assert "win" not in calls
        assert outcome.ending in ("finished", "stopped_early")
        if outcome.ending == "stopped_early":
            assert {r.settled for r in outcome.readings} == {"noninferior"}


async def test_a_run_that_ends_while_the_cancel_is_in_flight_is_finished() -> None:
    with queue_server() as server:
        run = queue_run(server, _body("meta-llama/Llama-3.1-8B-Instruct", "anthropic/claude-sonnet-4"), finish=False)

        async def confirm(readings: list[Any], saved: float | None) -> bool:
            server.finish(run["id"])  # the last slice lands before the cancel arrives
            return True

        async with ErrorbarClient(server.base_url, api_key=server.admin_key) as client:
            outcome = await watch_until_decided(
                client, run["id"], margin=None, sleep=_mover(server, run["id"]), confirm=confirm
            )
        assert outcome.ending == "finished" and outcome.cancels_sent == 1 and outcome.run.status == "DONE"
        assert server.requests.count("POST", CANCEL.format(id=run["id"])) == 1
        assert outcome.notes and "ended while the cancel was on its way" in outcome.notes[0]


def test_per_sample_cost_needs_every_part_measured() -> None:
    from api_client.errorbar.shapes import Run

    run = Run.model_validate(
        {
            "id": "r",
            "baseline_model": "b",
            "judge_model": "j",
            "eval_kind": "comparison",
            "arms": [{"key": "c", "model": "c", "n": 3}],
        }
    )
    assert per_sample_cost(run, MeasuredCosts({"b": 1.0, "c": 2.0}, {"j": 0.5}, {})) == 1.0 + 3 * 2.0 + 6 * 0.5
    assert per_sample_cost(run, MeasuredCosts({"b": 1.0}, {"j": 0.5}, {})) is None


def test_the_plan_gives_the_samples_to_a_decision_beside_the_fixed_n_figure() -> None:
    from application.bakeoffs.planning import early_decision_line, plan_lines, run_plan_lines
    from diagnosis.early_stop import expected_samples
    from diagnosis.planning import PlanQuestion, plan

    needed = expected_samples(400, 0.1)
    assert needed is not None and needed < 400
    assert early_decision_line(400, 0.1) == (
        f"stopping when decided: a candidate truly as good is shown noninferior "
        f"after about {needed} of 400 samples (anytime-valid; the fixed-n "
        "interval needs all 400)"
    )
    assert "not expected to be shown noninferior before the last of 40" in early_decision_line(40, 0.05)
    assert early_decision_line(400, 0.1) in run_plan_lines(400, 0.1, None, None)
    assert early_decision_line(400, 0.1) in plan_lines(plan(PlanQuestion(samples=400, margin=0.1)))
    assert not any("stopping when decided" in line for line in run_plan_lines(400, None, None, None))
