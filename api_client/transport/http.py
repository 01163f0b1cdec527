"""The request machinery under :class:`api_client.blahdev.client.BlahClient`.

One :class:`HttpCore` owns one ``httpx.AsyncClient`` and does, for every call:

- the overall deadline (``asyncio.timeout_at`` around the request *and* the body read;
  httpx's own timeouts are per operation, so a trickling body would otherwise never end);
- retries of safe methods only, with full-jitter backoff and ``Retry-After``;
- the API key: sent only in the platform's key header (``Authorization: Bearer`` for
  blah.dev, ``X-API-Key`` for Blobfish: ``KeyHeader``), only to the configured origin,
  never in a query string; a write without a key fails before anything is sent; added by
  an ``httpx.Auth`` flow so no local variable of ours ever holds it (crash tracebacks
  print locals);
- a write flagged ``resend_identical`` (the platform dedupes identical bodies) whose answer
  was lost is sent once more, with the same bytes;
- no redirects followed (a 3xx is an InvalidResponseError), so nothing is re-sent
  elsewhere;
- mapping of every failure to :mod:`api_client.errors`.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections.abc import (
    AsyncGenerator,
    AsyncIterator,
    Awaitable,
    Callable,
    Mapping,
)
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, Unpack, cast

import httpx
from pydantic import ValidationError

from api_client.errors import (
    BlahError,
    InvalidResponseError,
    MissingKeyError,
    OutcomeUnknownError,
    UnreachableError,
)
from api_client.transport.failures import deadline_error, transport_error
from api_client.transport.origin import (
    BEARER,
    KeyHeader,
    OriginKeyAuth,
    normalize_base_url,
    origin_of,
    refuse_clear_text_key,
)
from api_client.transport.responses import ShapeError, decode_json, error_for_response, schema_error
from api_client.transport.retry import RETRY_STATUSES, SAFE_METHODS, RetryPolicy, parse_retry_after
from api_client.transport.secret import Secret
from api_client.transport.tls import verified_context

if TYPE_CHECKING:
    from api_client.transport.bulk_get import BulkGet

Sleep = Callable[[float], Awaitable[None]]
Progress = Callable[[int, int], None]
Params = Mapping[str, Any] | list[tuple[str, Any]] | None
T = TypeVar("T")

DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=10.0)
UPLOAD_CHUNK = 64 * 1024
_HOP_HEADERS = frozenset({"host", "content-length", "transfer-encoding", "connection", "authorization"})
_PLAIN_PATH = re.compile(r"(?:/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)+")
"""A path httpx sends as it is: segments of unreserved and sub-delimiter characters and
well-formed percent escapes (``target_for``; dot segments are checked apart)."""
BLAH_MISSING_KEY_HINT = "set EVALS_BLAH_API_KEY or add one in the config"


@dataclass(frozen=True)
class Reply:
    """A 2xx answer: the parsed body and what its headers said (``Location``, ``Retry-After``)."""

    data: Any
    status: int
    location: str | None
    retry_after: float | None


class JsonRequestOptions(TypedDict, total=False):
    """The keyword options of :meth:`HttpCore.request_json`: a subset of :meth:`HttpCore.request`'s."""

    params: Params
    json: Any
    needs_key: bool | None
    deadline: float | None
    allow_empty: bool


def _proxy_configured() -> bool:
    """A proxy variable in the environment (httpx would send through it)."""
    return any(name.lower() in _PROXY_VARIABLES and value for name, value in os.environ.items())


_PROXY_VARIABLES = frozenset({"http_proxy", "https_proxy", "all_proxy"})


def _origin_text(url: httpx.URL) -> str:
    """``scheme://host[:port]`` for error messages: never the user-info part of the URL."""
    port = f":{url.port}" if url.port else ""
    return f"{url.scheme}://{url.host}{port}"


class HttpCore:
    """Deadline, retries, auth and error mapping around one ``httpx.AsyncClient``."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        transport: httpx.AsyncBaseTransport | None,
        timeout: httpx.Timeout | float,
        deadline: float,
        retry: RetryPolicy,
        sleep: Sleep,
        limits: httpx.Limits | None,
        user_agent: str,
        key_header: KeyHeader = BEARER,
        missing_key_hint: str = BLAH_MISSING_KEY_HINT,
        error_types: Mapping[str, type[BlahError]] | None = None,
    ) -> None:
        """``key_header``: where the key goes; ``missing_key_hint``: where a person sets one;
        ``error_types``: error code (from the body) -> the error class raised for it."""
        if deadline <= 0:
            raise ValueError("deadline must be positive")
        self.base_url = normalize_base_url(base_url)
        self._origin = origin_of(self.base_url)
        self._where = _origin_text(self.base_url)
        self._key = Secret(api_key) if api_key else None
        if self._key is not None:
            refuse_clear_text_key(self.base_url)
        self._key_header = key_header
        self._missing_key_hint = missing_key_hint
        self._error_types = dict(error_types or {})
        self._auth = OriginKeyAuth(self._key, self._origin, key_header) if self._key else None
        self.deadline = float(deadline)
        self.retry = retry
        self._sleep = sleep
        self._timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        self._user_agent = user_agent
        self._on_network = transport is None  # (a test transport: no bulk_getter)
        self._target_prefix = self.url_for("/x").raw_path.decode("ascii").removesuffix("/x")
        """The base URL's path as a request target starts (``target_for``); "" at the root."""
        self._client_options: dict[str, Any] = {
            "transport": transport,
            "timeout": self._timeout,
            "follow_redirects": False,
            "limits": limits or httpx.Limits(),
            "headers": {"Accept": "application/json", "User-Agent": user_agent},
            "trust_env": transport is None,
            "verify": verified_context(),
        }
        self._httpx: httpx.AsyncClient | None = None
        self._closed = False

    @property
    def _client(self) -> httpx.AsyncClient:
        """The ``httpx.AsyncClient``, made at its first use: making one imports httpcore and
        builds its transport (~18-35 ms of CPU), which a command whose requests all go over
        ``BulkGet`` (``blobfish export --all``) never needs. Once this core is closed, a
        request fails as httpx fails it on a closed client."""
        client = self._httpx
        if client is None:
            if self._closed:
                raise RuntimeError("Cannot send a request, as the client has been closed.")
            client = self._httpx = httpx.AsyncClient(**self._client_options)
        return client

    # ------------------------------------------------------------------ basics

    @property
    def has_key(self) -> bool:
        return self._key is not None

    @property
    def is_closed(self) -> bool:
        return self._closed if self._httpx is None else self._httpx.is_closed

    async def aclose(self) -> None:
        self._closed = True
        if self._httpx is not None:
            await self._httpx.aclose()

    def url_for(self, path: str) -> httpx.URL:
        """The absolute URL of an ``/api/v1/...`` path (already percent-encoded)."""
        return httpx.URL(str(self.base_url).rstrip("/") + path)

    def _secret(self) -> str | None:
        return self._key.get_secret_value() if self._key else None

    def _error_for(self, response: httpx.Response, body: bytes, method: str, path: str) -> BlahError:
        """The platform's error for a non-2xx answer with this ``body`` (our key never quoted back)."""
        return error_for_response(
            response.status_code,
            response.headers,
            body,
            method=method,
            path=path,
            secret=self._secret(),
            error_types=self._error_types,
        )

    def _auth_for(self, url: httpx.URL) -> httpx.Auth | None:
        """The bearer auth for ``url``: only for the configured origin, else none."""
        if self._auth is None or origin_of(url) != self._origin:
            return None
        return self._auth

    def require_key(self, method: str, path: str) -> None:
        """``MissingKeyError`` (nothing sent) when the client has no key."""
        self._check_key(True, method, path)

    def _check_key(self, needs_key: bool, method: str, path: str) -> None:
        if needs_key and self._key is None:
            raise MissingKeyError(
                f"this needs an API key ({self._missing_key_hint}); nothing was sent",
                method=method,
                path=path,
            )

    def _timeout_for(self, deadline: float) -> httpx.Timeout:
        t = self._timeout
        read = None if t.read is None else max(t.read, deadline)
        return httpx.Timeout(connect=t.connect, read=read, write=t.write, pool=t.pool)

    def bulk_getter(self, size: int, deadline: float) -> BulkGet | None:
        """A ``BulkGet`` pool on this client's origin (with its key), or None where it does not
        apply: a test transport, a proxy in the environment, a scheme other than http(s)."""
        url = self.base_url
        if not self._on_network or url.scheme not in ("http", "https") or _proxy_configured():
            return None
        from api_client.transport.bulk_get import BulkGet

        port = url.port or (443 if url.scheme == "https" else 80)
        host_header = url.netloc.decode("ascii")
        lines = {"Host": host_header, "Accept": "*/*", "User-Agent": self._user_agent}
        if self._key is not None:
            lines[self._key_header.name] = self._key_header.prefix + self._key.get_secret_value()
        head = "".join(f"{name}: {value}\r\n" for name, value in lines.items()).encode("latin-1")
        tls = verified_context() if url.scheme == "https" else None
        return BulkGet(url.host, port, tls, head, size=size, deadline=deadline)

    def target_for(self, path: str, query: str = "") -> str:
        """The request target (path and query) of an ``/api/v1/...`` path, for ``BulkGet``:
        the base URL's path and ``path`` joined as strings when ``path`` is already in the form
        httpx would send (an export asks thousands; an ``httpx.URL`` each cost ~20-40 us), else
        through ``url_for``. The same text either way (a test holds the two together)."""
        if _PLAIN_PATH.fullmatch(path) is not None and "/." not in path:
            target = self._target_prefix + path
        else:
            target = self.url_for(path).raw_path.decode("ascii")
        return f"{target}?{query}" if query else target

    # ------------------------------------------------------------------ JSON requests

    async def request_json(
        self, method: str, path: str, parse: Callable[[Any], T], **options: Unpack[JsonRequestOptions]
    ) -> T:
        """Send, retry if safe and worth it, and return ``parse(decoded JSON body)``.

        ``parse`` raising ValidationError or ShapeError becomes InvalidResponseError.
        ``allow_empty``: a 2xx with no body (e.g. 204 on DELETE) is parsed as None.
        The options are :meth:`request`'s, with its defaults.
        """
        reply = await self.request(method, path, parse, **options)
        result: T = reply.data
        return result

    async def request(
        self,
        method: str,
        path: str,
        parse: Callable[[Any], T],
        *,
        params: Params = None,
        json: Any = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        needs_key: bool | None = None,
        deadline: float | None = None,
        allow_empty: bool = False,
        resend_identical: bool = False,
        verdict_statuses: frozenset[int] = frozenset(),
    ) -> Reply:
        """As :meth:`request_json`, but the answer's ``Location`` and ``Retry-After`` come back
        too (a 202 says where to poll and when). ``content``: the body's exact bytes.

        ``resend_identical``: this write may be sent twice with the same bytes (the platform
        answers an identical retry with the same result), so when its answer is lost (the
        connection broke or timed out after sending) or is a "try again" status, it is sent
        ONCE more, byte for byte, with a fresh deadline. Other writes are never resent.

        ``verdict_statuses``: non-2xx statuses whose body is an answer, not an error (the
        errorbar gate's 412 is its "fail" verdict): parsed with ``parse`` and returned as a
        ``Reply`` carrying that status.
        """
        method = method.upper()
        safe = method in SAFE_METHODS
        resendable = safe or resend_identical
        self._check_key(not safe if needs_key is None else needs_key, method, path)
        url = self.url_for(path)
        auth = self._auth_for(url)
        budget = self.deadline if deadline is None else deadline
        timeout = self._timeout if deadline is None else self._timeout_for(budget)
        loop = asyncio.get_running_loop()
        deadline_at = loop.time() + budget
        if safe:
            attempts = max(1, self.retry.max_attempts)
        else:
            attempts = 2 if resend_identical else 1
        attempt = 0
        while True:
            attempt += 1
            request = self._client.build_request(
                method, url, params=params, json=json, content=content, headers=headers, timeout=timeout
            )
            retry_after: float | None = None
            lost = False  # the answer to a write was lost: it may have taken effect
            try:
                async with asyncio.timeout_at(deadline_at):
                    response = await self._client.send(request, auth=auth)
            except TimeoutError:
                error: BlahError = deadline_error(method, path, safe, budget, self._where)
                retryable, lost = resend_identical, True
            except httpx.TransportError as exc:
                error, retryable = transport_error(exc, method, path, safe, self._where)
                if resend_identical and isinstance(error, OutcomeUnknownError | UnreachableError):
                    retryable, lost = True, isinstance(error, OutcomeUnknownError)
            else:
                status = response.status_code
                if 200 <= status < 300 or status in verdict_statuses:
                    return Reply(
                        self._parse_body(response, parse, method=method, path=path, allow_empty=allow_empty),
                        status,
                        response.headers.get("location"),
                        parse_retry_after(response.headers.get("retry-after"), now=time.time()),
                    )
                error = self._error_for(response, response.content, method, path)
                retryable = resendable and status in RETRY_STATUSES
                retry_after = getattr(error, "retry_after", None)
            if not retryable or attempt >= attempts:
                raise error
            if lost and not safe:
                deadline_at = loop.time() + budget  # the resend gets its own time
                continue
            if retry_after is not None:
                if retry_after > self.retry.retry_after_cap:
                    raise error  # longer than we wait inside a call: the caller decides
                delay = retry_after
            else:
                delay = self.retry.backoff(attempt)
            if loop.time() + delay >= deadline_at:
                raise error
            await self._sleep(delay)

    def _parse_body(
        self, response: httpx.Response, parse: Callable[[Any], T], *, method: str, path: str, allow_empty: bool
    ) -> T:
        status = response.status_code
        from_json = getattr(parse, "from_json", None)  # a parser that validates the bytes itself
        if from_json is not None and not allow_empty:
            try:
                return cast("T", from_json(response.content))
            except ValidationError:
                pass  # the general path below accepts the older shapes or says what is wrong
        if allow_empty and not response.content.strip():
            data = None
        else:
            data = decode_json(
                response.content,
                status=status,
                content_type=response.headers.get("content-type"),
                method=method,
                path=path,
                secret=self._secret(),
            )
        try:
            return parse(data)
        except (ValidationError, ShapeError) as exc:
            raise schema_error(exc, status=status, method=method, path=path) from None

    # ------------------------------------------------------------------ NDJSON streams

    async def stream_lines(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        needs_key: bool = False,
        deadline: float | None = None,
    ) -> AsyncGenerator[str, None]:
        """Non-empty lines of a streamed body (an async generator; close it when done).

        Not retried. The deadline covers the whole stream, checked around every read,
        never across a ``yield`` (so a slow consumer is never cancelled by it).
        """
        method = method.upper()
        self._check_key(needs_key, method, path)
        url = self.url_for(path)
        request = self._client.build_request(method, url, json=json, timeout=self._timeout)
        # an analysis stream changes nothing on the server: safe
        async for line in self._stream(request, method, path, deadline, lambda r: r.aiter_lines()):
            if line.strip():
                yield line

    async def stream_bytes(
        self,
        path: str,
        *,
        params: Params = None,
        deadline: float | None = None,
    ) -> AsyncGenerator[bytes, None]:
        """The body of a GET, chunk by chunk as it arrives (an async generator; close it when
        done). Not retried (what was yielded cannot be taken back). The deadline covers the
        whole body, checked around every read, never across a ``yield``."""
        budget = self.deadline if deadline is None else deadline
        url = self.url_for(path)
        request = self._client.build_request("GET", url, params=params, timeout=self._timeout_for(budget))
        async for chunk in self._stream(request, "GET", path, deadline, lambda r: r.aiter_bytes()):
            if chunk:
                yield chunk

    async def _stream(
        self,
        request: httpx.Request,
        method: str,
        path: str,
        deadline: float | None,
        pieces: Callable[[httpx.Response], AsyncIterator[Any]],
    ) -> AsyncGenerator[Any, None]:
        """Send ``request`` (safe to read, never resent), raise the platform's error for a
        non-2xx answer, then yield ``pieces(response)`` with the deadline checked around every
        read, never across a ``yield``."""
        budget = self.deadline if deadline is None else deadline
        deadline_at = asyncio.get_running_loop().time() + budget
        try:
            async with asyncio.timeout_at(deadline_at):
                response = await self._client.send(request, stream=True, auth=self._auth_for(request.url))
        except TimeoutError:
            raise deadline_error(method, path, True, budget, self._where) from None
        except httpx.TransportError as exc:
            raise transport_error(exc, method, path, True, self._where)[0] from None
        try:
            if not 200 <= response.status_code < 300:
                try:
                    async with asyncio.timeout_at(deadline_at):
                        body = await response.aread()
                except (TimeoutError, httpx.TransportError):
                    body = b""
                raise self._error_for(response, body, method, path)
            iterator = pieces(response)
            while True:
                try:
                    async with asyncio.timeout_at(deadline_at):
                        piece = await anext(iterator)
                except StopAsyncIteration:
                    return
                except TimeoutError:
                    raise deadline_error(method, path, True, budget, self._where) from None
                except httpx.TransportError as exc:
                    raise transport_error(exc, method, path, True, self._where)[0] from None
                yield piece
        finally:
            await response.aclose()

    # ------------------------------------------------------------------ uploads

    async def upload(
        self,
        target: str,
        data: bytes,
        *,
        method: str,
        headers: Mapping[str, str],
        progress: Progress | None,
        deadline: float | None,
        chunk_size: int = UPLOAD_CHUNK,
    ) -> None:
        """Send ``data`` to ``target`` (absolute, or relative to the base URL) in chunks.

        The key goes along only when ``target`` is the configured origin. Not retried.
        """
        method = method.upper()
        url = self.base_url.join(target)
        if url.scheme not in ("http", "https") or not url.host:
            raise InvalidResponseError("the upload URL is not an http(s) URL; nothing was sent", excerpt=None)
        path = url.path
        same_origin = origin_of(url) == self._origin
        self._check_key(same_origin, method, path)
        hop = _HOP_HEADERS | {self._key_header.name.lower()}
        send_headers = {k: v for k, v in headers.items() if k.lower() not in hop}
        if not any(k.lower() == "content-type" for k in send_headers):
            send_headers["Content-Type"] = "application/octet-stream"
        send_headers["Content-Length"] = str(len(data))
        total = len(data)

        async def body() -> AsyncIterator[bytes]:
            sent = 0
            view = memoryview(data)
            while sent < total:
                chunk = bytes(view[sent : sent + chunk_size])
                yield chunk
                sent += len(chunk)
                if progress is not None:
                    progress(sent, total)

        budget = self.deadline if deadline is None else deadline
        request = self._client.build_request(
            method, url, content=body(), headers=send_headers, timeout=self._timeout_for(budget)
        )
        try:
            async with asyncio.timeout(budget):
                response = await self._client.send(request, auth=self._auth_for(url))
        except TimeoutError:
            raise deadline_error(method, path, False, budget, self._where) from None
        except httpx.TransportError as exc:
            raise transport_error(exc, method, path, False, self._where)[0] from None
        if not 200 <= response.status_code < 300:
            raise self._error_for(response, response.content, method, path)
        if total == 0 and progress is not None:
            progress(0, 0)
