"""Refusals as ``{"error": "<code>", "message": "<text>"}`` (the assumed shape, shapes.py)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from simulator.blobfish.shapes import (
    ERROR_INVALID_REQUEST,
    ERROR_METHOD_NOT_ALLOWED,
    ERROR_NOT_FOUND,
    error_body,
)
from simulator.http import install_refusals, json_response


class BlobfishError(Exception):
    """Raise from a route (or a rule) to answer ``status`` with ``{"error": code, "message"}``."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None, **extras: Any
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}
        self.extras = extras

    def response(self) -> Response:
        return json_response(error_body(self.code, self.message, **self.extras), self.status, self.headers)


def install_error_handlers(app: FastAPI) -> None:
    def http_error(exc: StarletteHTTPException) -> Response:
        code = {404: ERROR_NOT_FOUND, 405: ERROR_METHOD_NOT_ALLOWED}.get(exc.status_code, ERROR_INVALID_REQUEST)
        text = {404: "not found", 405: "method not allowed"}.get(exc.status_code, str(exc.detail))
        return BlobfishError(exc.status_code, code, text, dict(exc.headers or {})).response()

    install_refusals(
        app, BlobfishError, lambda text: BlobfishError(400, ERROR_INVALID_REQUEST, text).response(), http_error
    )
