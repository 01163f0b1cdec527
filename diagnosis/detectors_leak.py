"""The template-leak detector: special tokens of a chat template in the reply's text."""

from __future__ import annotations

import re

from common.chat_markers import ALWAYS_LEAK as _ALWAYS_LEAK
from common.chat_markers import END_LEAK as _END_LEAK

from . import kinds
from .finding import Finding
from .text import quote

__all__ = ["detect_leak"]

# --------------------------------------------------------------------------- template leak

#: Tokens that close a turn: one left at the very end of the reply is the server not stopping on it.
_ENDS_TURN = frozenset({*_END_LEAK, "[/INST]"})
_LEAK_RE = re.compile("|".join(re.escape(t) for t in sorted({**_ALWAYS_LEAK, **_END_LEAK}, key=len, reverse=True)))


def detect_leak(reply: str) -> Finding | None:
    """Special tokens of a chat template inside the reply (a sign the stop tokens are misconfigured).

    An end-of-turn token at the very end counts too, as does a reply made only of one: a token
    the server stops on is never part of the text it returns, so seeing it means the server
    neither stopped on it nor stripped it. Not counted: tokens quoted in code, and ``</s>``
    closing an HTML ``<s>`` strikethrough.
    """
    if "<" not in reply and "[" not in reply and "###" not in reply:
        return None
    found: list[tuple[int, int, str]] = []
    trailing = False  # the first token found ends the reply (only stop tokens and whitespace after it)
    for match in _LEAK_RE.finditer(reply):
        token = match.group()
        if reply.count("`", 0, match.start()) % 2 == 1:
            continue  # quoted in code: the reply talks about the token
        if token == "</s>" and "<s>" in reply[: match.start()] and "[INST]" not in reply:
            continue
        at_end = token in _ENDS_TURN and (not reply[match.end() :].strip() or _is_stop_tail(reply[match.end() :]))
        if not found:
            trailing = at_end
        found.append((match.start(), match.end(), token))
    if not found:
        return None
    start, end, token = found[0]
    family = _ALWAYS_LEAK.get(token) or _END_LEAK.get(token, "?")
    more = f" ({len(found)} special tokens in all)" if len(found) > 1 else ""
    if trailing:
        where = "is only" if not reply[:start].strip() else "ends with"
        evidence = (
            f"The reply {where} the end-of-turn token {quote(token)} ({family}) as text{more}: the server neither "
            f"stopped on it nor stripped it; set {quote(token)} "
            f"as a stop sequence: {quote(reply[max(0, start - 40) :])}."
        )
    else:
        context = reply[max(0, start - 25) : end + 35]
        evidence = (
            f"Special token {quote(token)} ({family}) inside the reply at character {start}{more}: {quote(context)}."
        )
    detail = {
        "token": token,
        "template": family,
        "count": len(found),
        "tokens": sorted({t for _, _, t in found}),
        "trailing": trailing,
    }
    return Finding(kinds.TEMPLATE_LEAK, evidence, (start, end), detail)


def _is_stop_tail(tail: str) -> bool:
    """True when what follows a stop token is only more stop tokens (``<|im_end|></s>``)."""
    return not _LEAK_RE.sub("", tail).strip() and all(t.group() in _END_LEAK for t in _LEAK_RE.finditer(tail))
