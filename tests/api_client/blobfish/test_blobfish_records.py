"""Blobfish's rollout and trace records read as the product's ``Rollout`` in one place
(``api_client.blobfish.shapes_evidence.parse_rollout``): what the records leave out stays None."""

from __future__ import annotations

from api_client.blobfish.shapes_evidence import PLATFORM, parse_rollout
from common.records import Call, Rollout, RolloutStep, ToolCall, step_call


def test_a_rollout_and_its_trace_become_the_common_types() -> None:
    trace = {
        "schema": "blobfish.trace.v1",
        "trace_id": "t1",
        "rollout_id": "job-r001",
        "records": [
            {
                "type": "completion",
                "turn": 1,
                "model": "m-step",
                "usage": {"prompt_tokens": 11, "completion_tokens": 5},
            },
            {"type": "tool", "turn": 1, "name": "search", "args": {"q": "x"}, "result": "Error: nothing"},
            {"type": "final", "turn": 2, "text": "done"},
        ],
    }
    data = {
        "rollout_id": "job-r001",
        "task_id": "t/1",
        "trace_id": "t1",
        "reward": 0.5,
        "steps": [
            {"index": 0, "turn": 1, "prompt": "p1"},
            {"index": 1, "turn": 2, "prompt": "p2", "final_answer": "done"},
        ],
    }
    rollout = parse_rollout(data, trace, "m-job")
    assert type(rollout) is Rollout and rollout.source == PLATFORM and rollout.grade is None
    first, second = rollout.steps
    assert type(first) is RolloutStep and first.tool_calls == (ToolCall("search", {"q": "x"}, "Error: nothing", True),)
    assert (first.model, first.prompt_tokens, first.completion_tokens) == ("m-step", 11, 5)
    assert step_call(rollout, second) == Call(
        "job-r001#2",
        model_id="m-job",
        source="blobfish",
        prompt="p2",
        response="done",
        run_id="job-r001",
        result_id="t/1",
    )


def test_what_the_records_leave_out_stays_none() -> None:
    rollout = parse_rollout({"rollout_id": "r", "steps": [{"prompt": "p"}]}, None)
    (step,) = rollout.steps
    assert (rollout.reward, rollout.task_id, rollout.max_tokens, rollout.model) == (None, None, None, None)
    assert (step.turn, step.final_answer, step.model, step.prompt_tokens, step.completion_tokens) == (None,) * 5
    assert step.training_samples is None and step.tool_calls == ()
    call = step_call(rollout, step)
    assert call.created_at is None and call.finish_reason is None and call.completion_tokens is None
