"""Diagnosis of Blobfish rollouts against the simulator's seeded world: every seeded failure
kind is found, a healthy rollout yields nothing, and what was not recorded stays absent;
the list's filters and sorts; JSONL export verbatim and atomic."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from api_client.blobfish.shapes_evidence import Evaluation, RolloutStep, ToolCall, parse_evaluation
from application.evaluations.export import export_lines, write_jsonl
from application.evaluations.listing import EvaluationFilter, EvaluationRow, filter_rows, sort_rows
from diagnosis.rollouts import diagnose_evaluation, diagnose_rollout, find_tool_loops
from simulator.blobfish import shapes
from simulator.blobfish.seed import STEP_LIMIT
from tests.support.blobfish_world import StoreSource


@pytest.fixture(scope="module")
def world() -> StoreSource:
    return StoreSource()


def forced(world: StoreSource, outcome: str, which: int = 0) -> Evaluation:
    """The evaluation whose first rollouts were forced to ``outcome`` (which: the n-th such plan)."""
    from simulator.blobfish.seed import FORCED_PLANS, forced_index

    indexes = [i for i, plan in enumerate(FORCED_PLANS) if plan.forced == outcome]
    stored = world.store.account.evaluations[forced_index(indexes[which])]
    return parse_evaluation(shapes.detail(stored))


def test_a_tool_loop_is_found_with_its_steps_and_count(world: StoreSource) -> None:
    evaluation = forced(world, "tool_loop")  # web-research, qwen: the same search again and again
    diagnosis = diagnose_rollout(evaluation.rollouts[0])
    assert diagnosis.tool_loops, diagnosis.findings
    loop = diagnosis.tool_loops[0]
    assert loop.kind == "tool_loop"
    assert loop.detail["repeats"] >= 6
    assert loop.detail["last_step"] > loop.detail["first_step"]
    assert loop.detail["tool"] in loop.evidence
    # the steps of the loop carry it, the others do not
    first, last = loop.detail["first_step"], loop.detail["last_step"]
    for step in diagnosis.rollout.steps:
        assert (loop in diagnosis.findings_at(step.index)) == (first <= step.index <= last)


def test_a_failing_tool_loop_counts_its_failed_calls(world: StoreSource) -> None:
    evaluation = forced(world, "tool_loop", which=1)  # sql-agent, tinyagent: the same bad query
    diagnosis = diagnose_rollout(evaluation.rollouts[0])
    loop = diagnosis.tool_loops[0]
    assert loop.detail["failed"] == loop.detail["repeats"]
    assert diagnosis.failed_tool_calls >= loop.detail["repeats"]
    assert "tool_failures" in diagnosis.kinds


def test_truncation_and_empty_answers_are_found_by_classify_on_the_final_step(world: StoreSource) -> None:
    truncated = diagnose_rollout(forced(world, "truncated").rollouts[0])
    final = truncated.rollout.steps[-1]
    assert "truncation" in [f.kind for f in truncated.step_findings[final.index]]
    assert final.completion_tokens == truncated.rollout.max_tokens  # the seeded cut-off

    empty = diagnose_rollout(forced(world, "empty").rollouts[0])
    assert [f.kind for f in empty.step_findings[empty.rollout.steps[-1].index]][:1] == ["empty"]


def test_an_advisory_pass_reports_its_failed_tool_share(world: StoreSource) -> None:
    rollout = forced(world, "advisory").rollouts[0]  # repo-fix: "62/103 tool calls succeeded"
    diagnosis = diagnose_rollout(rollout)
    assert rollout.passed is True
    assert (diagnosis.failed_tool_calls, diagnosis.tool_calls) == (41, 103)
    assert diagnosis.failed_tool_share == pytest.approx(41 / 103)
    assert "62/103 tool calls succeeded" in rollout.grade.advisory_conditions  # type: ignore[union-attr]
    assert "wrong_answer" not in diagnosis.kinds  # it passed


def test_sandbox_tool_entries_without_a_turn_belong_to_the_step_before(world: StoreSource) -> None:
    rollout = forced(world, "advisory").rollouts[0]  # repo-fix ran in the sandbox
    trace = rollout.raw["trace"]
    assert any("turn" not in r and r.get("tool") for r in trace["records"])
    assert sum(len(step.tool_calls) for step in rollout.steps) == 103
    assert all(call.name for step in rollout.steps for call in step.tool_calls)


def test_an_ungraded_rollout_invents_nothing(world: StoreSource) -> None:
    rollout = forced(world, "ungraded").rollouts[0]
    assert rollout.grade is None and rollout.reward is None
    diagnosis = diagnose_rollout(rollout)
    assert "wrong_answer" not in diagnosis.kinds


def test_unrecorded_measurements_stay_absent(world: StoreSource) -> None:
    evaluation = forced(world, "tool_loop", which=1)  # tinyagent: no usage, ids+logprobs captured
    step = evaluation.rollouts[0].steps[0]
    assert step.completion_tokens is None and step.prompt_tokens is None  # not 0
    assert step.training_samples and step.training_samples[0].lineage is None
    assert step.training_samples[0].logprobs is not None
    api_model = forced(world, "advisory", which=1).rollouts[0].steps[0]  # gpt-4.1 captured nothing
    assert api_model.training_samples is None and api_model.reasoning_tokens is None


def test_every_seeded_failure_is_found_and_healthy_rollouts_yield_nothing(world: StoreSource) -> None:
    healthy = failing = 0
    for stored in world.store.account.evaluations:
        evaluation = parse_evaluation(shapes.detail(stored))
        for diagnosis in diagnose_evaluation(evaluation.rollouts).rollouts:
            rollout, grade = diagnosis.rollout, diagnosis.rollout.grade
            if grade is not None and grade.passed and not grade.advisory_conditions:
                healthy += 1
                assert diagnosis.findings == [], (rollout.rollout_id, diagnosis.findings)
            elif grade is not None and not grade.passed:
                failing += 1
                assert diagnosis.findings, rollout.rollout_id  # every failed rollout is explained
                if any(c.startswith(f"no final answer: step limit ({STEP_LIMIT})") for c in grade.failed_conditions):
                    assert diagnosis.tool_loops, rollout.rollout_id
                if "final answer is empty" in grade.failed_conditions:
                    assert "empty" in diagnosis.kinds, rollout.rollout_id
            elif grade is not None:  # passed with advisory conditions: tool calls failed
                assert "tool_failures" in diagnosis.kinds, rollout.rollout_id
    assert healthy > 100 and failing > 100


def _step(index: int, *calls: tuple[str, Any]) -> RolloutStep:
    return RolloutStep(index, index + 1, "p", None, tool_calls=tuple(ToolCall(n, a, None, False) for n, a in calls))


def test_tool_loop_needs_the_same_tool_and_arguments_in_a_row() -> None:
    same = ("search", {"q": "x", "page": 1})
    reordered = ("search", {"page": 1, "q": "x"})  # the same arguments, another key order
    steps = [_step(0, same), _step(1, reordered), _step(2, same, ("fetch", {"url": "u"}))]
    [loop] = find_tool_loops(steps)
    assert (loop.detail["repeats"], loop.detail["first_step"], loop.detail["last_step"]) == (3, 0, 2)
    assert find_tool_loops([_step(0, same), _step(1, ("search", {"q": "y"})), _step(2, same)]) == []
    assert find_tool_loops([_step(0, same), _step(1, same)]) == []  # twice is not a loop


def _rows(world: StoreSource) -> list[EvaluationRow]:
    rows = []
    for stored in world.store.account.evaluations[-30:]:
        evaluation = parse_evaluation(shapes.detail(stored))
        rows.append(EvaluationRow(evaluation.summary, evaluation, diagnose_evaluation(evaluation.rollouts)))
    return rows


def test_filters_and_sorts(world: StoreSource) -> None:
    rows = _rows(world)
    failed = filter_rows(rows, EvaluationFilter(failed_only=True))
    assert failed and all(r.diagnosis.failed_rollouts > 0 for r in failed)  # type: ignore[union-attr]
    assert len(failed) < len(rows)
    task = rows[0].taskset
    assert {r.taskset for r in filter_rows(rows, EvaluationFilter(task=task))} == {task}
    low = filter_rows(rows, EvaluationFilter(reward="below_half"))
    assert all(r.summary.mean_reward is not None and r.summary.mean_reward < 0.5 for r in low)
    by_loops = sort_rows(rows, "tool_loops")
    counts = [r.diagnosis.tool_loop_rollouts for r in by_loops]  # type: ignore[union-attr]
    assert counts == sorted(counts, reverse=True) and counts[0] > 0
    shares = [r.diagnosis.failed_tool_share for r in sort_rows(rows, "failed_tools")]  # type: ignore[union-attr]
    known = [s for s in shares if s is not None]
    assert known == sorted(known, reverse=True) and shares[: len(known)] == known  # no tool calls: last
    newest = sort_rows(rows, "newest")
    assert [r.summary.created_at for r in newest] == sorted((r.summary.created_at for r in rows), reverse=True)


def test_export_is_verbatim_and_leaves_nothing_on_failure(world: StoreSource, tmp_path: Path) -> None:
    evaluation = forced(world, "tool_loop")
    path = tmp_path / "out" / "all.jsonl"
    assert write_jsonl(path, export_lines(evaluation)) == len(evaluation.rollouts)
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    envelope = world.store.get(world.store.account, evaluation.evaluation_id)["envelope"]  # type: ignore[index]
    assert lines == envelope["traces"]  # the platform's format: each trace as published, in order
    assert lines[0]["trace_id"] == envelope["job"]["rollouts"][0]["trace_id"]
    assert {line["schema"] for line in lines} == {"blobfish.trace.v1"}

    def broken() -> Any:
        yield "{}\n"
        raise OSError("disk full")

    target = tmp_path / "out" / "broken.jsonl"
    with pytest.raises(OSError):
        write_jsonl(target, broken())
    assert sorted(p.name for p in target.parent.iterdir()) == ["all.jsonl"]
