"""How an error reads on screen: ``describe_error`` (any failure, in a short sanitised line),
``write_problem`` (a failed write: a webhook created or deleted, a receiver registered, a
training set uploaded; shared by the Webhooks and Training screens), ``council_refusal``
(a key refused for a council-tier call: runs' writes, failure clusters) and ``read_back_failed``
(a write whose answer was lost, and the read that would settle it failed too)."""

from __future__ import annotations

from api_client.errors import (
    AuthError,
    BadRequestError,
    BlahError,
    ConflictError,
    MissingKeyError,
    OutcomeUnknownError,
)
from common.safe_strings import one_line

__all__ = ["council_refusal", "describe_error", "platform_said", "read_back_failed", "write_problem"]


def describe_error(error: BaseException) -> str:
    """A short, sanitised, human sentence for an exception (never contains the key)."""
    if isinstance(error, BlahError):
        return one_line(str(error), max_len=300)
    return one_line(f"{type(error).__name__}: {error}", max_len=300)


def write_problem(error: BaseException, what: str) -> str:
    """What a failed write means, in a sentence (``what``: e.g. "creating a webhook")."""
    if isinstance(error, MissingKeyError):
        return f"{what.capitalize()} needs an API key: nothing was sent."
    if isinstance(error, AuthError):
        if error.status == 403:
            return f"The platform refused {what}: this needs council tier."
        return f"The platform refused the key for {what}."
    if isinstance(error, OutcomeUnknownError):
        return f"The request for {what} timed out: outcome unknown."
    if isinstance(error, ConflictError):
        return f"The platform refused {what} in the current state: {describe_error(error)}"
    if isinstance(error, BadRequestError):
        return f"The platform rejected {what}: {describe_error(error)}"
    return f"{what.capitalize()} failed: {describe_error(error)}"


def read_back_failed(what: str, error: BaseException) -> str:
    """The answer to a write was lost and reading ``what`` ("run X", a model's name) to settle it
    failed too: the outcome is unknown, and the write was not sent again (never resent blind)."""
    return (
        f"Outcome unknown: the request timed out and reading {what} failed "
        f"({one_line(str(error), max_len=120)}). It was not sent again."
    )


def platform_said(error: BaseException) -> str:
    """`` (platform: TEXT)`` with the server's own error text, when it sent one; else ""."""
    if isinstance(error, BlahError) and error.server_error:
        return f" (platform: {one_line(error.server_error, max_len=160)})"
    return ""


def council_refusal(what_needs: str, error: AuthError) -> str:
    """A key refused for a council-tier call (``what_needs``: "Start needs", "Failure clusters
    need"): 403 is the tier, any other status the key itself."""
    if error.status == 403:
        return f"{what_needs} council tier: the platform refused this key (HTTP 403){platform_said(error)}."
    return f"The platform did not accept the API key (HTTP {error.status}){platform_said(error)}."
