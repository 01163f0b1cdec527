"""``X-API-Key: bf_...`` (or ``Authorization: Bearer bf_...``) -> the caller's scope.

Every SDK-evaluation route needs a key (published jobs are private; the browser session the
contract also allows is not simulated). No key, a key that is not ``bf_...`` or an unknown
key: 401. Both headers with different keys: 400 (the contract says to send one). The key is
never echoed, logged or put in an error text.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from simulator.blobfish.errors import BlobfishError
from simulator.blobfish.shapes import ERROR_INVALID_REQUEST, ERROR_UNAUTHORIZED, TWO_DIFFERENT_KEYS_STATUS
from simulator.blobfish.store import EvaluationStore, Scope

KEY_PREFIX = "bf_"


def _bearer(value: str | None) -> str | None:
    if value is None:
        return None
    scheme, _, credential = value.strip().partition(" ")
    return credential.strip() if scheme.lower() == "bearer" else ""


def store_of(request: Request) -> EvaluationStore:
    store: EvaluationStore = request.app.state.store
    return store


def scope_of(request: Request) -> Scope:
    """The caller's scope, or the refusal (``BlobfishError``)."""
    header_key = request.headers.get("x-api-key")
    bearer_key = _bearer(request.headers.get("authorization"))
    if header_key is not None and bearer_key is not None and header_key.strip() != bearer_key:
        raise BlobfishError(
            TWO_DIFFERENT_KEYS_STATUS, ERROR_INVALID_REQUEST, "two different keys sent: send one, in X-API-Key"
        )
    key = (header_key if header_key is not None else bearer_key or "").strip()
    if not key:
        raise BlobfishError(401, ERROR_UNAUTHORIZED, "missing API key: send X-API-Key: bf_...")
    if not key.startswith(KEY_PREFIX):
        raise BlobfishError(401, ERROR_UNAUTHORIZED, "not a Blobfish API key (they start with bf_)")
    scope = store_of(request).scope_for_key(key)
    if scope is None:
        raise BlobfishError(401, ERROR_UNAUTHORIZED, "unknown API key")
    return scope


async def require_scope(request: Request) -> Scope:
    """``scope_of`` as the routes' dependency. A coroutine: FastAPI runs a plain ``def``
    dependency in its thread pool, one thread hop per request (a Blobfish export makes 2,000+);
    the check does no I/O and never blocks."""
    return scope_of(request)


Caller = Annotated[Scope, Depends(require_scope)]
