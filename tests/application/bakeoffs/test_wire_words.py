"""``application.bakeoffs.words`` and ``screening.placement_text``: the one place each wire value
of the queue becomes words, for the CLI and the screens alike. A value it does not know is
shown as sent; nothing is guessed."""

from __future__ import annotations

from api_client.errorbar import shapes as assumed
from application.bakeoffs.screening import placement_text
from application.bakeoffs.words import (
    baseline_text,
    drift_text,
    ended_text,
    judged_text,
    kind_text,
    micros_usd_text,
    model_text,
    usd_text,
)
from common.format import plural


def _run(**members: object) -> assumed.Run:
    return assumed.Run.model_validate({"id": "ev_1", **members})


def test_the_stored_baseline_is_your_logged_answers_and_a_model_id_stays_as_sent() -> None:
    assert baseline_text("__stored__") == model_text("__stored__") == "your logged answers"
    assert baseline_text("__stored__", long=True) == "your logged answers (what you shipped, not regenerated)"
    assert baseline_text("Qwen/Qwen3-32B") == "Qwen/Qwen3-32B" and baseline_text(None) == "—"


def test_kind_and_judging_in_words_and_an_unknown_value_as_sent() -> None:
    assert kind_text(_run(eval_kind="comparison", sample_filters={"screening": True})) == "screening"
    assert kind_text(_run(eval_kind="comparison")) == "comparison" and kind_text(_run()) == "—"
    graded = _run(eval_kind="criterion", rubric_type="direct", criterion_snapshot={"name": "Helpful"})
    assert judged_text(graded) == "graded pass or fail by the criterion's frozen judge (Helpful)"
    assert judged_text(_run(rubric_type="adherence")).endswith("closer to the stored reference answer")
    assert judged_text(_run(rubric_type="pairwise_v2")) == "judged by rubric type pairwise_v2 (as the queue sent it)"


def test_placement_agrees_with_the_saving_and_passes_unknown_values_through() -> None:
    assert placement_text("not_cheaper", "similar", 0.5) == "cheaper, too little · similar"
    assert placement_text("not_cheaper", "different", -10.8) == "not cheaper · different"
    assert placement_text("not_cheaper", "uncertain", None) == "not cheaper · uncertain"
    assert placement_text("cheaper", "similar", 62.4) == "cheaper · similar"
    assert placement_text("borderline", None, 3.0) == "borderline" and placement_text(None, None, None) == "—"


def test_an_ended_run_has_no_end_time_given_and_costs_read_in_dollars() -> None:
    assert ended_text(_run(status="DONE")) == ended_text(_run(status="CANCELLED")) == "not given"
    assert ended_text(_run(status="RUNNING")) == "—"
    assert micros_usd_text(67_724) == "$0.0677" and micros_usd_text(324) == "$0.000324"
    assert micros_usd_text(38_820_000) == "$38.82" and micros_usd_text(None) == "—"
    assert usd_text(-0.25) == "-$0.2500" and usd_text(0) == "$0.0000"


def test_a_criterions_drift_in_words_with_the_queues_reason() -> None:
    assert (
        drift_text("quality_drop", "flagged", "pass rate fell 12 points") == "quality dropped: pass rate fell 12 points"
    )
    assert drift_text("stale", "flagged", None) == "stale (calibrated over 30 days ago)"
    assert drift_text("new_signal", None, None) == "new_signal" and drift_text(None, "ok", None) == "ok"
    assert drift_text(None, None, None) == "not sent"


def test_a_count_and_its_noun_agree() -> None:
    assert plural(1, "benchmark run") == "1 benchmark run" and plural(0, "run") == "0 runs"
    assert plural(2, "sample's", "samples'") == "2 samples'"


def test_the_inspector_calls_of_a_stored_baseline_name_your_logged_answers() -> None:
    from application.bakeoffs.calls import SampleCalls
    from application.bakeoffs.samples import sample_rows
    from tests.support.errorbar import COMPARISON, get, queue_run, queue_server

    with queue_server() as queue:
        replay = {"baseline_model": "__stored__", "sample_count": 12, "sample_filters": {"trace_replay": True}}
        run_id = queue_run(queue, {**COMPARISON, **replay})["id"]  # a replay bake-off: a stored baseline, compared
        run = assumed.Run.model_validate(get(queue, f"/v1/evals/{run_id}").json())
        samples = assumed.parse_samples(get(queue, f"/v1/evals/{run_id}/samples").json())
    calls = SampleCalls(run, sample_rows(samples))
    candidate, baseline = (calls.call(call_id) for call_id in calls.ids[:2])
    assert candidate is not None and baseline is not None
    assert baseline.entry.model_id == "your logged answers"
    assert dict(baseline.origin)["this answer"] == "baseline your logged answers"
    assert dict(candidate.origin)["other answer"].startswith("baseline your logged answers: ")
    assert not any("__stored__" in value for call in (candidate, baseline) for _, value in call.origin)


def test_a_screening_bundle_is_called_a_screening_and_its_readings_are_said_in_words() -> None:
    from application.bakeoffs.verify import bundle_summary
    from application.bakeoffs.words import lineage_text

    screening = {
        "run": {"id": "ev_9", "eval_kind": "comparison", "name": "Screening", "sample_filters": {"screening": True}},
        "samples": {"count": 36, "lineage": ["sim"]},
    }
    comparison = {"run": {"id": "ev_8", "eval_kind": "comparison", "name": "tiny"}, "samples": {"lineage": ["ab"]}}
    assert bundle_summary(screening)[0] == "run ev_9 (screening): Screening"
    assert bundle_summary(comparison)[0] == "run ev_8 (comparison): tiny"
    assert lineage_text(["abs", "sim"]) == "each answer graded alone (abs); similarity to the logged answer (sim)"
    assert lineage_text(["zz\x1b"]) == "zz^["  # a code the contract does not list: as sent, inert
