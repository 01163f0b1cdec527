"""Chat templates: how a list of turns becomes the exact text sent to a model.

The simulator renders every prompt through one of these, so each log's ``prompt`` is the
real text a model saw. The platform renders CHATROOM prompts in ``llama2`` format for every
model (see ``CHATROOM_TEMPLATE``), whatever the model was trained with: that is the
mismatch the person's chatml-trained model stumbles on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypedDict


class Turn(TypedDict):
    role: str
    content: str


CHATROOM_TEMPLATE = "llama2"
"""The one format the platform uses for chatroom prompts, for every model."""

FALLBACK_TEMPLATE = "transcript"
"""Used for eval/infer/chat prompts of a model whose template is unknown."""


def _chatml(turns: Sequence[Turn]) -> str:
    body = "".join(f"<|im_start|>{t['role']}\n{t['content']}<|im_end|>\n" for t in turns)
    return body + "<|im_start|>assistant\n"


def _llama2(turns: Sequence[Turn]) -> str:
    system = "\n".join(t["content"] for t in turns if t["role"] == "system")
    out: list[str] = []
    pending_sys = f"<<SYS>>\n{system}\n<</SYS>>\n\n" if system else ""
    for t in turns:
        if t["role"] == "user":
            out.append(f"<s>[INST] {pending_sys}{t['content']} [/INST]")
            pending_sys = ""
        elif t["role"] == "assistant":
            out.append(f" {t['content']} </s>")
    return "".join(out)


def _llama3(turns: Sequence[Turn]) -> str:
    body = "".join(f"<|start_header_id|>{t['role']}<|end_header_id|>\n\n{t['content']}<|eot_id|>" for t in turns)
    return "<|begin_of_text|>" + body + "<|start_header_id|>assistant<|end_header_id|>\n\n"


def _mistral(turns: Sequence[Turn]) -> str:
    system = "\n".join(t["content"] for t in turns if t["role"] == "system")
    out = ["<s>"]
    for t in turns:
        if t["role"] == "user":
            text = f"{system}\n\n{t['content']}" if system else t["content"]
            system = ""
            out.append(f"[INST] {text} [/INST]")
        elif t["role"] == "assistant":
            out.append(f"{t['content']}</s>")
    return "".join(out)


def _gemma(turns: Sequence[Turn]) -> str:
    out = ["<bos>"]
    for t in turns:
        role = "model" if t["role"] == "assistant" else "user"
        out.append(f"<start_of_turn>{role}\n{t['content']}<end_of_turn>\n")
    return "".join(out) + "<start_of_turn>model\n"


def _alpaca(turns: Sequence[Turn]) -> str:
    instruction = "\n\n".join(t["content"] for t in turns if t["role"] != "assistant")
    return f"### Instruction:\n{instruction}\n\n### Response:\n"


def _none(turns: Sequence[Turn]) -> str:
    """A base/completion model gets the bare text, turns joined by blank lines."""
    return "\n\n".join(t["content"] for t in turns)


def _transcript(turns: Sequence[Turn]) -> str:
    lines = [f"{t['role'].capitalize()}: {t['content']}" for t in turns]
    return "\n".join(lines) + "\nAssistant:"


_RENDERERS: dict[str, Callable[[Sequence[Turn]], str]] = {
    "chatml": _chatml,
    "llama2": _llama2,
    "llama3": _llama3,
    "mistral": _mistral,
    "gemma": _gemma,
    "alpaca": _alpaca,
    "none": _none,
    "transcript": _transcript,
}

END_MARKERS: dict[str, str] = {
    "chatml": "<|im_end|>",
    "llama2": "</s>",
    "llama3": "<|eot_id|>",
    "mistral": "</s>",
    "gemma": "<end_of_turn>",
}


def render(template: str | None, turns: Sequence[Turn]) -> str:
    """The exact prompt text for ``turns`` in ``template`` (unknown/None -> transcript)."""
    renderer = _RENDERERS.get(template or FALLBACK_TEMPLATE, _transcript)
    return renderer(turns)


def template_for_calls(chat_template: str | None) -> str:
    """Which template the platform uses for a model's eval/infer/chat calls."""
    return chat_template if chat_template in _RENDERERS else FALLBACK_TEMPLATE
