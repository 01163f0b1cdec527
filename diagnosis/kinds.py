"""The finding kinds, with what each means and what fixes it.

Screens, badges and the report read ``KIND_INFO``; the detectors only use the constants.
The names are part of the public contract (badges, archive columns, JSON reports): never rename.
"""

from __future__ import annotations

from dataclasses import dataclass

EMPTY = "empty"
ERROR = "error"
LOOP = "loop"
TRUNCATION = "truncation"
CONTINUATION = "continuation"
REFUSAL = "refusal"
TEMPLATE_MISMATCH = "template_mismatch"
TEMPLATE_LEAK = "template_leak"
WRONG_ANSWER = "wrong_answer"
#: Not produced by ``classify``: found on agent rollouts (``diagnosis.rollouts``).
TOOL_LOOP = "tool_loop"
TOOL_FAILURES = "tool_failures"
#: Not produced by ``classify``: a failure that falls inside a health outage window
#: (``summarize`` counts these apart so the model is not blamed for its host).
HOST_DOWN = "host_down"


@dataclass(frozen=True, slots=True)
class KindInfo:
    kind: str
    label: str
    description: str
    fix: str


KIND_INFO: dict[str, KindInfo] = {
    info.kind: info
    for info in (
        KindInfo(
            ERROR,
            "error",
            "The call failed: no reply came back, only an error.",
            "Not a model problem as such: check the endpoint, its logs and the platform's health checks.",
        ),
        KindInfo(
            EMPTY,
            "empty",
            "The call succeeded but the reply is empty, whitespace or a bare stop token.",
            "Train on non-empty answers to these prompts; check the model is not emitting its stop token first "
            "(often a template mismatch).",
        ),
        KindInfo(
            LOOP,
            "loop",
            "The reply repeats itself: a word, phrase, sentence or paragraph over and over, or one character in a run.",
            "Add short answers that stop; lower temperature or add a repetition penalty; check the stop token is "
            "configured so the model can end.",
        ),
        KindInfo(
            TRUNCATION,
            "cut off",
            "The reply was cut off by the token limit instead of the model choosing to stop.",
            "Raise max_tokens if the answers were nearly done, or train on shorter complete answers.",
        ),
        KindInfo(
            CONTINUATION,
            "continues prompt",
            "The reply carries on the prompt (extends the user's text, writes the next user turn or the next "
            "few-shot example) instead of answering it.",
            "Send the prompt in the model's chat template and add the stop sequence; train on replies that end "
            "at the end of the assistant turn.",
        ),
        KindInfo(
            REFUSAL,
            "refusal",
            "The reply declines the task.",
            "If the requests are harmless, add helpful answers to them; look for over-cautious data in the set.",
        ),
        KindInfo(
            TEMPLATE_MISMATCH,
            "wrong template",
            "The prompt was not sent in the chat template the model was trained with.",
            "Fix the prompt format (send the trained template), or train on the format the platform sends: "
            "more data of the usual kind will not help.",
        ),
        KindInfo(
            TEMPLATE_LEAK,
            "token leak",
            "Special tokens of a chat template appear in the reply: the stop tokens are misconfigured.",
            "Configure the server's stop tokens for the trained template and strip them; train replies to end "
            "with exactly one end-of-turn token.",
        ),
        KindInfo(
            WRONG_ANSWER,
            "wrong answer",
            "The judge scored the reply low and nothing in the text (loop, cut-off, refusal...) explains it.",
            "Read the judge's reasoning first (it can be wrong); then add correct answers to prompts like these.",
        ),
        KindInfo(
            TOOL_LOOP,
            "tool loop",
            "The agent called the same tool with the same arguments again and again.",
            "Train on rollouts that use a tool's result instead of asking again; cap repeated identical calls "
            "in the agent loop and feed back that the call was already made.",
        ),
        KindInfo(
            TOOL_FAILURES,
            "tool failures",
            "Some of the rollout's tool calls failed (an error result).",
            "Read the failed calls' arguments: wrong arguments are a training matter, failing tools are not.",
        ),
        KindInfo(
            HOST_DOWN,
            "host down",
            "The call failed while the platform's health checks said the endpoint was down.",
            "Nothing to train: the host was down. Check the endpoint's uptime.",
        ),
    )
}

#: Kinds ``classify`` can produce, in the order findings are listed.
CLASSIFY_KINDS: tuple[str, ...] = (
    ERROR,
    EMPTY,
    TEMPLATE_MISMATCH,
    TEMPLATE_LEAK,
    CONTINUATION,
    LOOP,
    TRUNCATION,
    REFUSAL,
    WRONG_ANSWER,
)

#: Kinds that describe the prompt rather than a bad reply: a call with only these did not fail.
CAUSE_ONLY_KINDS: frozenset[str] = frozenset({TEMPLATE_MISMATCH})


def describe(kind: str) -> KindInfo:
    """The info for ``kind``; an unknown kind (e.g. a new one from the platform) gets a neutral entry."""
    info = KIND_INFO.get(kind)
    if info is not None:
        return info
    return KindInfo(kind, kind, f"{kind} (a kind this version does not know)", "No advice for this kind.")
