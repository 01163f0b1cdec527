"""Mask secret-bearing fields before anything is stored or exported.

The contract says the server masks them but not which; the rules (member names, key-shaped
substrings, the mask text) are assumptions kept in ``shapes.py``. Everything else, untrusted
text included, is kept verbatim.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from simulator.blobfish.shapes import (
    REDACTED,
    SECRET_FIELD_NAMES,
    SECRET_FIELD_SUFFIXES,
    SECRET_VALUE_PATTERNS,
)

_ANY_SECRET = re.compile("|".join(pattern.pattern for pattern, _ in SECRET_VALUE_PATTERNS))
"""One pass to find out whether a string needs masking at all (most do not)."""


@lru_cache(maxsize=4096)
def is_secret_field(name: str) -> bool:
    normal = name.strip().lower().replace("-", "_")
    return normal in SECRET_FIELD_NAMES or normal.endswith(SECRET_FIELD_SUFFIXES)


def mask_text(text: str) -> str:
    """``text`` with every key-shaped substring replaced by the mask."""
    if _ANY_SECRET.search(text) is None:
        return text
    for pattern, replacement in SECRET_VALUE_PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def redact(value: Any) -> Any:
    """A copy of a JSON value with secret members masked whole and key-shaped substrings
    masked in every string. ``null`` under a secret name stays ``null`` (nothing to hide)."""
    if isinstance(value, dict):
        return {
            key: (REDACTED if value_ is not None and is_secret_field(str(key)) else redact(value_))
            for key, value_ in value.items()
        }
    if isinstance(value, list):
        if all(type(item) in (int, float) for item in value):
            return list(value)  # token ids, logprobs: nothing to mask
        return [redact(item) for item in value]
    if isinstance(value, str):
        return mask_text(value)
    return value
