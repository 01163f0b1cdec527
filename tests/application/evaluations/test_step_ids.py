"""A Blobfish step has one id, ``<rollout>#<step from 1>``, and reads as the same call wherever
it is read: the Inspector (a rollout's steps), ``blah-tui open`` of a Blobfish line, the steps
archive the search reads, and diagnosis (issue 39: three schemes before)."""

from __future__ import annotations

from api_client.blobfish.shapes_evidence import parse_evaluation
from application.evaluations.dump_lines import blobfish_entries
from application.evaluations.inspect import RolloutSteps, step_id
from application.evaluations.rollout_steps import step_entries
from common.records import step_call
from diagnosis.rollouts import diagnose_rollout
from tests.support.blobfish import envelope


def test_one_id_for_a_step_in_the_inspector_open_search_and_diagnosis() -> None:
    published = envelope("job-7", rollouts=2, model="m")
    evaluation = parse_evaluation(
        {"evaluation_id": "ev-7", "created_at": "2026-12-01T10:00:00Z", "envelope": published}
    )
    rollout = evaluation.rollouts[1]
    (step,) = rollout.steps
    inspector = RolloutSteps(evaluation, rollout, diagnose_rollout(rollout)).call(step_id(rollout, step))
    assert inspector is not None
    stored = [c for c in step_entries(evaluation) if c.run_id == "r1"]
    legacy_line = {
        "platform": "blobfish",
        "evaluation_id": "ev-7",
        "rollout": published["job"]["rollouts"][1],
        "trace": published["traces"][1],
        "metadata": {"model": "m"},
    }
    trace_line = published["traces"][1]
    ids = {
        inspector.entry.id,
        *(c.id for c in stored),
        *(c.id for c in blobfish_entries(legacy_line)),
        *(c.id for c in blobfish_entries(trace_line)),
        step_call(rollout, step).id,
    }
    assert ids == {"r1#1"}
    # the same call, but for when it was made: the archive needs a time (0 when none is given)
    assert inspector.entry == stored[0].replace(created_at=evaluation.summary.created_ms)
    assert inspector.entry.created_at == evaluation.summary.created_ms
    (from_line,) = blobfish_entries(legacy_line)
    assert (from_line.eval_id, from_line.run_id, from_line.result_id, from_line.response) == (
        "ev-7",
        "r1",
        "letter-count/strawberry",
        "3",
    )
