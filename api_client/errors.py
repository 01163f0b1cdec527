"""One error hierarchy for everything the platform (or the way to it) can do wrong.

Error texts never contain the API key: they are built from the status, the server's own
``error`` text and a short excerpt of the body, never from request headers.
"""

from __future__ import annotations

from typing import TypedDict, Unpack


class ErrorFacts(TypedDict, total=False):
    """The keyword facts of a :class:`BlahError` (for subclasses and helpers that pass them on)."""

    status: int | None
    server_error: str | None
    method: str | None
    path: str | None
    host: str | None
    code: str | None


class BlahError(Exception):
    """Root of every client error. ``status`` is the HTTP status when there was one;
    ``code`` the machine-readable code the server's body named (``run_in_progress``,
    ``job_conflict``), when it named one."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        server_error: str | None = None,
        method: str | None = None,
        path: str | None = None,
        host: str | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.server_error = server_error
        self.method = method
        self.path = path
        self.host = host  # "scheme://host[:port]" when the error is about reaching it
        self.code = code
        self.named_run_id: str | None = None
        """The run a refusal's body names (``409 run_in_progress`` names the suite in flight)."""

    def __str__(self) -> str:
        where = f"{self.method} {self.host or ''}{self.path}: " if self.method and self.path else ""
        status = f"HTTP {self.status}: " if self.status is not None else ""
        return f"{where}{status}{self.message}"


class AuthError(BlahError):
    """401 (no or bad key) or 403 (the key lacks the tier, often council tier)."""


class MissingKeyError(AuthError):
    """A write was attempted with no API key; no request was sent."""


class NotFoundError(BlahError):
    """404."""


class ConflictError(BlahError):
    """409: the resource is not in a state that allows this (e.g. the run is not stalled)."""


class BadRequestError(BlahError):
    """400 or 422: the server rejected the input."""


class RateLimitedError(BlahError):
    """429 (or 503 with Retry-After). ``retry_after`` is the wait in seconds, if given."""

    def __init__(self, message: str, *, retry_after: float | None = None, **kw: Unpack[ErrorFacts]) -> None:
        super().__init__(message, **kw)
        self.retry_after = retry_after


class ServerError(BlahError):
    """5xx."""


class InvalidResponseError(BlahError):
    """The body is not what the contract says: HTML, broken or truncated JSON, wrong schema."""

    def __init__(self, message: str, *, excerpt: str | None = None, **kw: Unpack[ErrorFacts]) -> None:
        super().__init__(message, **kw)
        self.excerpt = excerpt


class UnreachableError(BlahError):
    """Connect error, timeout, or the overall deadline passed. ``host`` names the platform
    that could not be reached (the path alone does not say which one it was)."""


class UnsafePathError(BlahError, ValueError):
    """An id that is empty, ``.`` or ``..`` (or otherwise cannot be a path segment)."""


class OutcomeUnknownError(BlahError):
    """A write timed out: it may or may not have happened. Confirm with a GET, never retry."""
