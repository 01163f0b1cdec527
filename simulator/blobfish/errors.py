"""Refusals as ``{"error": "<code>", "message": "<text>"}`` (the assumed shape, shapes.py)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from simulator.blobfish.shapes import (
    ERROR_INVALID_REQUEST,
    ERROR_METHOD_NOT_ALLOWED,
    ERROR_NOT_FOUND,
    error_body,
)
from simulator.http import json_response


class BlobfishError(Exception):
    """Raise from a route (or a rule) to answer ``status`` with ``{"error": code, "message"}``."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None,
                 **extras: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}
        self.extras = extras

    def response(self) -> Response:
        return json_response(error_body(self.code, self.message, **self.extras), self.status, self.headers)


def _describe(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path"))
        parts.append(f"{where or 'request'}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def install_error_handlers(app: FastAPI) -> None:
    async def blobfish_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, BlobfishError)
        return exc.response()

    async def validation_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return BlobfishError(400, ERROR_INVALID_REQUEST, _describe(exc)).response()

    async def http_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        code = {404: ERROR_NOT_FOUND, 405: ERROR_METHOD_NOT_ALLOWED}.get(exc.status_code, ERROR_INVALID_REQUEST)
        text = {404: "not found", 405: "method not allowed"}.get(exc.status_code, str(exc.detail))
        return BlobfishError(exc.status_code, code, text, dict(exc.headers or {})).response()

    app.add_exception_handler(BlobfishError, blobfish_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
