"""``BlobfishClient``: SDK evaluations on Blobfish (contract section 2) over :class:`HttpCore`.

    async with BlobfishClient("https://blobfish.ai", api_key="bf_...") as client:
        summaries = await client.list_evaluations()

- the key goes in ``X-API-Key`` (never ``Authorization``), only to the configured origin; a
  key that is not ``bf_...`` is refused at construction, naming what it looks like;
- the list follows ``next_offset`` to the end and gives each evaluation once (offsets shift
  while evaluations are published: :mod:`api_client.transport.offset_paging`);
- JSONL exports stream to a temporary file renamed at the end (nothing left on failure);
- a publication is checked here first (completed, 1-256 rollouts, 1 MiB), serialized once,
  and resent once, byte for byte, when its answer is lost.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Unpack
from urllib.parse import urlencode

import httpx
import orjson

from api_client.blobfish import shapes as assumed
from api_client.blobfish.errors import ERROR_TYPES
from api_client.blobfish.keys import check_key
from api_client.blobfish.publication import Publication, prepare
from api_client.blobfish.shapes_evidence import Evaluation, parse_evaluation
from api_client.errors import InvalidResponseError
from api_client.transport.bulk_get import BulkFallback, BulkGet
from api_client.transport.offset_paging import OffsetPage, iter_offset_pages
from api_client.transport.origin import KeyHeader
from api_client.transport.platform_client import ConnectionOptions, PlatformClient, platform_core
from api_client.transport.url_paths import segment
from common.atomic_write import atomic_writer

KEY_HEADER = KeyHeader("X-API-Key")
USER_AGENT = "blah-tui (blobfish client)"
EXPORT_IN_FLIGHT = 4
"""Evaluations fetched at once by :meth:`BlobfishClient.export_all_jsonl` (written in order)."""
EXPORT_DEADLINE = 600.0
"""Seconds for one evaluation's JSONL body (a large one on a slow link)."""


@dataclass(frozen=True)
class ExportResult:
    """What an export wrote: evaluations read, lines (traces), bytes and the SHA-256 (hex) of
    the bytes written, in order: the file's, taken while writing it (the receipt needs no second
    read of the file: ~60 ms at 25 MB, after the last request)."""

    path: Path
    evaluations: int
    lines: int
    bytes: int
    sha256: str


class _RawBody:
    """``HttpCore``'s parser for a body taken as the platform sent it (``from_json`` gets
    the bytes; nothing is decoded)."""

    @staticmethod
    def from_json(body: bytes) -> bytes:
        return body

    def __call__(self, data: Any) -> bytes:  # only reached for an empty body
        return b""


_RAW_BODY = _RawBody()


def _evaluation(body: Any) -> Evaluation:
    if not isinstance(body, dict):
        raise InvalidResponseError("the evaluation's detail is not a JSON object")
    return parse_evaluation(body)


def origin_base_url(base_url: str) -> str:
    """``scheme://host[:port]`` from ``base_url`` (a trailing ``/api/v1`` accepted); a
    ``ValueError`` for any other path."""
    url = httpx.URL(base_url.strip())
    path = url.path.rstrip("/").removesuffix(assumed.API_PREFIX)
    if path:
        raise ValueError(
            "the Blobfish base URL is an origin (scheme://host[:port], e.g. https://blobfish.ai), "
            "without a path; the client adds /api/v1"
        )
    return str(url.copy_with(path="/", query=None, fragment=None)).rstrip("/")


class BlobfishClient(PlatformClient):
    platform = "blobfish"

    def __init__(
        self,
        base_url: str = assumed.DEFAULT_BASE_URL,
        api_key: str | None = None,
        **options: Unpack[ConnectionOptions],
    ) -> None:
        """``options``: :class:`ConnectionOptions` (``deadline`` 60 s by default)."""
        key = check_key(api_key) if api_key is not None else None
        options.setdefault("deadline", 60.0)
        super().__init__(
            platform_core(
                origin_base_url(base_url),
                key,
                user_agent=USER_AGENT,
                key_header=KEY_HEADER,
                missing_key_hint="set BLOBFISH_API_KEY to a bf_... key",
                error_types=ERROR_TYPES,
                **options,
            )
        )

    # ------------------------------------------------------------------ reads

    async def _page(self, offset: int, limit: int) -> OffsetPage[assumed.Summary]:
        page = await self._http.request_json(
            "GET",
            assumed.EVALUATIONS_PATH,
            assumed.EvaluationPage.model_validate,
            params={"limit": limit, "offset": offset},
            needs_key=True,
        )
        return OffsetPage(page.evaluations, page.next_offset)

    async def _page_bulk(self, offset: int, limit: int, bulk: BulkGet | None) -> OffsetPage[assumed.Summary]:
        """As ``_page``, on ``bulk``'s light connection while it is usable (``export --all``: its
        list pages share the bodies' connections, so it never opens httpx's); an answer it
        cannot take, or a body that is not a page, is asked again through ``_page``, which
        retries and raises the platform's error."""
        if bulk is not None and bulk.usable:
            target = self._http.target_for(assumed.EVALUATIONS_PATH, urlencode({"limit": limit, "offset": offset}))
            try:
                page = assumed.EvaluationPage.model_validate(orjson.loads(await bulk.get(target, refuse_html=True)))
            except BulkFallback:
                pass
            except ValueError:  # not JSON, or not a page (pydantic's ValidationError): the general path says
                bulk.fallbacks += 1
            else:
                return OffsetPage(page.evaluations, page.next_offset)
        return await self._page(offset, limit)

    def iter_evaluations(self, *, limit: int = assumed.PAGE_LIMIT) -> AsyncIterator[assumed.Summary]:
        """Every evaluation, newest first as the platform lists them, each once."""
        return iter_offset_pages(
            self._page, lambda summary: summary.evaluation_id, limit=limit, path=assumed.EVALUATIONS_PATH
        )

    async def list_evaluations(self, *, limit: int = assumed.PAGE_LIMIT) -> list[assumed.Summary]:
        """Every evaluation that existed when the listing started, exactly once."""
        return [summary async for summary in self.iter_evaluations(limit=limit)]

    def _evaluation_path(self, evaluation_id: str) -> str:
        return f"{assumed.EVALUATIONS_PATH}/{segment(evaluation_id, what='evaluation id')}"

    async def get_evaluation(self, evaluation_id: str) -> Evaluation:
        """One evaluation's full evidence (its rollouts, steps and traces), parsed once into the
        types the app reads (``shapes_evidence``); the body as sent is kept (``raw``) for
        ``--json``, the traces as sent for the JSONL export."""
        return await self._http.request_json("GET", self._evaluation_path(evaluation_id), _evaluation, needs_key=True)

    # ------------------------------------------------------------------ exports

    async def _jsonl_chunks(self, evaluation_id: str) -> AsyncIterator[bytes]:
        stream = self._http.stream_bytes(
            self._evaluation_path(evaluation_id), params={"format": "jsonl"}, deadline=EXPORT_DEADLINE
        )
        try:
            async for chunk in stream:
                yield chunk
        finally:
            await stream.aclose()

    async def export_jsonl(self, evaluation_id: str, dest: Path) -> ExportResult:
        """One evaluation's traces (``?format=jsonl``, one per line, as the platform sent them),
        streamed into ``dest``; nothing is left at ``dest`` or beside it on failure."""
        dest = Path(dest)
        self._http_check_key()
        lines = size = 0
        last = b"\n"
        digest = hashlib.sha256()
        with atomic_writer(dest, binary=True) as out:
            async for chunk in self._jsonl_chunks(evaluation_id):
                out.write(chunk)
                digest.update(chunk)
                lines += chunk.count(b"\n")
                size += len(chunk)
                last = chunk[-1:]
            if last != b"\n":
                out.write(b"\n")
                digest.update(b"\n")
                lines, size = lines + 1, size + 1
        return ExportResult(dest, 1, lines, size, digest.hexdigest())

    async def _jsonl_body(self, evaluation_id: str) -> bytes:
        body = b"".join([chunk async for chunk in self._jsonl_chunks(evaluation_id)])
        return body if not body or body.endswith(b"\n") else body + b"\n"

    async def _jsonl_body_bulk(self, evaluation_id: str, bulk: BulkGet | None) -> bytes:
        """As ``_jsonl_body``, on ``bulk``'s light connections while it is usable; a document
        it cannot take (another status, a broken connection...) is fetched again through
        ``HttpCore`` (retried, the platform's error as usual)."""
        if bulk is not None and bulk.usable:
            try:
                body = await bulk.get(self._http.target_for(self._evaluation_path(evaluation_id), "format=jsonl"))
            except BulkFallback:
                pass
            else:
                return body if not body or body.endswith(b"\n") else body + b"\n"
        body = await self._http.request_json(
            "GET",
            self._evaluation_path(evaluation_id),
            _RAW_BODY,
            params={"format": "jsonl"},
            needs_key=True,
            deadline=EXPORT_DEADLINE,
        )
        return body if not body or body.endswith(b"\n") else body + b"\n"

    async def export_all_jsonl(
        self,
        dest: Path,
        *,
        progress: Callable[[int, int | None], None] | None = None,
        page_limit: int = assumed.PAGE_LIMIT,
    ) -> ExportResult:
        """Every evaluation's traces, one evaluation after another in list order (newest
        first), into ``dest``: each evaluation that existed when the list was first asked
        for, once (offset paging drops the repeats a publication causes). Bodies are fetched
        while the list is still being read (``_export_ids``).
        ``progress(written, total)``: ``total`` is None until the whole list is read."""
        self._http_check_key()
        bulk = self._http.bulk_getter(EXPORT_IN_FLIGHT, EXPORT_DEADLINE)

        async def page(offset: int, limit: int) -> OffsetPage[assumed.Summary]:
            return await self._page_bulk(offset, limit, bulk)

        async def listed() -> AsyncIterator[str]:
            async for summary in iter_offset_pages(
                page, lambda summary: summary.evaluation_id, limit=page_limit, path=assumed.EVALUATIONS_PATH
            ):
                yield summary.evaluation_id

        return await self._export_ids(listed(), dest, progress, None, bulk)

    async def export_many_jsonl(
        self, ids: list[str], dest: Path, *, progress: Callable[[int, int], None] | None = None
    ) -> ExportResult:
        """The traces of the evaluations ``ids``, one after another in that order, into ``dest``
        (see ``_export_ids``; nothing is left at ``dest`` on failure)."""
        self._http_check_key()

        async def given() -> AsyncIterator[str]:
            for evaluation_id in ids:
                yield evaluation_id

        bulk = self._http.bulk_getter(EXPORT_IN_FLIGHT, EXPORT_DEADLINE)
        # progress takes (done, total) as ints: the total given is len(ids), never None
        return await self._export_ids(given(), dest, progress, len(ids), bulk)  # type: ignore[arg-type]

    async def _export_ids(
        self,
        ids: AsyncIterator[str],
        dest: Path,
        progress: Callable[[int, int | None], None] | None,
        total: int | None,
        bulk: BulkGet | None,
    ) -> ExportResult:
        """The traces of the evaluations ``ids`` yields, in that order, into ``dest``: up to
        ``EXPORT_IN_FLIGHT`` bodies fetched at once (on ``BulkGet``'s light connections where
        it applies) while ``ids`` is still being read, written in order. ``total``: how many
        ``ids`` holds, when known (else counted once it is exhausted). ``bulk``: the light connections
        (from ``bulk_getter``, or None), closed here."""
        dest = Path(dest)
        listed = 0
        listed_all = False
        lines = size = written = 0
        pending: deque[asyncio.Task[bytes]] = deque()
        digest = hashlib.sha256()
        with atomic_writer(dest, binary=True) as out:
            try:
                while True:
                    while not listed_all and len(pending) < EXPORT_IN_FLIGHT:
                        try:
                            evaluation_id = await anext(ids)
                        except StopAsyncIteration:
                            listed_all = True
                            break
                        pending.append(asyncio.ensure_future(self._jsonl_body_bulk(evaluation_id, bulk)))
                        listed += 1
                    if not pending:
                        break
                    body = await pending.popleft()
                    out.write(body)
                    digest.update(body)
                    written += 1
                    lines += body.count(b"\n")
                    size += len(body)
                    if progress is not None:
                        progress(written, total if total is not None else (listed if listed_all else None))
            finally:
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                close_ids = getattr(ids, "aclose", None)
                if close_ids is not None:
                    await close_ids()
                if bulk is not None:
                    await bulk.aclose()
        return ExportResult(dest, written, lines, size, digest.hexdigest())

    def _http_check_key(self) -> None:
        self._http.require_key("GET", assumed.EVALUATIONS_PATH)

    # ------------------------------------------------------------------ publishing

    async def publish(self, envelope: bytes | dict[str, Any] | Publication) -> assumed.Receipt:
        """Publish one completed job. ``envelope``: the exact bytes to send (a file's content),
        a dict (serialized here, once), or a :class:`Publication` already checked.

        Refused here, with nothing sent (``PublishRefusedLocally``), when the job is not
        completed, has 0 or more than 256 rollouts, or is over 1 MiB. A lost answer is resent
        once with the identical bytes (the platform answers that with the same evaluation).
        ``EvidenceChangedError`` when other evidence is published under this job id."""
        publication = envelope if isinstance(envelope, Publication) else prepare(envelope)
        reply = await self._http.request(
            "POST",
            assumed.EVALUATIONS_PATH,
            assumed.Receipt.model_validate,
            content=publication.body,
            headers={"Content-Type": "application/json"},
            needs_key=True,
            resend_identical=True,
        )
        receipt: assumed.Receipt = reply.data
        if receipt.evaluation_id == "":
            raise InvalidResponseError("the receipt names no evaluation id", excerpt=None)
        return receipt
