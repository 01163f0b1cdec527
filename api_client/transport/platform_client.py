"""What every platform's client (blah.dev, Blobfish, errorbar) shares: one :class:`HttpCore`
for its whole life, made the same way (its retry policy bounded by ``max_attempts``, real
sleeping unless a test passes its own), its base URL, and closing (``async with`` or
:meth:`aclose`). Each client adds its own key check, origin rule and endpoints."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from types import TracebackType
from typing import Self

import httpx

from api_client.errors import BlahError
from api_client.transport.http import BLAH_MISSING_KEY_HINT, HttpCore, Sleep
from api_client.transport.origin import BEARER, KeyHeader
from api_client.transport.retry import RetryPolicy


class PlatformClient:
    platform = "?"
    """The platform's name, as the app says it (``blah.dev``, ``blobfish``, ``errorbar``)."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        transport: httpx.AsyncBaseTransport | None,
        timeout: httpx.Timeout | float,
        deadline: float,
        max_attempts: int,
        retry: RetryPolicy | None,
        sleep: Sleep | None,
        limits: httpx.Limits | None,
        user_agent: str,
        key_header: KeyHeader = BEARER,
        missing_key_hint: str = BLAH_MISSING_KEY_HINT,
        error_types: Mapping[str, type[BlahError]] | None = None,
    ) -> None:
        """``max_attempts`` bounds the tries of a safe call (it overrides ``retry.max_attempts``);
        the rest as :class:`HttpCore` takes them."""
        self._http = HttpCore(
            base_url,
            api_key,
            transport=transport,
            timeout=timeout,
            deadline=deadline,
            retry=replace(retry or RetryPolicy(), max_attempts=max_attempts),
            sleep=sleep or asyncio.sleep,
            limits=limits,
            user_agent=user_agent,
            key_header=key_header,
            missing_key_hint=missing_key_hint,
            error_types=error_types,
        )

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
