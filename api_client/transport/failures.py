"""What a failed request becomes: httpx's transport failures and the overall deadline mapped to
:mod:`api_client.errors`, and whether the failure is worth a retry (only ever for a safe method).

A write whose answer was lost is ``OutcomeUnknownError``, never "failed": it may have taken
effect, and the caller must read before trying again. ``where`` is ``scheme://host[:port]``.
"""

from __future__ import annotations

import httpx

from api_client.errors import BlahError, InvalidResponseError, OutcomeUnknownError, UnreachableError

__all__ = ["deadline_error", "transport_error"]


def deadline_error(method: str, path: str, safe: bool, budget: float, where: str) -> BlahError:
    """The overall deadline passed: for a write, the outcome is unknown."""
    if not safe:
        return OutcomeUnknownError(
            f"no complete answer within {budget:g} s; the request may or may not have "
            "taken effect: check before trying again",
            method=method,
            path=path,
        )
    return UnreachableError(f"no complete answer within {budget:g} s", method=method, path=path, host=where)


def transport_error(
    exc: httpx.TransportError, method: str, path: str, safe: bool, where: str
) -> tuple[BlahError, bool]:
    """(error, worth retrying). Only safe methods are ever retried."""
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout)):
        # Nothing reached the server, but the rule stays simple: writes are never resent.
        return UnreachableError(f"could not connect ({detail})", method=method, path=path, host=where), safe
    if isinstance(exc, httpx.PoolTimeout):
        return UnreachableError(f"no free connection ({detail})", method=method, path=path, host=where), False
    if isinstance(exc, httpx.DecodingError):
        return InvalidResponseError(f"undecodable body ({detail})", excerpt=None, method=method, path=path), False
    if isinstance(exc, (httpx.ReadTimeout, httpx.WriteTimeout)):
        return _maybe_taken_effect(
            "timed out after sending", "the server did not answer in time", detail, method, path, safe, where
        ), False
    if isinstance(exc, (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)):
        # Typically a keep-alive connection the server had already closed: worth one more try if safe.
        return _maybe_taken_effect(
            "the connection broke", "the connection broke", detail, method, path, safe, where
        ), safe
    return UnreachableError(f"request failed ({detail})", method=method, path=path, host=where), False


def _maybe_taken_effect(
    sent: str, unsent: str, detail: str, method: str, path: str, safe: bool, where: str
) -> BlahError:
    """The request went out and its answer was lost: a write may or may not have taken effect."""
    if not safe:
        return OutcomeUnknownError(f"{sent} ({detail}); it may or may not have taken effect", method=method, path=path)
    return UnreachableError(f"{unsent} ({detail})", method=method, path=path, host=where)
