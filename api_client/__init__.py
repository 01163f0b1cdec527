"""Async client of the blah.dev API: typed methods, errors, log tail and history.

No Textual import anywhere in this package.

The names below are loaded on first use (PEP 562): importing one submodule, e.g.
``api_client.archive`` for an offline session, must not pull in httpx and the HTTP client
(measured: ~0.4 s of the app's start-up). ``from api_client import BlahClient`` works as before.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

#: public name -> the submodule that defines it
_WHERE: dict[str, str] = {
    "RetryPolicy": "._retry",
    "DEFAULT_BASE_URL": ".client",
    "BlahClient": ".client",
    "LogHistory": ".history",
    "LogTail": ".tail",
    "TailState": ".tail",
    **dict.fromkeys(
        (
            "AuthError",
            "BadRequestError",
            "BlahError",
            "ConflictError",
            "InvalidResponseError",
            "MissingKeyError",
            "NotFoundError",
            "OutcomeUnknownError",
            "RateLimitedError",
            "ServerError",
            "UnreachableError",
            "UnsafePathError",
        ),
        ".errors",
    ),
}

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


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})
