"""Keep API keys out of messages that repeat what a person typed or wrote in a file.

A key pasted where an address goes (``--base-url bf_…``), an address carrying one
(``https://user:sk_…@host``, ``?key=…``) or a config value holding one would otherwise be
echoed back by the error that refuses it: on the terminal, in a notification, in a bug report.
Pure functions, no IO, no Textual.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

from application.session.platforms import PLATFORMS

__all__ = ["HIDDEN", "hide_keys", "shown_address"]

HIDDEN = "…"
_KEY_SHAPE = re.compile(
    "(?<![A-Za-z0-9])(" + "|".join(re.escape(spec.key_prefix) for spec in PLATFORMS.values()) + r")[A-Za-z0-9_\-]{4,}"
)


def hide_keys(text: str) -> str:
    """``text`` with every token shaped like a platform's key (``blah_…``, ``bf_…``, ``sk_…``
    followed by at least 4 key characters) cut to its prefix and ``…``."""
    return _KEY_SHAPE.sub(lambda match: match.group(1) + HIDDEN, text)


def shown_address(raw: str) -> str:
    """An address as an error may repeat it: a user name or password (``user:pass@``), a query
    and a fragment replaced by ``…`` (any of them may hold a key), key-shaped tokens hidden."""
    text = raw.strip()
    try:
        parts = urlsplit(text)
        netloc = parts.netloc
        if "@" in netloc:
            netloc = HIDDEN + "@" + netloc.rsplit("@", 1)[1]
        text = urlunsplit(
            (parts.scheme, netloc, parts.path, HIDDEN if parts.query else "", HIDDEN if parts.fragment else "")
        )
    except ValueError:
        pass
    return hide_keys(text)
