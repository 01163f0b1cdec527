"""A Blobfish key starts with ``bf_``; anything else is refused before a request is made,
naming the kind of key it looks like (``common.key_shapes``), never the key."""

from __future__ import annotations

from api_client.blobfish.errors import KeyShapeError
from common.key_shapes import checked_key

KEY_PREFIX = "bf_"


def check_key(key: str) -> str:
    """``key`` without surrounding blanks when it is shaped like a Blobfish key; else
    ``KeyShapeError`` with one line naming what it looks like."""
    return checked_key(key, KEY_PREFIX, "a Blobfish API key", "this is not a Blobfish API key", KeyShapeError)
