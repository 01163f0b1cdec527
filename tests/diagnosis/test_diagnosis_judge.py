"""doubtful_judgements: when the judge's score should not be taken as fact."""

from __future__ import annotations

import json

from api_client.blahdev.shapes import LogEntry, Result
from diagnosis import doubtful_judgements


def entry(log_id: str, reply: str | None) -> LogEntry:
    return LogEntry(id=log_id, created_at=0, prompt="q", response=reply)


def reasons(results: list[Result], entries: list[LogEntry], **kw: object) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for d in doubtful_judgements(results, {e.id: e for e in entries}, **kw):
        out.setdefault(d.result_id, []).append(d.kind)
    return out


def test_high_score_on_empty_or_looping_reply() -> None:
    got = reasons(
        [
            Result(id="r1", score=0.9, log_id="l1"),
            Result(id="r2", score=0.8, log_id="l2"),
            Result(id="r3", score=0.9, log_id="l3"),
            Result(id="r4", score=0.6, log_id="l1"),
        ],
        [entry("l1", "<|im_end|>"), entry("l2", "yes yes yes yes yes yes yes yes"), entry("l3", "Paris.")],
    )
    assert got == {"r1": ["high_score_empty"], "r2": ["high_score_loop"]}


def test_reply_from_result_when_log_is_missing() -> None:
    got = reasons([Result(id="r1", score=1.0, response="   ")], [])
    assert got == {"r1": ["high_score_empty"]}


def test_low_score_on_reply_with_the_expected_answer() -> None:
    details = json.dumps({"expected": "Canberra", "reasoning": "Partially addresses the question."})
    results = [
        Result(id="r1", score=0.2, log_id="l1", score_details=details),
        Result(id="r2", score=0.2, log_id="l2", eval_id="geo"),
        Result(id="r3", score=0.2, log_id="l3", eval_id="geo"),
    ]
    entries = [entry("l1", "The capital is Canberra."), entry("l2", "It is canberra"), entry("l3", "Sydney")]
    got = reasons(results, entries, expected_by_eval_id={"geo": "Canberra"})
    assert got == {"r1": ["low_score_matches_expected"], "r2": ["low_score_matches_expected"]}


def test_reasoning_that_contradicts_the_score() -> None:
    results = [
        Result(
            id="r1", score=0.1, log_id="l", score_details=json.dumps({"reasoning": "The answer is correct and clear."})
        ),
        Result(id="r2", score=0.95, log_id="l", score_details="The reply is incorrect: it names the wrong city."),
        Result(id="r3", score=0.95, log_id="l", score_details="Correct, nothing wrong with it."),
        Result(id="r4", score=0.1, log_id="l", score_details="Not correct: it names the wrong city."),
        Result(
            id="r5",
            score=0.1,
            log_id="l",
            score_details=json.dumps({"criteria": [{"name": "accuracy", "reasoning": "Excellent."}]}),
        ),
    ]
    got = reasons(results, [entry("l", "Lyon is the capital.")])
    assert got == {
        "r1": ["reasoning_contradicts_score"],
        "r2": ["reasoning_contradicts_score"],
        "r5": ["reasoning_contradicts_score"],
    }


def test_doubt_carries_evidence_and_reasoning() -> None:
    [d] = doubtful_judgements([Result(id="r", score=0.9, log_id="l", score_details="Great.")], {"l": entry("l", "")})
    assert d.score == 0.9 and d.log_id == "l" and "0.90" in d.evidence and d.reasoning == "Great."
    assert d.kind == "high_score_empty" and d.reason == d.evidence


def test_unscored_results_are_skipped() -> None:
    assert doubtful_judgements([Result(id="r", score=None)], {}) == []


def _chat(log_id: str, user: str, reply: str, **fields: object) -> LogEntry:
    prompt = f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"
    return LogEntry(id=log_id, created_at=0, prompt=prompt, response=reply, **fields)


def test_high_score_on_a_reply_that_continues_the_prompt() -> None:
    entries = [
        _chat("l1", "What is the capital of Germany?", "Berlin.\nUser: What about France?\nAssistant: Paris."),
        _chat("l2", "Quiz question 1: What is the capital of France?", "Paris. Quiz question 2: What is 2 + 2?"),
        _chat("l3", "My favourite colour is", "blue because it reminds me of the sea."),
        _chat("l4", "What is the capital of Germany?", "Berlin."),
        _chat("l5", "Quiz question 1: What is the capital of France?", "Paris. Quiz question 2: What is 2 + 2?"),
    ]
    results = [
        Result(id=f"r{i}", score=score, log_id=f"l{i}")
        for i, score in ((1, 0.9), (2, 1.0), (3, 0.8), (4, 1.0), (5, 0.3))
    ]
    got = reasons(results, entries, trained_template="chatml")
    assert got == {
        "r1": ["high_score_continuation"],
        "r2": ["high_score_continuation"],
        "r3": ["high_score_continuation"],
    }
    [doubt] = [d for d in doubtful_judgements(results, {e.id: e for e in entries}) if d.result_id == "r2"]
    assert doubt.evidence.startswith("Scored 1.00 for a reply that carries on the prompt instead of answering it")
    assert '"Quiz question 2: What is 2 + 2?"' in doubt.evidence


def test_continuation_check_needs_the_calls_prompt() -> None:
    """A result whose log is missing cannot be checked for continuation: no doubt is invented."""
    got = reasons([Result(id="r1", score=0.9, response="Berlin.\nUser: And France?")], [])
    assert got == {}
