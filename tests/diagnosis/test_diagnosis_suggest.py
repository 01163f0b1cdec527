"""Training-data suggestions: quote failing prompts verbatim, leave the reply empty, and say
"fix the format" (not "more data") when the template is the problem."""

from __future__ import annotations

import json

from api_client.blahdev.shapes import ChatMessage, LogEntry
from diagnosis import suggest_training_data, summarize, to_jsonl, to_markdown
from diagnosis.suggest import ADD_DATA, FIX_FORMAT

T0 = 1_760_000_000_000
MATHS = "Calculate 17 x 23 and show the working, step by step."


def chatml(user: str) -> str:
    return f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"


def world() -> list[LogEntry]:
    calls = []
    for i in range(12):
        calls.append(
            LogEntry(
                id=f"ok-{i}",
                created_at=T0 + i,
                prompt=chatml(f"Name a colour, please ({i})."),
                response="Blue.",
                finish_reason="stop",
                source="eval",
            )
        )
    for i in range(4):
        calls.append(
            LogEntry(
                id=f"maths-{i}",
                created_at=T0 + 100 + i,
                prompt=chatml(MATHS),
                response="17 17 17 17 17 17 17 17 17 17 17 17 17 17 17 17 17 17",
                finish_reason="stop",
                source="eval",
                eval_id="arith",
                max_tokens=64,
            )
        )
    for i in range(4):
        calls.append(
            LogEntry(
                id=f"room-{i}",
                created_at=T0 + 200 + i,
                prompt=f"<s>[INST] Hey everyone, what is new with you {i} [/INST]",
                response="and then we all went to the beach for the day.",
                finish_reason="stop",
                source="chatroom",
            )
        )
    return calls


def suggestions() -> tuple[list, dict[str, LogEntry]]:
    calls = world()
    summary = summarize(calls, trained_template="chatml")
    return suggest_training_data(summary, {c.id: c for c in calls}, trained_template="chatml"), {c.id: c for c in calls}


def test_format_problem_gets_fix_the_format_not_more_data() -> None:
    out, _ = suggestions()
    room = [s for s in out if s.action == FIX_FORMAT]
    assert room, [s.text for s in out]
    assert all(q.log_id.startswith("room-") for s in room for q in s.prompts)
    text = room[0].text
    assert "Fix the prompt format" in text and "ChatML" in text and "Llama 2" in text
    assert "More data of the usual kind will not help" in text


def test_data_suggestion_quotes_failing_prompts_verbatim_and_names_the_target() -> None:
    out, _ = suggestions()
    maths = [s for s in out if s.action == ADD_DATA and s.prompts[0].log_id.startswith("maths-")]
    assert maths
    s = maths[0]
    # Four failing calls sent the same prompt: it is quoted once, with how often it was seen.
    assert s.kind == "loop" and len(s.prompts) == 1 and s.prompts[0].seen == 4
    assert all(q.prompt == MATHS for q in s.prompts)
    assert MATHS in s.text
    assert "say it once and stop" in s.target and "<|im_end|>" in s.target and "working" in s.target
    assert s.failures == 4


def test_same_calls_are_not_suggested_twice() -> None:
    out, _ = suggestions()
    keys = [frozenset(q.log_id for q in s.prompts) for s in out]
    assert len(keys) == len(set(keys))


def test_jsonl_leaves_the_reply_empty_for_the_person() -> None:
    out, _ = suggestions()
    lines = to_jsonl(out).splitlines()
    assert lines
    records = [json.loads(line) for line in lines]
    assert {r["source_log_id"] for r in records} <= {f"maths-{i}" for i in range(4)}  # format fixes are not data
    for r in records:
        assert r["messages"] == [{"role": "user", "content": MATHS}, {"role": "assistant", "content": ""}]
        assert r["target"]
    assert len({r["source_log_id"] for r in records}) == len(records)


def test_jsonl_keeps_multi_turn_messages() -> None:
    calls = world()
    msgs = [ChatMessage(role="system", content="Be brief."), ChatMessage(role="user", content=MATHS)]
    calls = [c.model_copy(update={"messages": msgs}) if c.id.startswith("maths") else c for c in calls]
    summary = summarize(calls, trained_template="chatml")
    out = suggest_training_data(summary, {c.id: c for c in calls}, trained_template="chatml")
    record = json.loads(to_jsonl(out).splitlines()[0])
    assert record["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": MATHS},
        {"role": "assistant", "content": ""},
    ]


def test_markdown_puts_prompts_in_code_blocks() -> None:
    out, _ = suggestions()
    md = to_markdown(out)
    assert f"```text\n{MATHS}\n```" in md
    assert to_markdown([]).startswith("No failing group")


def test_nothing_failing_means_no_suggestion() -> None:
    calls = world()[:12]
    assert suggest_training_data(summarize(calls, trained_template="chatml"), {c.id: c for c in calls}) == []
    assert to_jsonl([]) == ""
