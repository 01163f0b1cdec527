"""Turn an HTTP answer into JSON or into one of :mod:`api_client.errors`.

Everything a server sends is untrusted: excerpts are short, single-line and have control
characters escaped (no terminal escape sequence survives into an error text), and the
API key is scrubbed from them in case a server echoes it back.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from typing import Any

import orjson
from pydantic import ValidationError

from api_client.errors import (
    AuthError,
    BadRequestError,
    BlahError,
    ConflictError,
    InvalidResponseError,
    NotFoundError,
    RateLimitedError,
    ServerError,
)
from api_client.transport.retry import parse_retry_after

EXCERPT_CHARS = 200
#: The server's own error text is kept whole up to this many characters.
SERVER_TEXT_CHARS = 2000
COUNCIL_HINT = "this endpoint may need a council-tier key"


def safe_excerpt(text: str, limit: int = EXCERPT_CHARS, *, secret: str | None = None) -> str:
    """``text`` cut to ``limit`` characters, on one line, control characters escaped."""
    if secret:
        text = text.replace(secret, "[redacted]")
    cut = len(text) > limit
    text = text[:limit]
    out: list[str] = []
    for ch in text:
        if ch.isprintable() or ch == " ":
            out.append(ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) <= 0xFF:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(f"\\u{ord(ch):04x}")
    return "".join(out) + ("…" if cut else "")


def body_excerpt(body: bytes, *, secret: str | None = None) -> str:
    return safe_excerpt(body[: EXCERPT_CHARS * 4].decode("utf-8", "replace"), secret=secret)


def looks_like_html(body: bytes, content_type: str | None) -> bool:
    if content_type and "html" in content_type.lower():
        return True
    return body[:64].lstrip().startswith(b"<")


def decode_json(
    body: bytes,
    *,
    status: int,
    content_type: str | None,
    method: str,
    path: str,
    secret: str | None,
) -> Any:
    """Parse a successful answer's body, or raise InvalidResponseError with an excerpt."""
    where: dict[str, Any] = {"status": status, "method": method, "path": path}
    if looks_like_html(body, content_type):
        excerpt = body_excerpt(body, secret=secret)
        raise InvalidResponseError(f"expected JSON, got an HTML page: {excerpt}", excerpt=excerpt, **where)
    if not body.strip():
        raise InvalidResponseError("expected JSON, got an empty body", excerpt="", **where)
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        lenient = _loads_with_lone_surrogates(body)
        if lenient is not _FAILED:
            return lenient
        excerpt = body_excerpt(body, secret=secret)
        raise InvalidResponseError(
            f"broken or truncated JSON ({safe_excerpt(str(exc), 80)}): {excerpt}",
            excerpt=excerpt,
            **where,
        ) from None


_FAILED = object()
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _scrub(value: Any) -> Any:
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    if isinstance(value, dict):
        return {_scrub(k): _scrub(v) for k, v in value.items()}
    return value


def _loads_with_lone_surrogates(body: bytes) -> Any:
    """JSON that orjson refuses only because a string escapes a lone UTF-16 surrogate
    (``"\\ud83d"``: valid JSON, and what JavaScript's JSON.stringify writes for a broken
    emoji in a model's reply). One such reply must not make a whole page unreadable: parse
    it with the stdlib and replace each lone surrogate with U+FFFD (it could not be stored
    or printed as UTF-8 anyway). Returns ``_FAILED`` for JSON that is broken otherwise."""
    if b"\\ud" not in body.lower():
        return _FAILED
    try:
        return _scrub(json.loads(body))
    except (ValueError, RecursionError):
        return _FAILED


def server_error_text(payload: Any, *, secret: str | None) -> str | None:
    """The server's own explanation: ``{"error": str}``, ``{"error": {"code", "message"}}``
    or FastAPI's ``{"detail": ...}``; None when there is none."""
    if not isinstance(payload, Mapping):
        return None
    text: str | None = None
    err = payload.get("error")
    message = payload.get("message")
    if isinstance(err, str) and isinstance(message, str) and message:
        text = message  # {"error": "<code>", "message": "<text>"}: the code is server_error_code's
    elif isinstance(err, str):
        text = err
    elif isinstance(err, Mapping):
        message = err.get("message")
        code = err.get("code")
        parts = [str(p) for p in (code, message) if p not in (None, "")]
        text = ": ".join(parts) if parts else None
    if text is None and isinstance(message, str) and message:
        text = message  # {"code": "<code>", "message": "<text>"}
    if text is None:
        detail = payload.get("detail")
        if isinstance(detail, str):
            text = detail
        elif isinstance(detail, list) and detail:
            items = []
            for item in detail[:3]:
                if isinstance(item, Mapping):
                    loc = ".".join(str(p) for p in item.get("loc", []) if p != "body")
                    items.append(f"{loc}: {item.get('msg', '')}" if loc else str(item.get("msg", "")))
                else:
                    items.append(str(item))
            text = "; ".join(items)
    if text is None:
        return None
    if secret:
        text = text.replace(secret, "[redacted]")
    return text[:SERVER_TEXT_CHARS]


_CODE = re.compile(r"[a-z][a-z0-9_]{0,63}")


def server_error_code(payload: Any) -> str | None:
    """The machine-readable code of an error body, read leniently: ``error`` when it is a
    code-shaped string (``{"error": "run_in_progress", "message": ...}``), else
    ``error.code`` (``{"error": {"message", "type", "code"}}``), else a top-level ``code``.
    A sentence in ``error`` (blah.dev's ``{"error": "<text>"}``) is not a code."""
    if not isinstance(payload, Mapping):
        return None
    err = payload.get("error")
    candidates = [err, err.get("code") if isinstance(err, Mapping) else None, payload.get("code")]
    for value in candidates:
        if isinstance(value, str) and _CODE.fullmatch(value):
            return value
    return None


_DEFAULT_TEXT = {
    400: "the server rejected the request",
    401: "the API key is missing or was rejected",
    403: "the API key is not allowed to do this",
    404: "not found",
    409: "the resource is not in a state that allows this",
    422: "the server rejected the input",
    429: "rate limited",
}


def error_for_response(
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    *,
    method: str,
    path: str,
    secret: str | None,
    error_types: Mapping[str, type[BlahError]] | None = None,
) -> BlahError:
    """The error for a non-2xx answer (its body already read). ``error_types`` maps a code
    the body names to the (more precise) error class a platform raises for it. The error
    carries the run id the body names, when it names one (``{"error": "run_in_progress",
    "run_id": ...}``, read leniently)."""
    payload: Any = None
    is_html = looks_like_html(body, headers.get("content-type"))
    if body.strip() and not is_html:
        try:
            payload = orjson.loads(body)
        except orjson.JSONDecodeError:
            payload = None
    server_text = server_error_text(payload, secret=secret)
    if server_text is not None:
        message = safe_excerpt(server_text, 300)
    else:
        default = _DEFAULT_TEXT.get(status, "server error" if status >= 500 else "unexpected answer")
        excerpt = body_excerpt(body, secret=secret) if body.strip() else ""
        if excerpt:
            kind = "an HTML page" if is_html else "a body"
            message = f"{default} (the server sent {kind}: {excerpt})"
        else:
            message = default
    code = server_error_code(payload)
    kw: dict[str, Any] = {
        "status": status,
        "server_error": server_text,
        "method": method,
        "path": path,
        "code": code,
    }
    retry_after = parse_retry_after(headers.get("retry-after"), now=time.time())
    typed = (error_types or {}).get(code) if code else None
    error: BlahError
    if typed is not None and status >= 400:
        if issubclass(typed, RateLimitedError):
            error = typed(message, retry_after=retry_after, **kw)
        else:
            error = typed(message, **kw)
    elif 300 <= status < 400:
        location = safe_excerpt(headers.get("location", ""), 120, secret=secret)
        error = InvalidResponseError(
            f"unexpected redirect to {location or '(no location)'}; not followed",
            excerpt=location,
            **kw,
        )
    elif status in (401, 403):
        if status == 403:
            message = f"{message} ({COUNCIL_HINT})"
        error = AuthError(message, **kw)
    elif status == 404:
        error = NotFoundError(message, **kw)
    elif status == 409:
        error = ConflictError(message, **kw)
    elif status == 429 or (status == 503 and retry_after is not None):
        error = RateLimitedError(message, retry_after=retry_after, **kw)
    elif status >= 500:
        error = ServerError(message, **kw)
    elif 400 <= status < 500:
        error = BadRequestError(message, **kw)
    else:
        error = InvalidResponseError(message, excerpt=body_excerpt(body, secret=secret), **kw)
    if b"run_id" in body:
        error.named_run_id = _named_run_id(payload)
    return error


_RUN_ID = re.compile(r"[A-Za-z0-9_.:-]{1,120}")


def _named_run_id(payload: Any) -> str | None:
    """The run id a decoded error body names, at its top or inside its ``error`` object."""
    nested = payload.get("error") if isinstance(payload, Mapping) else None
    for holder in (payload, nested):
        value = holder.get("run_id") if isinstance(holder, Mapping) else None
        if isinstance(value, str) and _RUN_ID.fullmatch(value):
            return value
    return None


class ShapeError(ValueError):
    """Raised by a parser when valid JSON has the wrong overall shape."""


def schema_error(
    exc: ValidationError | ShapeError, *, status: int | None, method: str, path: str
) -> InvalidResponseError:
    """A body that is JSON but not of the contract's shape. The input values are left out
    (they can be large and are untrusted); the first problems' locations are kept."""
    if isinstance(exc, ValidationError):
        problems = []
        for err in exc.errors(include_url=False, include_input=False)[:3]:
            loc = ".".join(str(p) for p in err.get("loc", ()))
            problems.append(f"{loc or '(root)'}: {err.get('msg', '')}")
        raw = "; ".join(problems)
    else:
        raw = str(exc)
    text = safe_excerpt(raw, EXCERPT_CHARS)
    return InvalidResponseError(
        f"the answer does not match the expected shape: {text}",
        excerpt=text,
        status=status,
        method=method,
        path=path,
    )
