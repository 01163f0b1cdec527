"""Endpoints that move files or streams: training sets (with the upload) and the lens."""

from __future__ import annotations

from collections.abc import AsyncIterator

import orjson
from pydantic import ValidationError

from api_client.blahdev import _parse as P
from api_client.blahdev._base import EndpointBase
from api_client.blahdev.shapes import LensBundle, LensEvent, TrainingSet, UploadTicket
from api_client.errors import BadRequestError, InvalidResponseError
from api_client.transport.http import Progress
from api_client.transport.responses import safe_excerpt, schema_error
from api_client.transport.url_paths import api_path, segment


class AssetEndpoints(EndpointBase):
    # ------------------------------------------------------------------ training sets

    async def list_training_sets(self) -> list[TrainingSet]:
        parse = P.list_of(TrainingSet, "training_sets", "sets")
        return await self._get(api_path("training-sets"), parse)

    async def get_training_set(self, training_set_id: str) -> TrainingSet:
        path = api_path("training-sets", segment(training_set_id, what="training set id"))
        return await self._get(path, P.one(TrainingSet, "training_set"))

    async def request_upload(self, name: str, filename: str, size_bytes: int) -> UploadTicket:
        body = {"name": name, "filename": filename, "size_bytes": int(size_bytes)}
        path = api_path("training-sets", "request-upload")
        return await self._post(path, P.one(UploadTicket, "ticket"), body)

    async def upload_training_set(
        self,
        ticket: UploadTicket,
        data: bytes,
        *,
        progress: Progress | None = None,
        deadline: float | None = None,
    ) -> None:
        """Send ``data`` to the ticket's URL in chunks, calling ``progress(sent, total)``.

        Refused before sending when larger than ``ticket.max_bytes``. The upload URL may
        be another origin (a storage bucket): the API key is only sent to ours.
        """
        if ticket.max_bytes is not None and len(data) > ticket.max_bytes:
            raise BadRequestError(
                f"the file is {len(data)} bytes; this upload allows at most {ticket.max_bytes}; nothing was sent"
            )
        await self._http.upload(
            ticket.upload_url,
            bytes(data),
            method=ticket.method or "PUT",
            headers=ticket.headers,
            progress=progress,
            deadline=deadline,
        )

    # ------------------------------------------------------------------ lens

    async def lens(self, model_id: str) -> LensBundle:
        path = api_path("models", segment(model_id, what="model id"), "lens")
        return await self._get(path, P.one(LensBundle))

    async def lens_analyze(
        self,
        model_id: str,
        prompt: str,
        *,
        max_new_tokens: int = 1,
        top_k: int = 5,
        deadline: float | None = None,
    ) -> AsyncIterator[LensEvent]:
        """Stream the analysis, one event per NDJSON line, as it arrives.

        An async generator: cancel the task or ``aclose()`` it (``contextlib.aclosing``)
        and the HTTP stream is closed. It changes nothing on the server, so it does not
        require a key (the key is sent when there is one).
        """
        path = api_path("models", segment(model_id, what="model id"), "lens", "analyze")
        body = {"prompt": prompt, "max_new_tokens": int(max_new_tokens), "top_k": int(top_k)}
        lines = self._http.stream_lines("POST", path, json=body, needs_key=False, deadline=deadline)
        try:
            async for line in lines:
                yield _lens_event(line, path)
        finally:
            await lines.aclose()


def _lens_event(line: str, path: str) -> LensEvent:
    try:
        data = orjson.loads(line)
    except orjson.JSONDecodeError:
        excerpt = safe_excerpt(line)
        raise InvalidResponseError(
            f"a streamed line is not JSON: {excerpt}",
            excerpt=excerpt,
            status=200,
            method="POST",
            path=path,
        ) from None
    try:
        return LensEvent.model_validate(data)
    except ValidationError as exc:
        raise schema_error(exc, status=200, method="POST", path=path) from None
