"""Which chat template a prompt is in, and which one the model was trained with.

Detection reads the prompt text the model actually saw (after templating). Each template is
recognised by its markers; when markers of several templates occur (a user quoting another
format), the template whose marker comes first wins, because the framing starts the prompt.

The documented llama2/mistral rule: both use ``[INST] ... [/INST]``.
- ``llama2``: the prompt has a ``<<SYS>>`` block, or its first ``[INST]`` is followed by a space
  or newline (``<s>[INST] Hello [/INST]``);
- ``mistral``: ``[INST]`` directly followed by the text (``[INST]Hello[/INST]``), no ``<<SYS>>``.
Mistral's older tokenizer also writes ``[INST] Hello [/INST]`` with spaces, which is byte for
byte llama2 without a system prompt, so :func:`templates_compatible` treats llama2 and mistral as
the same format unless the prompt has a ``<<SYS>>`` block (which mistral never had).

``phi3`` is recognised by ``<|user|>``/``<|assistant|>``/``<|system|>`` (zephyr uses the same
role tokens, so a zephyr prompt reads as phi3).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from common.chat_markers import TEMPLATE_MARKERS as _MARKERS
from common.constants import KNOWN_TEMPLATES  # noqa: F401 - re-exported: detectors import it from here
from common.records import ChatTurn

from .inputs import LensRecord, ModelRecord

#: Human names used in evidence and reports.
TEMPLATE_NAMES: dict[str, str] = {
    "chatml": "ChatML",
    "llama2": "Llama 2",
    "llama3": "Llama 3",
    "alpaca": "Alpaca",
    "gemma": "Gemma",
    "phi3": "Phi-3",
    "mistral": "Mistral",
    "vicuna": "Vicuna",
    "none": "no template (raw text)",
}

_VICUNA_USER = re.compile(r"(?:^|\n)USER:")
# The first marker of any template, in one scan (no marker is a prefix of another, so at most one
# can start at a given position: the leftmost match is the marker that occurs first).
_MARKER_RE = re.compile("|".join(re.escape(marker) for marker, _ in _MARKERS))
_MARKER_FIRST = ("<", "[", "#")
assert all(marker.startswith(_MARKER_FIRST) for marker, _ in _MARKERS)  # detect_template relies on it
_MARKER_NAME = dict(_MARKERS)

_ALIASES: dict[str, str] = {
    "chat_ml": "chatml",
    "chat-ml": "chatml",
    "im_start": "chatml",
    "llama-2": "llama2",
    "llama_2": "llama2",
    "llama-2-chat": "llama2",
    "llama-3": "llama3",
    "llama_3": "llama3",
    "llama3.1": "llama3",
    "llama-3.1": "llama3",
    "phi-3": "phi3",
    "phi_3": "phi3",
    "mistral-instruct": "mistral",
    "raw": "none",
    "completion": "none",
    "base": "none",
    "plain": "none",
}


def normalize_template(value: str | None) -> str | None:
    """Lower-cased, with common spellings mapped to the canonical names; blank -> None."""
    if value is None:
        return None
    key = value.strip().lower()
    if not key:
        return None
    return _ALIASES.get(key, key)


def detect_template(prompt: str | None, messages: Sequence[ChatTurn] | None = None) -> str | None:
    """The chat template the prompt is written in, ``"none"`` for a raw prompt.

    ``None`` when there is no prompt text to read (``prompt`` is None, or it is blank while
    structured ``messages`` were sent: the text the model saw was not recorded, so its
    template cannot be told).
    """
    if prompt is None:
        return None
    if messages and not prompt.strip():
        return None
    # Every marker starts with "<", "[" or "#": start the scan at the first of those (str.find is
    # far cheaper per character than the regex engine), or skip it for a prompt with none.
    if prompt.startswith(_MARKER_FIRST):
        first = _MARKER_RE.search(prompt)
    else:
        begin = _first_of(prompt, _MARKER_FIRST)
        first = _MARKER_RE.search(prompt, begin) if begin >= 0 else None
    if first is None:
        best_at, best = len(prompt) + 1, "none"
    else:
        best_at, best = first.start(), _MARKER_NAME[first.group()]
    if best_at > 0 and "USER:" in prompt and "ASSISTANT:" in prompt:
        match = _VICUNA_USER.search(prompt, 0, best_at)
        if match is not None and match.start() < best_at:
            best = "vicuna"
    if best == "inst":
        return _inst_flavour(prompt)
    return best


def _first_of(text: str, needles: tuple[str, ...]) -> int:
    """Where the first of ``needles`` occurs in ``text``, or -1."""
    found = [at for at in map(text.find, needles) if at != -1]
    return min(found) if found else -1


def _inst_flavour(prompt: str) -> str:
    if "<<SYS>>" in prompt:
        return "llama2"
    at = prompt.find("[INST]") + len("[INST]")
    if at < len(prompt) and prompt[at] in " \n":
        return "llama2"
    return "mistral"


def marker_of(prompt: str, template: str) -> str | None:
    """The marker text that identified ``template`` in ``prompt`` (for evidence)."""
    if template == "vicuna":
        return "USER:"
    if template in ("llama2", "mistral"):
        return "[INST]" if "[INST]" in prompt else "<<SYS>>"
    for marker, name in _MARKERS:
        if name == template and marker in prompt:
            return marker
    return None


def templates_compatible(detected: str, trained: str, prompt: str = "") -> bool:
    """True when a prompt in ``detected`` format is what a model trained on ``trained`` expects."""
    if detected == trained:
        return True
    if {detected, trained} == {"llama2", "mistral"}:
        return "<<SYS>>" not in prompt
    return False


def resolve_trained_template(
    config_value: str | None, model: ModelRecord | None, lens: LensRecord | None
) -> tuple[str | None, str]:
    """The template the model was trained with, and where that came from.

    The person's config wins, then the platform's model record, then the Lens bundle;
    otherwise ``(None, "unknown")``: no template verdict is given without it.
    """
    for value, source in (
        (config_value, "config"),
        (model.chat_template if model is not None else None, "platform"),
        (lens.chat_template if lens is not None else None, "lens"),
    ):
        template = normalize_template(value)
        if template is not None:
            return template, source
    return None, "unknown"


def template_name(template: str | None) -> str:
    """A human name for a template value (unknown values are shown as they are)."""
    if template is None:
        return "unknown"
    return TEMPLATE_NAMES.get(template, template)
