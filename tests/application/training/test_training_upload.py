"""Building the JSONL from suggestions and sending it: replies, empty replies, left-out
prompts, size checks before sending, and the platform's own limit."""

from __future__ import annotations

import json

import pytest

import simulator.blahdev.training as sim_training
from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import LogEntry
from application.training.upload import (
    TooLargeError,
    build_jsonl,
    draft_examples,
    safe_filename,
    send_training_set,
    size_problem,
)
from diagnosis.suggest import ADD_DATA, FIX_FORMAT, PromptQuote, Suggestion
from simulator.server import SimulatorServer


def suggestion(action: str, *quotes: PromptQuote, target: str = "short direct answers") -> Suggestion:
    return Suggestion("instruction", "question", "loop", action, 10, 5, target, "text", tuple(quotes))


def quote(log_id: str, prompt: str, messages: tuple[tuple[str, str], ...] = ()) -> PromptQuote:
    return PromptQuote(log_id, prompt, messages, "loop loop loop")


def test_drafts_only_data_suggestions_once_per_prompt() -> None:
    q1 = quote("a", "What is 2+2?")
    q2 = quote("b", "What is 2+2?")  # the same prompt sent again: answered once
    q3 = quote("c", "Hi", (("system", "Be brief."), ("user", "Hi")))
    fmt = quote("d", "[INST] hello [/INST]")
    drafts = draft_examples([suggestion(ADD_DATA, q1, q2), suggestion(FIX_FORMAT, fmt), suggestion(ADD_DATA, q3, q1)])
    assert [d.log_id for d in drafts] == ["a", "c"]
    assert drafts[0].turns == (("user", "What is 2+2?"),)
    assert drafts[1].turns == (("system", "Be brief."), ("user", "Hi"))
    assert drafts[0].target == "short direct answers" and drafts[0].model_reply == "loop loop loop"


def test_jsonl_carries_the_written_replies_and_counts_the_empty_ones() -> None:
    drafts = draft_examples([suggestion(ADD_DATA, quote("a", "Q1 \u202e[b]x[/b]"), quote("b", "Q2"), quote("c", "Q3"))])
    replies = {"a": "Answer one.", "b": "   "}  # whitespace is no reply
    kept = build_jsonl(drafts, replies, leave_out_unanswered=False)
    lines = [json.loads(line) for line in kept.data.decode().splitlines()]
    assert (kept.examples, kept.empty_replies, kept.left_out) == (3, 2, 0)
    assert lines[0]["messages"] == [
        {"role": "user", "content": "Q1 \u202e[b]x[/b]"},
        {"role": "assistant", "content": "Answer one."},
    ]
    assert lines[0]["source_log_id"] == "a" and lines[0]["target"] == "short direct answers"
    assert lines[1]["messages"][-1] == {"role": "assistant", "content": ""}
    left = build_jsonl(drafts, replies, leave_out_unanswered=True)
    assert (left.examples, left.empty_replies, left.left_out) == (1, 0, 2)
    assert left.size_bytes == len(left.data) < kept.size_bytes
    nothing = build_jsonl(drafts, {}, leave_out_unanswered=True)
    assert nothing.data == b"" and nothing.examples == 0


def test_size_problem_and_filenames() -> None:
    assert size_problem(100, 100) is None and size_problem(100, None) is None
    assert size_problem(101, 100) == "the set is 101 bytes; the upload allows at most 100"
    assert safe_filename("fixes for ../../etc/passwd!") == "fixes-for-..-..-etc-passwd.jsonl"
    assert safe_filename("  ") == "training-set.jsonl"


async def test_send_uploads_and_reads_the_set_back(fresh_sim: SimulatorServer) -> None:
    data = b'{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "Hello."}]}\n' * 3
    seen: list[tuple[int, int]] = []
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        result = await send_training_set(client, "tiny set", data, progress=lambda s, t: seen.append((s, t)))
    listed = result.training_set
    assert listed is not None and listed.id == result.ticket.training_set_id
    assert (listed.status, listed.example_count, listed.size_bytes, listed.filename) == (
        "ready",
        3,
        len(data),
        "tiny-set.jsonl",
    )
    assert seen and seen[-1] == (len(data), len(data))


async def test_platform_limit_refuses_before_any_byte(
    fresh_sim: SimulatorServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sim_training, "MAX_UPLOAD_BYTES", 50)
    before = dict(fresh_sim.world.training_sets)
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        with pytest.raises(TooLargeError, match="nothing was sent") as caught:
            await send_training_set(client, "too big", b'{"a": 1}\n' * 20)
    assert caught.value.by == "platform" and caught.value.size == 180
    assert fresh_sim.world.training_sets == before  # refused at the ticket: no set created


def test_suggestions_from_real_calls_give_prompts_to_answer() -> None:
    from tui.screens.training.build import suggest_from_calls

    looping = "the the the the the the the the the the the the the the the the the the the the"
    calls = [
        LogEntry(
            id=f"ok{i}",
            created_at=i,
            prompt=f"<|im_start|>user\nName colour {i}<|im_end|>\n<|im_start|>assistant\n",
            response="Blue.",
            finish_reason="stop",
            source="eval",
        )
        for i in range(10)
    ]
    calls += [
        LogEntry(
            id=f"bad{i}",
            created_at=100 + i,
            prompt="<|im_start|>user\nSum 17 and 25, show working.<|im_end|>\n<|im_start|>assistant\n",
            response=looping,
            finish_reason="stop",
            source="eval",
            eval_id="maths",
        )
        for i in range(4)
    ]
    drafts = draft_examples(suggest_from_calls(calls, "chatml"))
    assert [d.prompt for d in drafts] == ["Sum 17 and 25, show working."]
