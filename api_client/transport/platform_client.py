"""What every platform's client (blah.dev, Blobfish, errorbar) shares: how it is told to reach
its platform (:class:`ConnectionOptions`, turned into one :class:`HttpCore` for the client's
whole life by :func:`platform_core`, its retry policy bounded by ``max_attempts``), its base
URL, whether it has a key, and closing (``async with`` or :meth:`aclose`). Each client adds
its own key check, origin rule, key header and endpoints."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from types import TracebackType
from typing import Self, TypedDict

import httpx

from api_client.errors import BlahError
from api_client.transport.http import BLAH_MISSING_KEY_HINT, DEFAULT_TIMEOUT, HttpCore, Sleep
from api_client.transport.origin import BEARER, KeyHeader
from api_client.transport.retry import RetryPolicy


def bounded_retry(retry: RetryPolicy | None, max_attempts: int) -> RetryPolicy:
    """The client's retry policy: ``retry`` (or the default) with at most ``max_attempts``
    tries of a safe call (a client's ``max_attempts`` overrides ``retry.max_attempts``)."""
    return replace(retry or RetryPolicy(), max_attempts=max_attempts)


class ConnectionOptions(TypedDict, total=False):
    """How a client reaches its platform: the keyword options of every client.

    ``transport``: an httpx transport (tests; None: the network); ``timeout``: httpx's per
    operation (default ``DEFAULT_TIMEOUT``); ``deadline``: seconds a call may take end to end,
    all attempts, waits and the body (each platform's default); ``max_attempts``: tries of a
    safe (GET) call, 4 by default (it overrides ``retry.max_attempts``); ``retry``: the backoff
    and its random source; ``sleep``: injectable so tests never wait; ``limits``: httpx's pool.
    """

    transport: httpx.AsyncBaseTransport | None
    timeout: httpx.Timeout | float
    deadline: float
    max_attempts: int
    retry: RetryPolicy | None
    sleep: Sleep | None
    limits: httpx.Limits | None


def platform_core(
    base_url: str,
    api_key: str | None,
    *,
    user_agent: str,
    key_header: KeyHeader = BEARER,
    missing_key_hint: str = BLAH_MISSING_KEY_HINT,
    error_types: Mapping[str, type[BlahError]] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    timeout: httpx.Timeout | float = DEFAULT_TIMEOUT,
    deadline: float,
    max_attempts: int = 4,
    retry: RetryPolicy | None = None,
    sleep: Sleep | None = None,
    limits: httpx.Limits | None = None,
) -> HttpCore:
    """The client's one HttpCore: the platform's user agent, key header, hint and error codes,
    and the :class:`ConnectionOptions` (an option no client has is a TypeError, as it was when
    each client listed them; ``deadline``: the caller's, else the platform's default)."""
    return HttpCore(
        base_url,
        api_key,
        transport=transport,
        timeout=timeout,
        deadline=deadline,
        retry=bounded_retry(retry, max_attempts),
        sleep=sleep or asyncio.sleep,
        limits=limits,
        user_agent=user_agent,
        key_header=key_header,
        missing_key_hint=missing_key_hint,
        error_types=error_types,
    )


class PlatformClient:
    platform = "?"
    """The platform's name, as the app says it (``blah.dev``, ``blobfish``, ``errorbar``)."""

    def __init__(self, http: HttpCore) -> None:
        self._http = http

    @property
    def base_url(self) -> str:
        return str(self._http.base_url).rstrip("/")

    @property
    def has_key(self) -> bool:
        return self._http.has_key

    @property
    def deadline(self) -> float:
        return self._http.deadline

    @property
    def is_closed(self) -> bool:
        return self._http.is_closed

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()
