"""An errorbar key starts with ``sk_``; a key shaped like another platform's is refused before
anything is sent, naming the kind it looks like, never the key."""

from __future__ import annotations

from api_client.errorbar.errors import KeyShapeError

KEY_PREFIX = "sk_"

_LOOKALIKES: tuple[tuple[str, str], ...] = (
    ("blah_", "a blah.dev key (blah_…)"),
    ("bf_", "a Blobfish key (bf_…)"),
    ("sk-ant-", "an Anthropic key (sk-ant-…)"),
    ("sk-", "an OpenAI-style provider key (sk-…)"),
    ("Bearer ", "a whole Authorization header value (Bearer …): give the key alone"),
)


def check_key(key: str) -> str:
    text = key.strip()
    if text.startswith(KEY_PREFIX) and len(text) > len(KEY_PREFIX):
        return text
    for prefix, kind in _LOOKALIKES:
        if text.startswith(prefix):
            raise KeyShapeError(f"this looks like {kind}; an errorbar key starts with {KEY_PREFIX}")
    raise KeyShapeError(f"this is not an errorbar API key: those start with {KEY_PREFIX}")
