"""An errorbar key starts with ``sk_``; a key shaped like another platform's is refused before
anything is sent, naming the kind it looks like (``common.key_shapes``), never the key."""

from __future__ import annotations

from api_client.errorbar.errors import KeyShapeError
from common.key_shapes import checked_key

KEY_PREFIX = "sk_"


def check_key(key: str) -> str:
    """``key`` without surrounding blanks when it is shaped like an errorbar key; else
    ``KeyShapeError`` with one line naming what it looks like."""
    return checked_key(key, KEY_PREFIX, "an errorbar key", "this is not an errorbar API key", KeyShapeError)
