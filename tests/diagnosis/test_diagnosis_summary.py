"""summarize: rates with their populations, failure groups, and host outages kept apart."""

from __future__ import annotations

from typing import Any

from api_client.blahdev.shapes import Health, HealthCheck, LogEntry, Result
from diagnosis import kinds, outage_windows, summarize
from diagnosis.features import length_bucket

T0 = 1_760_000_000_000


def chatml(user: str) -> str:
    return f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"


def llama2(user: str) -> str:
    return f"<s>[INST] {user} [/INST]"


def make(i: int, prompt: str, response: str | None, **fields: Any) -> LogEntry:
    fields.setdefault("finish_reason", "stop" if response is not None else "error")
    return LogEntry(id=f"log-{i}", created_at=T0 + i * 1000, prompt=prompt, response=response, **fields)


def world() -> list[LogEntry]:
    """10 good eval calls, 6 chatroom calls in llama2 of which 4 fail, 4 maths calls of which 3 loop."""
    calls: list[LogEntry] = []
    for i in range(10):
        calls.append(
            make(i, chatml(f"What is the capital of country number {i}?"), "It is a fine city.", source="eval")
        )
    for i in range(10, 16):
        reply = "Hello friends, nice to chat." if i < 12 else "and then the cat slept under the big tree."
        calls.append(make(i, llama2("Hi all, what are you working on today?"), reply, source="chatroom"))
    for i in range(16, 20):
        reply = "7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7" if i < 19 else "The answer is 56."
        calls.append(make(i, chatml("Calculate 7 x 8 and show the working."), reply, source="eval", eval_id="maths-1"))
    return calls


def test_rates_have_explicit_populations() -> None:
    s = summarize(world(), trained_template="chatml")
    assert s.calls_examined == s.model_calls == 20
    assert s.failing_calls == 7  # 4 chatroom continuations + 3 loops; mismatch alone is not a failure
    loop = s.rates[kinds.LOOP]
    assert (loop.count, loop.population, loop.population_label) == (3, 20, "calls examined")
    assert loop.rate == 3 / 20
    assert s.rates[kinds.TEMPLATE_MISMATCH].count == 6
    assert s.rates[kinds.CONTINUATION].count == 4
    assert s.rates[kinds.WRONG_ANSWER].population == 0 and s.rates[kinds.WRONG_ANSWER].rate is None


def test_mismatch_has_no_population_without_trained_template() -> None:
    s = summarize(world())
    rate = s.rates[kinds.TEMPLATE_MISMATCH]
    assert rate.population == 0 and rate.rate is None and "unknown" in rate.population_label


def test_wrong_answer_rate_is_over_judged_calls() -> None:
    calls = world()
    results = {"log-0": Result(id="r0", score=0.1, log_id="log-0"), "log-1": Result(id="r1", score=0.9, log_id="log-1")}
    s = summarize(calls, trained_template="chatml", results_by_log_id=results)
    rate = s.rates[kinds.WRONG_ANSWER]
    assert (rate.count, rate.population, rate.population_label) == (1, 2, "judged calls")


def test_groups_find_what_failures_have_in_common() -> None:
    s = summarize(world(), trained_template="chatml")
    groups = {(g.dimension, g.value): g for g in s.groups}
    chatroom = groups[("source", "chatroom")]
    assert (chatroom.calls, chatroom.failures) == (6, 4)
    assert chatroom.kinds[kinds.CONTINUATION] == 4 and chatroom.kinds[kinds.TEMPLATE_MISMATCH] == 4
    assert groups[("template", "llama2")].failures == 4
    assert groups[("subject", "maths-1")].failures == 3
    assert groups[("instruction", "maths")].kinds[kinds.LOOP] == 3
    assert groups[("chat_or_completion", "chat")].calls == 20
    assert groups[("prompt_length", "<200")].calls == 20
    failing = s.failing_groups()
    assert {g.value for g in failing} >= {"chatroom", "llama2", "maths-1", "maths"}
    assert "eval" not in {g.value for g in failing}  # the eval source fails less than the model overall
    assert failing[0].failures == 4  # most excess failures first
    assert all(g.failure_rate is not None and g.failure_rate > s.failure_rate for g in failing)
    # examples: failing calls first, at most five
    assert chatroom.example_log_ids[:4] == ("log-12", "log-13", "log-14", "log-15")
    assert len(chatroom.example_log_ids) <= 5


def test_finish_reasons_and_templates_are_counted() -> None:
    calls = world() + [
        make(20, chatml("Tell me a long story."), "Once upon a", finish_reason="length"),
        make(21, chatml("Hi"), "Hello.", finish_reason=None),
    ]
    s = summarize(calls, trained_template="chatml")
    assert s.finish_reasons["length"] == 1 and s.finish_reasons["stop"] == 20 and s.finish_reasons["missing"] == 1
    assert s.templates["chatml"] == 16 and s.templates["llama2"] == 6
    assert (s.window_from, s.window_to) == (T0, T0 + 21_000)


def test_length_buckets() -> None:
    assert [length_bucket(n) for n in (0, 199, 200, 999, 1000, 3999, 4000)] == [
        "<200",
        "<200",
        "200-1k",
        "200-1k",
        "1k-4k",
        "1k-4k",
        ">4k",
    ]


def health(*checks: tuple[int, bool]) -> Health:
    return Health(
        checks=[
            HealthCheck(checked_at=T0 + t, ok=ok, error=None if ok else "502 from upstream")
            for t, ok in reversed(checks)
        ]
    )  # newest first, as the platform sends them


def test_outage_windows_span_consecutive_failed_checks() -> None:
    windows = outage_windows(health((0, True), (60_000, False), (120_000, False), (180_000, True), (240_000, False)))
    assert [(w.start - T0, None if w.end is None else w.end - T0, w.failed_checks) for w in windows] == [
        (60_000, 180_000, 2),
        (240_000, None, 1),  # still down at the newest check
    ]
    assert windows[0].errors == ("502 from upstream",)
    assert outage_windows(None) == []


def test_failures_in_an_outage_are_the_hosts_not_the_models() -> None:
    calls = [make(i, chatml("Hello there, how are you?"), "Fine, thanks.") for i in range(4)]
    calls += [make(i, chatml("Hello there, how are you?"), None, error="upstream returned 502") for i in range(4, 8)]
    # checks: ok at 0 s, down from 3.5 s to 7.5 s, ok again at 9 s: calls 4..7 fall inside
    s = summarize(
        calls, trained_template="chatml", health=health((0, True), (3_500, False), (7_500, False), (9_000, True))
    )
    assert s.health_known
    assert (s.host.calls, s.host.failures) == (4, 4)
    assert s.host.kinds[kinds.ERROR] == 4
    assert s.model_calls == 4 and s.failing_calls == 0
    assert s.rates[kinds.ERROR].count == 0 and s.rates[kinds.ERROR].population == 4
    assert s.host_log_ids == frozenset({"log-4", "log-5", "log-6", "log-7"})


def test_same_errors_without_health_data_count_against_the_model() -> None:
    calls = [make(i, chatml("Hi"), None, error="upstream returned 502") for i in range(3)]
    s = summarize(calls, trained_template="chatml")
    assert not s.health_known and s.host.calls == 0
    assert s.rates[kinds.ERROR].count == 3


def test_precomputed_findings_are_reused() -> None:
    calls = world()
    s = summarize(calls, trained_template="chatml", findings_by_log_id={c.id: [] for c in calls})
    assert s.failing_calls == 0 and s.kinds_by_log_id == {}


def test_empty_input() -> None:
    s = summarize([], trained_template="chatml")
    assert s.calls_examined == 0 and s.failure_rate is None and s.groups == ()
    assert all(r.rate is None for r in s.rates.values())
