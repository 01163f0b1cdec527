"""Reviewer fixes: readable prose, platform verdicts on its own window, template rates,
looping cut-offs, deduplicated quotes, and empty inputs said plainly."""

from __future__ import annotations

from api_client.blahdev.shapes import DiagnoseFinding, Diagnosis, Health, HealthCheck, LogEntry, Result
from diagnosis import build_report, classify, compare_with_platform, kinds, render_markdown, summarize
from diagnosis.markdown import plain

T0 = 1_760_000_000_000
CHATML = "<|im_start|>user\n{}<|im_end|>\n<|im_start|>assistant\n"
LLAMA = "<s>[INST] {} [/INST]"


def call(i: int, reply: str, *, prompt: str = CHATML, user: str = "Tell me something.", **kw: object) -> LogEntry:
    kw.setdefault("finish_reason", "stop")
    return LogEntry(id=f"c{i:03d}", created_at=T0 + i * 1000, prompt=prompt.format(user), response=reply, **kw)


def test_prose_puts_names_and_tokens_in_code_spans_not_backslashes() -> None:
    text = plain("Raise max_tokens (if nearly done), ending with <|im_end|> (ChatML).")
    assert "`max_tokens`" in text and "`<|im_end|>`" in text and "(if nearly done)" in text
    assert "\\(" not in text and "max\\_" not in text
    assert plain("<script>*x*") == "\\<script>\\*x\\*"  # what markdown would act on stays escaped


def test_unchecked_kinds_and_judged_population_and_rate_gap_on_the_platform_window() -> None:
    entries = [call(i, "A fine answer.") for i in range(40)]
    entries += [call(40 + i, " \n") for i in range(4)]  # whitespace-only: empty to us
    entries += [call(50, "I'm sorry, but I can't help with that.")]
    results = [Result(id="r1", log_id="c001", score=0.1), Result(id="r2", log_id="c002", score=0.9)]
    platform = Diagnosis(
        model_id="m",
        calls_examined=45,
        window_from=T0 + 10_000,
        window_to=T0 + 50_000,
        findings=[DiagnoseFinding(kind="empty", count=0), DiagnoseFinding(kind="loop", count=0)],
    )
    report = build_report(model="m", entries=entries, diagnose=platform, results=results, trained_template="chatml")
    rows = {a.kind: a for a in report.agreements or ()}
    assert rows["refusal"].verdict_text == "platform does not check"
    assert rows["wrong_answer"].our_population == 2  # judged calls, not every call
    # The platform reports 1 empty in 100 calls; in its window (calls 10..50: 35 of ours) we see 4.
    platform = platform.model_copy(update={"findings": [DiagnoseFinding(kind="empty", count=1)], "calls_examined": 100})
    (empty,) = [
        a
        for a in compare_with_platform(summarize(entries, trained_template="chatml"), platform, entries=entries)
        if a.kind == "empty"
    ]
    assert empty.window_population == 35 and empty.window_count == 4
    assert empty.verdict_text == "both, we find more" and empty.missed == (("whitespace-only replies", 4),)
    md = render_markdown(build_report(model="m", entries=entries, diagnose=platform, trained_template="chatml"))
    assert "both, we find more" in md and "4 whitespace-only replies" in md and "only us" not in md


def test_verdict_gives_failure_rate_per_template() -> None:
    entries = [call(i, "Fine." if i % 4 else "loop loop loop loop loop loop loop loop") for i in range(8)]
    entries += [call(10 + i, "", prompt=LLAMA) for i in range(5)] + [call(20, "Fine.", prompt=LLAMA)]
    md = render_markdown(build_report(model="m", entries=entries, trained_template="chatml"))
    verdict = md.split("## Verdict")[1].split("##")[0]
    assert "in ChatML (trained) 25% fail (2 of the 8 calls sent in it)" in verdict
    assert "in Llama 2 83% fail (5 of the 6 calls sent in it)" in verdict


def test_cut_off_loop_says_the_limit_cut_a_loop() -> None:
    reply = "I like it. " * 30
    found = classify(
        call(1, reply.strip(), finish_reason="length", completion_tokens=64, max_tokens=64), trained_template="chatml"
    )
    cut = next(f for f in found if f.kind == kinds.TRUNCATION)
    assert "looping when the limit cut it" in cut.evidence and "sentence end" not in cut.evidence


def test_suggestions_quote_a_prompt_once_and_prefer_other_prompts_elsewhere() -> None:
    entries = [call(i, "no no no no no no no no no no", user="What is 2 + 2?") for i in range(6)]
    entries += [call(10, "no no no no no no no no no no", user="What is 3 + 5?")]
    entries += [call(20 + i, "Fine.", user="Write a poem about rain.") for i in range(20)]
    md = render_markdown(build_report(model="m", entries=entries, trained_template="chatml"))
    section = md.split("## Training data to add")[1]
    assert section.count("What is 2 + 2?") <= 1 + section.count("### ") - 1
    assert "(seen 6 times among these failures)" in section
    first = section.split("### ")[1]
    assert first.count("What is 2 + 2?") == 1


def test_empty_inputs_and_clusters_not_requested_read_plainly() -> None:
    entries = [call(i, "Fine.") for i in range(3)]
    md = render_markdown(
        build_report(model="m", entries=entries, results=[], health=Health(checks=[]), trained_template="chatml")
    )
    assert "The platform returned no health checks" in md and "No outage in 0" not in md
    assert "The platform returned no results" in md and "None among 0" not in md
    assert "Not requested: asking for them spends a judge call." in md
    failed = render_markdown(build_report(model="m", entries=entries, clusters=None, trained_template="chatml"))
    assert "/failure-clusters returned nothing" in failed and "Not requested" not in failed


def test_outage_error_texts_are_listed_once() -> None:
    checks = [HealthCheck(checked_at=T0 - 5000 + i * 1000, ok=False, error="timed out") for i in range(3)]
    checks.append(HealthCheck(checked_at=T0 + 100_000, ok=True))
    md = render_markdown(
        build_report(model="m", entries=[call(1, "Fine.")], health=Health(checks=checks), trained_template="chatml")
    )
    assert md.count("`timed out`") == 1
