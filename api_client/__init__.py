"""Async client of the blah.dev API: typed methods, errors, log tail and history.

No Textual import anywhere in this package.
"""

from __future__ import annotations

from ._retry import RetryPolicy
from .client import DEFAULT_BASE_URL, BlahClient
from .errors import (
    AuthError,
    BadRequestError,
    BlahError,
    ConflictError,
    InvalidResponseError,
    MissingKeyError,
    NotFoundError,
    OutcomeUnknownError,
    RateLimitedError,
    ServerError,
    UnreachableError,
    UnsafePathError,
)
from .history import LogHistory
from .tail import LogTail, TailState

__all__ = [
    "DEFAULT_BASE_URL",
    "AuthError",
    "BadRequestError",
    "BlahClient",
    "BlahError",
    "ConflictError",
    "InvalidResponseError",
    "LogHistory",
    "LogTail",
    "MissingKeyError",
    "NotFoundError",
    "OutcomeUnknownError",
    "RateLimitedError",
    "RetryPolicy",
    "ServerError",
    "TailState",
    "UnreachableError",
    "UnsafePathError",
]
