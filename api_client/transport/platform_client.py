"""What every platform's client (blah.dev, Blobfish, errorbar) shares: one :class:`HttpCore`
for its whole life (its retry policy bounded by the client's ``max_attempts``), its base URL,
and closing (``async with`` or :meth:`aclose`). Each client adds its own key check, origin
rule, key header and endpoints."""

from __future__ import annotations

from dataclasses import replace
from types import TracebackType
from typing import Self

from api_client.transport.http import HttpCore
from api_client.transport.retry import RetryPolicy


def bounded_retry(retry: RetryPolicy | None, max_attempts: int) -> RetryPolicy:
    """The client's retry policy: ``retry`` (or the default) with at most ``max_attempts``
    tries of a safe call (a client's ``max_attempts`` overrides ``retry.max_attempts``)."""
    return replace(retry or RetryPolicy(), max_attempts=max_attempts)


class PlatformClient:
    platform = "?"
    """The platform's name, as the app says it (``blah.dev``, ``blobfish``, ``errorbar``)."""

    def __init__(self, http: HttpCore) -> None:
        self._http = http

    @property
    def base_url(self) -> str:
        return str(self._http.base_url).rstrip("/")

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()
