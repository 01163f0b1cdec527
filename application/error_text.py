"""How an error reads on screen: ``describe_error`` (any failure, in a short sanitised line)
and ``write_problem`` (a failed write: a webhook created or deleted, a receiver registered, a
training set uploaded; shared by the Webhooks and Training screens)."""

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

__all__ = ["describe_error", "write_problem"]


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
