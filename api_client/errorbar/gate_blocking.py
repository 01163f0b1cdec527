"""The gate as one blocking GET, for a CI job's `blah-tui bakeoff gate`: no event loop.

The gate is a single safe read, so the command needs neither asyncio nor anyio (httpcore's
async backend): leaving both out is about a tenth of a second of every CI start-up. The
rules are the async client's (:class:`api_client.errorbar.client.ErrorbarClient.gate`), from
the same pieces: the key in ``Authorization: Bearer`` only for the configured origin
(``OriginKeyAuth``), refused over plain http off loopback, never in a message; no redirect
followed; 429/502/503/504 and broken connections retried with the shared backoff and
``Retry-After``; every other failure mapped by ``error_for_response`` and given the queue's
sentences (``translate``); 200 and 412 are verdicts (``GateVerdict``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Self

import httpx

from api_client.errorbar.checks import gate_params
from api_client.errorbar.errors import translate
from api_client.errorbar.gate_verdict import GateVerdict
from api_client.errorbar.keys import check_key
from api_client.errorbar.shapes_fixed import EVALS_PATH, origin_base_url
from api_client.errors import BlahError, MissingKeyError, UnreachableError
from api_client.transport.origin import BEARER, OriginKeyAuth, normalize_base_url, origin_of, refuse_clear_text_key
from api_client.transport.responses import ShapeError, decode_json, error_for_response, schema_error
from api_client.transport.retry import RETRY_STATUSES, RetryPolicy
from api_client.transport.secret import Secret
from api_client.transport.url_paths import segment

USER_AGENT = "blah-tui (errorbar gate)"
TIMEOUT = httpx.Timeout(30.0, connect=10.0)
VERDICT_STATUSES = (200, 412)


class BlockingGate:
    """``with BlockingGate(origin, key) as gate: status, verdict = gate.check(run_id, {...})``."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        transport: httpx.BaseTransport | None = None,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
        timeout: httpx.Timeout = TIMEOUT,
    ) -> None:
        url = normalize_base_url(origin_base_url(base_url))
        key = check_key(api_key) if api_key is not None else None
        if key is not None:
            refuse_clear_text_key(url)
        self._base = str(url).rstrip("/")
        self._where = f"{url.scheme}://{url.host}{f':{url.port}' if url.port else ''}"
        self._key = Secret(key) if key else None
        self._auth = OriginKeyAuth(self._key, origin_of(url), BEARER) if self._key else None
        self._retry = retry or RetryPolicy()
        self._sleep = sleep
        # an http:// origin (loopback) never makes a TLS handshake: no CA bundle to load
        self._client = httpx.Client(
            transport=transport,
            timeout=timeout,
            follow_redirects=False,
            verify=url.scheme != "http",
            headers={"Accept": "application/json", "User-Agent": USER_AGENT},
        )

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def check(
        self, run_id: str, thresholds: Mapping[str, float | None], *, ties: str | None = None, model: str | None = None
    ) -> tuple[int, GateVerdict]:
        """(HTTP status, verdict): 200 only when it passed, 412 for anything else."""
        params = gate_params(thresholds, ties=ties, model=model)
        path = f"{EVALS_PATH}/{segment(run_id, what='run id')}/gate"
        if self._auth is None:
            raise MissingKeyError(
                "this needs an API key (set ERRORBAR_API_KEY to an sk_... key); nothing was sent",
                method="GET",
                path=path,
            )
        secret = self._key.get_secret_value() if self._key else None
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self._client.get(self._base + path, params=params, auth=self._auth)
            except httpx.TransportError as exc:
                detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                text = "could not connect" if isinstance(exc, httpx.ConnectError) else "the request failed"
                error: BlahError = UnreachableError(f"{text} ({detail})", method="GET", path=path, host=self._where)
                retry_after = None
                retryable = not isinstance(exc, httpx.TimeoutException) or isinstance(exc, httpx.ConnectTimeout)
            else:
                status = response.status_code
                if status in VERDICT_STATUSES:
                    data = decode_json(
                        response.content,
                        status=status,
                        content_type=response.headers.get("content-type"),
                        method="GET",
                        path=path,
                        secret=secret,
                    )
                    try:
                        return status, GateVerdict.model_validate(data)
                    except ShapeError as exc:
                        raise schema_error(exc, status=status, method="GET", path=path) from None
                error = translate(
                    error_for_response(
                        status, response.headers, response.content, method="GET", path=path, secret=secret
                    )
                )
                retry_after = getattr(error, "retry_after", None)
                retryable = status in RETRY_STATUSES
            if not retryable or attempt >= self._retry.max_attempts:
                raise error
            if retry_after is not None and retry_after > self._retry.retry_after_cap:
                raise error
            self._sleep(retry_after if retry_after is not None else self._retry.backoff(attempt))
