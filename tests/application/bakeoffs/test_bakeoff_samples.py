"""A bake-off's sample rows read the product's one answer form, and a label makes a new row."""

from __future__ import annotations

from api_client.errorbar.shapes import parse_samples
from application.bakeoffs.calibration import recompute
from application.bakeoffs.samples import sample_rows
from common.records import BakeoffAnswer


def _samples() -> list:
    return parse_samples(
        [
            {
                "prompt": "say hi",
                "baseline_answer": "hi",
                "candidates": [
                    {
                        "model": "m-a",
                        "answer": "",
                        "outcome": "win",
                        "orderings": {"ab": "candidate", "ba": "candidate"},
                    },
                    {"model": "m-b", "answer": "hello", "outcome": "loss", "truncated": True},
                ],
            }
        ]
    )


def test_rows_hold_the_one_answer_form_with_nothing_invented() -> None:
    rows = {row.arm: row for row in sample_rows(_samples())}
    win, loss = rows["m-a"].answer, rows["m-b"].answer
    assert isinstance(win, BakeoffAnswer) and isinstance(loss, BakeoffAnswer)
    assert (win.text, win.truncated, win.latency_ms, win.human_verdict) == ("", None, None, None)
    assert rows["m-a"].doubtful == "won with an empty answer"
    assert (loss.text, loss.truncated) == ("hello", True)


def test_a_label_makes_a_new_row_and_leaves_the_queues_answer_as_sent() -> None:
    samples = _samples()
    row = next(r for r in sample_rows(samples) if r.arm == "m-a")
    labelled = row.labelled("baseline")
    assert labelled.answer.human_verdict == "baseline" and labelled.key == row.key
    assert row.answer.human_verdict is None and samples[0].candidates[0].human_verdict is None
    counted = recompute([labelled.answer])
    assert (counted.n, counted.agreement) == (1, 0.0)  # the judge said candidate, the person baseline
    assert recompute([labelled.labelled(None).answer]).n == 0


def test_the_readings_samples_carry_a_new_label_without_editing_the_queues() -> None:
    from application.bakeoffs.samples import with_label

    samples = _samples()
    row = next(r for r in sample_rows(samples) if r.arm == "m-b")
    relabelled = with_label(samples, row.labelled("candidate"))
    assert [a.human_verdict for a in relabelled[0].candidates] == [None, "candidate"]
    assert [a.human_verdict for a in samples[0].candidates] == [None, None]
