"""A Blobfish key starts with ``bf_``; anything else is refused before a request is made.

The refusal names the kind of key it looks like (a person who pasted their blah.dev or
OpenAI key needs to know which), never the key or any part of it beyond the public prefix.
"""

from __future__ import annotations

from api_client.blobfish.errors import KeyShapeError

KEY_PREFIX = "bf_"

_LOOKALIKES: tuple[tuple[str, str], ...] = (
    ("blah_", "a blah.dev key (blah_…)"),
    ("sk-ant-", "an Anthropic key (sk-ant-…)"),
    ("sk-", "an OpenAI-style provider key (sk-…)"),
    ("sk_", "an errorbar key (sk_…)"),
    ("xai-", "an xAI key (xai-…)"),
    ("bfs_", "a Blobfish session id (bfs_…), not an API key"),
    ("Bearer ", "a whole Authorization header value (Bearer …): give the key alone"),
)


def check_key(key: str) -> str:
    """``key`` without surrounding blanks when it is shaped like a Blobfish key; else
    ``KeyShapeError`` with one line naming what it looks like."""
    text = key.strip()
    if text.startswith(KEY_PREFIX) and len(text) > len(KEY_PREFIX):
        return text
    for prefix, kind in _LOOKALIKES:
        if text.startswith(prefix):
            raise KeyShapeError(f"this looks like {kind}; a Blobfish API key starts with {KEY_PREFIX}")
    raise KeyShapeError(f"this is not a Blobfish API key: those start with {KEY_PREFIX}")
