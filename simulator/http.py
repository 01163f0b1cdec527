"""Errors as ``{"error": "<text>"}`` and fast JSON responses (orjson)."""

from __future__ import annotations

import json
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

class ApiError(Exception):
    """Raise from a route to answer ``{"error": message}`` with ``status``."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


def dump_json(data: Any) -> bytes:
    """orjson, except for text holding a lone UTF-16 surrogate (a model can emit one; a JS
    platform's JSON.stringify then sends it as a ``\\udXXX`` escape): stdlib json escapes it
    the same way instead of failing the whole answer with a 500."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return json.dumps(data, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(dump_json(data), status_code=status, media_type="application/json", headers=headers)


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    return json_response({"error": message}, status, headers)


def not_found(what: str) -> ApiError:
    return ApiError(404, f"{what} not found")


def _describe(exc: RequestValidationError) -> str:
    parts: list[str] = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path"))
        parts.append(f"{loc or 'request'}: {err.get('msg', 'invalid')}")
    return "invalid request: " + "; ".join(parts)


def install_error_handlers(app: FastAPI) -> None:
    async def api_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return error_response(exc.status, exc.message, exc.headers)

    async def validation_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return error_response(422, _describe(exc))

    async def http_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 400:
            # FastAPI answers a body that is not JSON at all with 400; the contract (and the spec)
            # say a bad body is 422, like a body of the wrong shape.
            return error_response(422, f"invalid request: {exc.detail}")
        text = {404: "not found", 405: "method not allowed"}.get(exc.status_code, str(exc.detail))
        return error_response(exc.status_code, text, dict(exc.headers or {}))

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
