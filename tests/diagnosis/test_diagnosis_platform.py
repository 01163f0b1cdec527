"""compare_with_platform: kind by kind, with the platform's examples checked one by one."""

from __future__ import annotations

from api_client.blahdev.shapes import DiagnoseExample, DiagnoseFinding, Diagnosis, LogEntry
from diagnosis import classify_many, compare_with_platform, kinds, summarize

T0 = 1_760_000_000_000
P = "<|im_start|>user\nTell me something.<|im_end|>\n<|im_start|>assistant\n"


def calls() -> list[LogEntry]:
    replies = {
        "a": "no no no no no no no no",  # loop: both agree
        "b": "A fine answer.",  # platform says loop: we dispute
        "c": "   \n",  # whitespace-only: the platform's simple check misses it
        "d": "I'm sorry, but I can't help with that.",  # refusal: the platform does not check
        "e": "Paris.",
    }
    return [
        LogEntry(id=k, created_at=T0 + i, prompt=P, response=v, finish_reason="stop")
        for i, (k, v) in enumerate(replies.items())
    ]


def diagnosis(**overrides: object) -> Diagnosis:
    data = {
        "model_id": "m",
        "calls_examined": 5,
        "window_from": T0,
        "window_to": T0 + 4,
        "findings": [
            DiagnoseFinding(
                kind="loop",
                count=2,
                rate=0.4,
                usual_cause="sampling temperature too low",
                examples=[
                    DiagnoseExample(log_id="a", excerpt="no no"),
                    DiagnoseExample(log_id="b"),
                    DiagnoseExample(log_id="zzz"),
                ],
            ),
            DiagnoseFinding(kind="truncation", count=0, rate=0.0),
        ],
    }
    data.update(overrides)
    return Diagnosis(**data)


def by_kind(rows: list) -> dict:
    return {r.kind: r for r in rows}


def test_kind_by_kind_verdicts_and_examples() -> None:
    rows = by_kind(compare_with_platform(summarize(calls(), trained_template="chatml"), diagnosis()))
    loop = rows[kinds.LOOP]
    assert loop.verdict == "both" and (loop.our_count, loop.platform_count) == (1, 2)
    assert loop.agreed_log_ids == ("a",) and loop.disputed_log_ids == ("b",) and loop.unseen_log_ids == ("zzz",)
    assert loop.instead == {"b": ()}
    assert loop.usual_cause == "sampling temperature too low"
    assert loop.our_rate == 1 / 5 and loop.platform_rate == 2 / 5

    empty = rows[kinds.EMPTY]  # absent from the platform's answer: it checked and found none
    assert empty.verdict == "only_us" and empty.platform_count == 0 and empty.our_only_log_ids == ("c",)

    refusal = rows[kinds.REFUSAL]
    assert refusal.verdict == "platform_does_not_check" and refusal.platform_count is None
    assert refusal.verdict_text == "platform does not check"
    assert "does not check" in refusal.note

    assert rows[kinds.TRUNCATION].verdict == "neither"
    assert rows[kinds.CONTINUATION].verdict == "neither"


def test_same_window_gives_no_window_note() -> None:
    rows = compare_with_platform(summarize(calls()), diagnosis())
    assert all("window" not in r.note and "compare rates" not in r.note for r in rows)


def test_different_window_and_size_are_said() -> None:
    rows = compare_with_platform(summarize(calls()), diagnosis(calls_examined=500, window_from=T0 - 86_400_000))
    note = rows[0].note
    assert "examined 500 calls and we examined 5" in note and "window" in note


def test_unstated_size_is_said() -> None:
    rows = compare_with_platform(summarize(calls()), diagnosis(calls_examined=None))
    assert "did not say how many calls" in rows[0].note
    assert rows[0].platform_rate is None


def test_per_call_findings_work_too() -> None:
    rows = by_kind(compare_with_platform(classify_many(calls()), diagnosis()))
    assert rows[kinds.LOOP].agreed_log_ids == ("a",) and rows[kinds.LOOP].our_population == 5
