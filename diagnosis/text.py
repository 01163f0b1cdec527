"""Small text helpers shared by the detectors: quoting, stop tokens, the user's turn."""

from __future__ import annotations

import re
from collections.abc import Sequence

from common.chat_markers import STOP_TOKENS
from common.chat_markers import USER_TURNS as _USER_TURNS
from common.format import format_utc
from common.records import ChatTurn

QUOTE_LIMIT = 80

_STOP_RE = re.compile("|".join(re.escape(t) for t in STOP_TOKENS))
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    """``text`` on one line: newlines and tabs as ``\\n``/``\\t``, other control chars as ``\\xNN``."""
    text = text.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return _CONTROL_RE.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def trim(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` made visible and cut to about ``limit`` characters, with an ellipsis when cut."""
    shown = visible(text)
    if len(shown) <= limit:
        return shown
    return shown[: limit - 1].rstrip() + "…"


def trim_tail(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Like :func:`trim` but keeps the end of the text (for where a reply was cut)."""
    shown = visible(text)
    if len(shown) <= limit:
        return shown
    return "…" + shown[-(limit - 1) :].lstrip()


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """A trimmed quotation in double quotes."""
    return f'"{trim(text, limit)}"'


_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"


def strip_stop_tokens(text: str) -> str:
    """``text`` without end-of-turn tokens, surrounding whitespace and zero-width characters."""
    if "<" in text:
        text = _STOP_RE.sub("", text)
    return text.strip().strip(_INVISIBLE).strip()


def is_blank_reply(text: str) -> bool:
    """True when the reply is empty, whitespace, zero-width characters, or only stop tokens."""
    if not text or text.isspace():
        return True
    if len(text) > 64:
        first = text.lstrip()[:1]
        if first != "<" and first not in _INVISIBLE:
            return False  # cheap exit: real text
    return not strip_stop_tokens(text)


# Each with its first character when ordinary prompts seldom contain it (a one-character test,
# memchr, can then rule the marker out before a scan) and whether it contains "user".
_USER_TURN_SCANS = tuple(
    (start, ends, start[0] if start[0] in "[#" else "", "user" in start) for start, ends in _USER_TURNS
)

_last_said: tuple[str | None, Sequence[ChatTurn] | None, str] = (None, None, "")


def user_text(prompt: str | None, messages: Sequence[ChatTurn] | None = None) -> str:
    """The last thing the user said: the last user message, else the last user turn found in
    the templated prompt, else the whole prompt (a raw completion prompt is all user text).

    The answer for the last (prompt, messages) asked is kept: classifying a call and grouping it
    ask three or four times for the same objects (compared by identity: held here, they cannot
    be freed and their address reused; a messages list changed in place would be missed, and
    nothing here changes one)."""
    global _last_said
    last_prompt, last_messages, said = _last_said
    if prompt is last_prompt and messages is last_messages and prompt is not None:
        return said
    said = _user_text(prompt, messages)
    _last_said = (prompt, messages, said)
    return said


def _user_text(prompt: str | None, messages: Sequence[ChatTurn] | None) -> str:
    if messages:
        for message in reversed(messages):
            if message.role == "user" and message.content is not None:
                return message.content
    if not prompt:
        return ""
    return _user_turn(prompt)


def _user_turn(prompt: str) -> str:
    """The user's last turn in a templated prompt (``prompt`` itself when it has none).

    Plain Python since issue 39: compiled (diagnosis/_text_scan.c) it took 0.5 us per bench prompt
    against 1.7-1.8 us here (tests/bench/bench_scans.py), ~1.3 us of a call's ~20 us; one ``re``
    alternation that finds the last marker (greedy ``.*``) took 5.3 us."""
    # The rightmost start marker wins (no marker is a prefix of another, so two cannot start at the
    # same place). Once one is found at ``best``, the others are only looked for after it: most of
    # the prompt is not scanned again (this runs for every call a summary groups).
    # A marker containing "user" can only come after ``best`` if "user" does (no start marker can
    # begin inside another's occurrence), so one search for "user" can rule out three scans.
    best = -1
    user_after = 0  # where "user" next occurs after the marker at ``best`` (-1: nowhere)
    turn: tuple[str, tuple[str, ...]] | None = None
    for start_marker, end_markers, rare, named in _USER_TURN_SCANS:
        if (rare and rare not in prompt) or (named and user_after == -1):
            continue
        at = prompt.rfind(start_marker, best + 1)
        if at != -1:
            best, turn = at, (start_marker, end_markers)
            user_after = prompt.find("user", at + len(start_marker))
    if turn is None:
        return prompt
    start_marker, end_markers = turn
    body_start = best + len(start_marker)
    body_end = len(prompt)
    for end_marker in end_markers:
        end = prompt.find(end_marker, body_start)
        if end != -1 and end < body_end:
            body_end = end
    best_text = prompt[body_start:body_end]
    text = best_text.strip()
    if text.startswith("<<SYS>>"):
        close = text.find("<</SYS>>")
        if close != -1:
            text = text[close + len("<</SYS>>") :].strip()
    return text


def last_line(text: str) -> str:
    """The last non-blank line of ``text``, stripped."""
    stripped = text.rstrip()
    return stripped[stripped.rfind("\n") + 1 :].strip()


def fmt_ms(ms: int | None) -> str:
    """A millisecond timestamp as UTC ``YYYY-MM-DD HH:MM:SS UTC``; ``None`` as "unknown"."""
    return format_utc(ms, zone=" UTC", missing="unknown")


def fmt_rate(count: int, population: int) -> str:
    """``"12.5% (3 of 24)"``; with no population, says so instead of inventing 0%."""
    if not population:
        return f"{count} (no calls to rate against)"
    return f"{100 * count / population:.1f}% ({count} of {population})"
