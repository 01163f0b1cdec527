"""Unit tests of application/runs/blah/judge_verdict.py: reading score_details, doubting verdicts."""

from __future__ import annotations

import json

import pytest

from api_client.blahdev.shapes import Result
from application.runs.blah.judge_verdict import judgement_doubts, parse_judgement
from simulator.blahdev.snapshot import seeded_world
from tui.screens.runs.results import sort_results


def result(rid: str = "r1", **fields: object) -> Result:
    return Result.model_validate({"id": rid, **fields})


def test_json_details_become_criteria_reasoning_and_fields() -> None:
    details = json.dumps(
        {
            "judge_model": "judge-2",
            "reasoning": "Correct and brief.",
            "criteria": {"accuracy": 0.9, "format": "pass"},
            "verdict": "pass",
        }
    )
    j = parse_judgement(result(score_details=details))
    assert j.parsed and j.verbatim is None
    assert [(c.name, c.score, c.value) for c in j.criteria] == [("accuracy", 0.9, None), ("format", None, "pass")]
    assert j.reasoning == "Correct and brief."
    assert j.fields == [("judge_model", "judge-2"), ("verdict", "pass")]


def test_list_and_nested_criteria_shapes() -> None:
    listed = json.dumps([{"name": "accuracy", "score": 0.5, "reasoning": "half right"}, 0.25])
    j = parse_judgement(result(score_details=listed))
    assert [(c.name, c.score, c.note) for c in j.criteria] == [("accuracy", 0.5, "half right"), ("#2", 0.25, None)]
    nested = json.dumps({"scores": {"accuracy": {"score": 0.4, "note": "wrong year"}}, "explanation": "Off by one."})
    j = parse_judgement(result(score_details=nested))
    assert [(c.name, c.score, c.note) for c in j.criteria] == [("accuracy", 0.4, "wrong year")]
    assert j.reasoning == "Off by one."


@pytest.mark.parametrize("raw", ["Score: 8/10. Good answer.", '"just a JSON string"', "{broken json"])
def test_non_json_details_are_kept_verbatim(raw: str) -> None:
    j = parse_judgement(result(score_details=raw))
    assert not j.parsed and j.verbatim == raw and j.criteria == []


def test_missing_details_say_nothing() -> None:
    assert parse_judgement(result(score_details=None)).empty
    assert parse_judgement(result(score_details="   ")).empty


def test_doubts_flag_the_verdicts_a_person_should_not_trust() -> None:
    results = [
        result("empty", score=0.9, response="", score_details="Fine."),
        result("loop", score=0.8, response="the cat sat. " * 12, score_details="ok"),
        result(
            "praise",
            score=0.1,
            response="Paris",
            score_details=json.dumps({"reasoning": "The answer is correct.", "verdict": "fail"}),
        ),
        result("blame", score=0.9, response="Rome", score_details="The answer is incorrect."),
        result("verdict", score=0.2, response="x", score_details=json.dumps({"verdict": "pass"})),
        result("expected", score=0.1, response="It is Paris.", eval_id="ev-cap", score_details="No."),
        result(
            "fine", score=0.95, response="Paris", score_details=json.dumps({"reasoning": "Correct.", "verdict": "pass"})
        ),
        result("failed-call", score=None, error="timeout"),
    ]
    doubts = judgement_doubts(results, expected_by_eval={"ev-cap": "Paris"})
    kinds = {rid: {d.kind for d in ds} for rid, ds in doubts.items()}
    assert kinds["empty"] == {"high_score_empty"}
    assert kinds["loop"] == {"high_score_loop"}
    assert "reasoning_contradicts_score" in kinds["praise"]
    assert "reasoning_contradicts_score" in kinds["blame"]
    assert "reasoning_contradicts_score" in kinds["verdict"]
    assert "low_score_matches_expected" in kinds["expected"]
    assert "fine" not in doubts and "failed-call" not in doubts


def test_doubts_find_the_simulated_judges_contradictions_without_false_alarms() -> None:
    world = seeded_world(7)
    results = [Result.model_validate(r) for r in world.results.values()]
    doubts = judgement_doubts(results)
    contradictions = {rid for rid, flaw in world.judge_flaws.items() if flaw == "contradiction"}
    assert contradictions, "the seeded world has wrong verdicts"
    found = contradictions & set(doubts)
    assert len(found) / len(contradictions) >= 0.9
    assert set(doubts) <= set(world.judge_flaws), "a doubt on a verdict the judge got right"


def test_sort_keeps_missing_values_last_both_ways() -> None:
    rows = [result("a", score=0.5), result("b", score=None), result("c", score=0.9), result("d", score=0.1)]
    assert [r.id for r in sort_results(rows, "score", descending=False)] == ["d", "a", "c", "b"]
    assert [r.id for r in sort_results(rows, "score", descending=True)] == ["c", "a", "d", "b"]
    timed = [result("x", created_at=5), result("y", created_at="2026-01-01"), result("z", created_at=9)]
    assert [r.id for r in sort_results(timed, "time", descending=True)] == ["z", "x", "y"]
    named = [result("p", eval_id="e2"), result("q", eval_id="e1")]
    assert [r.id for r in sort_results(named, "eval", descending=False, eval_names={"e1": "Zeta", "e2": "Alpha"})] == [
        "p",
        "q",
    ]
