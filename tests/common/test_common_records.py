"""The product's own records: frozen, slotted, a missing value None (never 0), and one id for a
rollout step wherever it is read as a call."""

from __future__ import annotations

import dataclasses

import pytest

from common.records import (
    CALL_FIELDS,
    BakeoffAnswer,
    Call,
    ChatTurn,
    Grade,
    Rollout,
    RolloutStep,
    ToolCall,
    answer_call,
    step_call,
    step_call_id,
    step_number,
)


@pytest.mark.parametrize(
    "record",
    [
        Call("c1"),
        ChatTurn("user"),
        ToolCall("search", {}, None, False),
        Grade(True, 1.0),
        BakeoffAnswer("m"),
        RolloutStep(0, None, None, None),
        Rollout("r", None, None, None, None, ()),
    ],
)
def test_every_record_is_frozen_and_slotted(record: object) -> None:
    assert not hasattr(record, "__dict__")
    first = dataclasses.fields(record)[0].name  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(record, first, "other")


def test_a_call_given_only_its_id_says_not_given_for_everything_else() -> None:
    call = Call("c1")
    assert all(getattr(call, name) is None for name in CALL_FIELDS if name != "id")
    assert call.failed is False
    assert Call("c2", error="boom").failed and not Call("c3", error="boom", response="").failed


def test_replace_changes_only_what_it_is_given() -> None:
    call = Call("c1", prompt="p", messages=(ChatTurn("user", "hi"),), response="r", created_at=5)
    changed = call.replace(response="cut")
    assert changed == Call("c1", prompt="p", messages=(ChatTurn("user", "hi"),), response="cut", created_at=5)
    assert call.response == "r"


def _rollout() -> Rollout:
    steps = (
        RolloutStep(
            4,
            1,
            "first prompt",
            None,
            model="m-step",
            prompt_tokens=9,
            tool_calls=(ToolCall("search", {"q": 1}, "ok", False),),
        ),
        RolloutStep(7, 2, "second prompt", "the answer", completion_tokens=3),
    )
    return Rollout(
        "job-r001", "task-1", 1.0, Grade(True, 1.0), "trace-1", steps, max_tokens=64, model="m-job", source="blobfish"
    )


def test_a_step_is_numbered_from_1_by_its_place_and_its_id_is_rollout_hash_number() -> None:
    rollout = _rollout()
    assert [step_number(rollout, s) for s in rollout.steps] == [1, 2]  # the platform's index (4, 7) is not shown
    assert step_call_id("job-r001", 2) == "job-r001#2"
    assert [step_call(rollout, s).id for s in rollout.steps] == ["job-r001#1", "job-r001#2"]


def test_a_step_read_as_a_call_keeps_what_was_recorded_and_invents_nothing() -> None:
    rollout = _rollout()
    tools, answer = (step_call(rollout, s, evaluation_id="ev-1") for s in rollout.steps)
    assert answer == Call(
        "job-r001#2",
        model_id="m-job",
        source="blobfish",
        created_at=None,
        prompt="second prompt",
        response="the answer",
        max_tokens=64,
        completion_tokens=3,
        eval_id="ev-1",
        run_id="job-r001",
        result_id="task-1",
    )
    assert tools.model_id == "m-step" and tools.response is None and tools.prompt_tokens == 9
    assert tools.finish_reason is None and tools.created_at is None and tools.latency_ms is None


def test_a_bakeoff_answer_read_as_a_call() -> None:
    cut = answer_call(
        "s1",
        BakeoffAnswer("cand", "yes", truncated=True, latency_ms=12),
        source="errorbar",
        prompt="q",
        max_tokens=256,
        created_at=None,
    )
    assert cut == Call(
        "s1",
        model_id="cand",
        source="errorbar",
        prompt="q",
        response="yes",
        latency_ms=12,
        max_tokens=256,
        finish_reason="length",
    )
    unknown = answer_call("s2", BakeoffAnswer(None), source="errorbar", prompt=None, max_tokens=None, created_at=None)
    assert unknown.finish_reason is None and unknown.model_id is None and unknown.response is None
