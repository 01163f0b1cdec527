"""The report: every number from the data, "returned nothing" for missing inputs, inert quotes."""

from __future__ import annotations

import json
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from api_client.blahdev.shapes import (
    DiagnoseExample,
    DiagnoseFinding,
    Diagnosis,
    FailureCluster,
    FailureClusters,
    Health,
    HealthCheck,
    LogEntry,
    Model,
    Result,
)
from diagnosis import build_report, render_json, render_markdown
from diagnosis.markdown import code_block, code_span, escape_controls

T0 = 1_760_000_000_000
HOSTILE = (
    "evil \x1b]52;c;SGVsbG8=\x07 [@click=app.quit]x[/] ``` `x` \u202egnp.exe <b>bold</b> https://evil.example/x *em*"
)


def chatml(user: str) -> str:
    return f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"


def calls() -> list[LogEntry]:
    out = []
    for i in range(6):
        out.append(
            LogEntry(
                id=f"ok-{i}",
                created_at=T0 + i * 1000,
                prompt=chatml("Name a colour."),
                response="Blue.",
                finish_reason="stop",
                source="eval",
            )
        )
    for i in range(3):
        out.append(
            LogEntry(
                id=f"loop-{i}",
                created_at=T0 + 10_000 + i * 1000,
                prompt=chatml("Count sheep, please."),
                response="sheep " * 30,
                finish_reason="length",
                completion_tokens=30,
                max_tokens=30,
                source="eval",
            )
        )
    out.append(
        LogEntry(
            id="hostile",
            created_at=T0 + 20_000,
            prompt=chatml("Say something " + HOSTILE),
            response="no no no no no no no no " + HOSTILE,
            finish_reason="stop",
            source="chatroom",
        )
    )
    out.append(
        LogEntry(
            id="down",
            created_at=T0 + 30_000,
            prompt=chatml("Hi"),
            response=None,
            error="upstream returned 502 " + HOSTILE,
            finish_reason="error",
        )
    )
    return out


def full_report():
    diagnose = Diagnosis(
        model_id="m",
        calls_examined=11,
        window_from=T0,
        window_to=T0 + 30_000,
        findings=[
            DiagnoseFinding(
                kind="loop",
                count=2,
                rate=2 / 11,
                usual_cause=HOSTILE,
                examples=[DiagnoseExample(log_id="loop-0"), DiagnoseExample(log_id="ok-1")],
            )
        ],
    )
    results = [Result(id="res-1", score=0.9, log_id="loop-1", score_details="Excellent " + HOSTILE)]
    health = Health(
        checks=[
            HealthCheck(checked_at=T0 + 31_000, ok=True),
            HealthCheck(checked_at=T0 + 29_000, ok=False, error=HOSTILE),
            HealthCheck(checked_at=T0 + 25_000, ok=True),
        ]
    )
    clusters = FailureClusters(
        judge_model="judge-x",
        calls_considered=11,
        clusters=[
            FailureCluster(
                label=HOSTILE,
                size=3,
                what_goes_wrong="repeats",
                suggestion="shorter answers",
                log_ids=["loop-0", "loop-1", "unknown-id"],
            )
        ],
    )
    return build_report(
        model=Model(id="m", name="tiny " + HOSTILE),
        entries=calls(),
        diagnose=diagnose,
        results=results,
        health=health,
        trained_template="chatml",
        template_source="config",
        clusters=clusters,
    )


def test_missing_inputs_are_said_not_invented() -> None:
    report = build_report(model="m", entries=calls(), trained_template=None, clusters=None)
    md = render_markdown(report)
    for sentence in (
        "/diagnose returned nothing",
        "/results returned nothing",
        "/health returned nothing",
        "/failure-clusters returned nothing",
    ):
        assert sentence in md.replace("\\", "")
    assert "Trained chat template: unknown" in md
    doc = json.loads(render_json(report))
    assert doc["platform"] is None and doc["agreements"] is None and doc["doubts"] is None
    assert doc["host"] is None and doc["health_checks"] is None and doc["results_count"] is None
    assert doc["rates"]["template_mismatch"]["rate"] is None


def test_numbers_come_from_the_data() -> None:
    report = full_report()
    s = report.summary
    assert (s.calls_examined, s.model_calls, s.host.calls, s.host.failures) == (11, 10, 1, 1)
    assert s.rates["loop"].count == 4  # three sheep + the hostile one
    assert s.finish_reasons["length"] == 3
    md = render_markdown(report)
    assert "11 calls examined" in md and "10 are the model's" in md and "(1 fell in a host outage)" in md
    assert "| loop | 4 | 10 calls examined | 40.0% |" in md
    assert 'finish_reason "length" (cut off by the limit): 3; "stop" (chose to stop): 7' in md
    assert "1 of 1 results" in md  # the 0.9 on a looping reply is doubted
    assert "Of its 3 calls we examined 2 and find a failure in 2." in md
    doc = json.loads(render_json(report))
    assert doc["rates"]["loop"] == {
        "kind": "loop",
        "count": 4,
        "population": 10,
        "population_label": "calls examined",
        "rate": 0.4,
    }
    assert doc["finish_reasons"] == {"stop": 7, "length": 3}
    assert doc["host"]["calls"] == 1 and doc["results_count"] == 1 and doc["health_checks"] == 3
    [loop] = [a for a in doc["agreements"] if a["kind"] == "loop"]
    assert loop["agreed_log_ids"] == ["loop-0"] and loop["disputed_log_ids"] == ["ok-1"]


def _tokens(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from _tokens(token.children)


def test_markdown_keeps_untrusted_text_inert() -> None:
    md = render_markdown(full_report())
    for raw in ("\x1b", "\x07", "\u202e"):
        assert raw not in md
    assert "^[" in md and "<U+202E>" in md
    parser = MarkdownIt("gfm-like")
    tokens = list(_tokens(parser.parse(md)))
    assert not [t for t in tokens if t.type in ("link_open", "html_inline", "html_block", "em_open")]
    for token in tokens:
        if token.type == "text":
            assert "@click" not in token.content and "evil.example" not in token.content, token.content
    assert any(t.type == "code_inline" and "@click" in t.content for t in tokens)


def test_json_is_ascii_and_parses() -> None:
    text = render_json(full_report())
    assert text.isascii()
    assert json.loads(text)["model_name"].startswith("tiny evil \x1b")  # kept verbatim, escaped by JSON


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_code_span_cannot_be_broken_out_of(text: str) -> None:
    span = code_span(text)
    tokens = list(_tokens(MarkdownIt("commonmark").parse(span)))
    inline = [t for t in tokens if t.type not in ("paragraph_open", "paragraph_close", "inline")]
    assert [t.type for t in inline] == ["code_inline"], (text, span)
    assert "\n" not in span and "\x1b" not in span


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_code_block_cannot_be_broken_out_of(text: str) -> None:
    block = code_block(text)
    tokens = MarkdownIt("commonmark").parse(block)
    assert [t.type for t in tokens] == ["fence"]
    assert tokens[0].content.rstrip("\n") == escape_controls(text.replace("\r\n", "\n")).rstrip("\n")


def llama2(user: str) -> str:
    return f"<s>[INST] {user} [/INST]"


def test_wrong_template_count_and_its_failure_rate_cannot_be_read_as_a_contradiction() -> None:
    """5 calls sent in Llama 2 to a ChatML model, 4 of which fail: the table's 5 and the
    verdict's "4 of 5" must say which is which (5 sent in it; 4 of those fail)."""
    entries = calls()[:6]
    for i in range(5):
        reply = "Blue." if i == 0 else "[/INST] Blue. [INST] and then [INST] more"
        entries.append(
            LogEntry(
                id=f"llama-{i}",
                created_at=T0 + 40_000 + i * 1000,
                prompt=llama2("Name a colour."),
                response=reply,
                finish_reason="stop",
                source="eval",
            )
        )
    report = build_report(model="m", entries=entries, trained_template="chatml", template_source="config")
    mismatch = report.summary.rates["template_mismatch"].count
    md = render_markdown(report)
    assert f"| wrong template | {mismatch} sent in another template |" in md
    [llama] = [g for g in report.summary.groups_for("template") if g.value == "llama2"]
    assert llama.calls == mismatch
    assert (
        f"in Llama 2 {100 * llama.failure_rate:.0f}% fail ({llama.failures} of the {llama.calls} calls sent in it)"
        in md
    )
