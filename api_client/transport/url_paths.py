"""Build request paths under ``/api/v1`` from untrusted ids.

Ids are opaque strings that come from the server, the config file or the person typing
them, so each one is percent-encoded as a single path segment (``quote(safe="")``): a
model id like ``../../runs/R/cancel`` becomes one harmless segment and can never address
another endpoint. Ids that cannot be a segment at all (empty, ``.``, ``..``) are refused
before any request is sent.
"""

from __future__ import annotations

from urllib.parse import quote

from api_client.errors import UnsafePathError

API_PREFIX = "/api/v1"

_DOT_SEGMENTS = frozenset({".", ".."})


def segment(value: str, *, what: str = "id") -> str:
    """Percent-encode ``value`` as exactly one path segment, or raise UnsafePathError."""
    if not isinstance(value, str):
        raise UnsafePathError(f"{what} must be a string, not {type(value).__name__}")
    if value == "" or value.strip() == "":
        raise UnsafePathError(f"{what} is empty")
    if value in _DOT_SEGMENTS:
        raise UnsafePathError(f"{what} {value!r} is a dot segment, not an id")
    return quote(value, safe="")


def api_path(*parts: str) -> str:
    """``/api/v1/<part>/<part>...``: literal parts are joined as they are.

    Only pass literals here; wrap every id with :func:`segment` first.
    """
    return API_PREFIX + "".join("/" + part for part in parts)
