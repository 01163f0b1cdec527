"""The errorbar queue's sample answers read as ``BakeoffAnswer`` in one place
(``api_client.errorbar.records``): what the queue did not send stays None."""

from __future__ import annotations

from api_client.errorbar.records import answer_from_sample, baseline_answer
from api_client.errorbar.shapes import Run, Sample, SampleAnswer
from common.records import BakeoffAnswer


def test_a_candidates_answer_keeps_every_member_sent() -> None:
    sent = SampleAnswer(
        model="cand",
        answer="42",
        outcome="win",
        human_verdict="candidate",
        truncated=False,
        latency_ms=120,
        cost_micros=3,
        orderings={"ab": "candidate", "ba": "tie"},
        assertions=[True, False],
        similarity="matched",
    )
    assert answer_from_sample(sent) == BakeoffAnswer(
        "cand", "42", "win", "candidate", False, 120, 3, {"ab": "candidate", "ba": "tie"}, (True, False), "matched"
    )


def test_what_the_queue_did_not_send_stays_none() -> None:
    assert answer_from_sample(SampleAnswer(model="cand")) == BakeoffAnswer("cand")
    answer = answer_from_sample(SampleAnswer(model="cand"))
    assert answer.truncated is None and answer.latency_ms is None and answer.cost_micros is None


def test_the_baseline_answer_says_cut_only_when_the_queue_says_so() -> None:
    run = Run.model_validate({"id": "run_1", "baseline_model": "base"})
    cut = Sample.model_validate({"prompt": "q", "baseline_answer": "a", "baseline_truncated": True})
    assert baseline_answer(run, cut) == BakeoffAnswer("base", "a", truncated=True)
    silent = baseline_answer(Run.model_validate({"id": "run_2"}), Sample.model_validate({"prompt": "q"}))
    assert silent == BakeoffAnswer(None) and silent.truncated is None
