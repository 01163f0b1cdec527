"""``BulkGet``: many plain GETs of whole bodies on a few keep-alive HTTP/1.1 connections, for
exports that fetch thousands of small documents from one origin (Blobfish: one JSONL per
evaluation, no bulk route in the contract).

Why not httpx: measured on the Blobfish simulator, one GET through ``httpx.AsyncClient`` costs
~1.1 ms of client CPU (request and URL objects, the connection pool's bookkeeping, anyio
streams); this costs ~0.1 ms (one write, one header read, one exact body read on asyncio
streams). At 2,000+ evaluations that is the difference between the client and the server
being the bottleneck.

It does only the part that is the same for every answer: a ``200`` with a
``Content-Length`` or chunked body and no content coding. Anything else - another status, a
broken or closed connection, an unusual answer, a deadline passed - raises ``BulkFallback``
and the caller fetches that document again through ``HttpCore``, which retries, honours
``Retry-After`` and raises the platform's error exactly as before. After a few fallbacks
the pool stops trying (``usable`` turns False).

It is only made (``HttpCore.bulk_getter``) for a client on the real network stack (no test
transport), with no proxy configured in the environment (httpx would use it; this does not
speak to proxies), over ``http`` or ``https``: TLS with the same verified context as httpx.
The key goes in its header to the client's own origin only, as with httpx.
"""

from __future__ import annotations

import asyncio
import ssl
from dataclasses import dataclass, field

__all__ = ["BulkFallback", "BulkGet"]

MAX_HEADER_BYTES = 64 * 1024
MAX_FALLBACKS = 3
"""Fallbacks after which the pool is no longer used (something about this server differs)."""


class BulkFallback(Exception):
    """This document needs the general path (see the module's docstring)."""


@dataclass
class _Connection:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter

    def close(self) -> None:
        self.writer.close()


@dataclass
class BulkGet:
    """GETs ``target`` (path and query, already encoded) on up to ``size`` connections to
    ``host:port``. ``head``: the request's header lines after the request line (Host, the
    key, User-Agent, Accept), each ending in CRLF."""

    host: str
    port: int
    tls: ssl.SSLContext | None
    head: bytes
    size: int = 4
    deadline: float = 600.0
    fallbacks: int = 0
    _idle: list[_Connection] = field(default_factory=list)
    _slots: asyncio.Semaphore | None = None

    @property
    def usable(self) -> bool:
        return self.fallbacks < MAX_FALLBACKS

    async def get(self, target: str, *, refuse_html: bool = False) -> bytes:
        """The body of a ``200`` answer to ``GET target``; ``BulkFallback`` otherwise.
        ``refuse_html``: an answer labelled HTML falls back too (a JSON caller's general path
        refuses it, with its excerpt)."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        async with self._slots:
            connection: _Connection | None = None
            try:
                async with asyncio.timeout(self.deadline):
                    connection = self._idle.pop() if self._idle else await self._connect()
                    body, keep = await self._exchange(connection, target, refuse_html)
            except (
                OSError,
                EOFError,
                ValueError,
                TimeoutError,
                asyncio.LimitOverrunError,
                asyncio.IncompleteReadError,
                ssl.SSLError,
                BulkFallback,
            ) as exc:
                if connection is not None:
                    connection.close()
                self.fallbacks += 1
                raise BulkFallback(str(exc) or type(exc).__name__) from None
            except BaseException:  # cancelled: the connection is mid-answer, never reused
                if connection is not None:
                    connection.close()
                raise
            if keep:
                self._idle.append(connection)
            else:
                connection.close()
            return body

    async def _connect(self) -> _Connection:
        reader, writer = await asyncio.open_connection(
            self.host, self.port, ssl=self.tls, server_hostname=self.host if self.tls else None, limit=MAX_HEADER_BYTES
        )
        return _Connection(reader, writer)

    async def _exchange(self, connection: _Connection, target: str, refuse_html: bool) -> tuple[bytes, bool]:
        reader = connection.reader
        connection.writer.write(b"GET " + target.encode("ascii") + b" HTTP/1.1\r\n" + self.head + b"\r\n")
        head = await reader.readuntil(b"\r\n\r\n")
        status_line, *lines = head[:-4].split(b"\r\n")
        version, status, _ = (status_line.split(b" ", 2) + [b""])[:3]
        if status != b"200" or not version.startswith(b"HTTP/1."):
            raise BulkFallback(f"status {status.decode('latin-1')}")
        headers: dict[bytes, bytes] = {}
        for line in lines:
            name, colon, value = line.partition(b":")
            if not colon:
                raise BulkFallback("a malformed header")
            headers[name.strip().lower()] = value.strip().lower()
        if headers.get(b"content-encoding", b"identity") != b"identity":
            raise BulkFallback("a content coding")
        if refuse_html and b"html" in headers.get(b"content-type", b""):
            raise BulkFallback("an HTML page")
        keep = version == b"HTTP/1.1" and headers.get(b"connection") != b"close"
        if headers.get(b"transfer-encoding") == b"chunked":
            return await _chunked(reader), keep
        if b"transfer-encoding" in headers or b"content-length" not in headers:
            raise BulkFallback("a body without a length")
        return await reader.readexactly(int(headers[b"content-length"])), keep

    async def aclose(self) -> None:
        while self._idle:
            self._idle.pop().close()


async def _chunked(reader: asyncio.StreamReader) -> bytes:
    parts: list[bytes] = []
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0].strip(), 16)
        if size == 0:
            while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers, then the blank line
                pass
            return b"".join(parts)
        parts.append(await reader.readexactly(size))
        if await reader.readexactly(2) != b"\r\n":
            raise BulkFallback("a malformed chunk")
