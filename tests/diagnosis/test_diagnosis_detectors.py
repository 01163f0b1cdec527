"""Each detector on its own, with the traps the brief names."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api_client.blahdev.shapes import ChatMessage, LogEntry, Result
from diagnosis import classify, kinds

CHATML_Q = "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n<|im_start|>assistant\n"


def chatml(user: str) -> str:
    return f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"


def entry(response: str | None, prompt: str | None = CHATML_Q, **fields: Any) -> LogEntry:
    fields.setdefault("finish_reason", "stop")
    return LogEntry(id=fields.pop("id", "log-1"), created_at=0, prompt=prompt, response=response, **fields)


def kinds_of(e: LogEntry, trained: str | None = "chatml", result: Result | None = None) -> list[str]:
    return [f.kind for f in classify(e, trained_template=trained, result=result)]


def only(e: LogEntry, kind: str, trained: str | None = "chatml", result: Result | None = None):
    found = [f for f in classify(e, trained_template=trained, result=result) if f.kind == kind]
    assert len(found) == 1, [f.kind for f in classify(e, trained_template=trained, result=result)]
    return found[0]


# --------------------------------------------------------------------------- error / empty


def test_error_is_never_also_empty() -> None:
    e = entry("", error="connection reset by peer", finish_reason="error")
    assert kinds_of(e) == [kinds.ERROR]
    assert '"connection reset by peer"' in only(e, kinds.ERROR).evidence


def test_failed_call_without_error_text_says_so() -> None:
    finding = only(entry(None, finish_reason="error"), kinds.ERROR)
    assert "no error text" in finding.evidence


@pytest.mark.parametrize("reply", ["", "   \n\t", "\u200b"])
def test_empty_replies(reply: str) -> None:
    assert kinds_of(entry(reply)) == [kinds.EMPTY]


@pytest.mark.parametrize("reply", ["<|im_end|>", "</s>", "<|eot_id|>", "\n<|im_end|>\n", "<|im_end|><|im_end|>"])
def test_bare_stop_token_is_empty_and_a_leak(reply: str) -> None:
    """The server returned its end-of-turn token as the text: nothing was said, and the token leaked."""
    assert kinds_of(entry(reply)) == [kinds.EMPTY, kinds.TEMPLATE_LEAK]
    assert "is only the end-of-turn token" in only(entry(reply), kinds.TEMPLATE_LEAK).evidence


def test_bare_stop_token_evidence_quotes_it() -> None:
    assert '"<|im_end|>"' in only(entry("<|im_end|>"), kinds.EMPTY).evidence


# --------------------------------------------------------------------------- truncation


def test_truncated_by_finish_reason_mentions_mid_sentence_and_budget() -> None:
    reply = "The French Revolution began in 1789 and it changed"
    finding = only(entry(reply, finish_reason="length", completion_tokens=12, max_tokens=12), kinds.TRUNCATION)
    assert finding.detail == {
        "completion_tokens": 12,
        "max_tokens": 12,
        "finish_reason": "length",
        "ending": "mid-sentence",
        "looping": False,
    }
    assert "12 of 12 tokens" in finding.evidence and "mid-sentence" in finding.evidence
    assert finding.span == (len(reply) - 20, len(reply))
    assert reply[finding.span[0] : finding.span[1]] == " 1789 and it changed"


def test_budget_used_up_with_finish_reason_missing() -> None:
    e = entry("Plants take in light and", finish_reason=None, completion_tokens=64, max_tokens=64)
    assert kinds.TRUNCATION in kinds_of(e)


def test_mid_code_ending_is_named() -> None:
    e = entry("```python\ndef f(x):\n    return", finish_reason="length", completion_tokens=9, max_tokens=9)
    assert "inside a code block" in only(e, kinds.TRUNCATION).evidence


@pytest.mark.parametrize(
    "fields",
    [
        {"finish_reason": "stop"},  # chose to stop, even if mid-sentence
        {"finish_reason": None, "completion_tokens": 1, "max_tokens": 64},  # a one-word answer
        {"finish_reason": None},  # no counts: no evidence of a limit
        {"finish_reason": "stop", "completion_tokens": 64, "max_tokens": 64},
    ],
)
def test_not_truncated(fields: dict[str, Any]) -> None:
    assert kinds.TRUNCATION not in kinds_of(entry("Paris", **fields))


def test_missing_counts_are_said_not_invented() -> None:
    finding = only(entry("Berlin is a big", finish_reason="length"), kinds.TRUNCATION)
    assert "token counts not recorded" in finding.evidence
    assert finding.detail["completion_tokens"] is None and finding.detail["max_tokens"] is None


# --------------------------------------------------------------------------- continuation


def test_extends_the_users_sentence() -> None:
    finding = only(
        entry("blue because it reminds me of the sea.", chatml("My favourite colour is")), kinds.CONTINUATION
    )
    assert finding.detail["how"] == "extends_sentence"
    assert '"My favourite colour is"' in finding.evidence


def test_writes_next_user_turn_with_span_at_the_turn() -> None:
    reply = "Berlin.\nUser: What about France?\nAssistant: Paris."
    finding = only(entry(reply), kinds.CONTINUATION)
    assert finding.detail["how"] == "next_user_turn"
    assert reply[finding.span[0] :].startswith("User: What about France?")


def test_few_shot_pattern_carried_on() -> None:
    prompt = "Q: 2 + 2?\nA: 4\nQ: 3 + 3?\nA: 6\nQ: 5 + 5?\nA:"
    finding = only(entry(" 10\nQ: 6 + 6?\nA: 12", prompt), kinds.CONTINUATION, trained="none")
    assert finding.detail["how"] == "few_shot"


def test_completion_model_completing_is_fine() -> None:
    assert kinds_of(entry(" paris, a lovely city.", "The capital of France is"), trained="none") == []


def test_dialogue_asked_for_is_not_a_continuation() -> None:
    e = entry("User: Hello, robot.\nRobot: Hello!", chatml("Write a dialogue between a user and a robot."))
    assert kinds_of(e) == []


def test_reads_user_turn_from_messages() -> None:
    e = entry(
        "blue, like the sea.",
        chatml("My favourite colour is"),
        messages=[
            ChatMessage(role="system", content="Be nice."),
            ChatMessage(role="user", content="My favourite colour is"),
        ],
    )
    assert kinds.CONTINUATION in kinds_of(e)


@pytest.mark.parametrize(
    ("user", "reply", "item"),
    [
        (
            "Quiz question 1: What is the capital of France?",
            "Paris. Quiz question 2: What is the capital of Spain?",
            "Quiz question 2:",
        ),
        ("Riddle 4) What has keys but no locks?", "A piano.\n\nRiddle 5) What has a neck but no head?", "Riddle 5)"),
        ("Task #2: Name a mammal that lays eggs.", "The platypus.\nTask #3: Name a bird that cannot fly.", "Task #3:"),
        ("Q7. Spell 'necessary'.", "necessary! Q8. Spell 'separate'.", "Q8."),
    ],
)
def test_reply_writes_the_next_item_of_a_numbered_series(user: str, reply: str, item: str) -> None:
    finding = only(entry(reply, chatml(user)), kinds.CONTINUATION)
    assert finding.detail["how"] == "next_in_series"
    assert reply[finding.span[0] :].startswith(item)


@pytest.mark.parametrize(
    ("user", "reply"),
    [
        ("Step 1: preheat the oven. What is step 2?", "Step 2: mix the flour and the eggs."),
        ("Question 5: What is 6 x 7?", "Question 5: 42."),
        ("Exercise 1: write the next exercise for my class.", "Exercise 2: Name three rivers."),
        (
            "Give me 3 quiz questions about rivers.",
            "Quiz question 1: Which is longest?\nQuiz question 2: Which is widest?",
        ),
        (
            "Chapter 1: Tom finds a map. Summarise chapter 1 in one line.",
            "Tom finds a map; the story goes on in Chapter 2.",
        ),
    ],
)
def test_numbered_series_traps(user: str, reply: str) -> None:
    assert kinds.CONTINUATION not in kinds_of(entry(reply, chatml(user)))


_ROOM = "Alice: Has anyone tried the pasta place?\nBob: Not yet, is it good?\nAlice: The carbonara is great."


def _room(reply: str, transcript: str = _ROOM) -> LogEntry:
    return entry(reply, f"<s>[INST] {transcript} [/INST]", source="chatroom")


def test_reply_writes_another_chatroom_speakers_turn() -> None:
    reply = "Sounds lovely!\nBob: Let's go on Friday."
    finding = only(_room(reply), kinds.CONTINUATION, trained="llama2")
    assert finding.detail["how"] == "other_speaker"
    assert reply[finding.span[0] :].startswith("Bob: Let's go")
    assert "Bob's turn" in finding.evidence


def test_a_transcript_outside_the_chatroom_counts_too() -> None:
    transcript = "Sam: Are we on for tonight?\nKim: I think so.\nSam: Great, where?"
    finding = only(entry("At the café.\nKim: See you there.", chatml(transcript)), kinds.CONTINUATION)
    assert finding.detail["how"] == "other_speaker"


@pytest.mark.parametrize(
    ("reply", "transcript"),
    [
        ("The carbonara sounds great, Alice!", _ROOM),
        ("Alice: I agree, it is great.", _ROOM),  # a name opening the reply may be the model's own
        ("Good idea.\nNote: they close at nine.", _ROOM),
        ("Carol: Hello!\nDave: Hi!", _ROOM),  # nobody in the room is called that
        ("Sure!\nAlice: One pizza.\nBob: Two.", _ROOM + "\nBob: Can someone write a script where we order pizza?"),
    ],
)
def test_chatroom_speaker_traps(reply: str, transcript: str) -> None:
    assert kinds.CONTINUATION not in kinds_of(_room(reply, transcript), trained="llama2")


def test_a_form_is_not_a_transcript() -> None:
    e = entry("Name: John\nAge: 30\nBio: John is 30.", chatml("Name: John\nAge: 30\nWrite a bio line."))
    assert kinds.CONTINUATION not in kinds_of(e)


# --------------------------------------------------------------------------- refusal


@pytest.mark.parametrize(
    "reply",
    [
        "I'm sorry, but I can't help with that.",
        "As an AI language model, I cannot write that.",
        "I cannot help with requests like this.",
        "I’m sorry, but I can’t assist with that request.",
        "Unfortunately, I am unable to provide medical advice.",
    ],
)
def test_refusals(reply: str) -> None:
    finding = only(entry(reply), kinds.REFUSAL)
    assert reply[finding.span[0] : finding.span[1]].rstrip(".") in reply


@pytest.mark.parametrize(
    "reply",
    [
        "Sorry to hear that! Here are some tips: rest, drink water and talk to a friend.",
        "I can't help but admire the painting.",
        "I'm sorry, I don't know the answer.",
        (
            "I can't check live weather, but here is what I know: Paris is mild in spring, about 15 degrees, "
            "so bring a light jacket."
        ),
        'The robot said, "I cannot help you, Sarah." Then it walked away into the dark night for good.',
    ],
)
def test_not_refusals(reply: str) -> None:
    assert kinds.REFUSAL not in kinds_of(entry(reply))


_LONG_OPENING = (
    "Thank you for asking about this. Many people are curious about how such things work, and there is a lot of "
    "material about it in films, books and online forums where people share their experiences. It is a subject with "
    "real consequences for other people's safety, and it deserves some care. "
)


@pytest.mark.parametrize(
    "ending",
    [
        "I'm sorry, but I can't help with that.",
        "So I must respectfully decline.",
        "For that reason I won't provide that.",
        "Sorry, I cannot assist with this request.",
        "I apologise, but I am unable to do it.",
    ],
)
def test_refusal_after_a_long_opening(ending: str) -> None:
    reply = _LONG_OPENING + ending
    assert len(_LONG_OPENING) > 240
    finding = only(entry(reply), kinds.REFUSAL)
    assert finding.detail["late"] is True
    assert reply[finding.span[0] : finding.span[1]] == ending


@pytest.mark.parametrize(
    "ending",
    [
        "I can't give medical advice, so see a doctor if it keeps happening.",
        "I can't wait to hear how it goes!",
        "Then the guard said, \"I'm sorry, but I can't let you in.\"",
        (
            "I'm sorry, but I can't help with that. Still, here is what you can do instead: "
            "ask a locksmith, who will open "
            "the door safely and legally, and bring proof that you live there."
        ),
    ],
)
def test_late_refusal_traps(ending: str) -> None:
    assert kinds.REFUSAL not in kinds_of(entry(_LONG_OPENING + ending))


# --------------------------------------------------------------------------- template leak


def test_leak_span_is_at_the_token() -> None:
    reply = "Paris.<|im_end|>\nThe Eiffel Tower is tall."
    finding = only(entry(reply), kinds.TEMPLATE_LEAK)
    assert reply[finding.span[0] : finding.span[1]] == "<|im_end|>"
    assert finding.detail["token"] == "<|im_end|>" and finding.detail["template"] == "chatml"


@pytest.mark.parametrize(
    "reply",
    [
        "Now only <s>$20</s> $15!",
        "Was <s>$20</s>",
        "A ChatML turn ends with `<|im_end|>` then more.",
        "It ends with `<|im_end|>`",
    ],
)
def test_not_leaks(reply: str) -> None:
    assert kinds.TEMPLATE_LEAK not in kinds_of(entry(reply))


@pytest.mark.parametrize(
    ("reply", "token"),
    [
        ("Bananas are yellow.<|im_end|>", "<|im_end|>"),
        ("An ant.<end_of_turn>", "<end_of_turn>"),
        ("Carrot. [/INST]", "[/INST]"),
        ("Rome.</s>", "</s>"),
        ("Venus.<|eot_id|>\n", "<|eot_id|>"),
        ("Yes.<|im_end|></s>", "<|im_end|>"),
    ],
)
def test_end_of_turn_token_left_at_the_end_is_a_leak(reply: str, token: str) -> None:
    """A stop token the server honoured never reaches the text: one at the end was not stopped on or stripped."""
    finding = only(entry(reply), kinds.TEMPLATE_LEAK)
    assert finding.detail["token"] == token
    assert reply[finding.span[0] : finding.span[1]] == token
    assert finding.detail["trailing"] is True
    assert "ends with the end-of-turn token" in finding.evidence and "stop sequence" in finding.evidence


def test_next_turn_token_is_both_leak_and_continuation() -> None:
    e = entry("Welcome!<|im_end|>\n<|im_start|>user\nBye!")
    assert kinds_of(e) == [kinds.TEMPLATE_LEAK, kinds.CONTINUATION]


# --------------------------------------------------------------------------- template mismatch


def test_mismatch_names_both_templates_and_quotes_the_marker() -> None:
    finding = only(entry("Hello!", "<s>[INST] Hi there [/INST]"), kinds.TEMPLATE_MISMATCH)
    assert finding.detail == {"detected": "llama2", "trained": "chatml", "marker": "[INST]"}
    assert "Llama 2" in finding.evidence and "ChatML" in finding.evidence and '"[INST]"' in finding.evidence
    assert finding.span is None


def test_raw_prompt_to_chat_model_and_templated_prompt_to_base_model() -> None:
    assert only(entry("4", "What is 2 + 2?"), kinds.TEMPLATE_MISMATCH).detail["detected"] == "none"
    assert only(entry("Paris.", CHATML_Q), kinds.TEMPLATE_MISMATCH, trained="none").detail["trained"] == "none"


def test_no_verdict_without_a_known_trained_template() -> None:
    e = entry("Hi!", "<s>[INST] Hi [/INST]")
    assert kinds_of(e, trained=None) == []
    assert kinds_of(e, trained="zephyr-custom") == []


def test_matching_template_is_clean_and_mistral_spacing_is_compatible() -> None:
    assert kinds_of(entry("Paris.")) == []
    assert kinds_of(entry("Green.", "<s>[INST] Colour of limes? [/INST]"), trained="mistral") == []
    assert kinds.TEMPLATE_MISMATCH in kinds_of(
        entry("Green.", "<s>[INST] <<SYS>>\nBe brief.\n<</SYS>>\n\nColour? [/INST]"), trained="mistral"
    )


# --------------------------------------------------------------------------- wrong answer


def test_wrong_answer_only_when_judged_low_and_unexplained() -> None:
    low = Result(id="r", score=0.1)
    assert kinds_of(entry("Sydney."), result=low) == [kinds.WRONG_ANSWER]
    assert '"Sydney."' in only(entry("Sydney."), kinds.WRONG_ANSWER, result=low).evidence
    assert kinds_of(entry("Sydney."), result=Result(id="r", score=0.5)) == []
    assert kinds_of(entry("Sydney."), result=Result(id="r", score=None)) == []
    assert kinds_of(entry("Sydney."), result=None) == []
    assert kinds_of(entry("I'm sorry, but I can't do that."), result=low) == [kinds.REFUSAL]
    assert kinds_of(entry("Sydney.", "<s>[INST] Capital? [/INST]"), result=low) == [kinds.TEMPLATE_MISMATCH]


def test_kind_info_covers_every_kind() -> None:
    for kind in (*kinds.CLASSIFY_KINDS, kinds.HOST_DOWN):
        info = kinds.describe(kind)
        assert info.description and info.fix and info.kind == kind
    assert kinds.describe("brand_new").label == "brand_new"


# --------------------------------------------------------------------------- robustness

_TOKENS = [
    "<|im_end|>",
    "<|im_start|>user\n",
    "[INST]",
    "</s>",
    "User: ",
    "Q: ",
    "\n\n",
    "!!!!",
    "```",
    "I'm sorry, but I can't ",
]


@settings(max_examples=150, deadline=None)
@given(
    prompt=st.none() | st.text(max_size=80),
    reply=st.none() | st.lists(st.sampled_from(_TOKENS) | st.text(max_size=20), max_size=8).map("".join),
    finish=st.sampled_from([None, "stop", "length", "error", "weird"]),
    used=st.none() | st.integers(0, 300),
    limit=st.none() | st.integers(0, 300),
    trained=st.sampled_from([None, "chatml", "none", "llama2", "odd-name"]),
    error=st.none() | st.text(max_size=20),
)
def test_classify_never_crashes_and_spans_fit(prompt, reply, finish, used, limit, trained, error) -> None:
    e = LogEntry(
        id="x",
        created_at=0,
        prompt=prompt,
        response=reply,
        finish_reason=finish,
        completion_tokens=used,
        max_tokens=limit,
        error=error,
    )
    found = classify(e, trained_template=trained, result=Result(id="r", score=0.1))
    names = [f.kind for f in found]
    assert len(names) == len(set(names))
    assert not ({kinds.ERROR, kinds.EMPTY} <= set(names))
    for f in found:
        if f.span is not None:
            assert 0 <= f.span[0] <= f.span[1] <= len(reply or "")
